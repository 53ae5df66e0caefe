/* test_backend.c: the counter backends that wrap a sample
 * (gates/backend_posix.c): the callgrind backend run twice on the same
 * build of tests/kernels/allocs.c must give the same instruction count.
 * Skipped when valgrind is not installed. Counts only, nothing timed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "spawn.h"

/* Instructions of one callgrind sample of the allocs test kernel. */
static uint64_t callgrind_sample(const char *kernel)
{
	char *argv[] = { (char *)kernel, "--variant", "counted", "--params", "small", NULL };
	struct backend_run b;
	struct spawn_output out;
	struct record rec;
	char why[512];
	uint64_t ir = 0;
	cr_assert_eq(backend_prepare(&b, "callgrind", argv, NULL, why, sizeof why), 0, "%s", why);
	cr_assert_eq(spawn_run(b.argv, NULL, 120, &out), 0);
	cr_assert(out.status == SPAWN_EXITED && out.exit_code == 0, "valgrind: %s", out.err);
	cr_assert_eq(record_parse(out.out, &rec, why, sizeof why), 0, "%s", why);
	cr_assert_eq(backend_finish(&b, &rec, why, sizeof why), 0, "%s", why);
	cr_expect(access(b.out_file, F_OK) != 0, "callgrind output left behind");
	for (size_t i = 0; i < rec.metric_count; i++)
		if (!strcmp(rec.metrics[i].name, "instructions"))
			ir = rec.metrics[i].value;
	record_free(&rec);
	spawn_output_free(&out);
	return ir;
}

/* An AddressSanitizer build's kernels cannot run under valgrind. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif

Test(backend, callgrind_counts_repeat_exactly, .timeout = 300)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	char kernel[512];
#ifdef TEST_ASAN
	cr_skip_test("an AddressSanitizer build cannot run under valgrind "
		     "(\"ASan runtime does not come first\"); the plain build runs this test");
#endif
	if (system("valgrind --version >/dev/null 2>&1") != 0)
		cr_skip_test("valgrind is not installed (apt-get install valgrind)");
	snprintf(kernel, sizeof kernel, "%s/tests/kernels/allocs", bd ? bd : "build");
	uint64_t first = callgrind_sample(kernel), second = callgrind_sample(kernel);
	cr_assert_gt(first, 0, "no instructions collected: was the probe built without "
		     "<valgrind/callgrind.h> (configure.py: callgrind off)?");
	cr_expect_eq(first, second, "two runs of the same build: %llu vs %llu instructions",
		     (unsigned long long)first, (unsigned long long)second);
}

Test(backend, perf_leaves_the_command_alone)
{
	char *argv[] = { "k", "--variant", "v", NULL };
	struct backend_run b;
	char why[128];
	cr_assert_eq(backend_prepare(&b, NULL, argv, NULL, why, sizeof why), 0);
	cr_expect_str_eq(b.argv[0], "k");
	cr_expect_str_eq(b.argv[2], "v");
	cr_expect_null(b.argv[3]);
	cr_expect(backend_known("bpf") && backend_known("callgrind") && backend_known("perf"));
	cr_expect(!backend_known("pmu"));
}
