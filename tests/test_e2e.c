/* test_e2e.c: the whole gate, run as a user runs it, on the test suite's
 * own kernels (tests/kernels/). Every injected regression is large (10x the
 * work, an extra malloc per operation) so the verdicts do not depend on
 * this machine's noise; the unchanged rerun uses a 100% minimum effect for
 * the same reason (the suite may share 2 cores with other jobs). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/digest.h"
#include "e2e_fixture.h"
#include "sample/cost_pass.h"
#include "sample/spawn.h"
#include "source_line.h"
#include "store/baseline.h"

static void setup(void)
{
	e2e_prepare("e2e");
}

/* Runs build/gate with the given arguments (NULL-terminated) in the toy
 * setup; returns its exit status and fills OUT. */
static int gate(struct spawn_output *out, ...)
{
	/* --best-of 1: the toy's small set declares 16 runs a sample, which
	 * these pipeline tests do not need (tests/test_best_of.c tests it) and
	 * which makes them 16 times slower under the sanitizers */
	char *argv[E2E_ARGV_MAX] = { gate_path, "run", "--kernel-dir", kernel_dir,
				     "--baseline-dir", tmpdir, "--no-color", "--best-of", "1" };
	va_list ap;
	va_start(ap, out);
	int code = e2e_spawn(argv, 9, ap, NULL, 300, out);
	va_end(ap);
	return code;
}

static int baseline_path(char *buf, size_t size)
{
	char cmd[400];
	snprintf(cmd, sizeof cmd, "ls %s/*.json 2>/dev/null | head -1", tmpdir);
	FILE *p = popen(cmd, "r");
	int ok = p && fgets(buf, (int)size, p) != NULL;
	if (p)
		pclose(p);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static void make_baseline(void)
{
	struct spawn_output out;
	/* one batch: a drift estimate taken while other tests share the cores
	 * could make timing advisory, and these tests are about the pipeline */
	int code = gate(&out, "--kernel", "toy", "--quick", "--update-baseline", "--runs", "1",
			NULL);
	/* 1: only the toy's timing expectation, a coin flip under ASan */
	cr_assert(code == 0 || (code == 1 && strstr(out.out, " series written (")),
		  "update-baseline exit %d\n%s\n%s", code, out.out, out.err);
	cr_assert(strstr(out.out, "wrote "), "%s", out.out);
	spawn_output_free(&out);
}

TestSuite(e2e, .init = setup, .fini = e2e_cleanup, .timeout = 300);

Test(e2e, unchanged_rerun_passes)
{
	struct spawn_output out;
	make_baseline();
	int code = gate(&out, "--kernel", "toy", "--quick", "--min-effect", "100", NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "PASS"), "%s", out.out);
	spawn_output_free(&out);
}

Test(e2e, injected_slowdown_is_caught)
{
	struct spawn_output out;
	make_baseline();
	/* timing against a stored baseline gates only when asked (--gate) */
	int code = gate(&out, "--kernel", "toy", "--quick", "--gate", "all", "--env",
			"TOY_SLOWDOWN_PERCENT=900", NULL);
	char want[160];
	snprintf(want, sizeof want, "tests/kernels/toy.c:%d: regression toy/single/small: ",
		 line_of("tests/kernels/toy.c", "GATE_VARIANT(\"single\""));
	char want_twice[160];
	snprintf(want_twice, sizeof want_twice,
		 "tests/kernels/toy.c:%d: regression toy/twice/small: ",
		 line_of("tests/kernels/toy.c", "GATE_VARIANT(\"twice\""));
	e2e_skip_if_busy_line(out.out, want, "task_clock_ns");
	e2e_skip_if_busy_line(out.out, want_twice, "task_clock_ns");
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	const char *at = strstr(out.out, want);
	cr_expect(at, "want '%s' in:\n%s", want, out.out);
	cr_expect(at && strstr(at, "task_clock_ns"), "%s", out.out);
	cr_expect(strstr(out.out, want_twice), "want '%s' in:\n%s", want_twice, out.out);
	cr_expect(strstr(out.out, "confirmed"), "no confirmation batch: %s", out.out);
	cr_expect(strstr(out.out, "TOY_SLOWDOWN_PERCENT=900"), "environment not shown: %s", out.out);
	spawn_output_free(&out);
}

Test(e2e, extra_allocation_is_caught_exactly)
{
	struct spawn_output out;
	make_baseline();
	int code = gate(&out, "--kernel", "toy", "--quick", "--env", "TOY_EXTRA_ALLOC=1", NULL);
	cr_expect_eq(code, 1, "exit %d\n%s", code, out.out);
	const char *at = strstr(out.out, "regression toy/single/small: ");
	cr_expect(at, "%s", out.out);
	cr_expect(at && strstr(at, "allocs") && strstr(at, " 100000 -> 200000 (+100.0%)"), "%s",
		  out.out);
	spawn_output_free(&out);
}

Test(e2e, violated_expectation_names_file_and_line)
{
	struct spawn_output out;
	int code = gate(&out, "--kernel", "toy", "--quick", "--env", "TOY_BREAK=1", NULL);
	cr_expect_eq(code, 1, "exit %d\n%s", code, out.out);
	/* the line of GATE_EXPECT_ON("linux", "single.task_clock_ns < 0.75 * ...") */
	char want[128];
	int line = line_of("tests/kernels/toy.c", "\"single.task_clock_ns < 0.75");
	cr_assert(line > 0);
	snprintf(want, sizeof want, "tests/kernels/toy.c:%d: expectation violated", line);
	e2e_skip_if_busy(out.out, want);
	cr_expect(strstr(out.out, want), "want '%s' in:\n%s", want, out.out);
	cr_expect(strstr(out.out, "no baseline") || strstr(out.out, "none for"), "%s", out.out);
	spawn_output_free(&out);
}

Test(e2e, malformed_baseline_exits_2_naming_the_file)
{
	struct spawn_output out;
	char path[512], before[64], after[64];
	make_baseline();
	cr_assert(baseline_path(path, sizeof path));
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs("{\"schema\": 1, \"series\": [", f);
	fclose(f);
	snprintf(before, sizeof before, "%s", "truncated");
	/* one batch: a drift estimate taken while other tests share the cores
	 * could make timing advisory, and these tests are about the pipeline */
	int code = gate(&out, "--kernel", "toy", "--quick", "--update-baseline", "--runs", "1",
			NULL);
	cr_expect_eq(code, 2, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.err, path), "message does not name %s: %s", path, out.err);
	f = fopen(path, "r");
	cr_assert(f);
	cr_expect(fgets(after, sizeof after, f));
	fclose(f);
	cr_expect(strstr(after, "\"series\": ["), "the malformed file was overwritten: %s", after);
	spawn_output_free(&out);
}

Test(e2e, bad_flags_and_unknown_kernel_exit_2)
{
	struct spawn_output out;
	cr_expect_eq(gate(&out, "--frobnicate", NULL), 2);
	cr_expect(strstr(out.err, "--frobnicate"), "%s", out.err);
	spawn_output_free(&out);
	cr_expect_eq(gate(&out, "--kernel", "nosuch", NULL), 2);
	cr_expect(strstr(out.err, "unknown kernel 'nosuch'"), "%s", out.err);
	cr_expect(strstr(out.err, "toy"), "known kernels not listed: %s", out.err);
	spawn_output_free(&out);
	cr_expect_eq(gate(&out, "--rounds", "x", NULL), 2);
	spawn_output_free(&out);
	cr_expect_eq(gate(&out, "--env", "=x", NULL), 2);
	spawn_output_free(&out);
	cr_expect_eq(gate(&out, "--kernel", "toy", "--require-baseline", NULL), 2);
	cr_expect(strstr(out.err, "no baseline"), "%s", out.err);
	spawn_output_free(&out);
}

static void crashy(const char *mode, const char *expect_reason)
{
	struct spawn_output out;
	char env[64];
	snprintf(env, sizeof env, "CRASHY_MODE=%s", mode);
	int code = gate(&out, "--kernel", "crashy", "--quick", "--timeout", "2", "--env", env,
			"--update-baseline", NULL);
	cr_expect_eq(code, 4, "%s: exit %d\n%s\n%s", mode, code, out.out, out.err);
	cr_expect(strstr(out.out, expect_reason), "%s: no '%s' in:\n%s", mode, expect_reason,
		  out.out);
	/* the well-behaved variant was still measured */
	cr_expect(strstr(out.out, "steady"), "%s", out.out);
	/* and nothing was written from a run with errors */
	cr_expect(strstr(out.err, "baseline not updated"), "%s", out.err);
	char path[512];
	cr_expect(!baseline_path(path, sizeof path), "a baseline was written: %s", path);
	spawn_output_free(&out);
}

Test(e2e, crashing_kernel_is_contained)
{
	crashy("segv", "killed by signal 11");
}

Test(e2e, hanging_kernel_times_out)
{
	crashy("hang", "timed out after");
}

Test(e2e, failing_kernel_exit_status_is_reported)
{
	crashy("exit3", "exit status 3");
}

Test(e2e, garbage_output_is_rejected)
{
	crashy("garbage", "sample record line 1");
}

Test(e2e, flooding_output_is_rejected)
{
	crashy("flood", "printed more than");
}

Test(e2e, json_result_loads_as_a_baseline)
{
	struct spawn_output out;
	char json[512], err[512];
	snprintf(json, sizeof json, "%s/result.json", tmpdir);
	int code = gate(&out, "--kernel", "toy", "--quick", "--json", json, NULL);
	cr_expect_eq(code, 0, "exit %d\n%s", code, out.out);
	struct run_result r;
	cr_assert_eq(baseline_load(json, &r, err, sizeof err), 0, "%s", err);
	cr_expect_gt(r.series_count, 3);
	int found = 0;
	for (size_t i = 0; i < r.series_count; i++)
		found |= !strcmp(r.series[i].metric, "allocs") && r.series[i].sample_count == 9;
	cr_expect(found, "no allocs series with 9 samples");
	result_free(&r);
	spawn_output_free(&out);
}

/* Rewrites the baseline's CPU model, as if it came from other hardware. */
static void move_baseline_to_other_hardware(void)
{
	char path[512], cmd[1200];
	cr_assert(baseline_path(path, sizeof path));
	snprintf(cmd, sizeof cmd, "sed -i 's/\"cpu_model\": \"[^\"]*\"/\"cpu_model\": \"Other CPU "
		 "9000\"/' '%s'", path);
	cr_assert_eq(system(cmd), 0);
}

Test(e2e, counts_that_follow_the_core_count_are_compared_on_the_same_cores_only)
{
	struct spawn_output out;
	char path[512], cmd[1200];
	int code = gate(&out, "--kernel", "toy", "--quick", "--update-baseline", "--runs", "1",
			"--env", "TOY_PER_CORE=1", NULL);
	/* 1: only the toy's timing expectation, a coin flip under ASan */
	cr_assert(code == 0 || (code == 1 && strstr(out.out, " series written (")),
		  "update-baseline exit %d\n%s\n%s", code, out.out, out.err);
	spawn_output_free(&out);
	/* same cores: per_core_ops doubled is a regression */
	code = gate(&out, "--kernel", "toy", "--quick", "--env", "TOY_PER_CORE=2", NULL);
	cr_expect_eq(code, 1, "exit %d\n%s", code, out.out);
	cr_expect(strstr(out.out, "per_core_ops"), "%s", out.out);
	spawn_output_free(&out);
	/* the baseline from a machine with 999 cores: not comparable */
	cr_assert(baseline_path(path, sizeof path));
	snprintf(cmd, sizeof cmd, "sed -i 's/\"cpu_count\": [0-9]*/\"cpu_count\": 999/' '%s'", path);
	cr_assert_eq(system(cmd), 0);
	code = gate(&out, "--kernel", "toy", "--quick", "--env", "TOY_PER_CORE=2", NULL);
	cr_expect_eq(code, 0, "exit %d\n%s", code, out.out);
	cr_expect(strstr(out.out, "runs a thread per core and the cores changed since the "
			  "baseline: counts not compared"), "%s", out.out);
	spawn_output_free(&out);
}

Test(e2e, other_hardware_skips_timing_but_gates_exact_counts)
{
	struct spawn_output out;
	make_baseline();
	move_baseline_to_other_hardware();
	/* without the cost pass nothing sees a slowdown that allocates no more */
	int code = gate(&out, "--kernel", "toy", "--quick", "--env", "TOY_SLOWDOWN_PERCENT=900",
			"--no-cost", NULL);
	cr_expect_eq(code, 0, "a 10x slowdown on other hardware is not timed: exit %d\n%s",
		     code, out.out);
	cr_expect(strstr(out.out, "hardware differs from the baseline's: Other CPU 9000"),
		  "%s", out.out);
	cr_expect(strstr(out.out, "`./gate --update-baseline` records this machine's"), "%s",
		  out.out);
	spawn_output_free(&out);
	/* with it (where valgrind runs), the slowdown's instructions are counted */
	if (!cost_pass_unavailable()) {
		code = gate(&out, "--kernel", "toy", "--quick", "--env", "TOY_SLOWDOWN_PERCENT=900",
			    NULL);
		cr_expect_eq(code, 1, "the cost pass gates any hardware: exit %d\n%s", code,
			     out.out);
		cr_expect(strstr(out.out, "cost_instructions "), "%s", out.out);
		spawn_output_free(&out);
	}
	code = gate(&out, "--kernel", "toy", "--quick", "--env", "TOY_EXTRA_ALLOC=1", NULL);
	cr_expect_eq(code, 1, "exact counts are compared on any hardware: exit %d\n%s", code,
		     out.out);
	spawn_output_free(&out);
}

Test(e2e, a_second_recording_keeps_the_first_as_drift_history)
{
	struct spawn_output out;
	struct run_result b;
	char path[512], err[512], toy[600], digest[DIGEST_TEXT_SIZE];
	make_baseline();
	/* the recording is compared with the last one before it is stored: under
	 * the load of a parallel test run the 1 ms toy region can measure as a
	 * regression (exit 1), which is not what this test is about */
	int code = gate(&out, "--kernel", "toy", "--quick", "--update-baseline", "--runs", "1",
			NULL);
	cr_assert(code == 0 || code == 1, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_assert(strstr(out.out, "wrote "), "%s", out.out);
	cr_expect(strstr(out.out, "drift history: "), "%s", out.out);
	spawn_output_free(&out);
	cr_assert(baseline_path(path, sizeof path));
	cr_assert_eq(baseline_load(path, &b, err, sizeof err), 0, "%s", err);
	const struct series *s = result_find_series(&b, "toy", "single", "small", "task_clock_ns");
	cr_assert_not_null(s);
	snprintf(toy, sizeof toy, "%s/toy", kernel_dir);
	cr_assert_eq(digest_executable(toy, NULL, digest, sizeof digest), 0);
	cr_expect(!strncmp(digest, DIGEST_ELF_PREFIX, strlen(DIGEST_ELF_PREFIX)), "%s", digest);
	cr_expect_str_eq(s->kernel_digest, digest);
	cr_expect_eq(s->history_count, 1, "one batch of the first recording");
	result_free(&b);
	/* another environment is another software context: started afresh */
	code = gate(&out, "--kernel", "toy", "--quick", "--update-baseline", "--runs", "1",
		    "--env", "TOY_SLOWDOWN_PERCENT=0", NULL);
	cr_assert(code == 0 || code == 1, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_assert(strstr(out.out, "wrote "), "%s", out.out);
	cr_expect(strstr(out.out, "start afresh (software changed: "), "%s", out.out);
	spawn_output_free(&out);
	cr_assert_eq(baseline_load(path, &b, err, sizeof err), 0, "%s", err);
	s = result_find_series(&b, "toy", "single", "small", "task_clock_ns");
	cr_assert_not_null(s);
	cr_expect_eq(s->history_count, 0);
	result_free(&b);
}
