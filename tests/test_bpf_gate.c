/* test_bpf_gate.c: build/gate-bpf (perf/bpf/bpf_gate_linux.c and
 * perf/bpf/bpf_alloc.bpf.c) on the test kernel tests/kernels/allocs.c, whose
 * counts are known: its counts must equal the known ones, the kernel's own
 * gate_metric figures, and the compile-time counts of its counted build.
 * Skipped, with the reason, where BPF cannot run (not root, no BTF, not
 * built, not permitted). Counts only: nothing here is timed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sample/record.h"
#include "sample/spawn.h"

static char bd[256];

static void bpf_setup(void)
{
	const char *env = getenv("GATE_BUILD_DIR");
	snprintf(bd, sizeof bd, "%s", env ? env : "build");
}

/* Value of metric NAME in REC; fails the test when it is missing. */
static uint64_t metric(const struct record *rec, const char *name)
{
	for (size_t i = 0; i < rec->metric_count; i++)
		if (!strcmp(rec->metrics[i].name, name))
			return rec->metrics[i].value;
	cr_assert_fail("metric %s missing from the record", name);
	return 0;
}

/* Compile-time count NAME (e.g. "malloc_calls") of region "work": the
 * counted build prints it as work.counted_NAME (work.heap_NAME before). */
static uint64_t counted_metric(const struct record *rec, const char *name)
{
	char full[96];
	for (int i = 0; i < 2; i++) {
		snprintf(full, sizeof full, "work.%s_%s", i ? "heap" : "counted", name);
		for (size_t k = 0; k < rec->metric_count; k++)
			if (!strcmp(rec->metrics[k].name, full))
				return rec->metrics[k].value;
	}
	cr_assert_fail("compile-time count %s missing from the counted build's record", name);
	return 0;
}

/* Runs ARGV and parses its record into REC; skips the test when gate-bpf
 * says BPF is unusable here (exit 77). */
static void sample(char **argv, struct record *rec)
{
	struct spawn_output out;
	char err[256];
	cr_assert(spawn_run(argv, NULL, 60, &out) == 0);
	if (out.status == SPAWN_EXITED && out.exit_code == 77) {
		char why[300];
		snprintf(why, sizeof why, "BPF not usable here: %s", out.err);
		spawn_output_free(&out);
		cr_skip_test("%s", why);
	}
	cr_assert(out.status == SPAWN_EXITED && out.exit_code == 0, "%s failed: %s", argv[0],
		  out.err);
	cr_assert(record_parse(out.out, rec, err, sizeof err) == 0, "bad record: %s\n%s", err,
		  out.out);
	spawn_output_free(&out);
}

/* An AddressSanitizer build routes malloc to the sanitizer's allocator. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif

static void skip_unless_bpf(char *gate_bpf, size_t size)
{
#ifdef TEST_ASAN
	cr_skip_test("an AddressSanitizer build allocates through the sanitizer's own malloc, "
		     "not the libc entry points the uprobes watch; the plain build runs this test");
#endif
	snprintf(gate_bpf, size, "%s/gate-bpf", bd);
	if (access(gate_bpf, X_OK) != 0)
		cr_skip_test("%s not built (configure.py: bpf off)", gate_bpf);
	if (geteuid() != 0)
		cr_skip_test("not root: loading BPF programs needs root (or CAP_BPF+CAP_PERFMON)");
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0)
		cr_skip_test("the kernel has no BTF (/sys/kernel/btf/vmlinux)");
}

TestSuite(bpf_gate, .init = bpf_setup);

Test(bpf_gate, counts_equal_known_and_kernel_counts, .timeout = 120)
{
	char gate_bpf[300], kernel[300];
	struct record rec;
	skip_unless_bpf(gate_bpf, sizeof gate_bpf);
	snprintf(kernel, sizeof kernel, "%s/tests/kernels/allocs", bd);
	char *argv[] = { gate_bpf, "--", kernel, "--variant", "counted", "--params", "small",
			 NULL };
	sample(argv, &rec);
	uint64_t ops = metric(&rec, "work.malloc_calls"), dups = metric(&rec, "work.strdup_calls");
	cr_expect_eq(ops, 1000);
	cr_expect_eq(dups, 10);
	/* strdup mallocs inside libc: the uprobe on malloc sees it */
	cr_expect_eq(metric(&rec, "bpf.malloc_calls"), ops + dups);
	cr_expect_eq(metric(&rec, "bpf.free_calls"), ops + dups + 1);
	cr_expect_eq(metric(&rec, "bpf.free_null_calls"), 1);
	cr_expect_eq(metric(&rec, "bpf.calloc_calls"), 1);
	cr_expect_eq(metric(&rec, "bpf.calloc_bytes"), 32);
	cr_expect_eq(metric(&rec, "bpf.realloc_calls"), 1);
	cr_expect_eq(metric(&rec, "bpf.realloc_bytes"), 4096);
	cr_expect_eq(metric(&rec, "bpf.regions"), 1);
	record_free(&rec);
}

Test(bpf_gate, counts_agree_with_compile_time_counts, .timeout = 120)
{
	char gate_bpf[300], counted[300], kernel[300];
	struct record bpf, plain;
	skip_unless_bpf(gate_bpf, sizeof gate_bpf);
	snprintf(kernel, sizeof kernel, "%s/tests/kernels/allocs", bd);
	snprintf(counted, sizeof counted, "%s/tests/kernels-counted/allocs", bd);
	if (access(counted, X_OK) != 0)
		cr_skip_test("%s not built: no compile-time counts to compare with", counted);
	/* the probes on the plain build, the wrappers in the counted build:
	 * under the probes, the counted build would add the wrappers' own
	 * bookkeeping (one calloc per thread, docs/counters.md) */
	char *with_bpf[] = { gate_bpf, "--", kernel, "--variant", "counted", "--params", "small",
			     NULL };
	char *alone[] = { counted, "--variant", "counted", "--params", "small", NULL };
	sample(with_bpf, &bpf);
	sample(alone, &plain);
	/* the wrappers count strdup as strdup; its malloc happens inside libc */
	cr_expect_eq(metric(&bpf, "bpf.malloc_calls"),
		     counted_metric(&plain, "malloc_calls") +
		     counted_metric(&plain, "strdup_calls"));
	cr_expect_eq(metric(&bpf, "bpf.free_calls") + metric(&bpf, "bpf.free_null_calls"),
		     counted_metric(&plain, "free_calls"));
	cr_expect_eq(metric(&bpf, "bpf.calloc_calls"), counted_metric(&plain, "calloc_calls"));
	cr_expect_eq(metric(&bpf, "bpf.realloc_calls"),
		     counted_metric(&plain, "realloc_calls"));
	record_free(&bpf);
	record_free(&plain);
}

Test(bpf_gate, says_why_without_pmu, .timeout = 120)
{
	char gate_bpf[300], kernel[300];
	struct record rec;
	skip_unless_bpf(gate_bpf, sizeof gate_bpf);
	snprintf(kernel, sizeof kernel, "%s/tests/kernels/allocs", bd);
	char *argv[] = { gate_bpf, "--", kernel, "--variant", "counted", "--params", "small",
			 NULL };
	sample(argv, &rec);
	bool has_pmu = false, said_why = false;
	for (size_t i = 0; i < rec.metric_count; i++)
		has_pmu |= !strcmp(rec.metrics[i].name, "bpf.malloc_pmu_calls");
	for (size_t i = 0; i < rec.unavailable_count; i++)
		said_why |= !strcmp(rec.unavailable[i].name, "bpf.pmu") &&
			    strstr(rec.unavailable[i].reason, "PMU") != NULL;
	cr_expect(has_pmu != said_why, "either per-call PMU figures or the reason, not both");
	if (has_pmu)   /* every malloc of the region attributed or dropped, none more */
		cr_expect_leq(metric(&rec, "bpf.malloc_pmu_calls"), metric(&rec, "bpf.malloc_calls"));
	record_free(&rec);
}
