/* test_e2e_budget.c: the gate keeps a time budget when the allocator
 * hangs (docs/robustness.md, "Time budget"): a preloaded free() that blocks
 * forever at its Nth call (tests/preload/hang_free.c) costs one timeout per
 * variant, not one per round; --deadline stops the run, which still writes
 * its reports and exits 4; no kernel process is left behind. Counts of
 * problems only: nothing here is timed. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_fixture.h"
#include "hostile_fixture.h"
#include "sample/spawn.h"

static char preload[700], json_path[700], marker[200];

static void setup(void)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	char cwd[400];
	e2e_prepare("budget");
	/* ASan intercepts free() itself, so a preloaded free is never called
	 * (and an instrumented library cannot be preloaded): the plain build
	 * runs these tests */
#if defined(__SANITIZE_ADDRESS__)
	e2e_skip("an AddressSanitizer build: its own free() replaces the preloaded one");
#endif
	cr_assert(getcwd(cwd, sizeof cwd));
	snprintf(preload, sizeof preload, "LD_PRELOAD=%s/%s/tests/preload/libhang_free.so", cwd,
		 bd ? bd : "build");
	snprintf(json_path, sizeof json_path, "%s/result.json", tmpdir);
	hostile_marker("budget", marker, sizeof marker);
}

/* build/gate run on the toy's quick set with the hanging free preloaded. */
static int gate(struct spawn_output *out, const char *hang_at, ...)
{
	char hang[64];
	snprintf(hang, sizeof hang, "HANG_FREE_AT=%s", hang_at);
	char *argv[E2E_ARGV_MAX] = { gate_path, "run", "--kernel-dir", kernel_dir,
				     "--baseline-dir", tmpdir, "--no-color", "--no-cost",
				     "--kernel", "toy", "--quick", "--json", json_path,
				     "--env", preload, "--env", hang, "--env", marker };
	va_list ap;
	va_start(ap, hang_at);
	int code = e2e_spawn(argv, 19, ap, NULL, 300, out);
	va_end(ap);
	return code;
}

/* How many problems of the result file have WHAT and a reason containing TEXT. */
static int problems(const char *what, const char *text)
{
	json_error_t err;
	json_t *root = json_load_file(json_path, 0, &err), *p;
	cr_assert(root, "%s: %s", json_path, err.text);
	size_t i;
	int n = 0;
	json_array_foreach(json_object_get(root, "problems"), i, p) {
		const char *w = json_string_value(json_object_get(p, "what"));
		const char *r = json_string_value(json_object_get(p, "reason"));
		n += w && r && strstr(w, what) && strstr(r, text);
	}
	json_decref(root);
	return n;
}

/* Whether a toy of this test still runs: a process with this test's
 * marker in its environment (hostile_fixture.h), so that neither another
 * checkout's suite on the same machine nor another test run beside this
 * one by `build/tests/unit --jobs N` counts. */
static int toy_left_running(void)
{
	return hostile_count(marker) > 0;
}

TestSuite(e2e_budget, .init = setup, .fini = e2e_cleanup, .timeout = 300);

Test(e2e_budget, a_free_that_hangs_later_costs_one_timeout_per_variant)
{
	struct spawn_output out;
	/* the toy frees 100,000 times a run: the 5000th free hangs in every
	 * process, so the warm-up sample of each variant times out */
	int code = gate(&out, "5000", "--timeout", "2", NULL);
	cr_expect_eq(code, 4, "exit %d\n%s", code, out.out);
	cr_expect(strstr(out.out, "timed out after 2.0 s and was killed"), "%s", out.out);
	cr_expect_eq(problems("sample", "timed out"), 2, "one timeout per variant, not per round");
	cr_expect_eq(problems("skipped", "later samples not taken"), 2);
	cr_expect(strstr(out.out, "9 later samples not taken: the variant failed once"), "%s",
		  out.out);
	cr_expect(!toy_left_running(), "a hung kernel was left running");
	spawn_output_free(&out);
}

Test(e2e_budget, a_free_that_always_hangs_is_reported_once_per_variant)
{
	struct spawn_output out;
	int code = gate(&out, "1", "--timeout", "2", NULL);
	cr_expect_eq(code, 4, "exit %d\n%s", code, out.out);
	cr_expect_eq(problems("sample", "timed out"), 2);
	cr_expect(!toy_left_running(), "a hung kernel was left running");
	spawn_output_free(&out);
}

Test(e2e_budget, the_deadline_stops_the_run_and_still_reports)
{
	struct spawn_output out;
	/* a 60 s sample timeout, a 3 s deadline: the first sample is cut at
	 * the deadline, nothing starts after it */
	int code = gate(&out, "1", "--timeout", "60", "--deadline", "3", NULL);
	cr_expect_eq(code, 4, "exit %d\n%s", code, out.out);
	cr_expect_leq(problems("sample", "timed out"), 1, "a sample started after the deadline");
	cr_expect_eq(problems("deadline", "the run reached its deadline of 3 s (--deadline)"), 1,
		     "%s", out.out);
	cr_expect(strstr(out.out, "exit 4"), "%s", out.out);
	cr_expect(!toy_left_running(), "a hung kernel was left running");
	spawn_output_free(&out);
}

Test(e2e_budget, an_update_that_hit_the_deadline_writes_no_baseline)
{
	struct spawn_output out;
	char path[700];
	int code = gate(&out, "1", "--timeout", "60", "--deadline", "2", "--update-baseline", NULL);
	cr_expect_eq(code, 4, "exit %d\n%s", code, out.out);
	snprintf(path, sizeof path, "%s/linux-x86_64-glibc.json", tmpdir);
	cr_expect(access(path, F_OK) != 0, "a baseline was written");
	spawn_output_free(&out);
}
