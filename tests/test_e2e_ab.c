/* test_e2e_ab.c: `gate ab` as a user runs it, on the test suite's toy
 * kernel. Injected regressions are large (10x the work, an extra malloc per
 * operation) so that the verdicts do not depend on this machine's noise;
 * the A/A run checks what is deterministic (exact counts agree, every
 * timing series carries its test and interval), not a timing verdict. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "core/policy.h"
#include "decide/sequential.h"
#include "e2e_fixture.h"
#include "sample/spawn.h"

static void setup(void)
{
	e2e_prepare("ab");
}

/* Runs `gate ab --kernel-dir ... --kernel toy --quick ARGS...`; returns
 * its exit status and fills OUT. */
static int gate_ab(struct spawn_output *out, ...)
{
	/* --best-of 1: as in test_e2e.c, the toy's 16 runs a sample are not
	 * what these tests are about */
	char *argv[E2E_ARGV_MAX] = { gate_path, "ab", "--kernel-dir", kernel_dir, "--kernel", "toy",
				     "--quick", "--no-color", "--best-of", "1" };
	va_list ap;
	va_start(ap, out);
	int code = e2e_spawn(argv, 10, ap, NULL, 300, out);
	va_end(ap);
	return code;
}

/* The --json result at PATH, loaded (the test stops when it cannot be). */
static json_t *load_result(const char *path)
{
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err);
	cr_assert(root, "%s: %s", path, err.text);
	return root;
}

static json_t *series_of(json_t *root, const char *variant, const char *metric)
{
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(root, "series"), i, s)
		if (!strcmp(json_string_value(json_object_get(s, "variant")), variant) &&
		    !strcmp(json_string_value(json_object_get(s, "metric")), metric))
			return s;
	return NULL;
}

TestSuite(e2e_ab, .init = setup, .fini = e2e_cleanup, .timeout = 300);

Test(e2e_ab, extra_allocation_in_b_fails_exactly)
{
	struct spawn_output out;
	char json[300];
	snprintf(json, sizeof json, "%s/ab.json", tmpdir);
	int code = gate_ab(&out, "--b-env", "TOY_EXTRA_ALLOC=1", "--json", json, NULL);
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	const char *at = strstr(out.out, "regression toy/single/small: ");
	cr_expect(at && strstr(at, "allocs") && strstr(at, " A 100000 -> B 200000 (+100.0%)"),
		  "%s", out.out);
	cr_expect(strstr(out.out, "A/B: B ("), "no comparison line: %s", out.out);
	cr_expect(strstr(out.out, "env TOY_EXTRA_ALLOC=1) against A"), "%s", out.out);
	json_t *root = load_result(json);
	cr_expect(strstr(json_string_value(json_object_get(root, "comparison")), "A/B"));
	json_t *s = series_of(root, "single", "allocs");
	cr_assert(s);
	cr_expect_str_eq(json_string_value(json_object_get(s, "verdict")), "fail");
	cr_expect_eq(json_number_value(json_object_get(s, "baseline_median")), 100000.0);
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_ab, slowdown_in_b_fails_confirmed_at_the_variant_line)
{
	struct spawn_output out;
	int code = gate_ab(&out, "--b-env", "TOY_SLOWDOWN_PERCENT=900", NULL);
	e2e_skip_if_busy_line(out.out, "regression toy/single/small: ", "task_clock_ns");
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "tests/kernels/toy.c:"), "%s", out.out);
	const char *at = strstr(out.out, "regression toy/single/small: ");
	cr_expect(at && strstr(at, "task_clock_ns A "), "gate ab's timing gates: %s", out.out);
	cr_expect(strstr(out.out, "both batches"), "no confirmation batch: %s", out.out);
	cr_expect(strstr(out.out, ": confirmed"), "%s", out.out);
	cr_expect(strstr(out.out, "Wilcoxon signed-rank"), "method not named: %s", out.out);
	spawn_output_free(&out);
}

/* A slower A is an improvement of B, never a failure. */
Test(e2e_ab, slowdown_in_a_is_not_a_regression)
{
	struct spawn_output out;
	int code = gate_ab(&out, "--a-env", "TOY_SLOWDOWN_PERCENT=900", NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "improved"), "%s", out.out);
	spawn_output_free(&out);
}

Test(e2e_ab, a_a_run_agrees_on_every_count)
{
	struct spawn_output out;
	char json[300];
	snprintf(json, sizeof json, "%s/aa.json", tmpdir);
	/* a variable nothing reads: the sides differ, so the same code is measured */
	int code = gate_ab(&out, "--b-env", "ALLOCGATE_AA=1", "--json", json, NULL);
	cr_expect(code == 0 || code == 1, "exit %d\n%s\n%s", code, out.out, out.err);
	json_t *root = load_result(json), *s;
	size_t i, timed = 0, busy = 0;
	json_array_foreach(json_object_get(root, "series"), i, s) {
		const char *cls = json_string_value(json_object_get(s, "class"));
		const char *verdict = json_string_value(json_object_get(s, "verdict"));
		if (strcmp(cls, "timing")) {
			cr_expect_str_eq(verdict, "pass", "%s %s",
					 json_string_value(json_object_get(s, "variant")),
					 json_string_value(json_object_get(s, "metric")));
			continue;
		}
		if (strcmp(verdict, "pass") && strcmp(verdict, "fail") &&
		    strcmp(verdict, "inconclusive") && strcmp(verdict, "improved"))
			continue;   /* skipped: too few events (context switches) */
		const char *test = json_string_value(json_object_get(s, "test"));
		const char *note = json_string_value(json_object_get(s, "note"));
		if (!test && note && strstr(note, "disturbed: ")) {
			busy++;     /* other work disturbed the rounds: nothing decided */
			continue;
		}
		timed++;
		cr_expect(test && strstr(test, "signed-rank"), "%s", test ? test : "no test");
		cr_expect(json_is_number(json_object_get(s, "ci_low")));
		cr_expect(json_is_number(json_object_get(s, "p_value")));
	}
	cr_expect_geq(timed + busy, 4, "wall and task clock of both variants");
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_ab, kernel_dir_per_side)
{
	struct spawn_output out;
	char copy[600], cmd[2000];
	snprintf(copy, sizeof copy, "%s/a-kernels", tmpdir);
	snprintf(cmd, sizeof cmd, "mkdir -p %s && cp %s/toy %s/", copy, kernel_dir, copy);
	cr_assert(system(cmd) == 0, "%s", cmd);
	int code = gate_ab(&out, "--a-kernel-dir", copy, "--b-env", "TOY_EXTRA_ALLOC=1",
			   "--a-label", "base", "--b-label", "head", NULL);
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	/* A's copy lies in no checkout: its path; B's kernels, in this
	 * checkout (where the tests run from one), its revision */
	char want[700];
	snprintf(want, sizeof want, "against A (base, kernels %s)", copy);
	cr_expect(strstr(out.out, want), "want '%s' in:\n%s", want, out.out);
	cr_expect(strstr(out.out, "A/B: B (head"), "%s", out.out);
	if (system("git rev-parse --git-dir >/dev/null 2>&1") == 0)
		cr_expect_null(strstr(out.out, "B (head, kernels "), "no revision: %s", out.out);
	spawn_output_free(&out);
}

Test(e2e_ab, bad_input_exits_2)
{
	static const char *cases[][3] = {
		{ "--update-baseline", NULL, "--update-baseline: not with gate ab" },
		{ "--runs", "3", "--runs: not with gate ab" },
		{ "--a-env", "NOEQUALS", "--a-env NOEQUALS: expected KEY=VALUE" },
		{ "--b-frobnicate", "1",
		  "unknown option '--b-frobnicate' (gate ab --help lists them)" },
		{ "--a-allocator", "nosuchalloc", "--a-allocator nosuchalloc" },
		/* a missing A directory is a base without kernels: B alone
		 * (a_base_without_kernels_measures_b_alone); a file is no directory */
		{ "--a-kernel-dir", "/dev/null", "kernel directory /dev/null (side A)" },
		{ "--duet", "--interleaved", "--duet and --interleaved: choose one" },
		{ "--sampling", "sideways", "--sampling sideways: expected duet or interleaved" },
		{ "--rounds", "2.5", "--rounds 2.5: expected an integer from 2 to 1000" },
		{ "--warmup", "1.5", "--warmup 1.5: expected auto or an integer from 0 to 1000" },
		{ "--rounds", "10x", "--rounds 10x: expected an integer" },
		{ "--rounds=-3", NULL, "--rounds -3: expected an integer" },
		{ "--rounds", "99999999999999999999", "--rounds 99999999999999999999: expected" },
		{ "--variant", "singel", "unknown variant 'singel' (variants of the kernels asked "
		  "for: toy/single, toy/twice)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct spawn_output out;
		int code = gate_ab(&out, cases[i][0], cases[i][1], NULL);
		cr_expect_eq(code, 2, "%s: exit %d\n%s", cases[i][0], code, out.err);
		cr_expect(strstr(out.err, cases[i][2]), "%s: want '%s' in:\n%s", cases[i][0],
			  cases[i][2], out.err);
		spawn_output_free(&out);
	}
}

/* ci/ab.sh: the base revision built in a worktree, compared with this
 * checkout. With HEAD as the base on a clean checkout both sides run the
 * same code, so every count must agree and the reports must be written;
 * a timing verdict of an A/A run is not asserted (it is the false-alarm
 * rate that ci/selftest.py measures). */
Test(e2e_ab, ci_ab_script_compares_with_a_worktree_build, .timeout = 600)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	if (bd && strcmp(bd, "build"))
		e2e_skip("ci/ab.sh builds build/, not %s", bd);
	if (system("git rev-parse --verify -q HEAD >/dev/null 2>&1") != 0)
		e2e_skip("not a git checkout: ci/ab.sh needs the base revision");
	char cmd[600], json[400];
	/* the same code on both sides: nothing measured, a pass that says why */
	snprintf(cmd, sizeof cmd, "GATE_OUT=%s ci/ab.sh HEAD --quick --kernel resize "
		 ">%s/ab-same.out 2>&1", tmpdir, tmpdir);
	int status = system(cmd);
	cr_assert(WIFEXITED(status), "%s", cmd);
	cr_expect_eq(WEXITSTATUS(status), 0, "ci/ab.sh exit %d (see %s/ab-same.out)",
		     WEXITSTATUS(status), tmpdir);
	snprintf(cmd, sizeof cmd, "grep -q '1 kernel is the same code on both sides' %s/ab-same.out",
		 tmpdir);
	cr_expect(system(cmd) == 0, "no same-code note in %s/ab-same.out", tmpdir);
	/* forced to measure by a variable nothing reads */
	snprintf(cmd, sizeof cmd, "GATE_OUT=%s ci/ab.sh HEAD --quick --kernel resize "
		 "--b-env ALLOCGATE_AA=1 >%s/ab.out 2>&1", tmpdir, tmpdir);
	status = system(cmd);
	cr_assert(WIFEXITED(status), "%s", cmd);
	int code = WEXITSTATUS(status);
	cr_expect(code == 0 || code == 1, "ci/ab.sh exit %d (see %s/ab.out)", code, tmpdir);
	snprintf(json, sizeof json, "%s/result-ab.json", tmpdir);
	json_t *root = load_result(json), *s;
	/* the base named by its revision, not by its worktree's path */
	char head[80] = "", want[120];
	FILE *p = popen("git rev-parse --short=7 HEAD", "r");
	cr_assert(p && fgets(head, sizeof head, p));
	pclose(p);
	head[strcspn(head, "\n")] = '\0';
	snprintf(want, sizeof want, "against A (base %s)", head);
	const char *comparison = json_string_value(json_object_get(root, "comparison"));
	cr_expect(strstr(comparison, want), "want '%s' in '%s'", want, comparison);
	cr_expect_null(strstr(comparison, "build/ab-base"), "%s", comparison);
	size_t i, counts = 0;
	json_array_foreach(json_object_get(root, "series"), i, s) {
		if (!strcmp(json_string_value(json_object_get(s, "class")), "timing"))
			continue;
		counts++;
		cr_expect_str_eq(json_string_value(json_object_get(s, "verdict")), "pass", "%s %s",
				 json_string_value(json_object_get(s, "variant")),
				 json_string_value(json_object_get(s, "metric")));
	}
	cr_expect_gt(counts, 10);
	json_decref(root);
	snprintf(cmd, sizeof cmd, "test -s %s/junit-ab.xml && test -s %s/summary-ab.md", tmpdir,
		 tmpdir);
	cr_expect(system(cmd) == 0, "reports not written in %s", tmpdir);
}

/* Side A's toy lists its set without best_of (a base revision before the
 * pull request changed it): compared, and the difference is said. */
Test(e2e_ab, parameter_set_that_differs_between_sides_is_named)
{
	struct spawn_output out;
	char copy[600], script[700], cmd[4000];
	snprintf(copy, sizeof copy, "%s/a-kernels", tmpdir);
	snprintf(script, sizeof script, "%s/toy", copy);
	snprintf(cmd, sizeof cmd, "mkdir -p %s && printf '#!/bin/sh\nif [ \"$1\" = --list ]; then "
		 "%s/toy --list | sed \"s/ best_of=16//\"; else exec %s/toy \"$@\"; fi\n' > %s "
		 "&& chmod +x %s", copy, kernel_dir, kernel_dir, script, script);
	cr_assert(system(cmd) == 0, "%s", cmd);
	int code = gate_ab(&out, "--a-kernel-dir", copy, "--rounds", "3", NULL);
	cr_expect(code == 0 || code == 1, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "the parameter set differs between A (ops=100000) and B "
			  "(ops=100000 best_of=16): timing compares different work"),
		  "%s", out.out);
	spawn_output_free(&out);
}

/* A kernel that crashes on one side only: exit 4, the crash reported as
 * that side's, the other side's variant still measured. */
Test(e2e_ab, crash_on_side_a_is_reported_as_a)
{
	struct spawn_output out;
	/* --min-effect 1000: the steady variant's timing is not what this is
	 * about (an A/A-like comparison of 9 rounds can fail: seen in CI) */
	char *argv[] = { gate_path, "ab", "--kernel-dir", kernel_dir, "--kernel", "crashy",
			 "--quick", "--no-color", "--timeout", "5", "--a-env", "CRASHY_MODE=segv",
			 "--min-effect", "1000", NULL };
	cr_assert(spawn_run(argv, NULL, 300, &out) == 0);
	cr_expect_eq(out.exit_code, 4, "exit %d\n%s\n%s", out.exit_code, out.out, out.err);
	cr_expect(strstr(out.out, "crashy/victim/"), "%s", out.out);
	/* its first sample fails (the warm-up), the rest are not taken */
	cr_expect(strstr(out.out, "A: warm-up sample"), "not marked as A's: %s", out.out);
	cr_expect(strstr(out.out, "A: skipped"), "%s", out.out);
	cr_expect(strstr(out.out, "killed by signal 11"), "%s", out.out);
	spawn_output_free(&out);
}

/* Runs `gate ab` on tests/kernels/claims.c's full tier (one exact claim
 * false under tests/preload/moving_realloc.c, which moves every realloc)
 * with ARGS; returns its exit status, fills OUT and the claim's verdicts
 * from JSON (its verdict, A's, B's own). */
static int gate_ab_claims(struct spawn_output *out, const char *json, char *verdict,
			  char *a_verdict, char *b_verdict, size_t size, ...)
{
	char *argv[E2E_ARGV_MAX] = { gate_path, "ab", "--kernel-dir", kernel_dir, "--kernel",
				     "claims", "--full", "--no-color", "--best-of", "1",
				     "--no-cost", "--json", (char *)json };
	va_list ap;
	va_start(ap, size);
	int code = e2e_spawn(argv, 13, ap, NULL, 300, out);
	va_end(ap);
	int line = e2e_line_of("tests/kernels/claims.c",
			       "GATE_EXPECT_UNDER_AT(\"glibc|libmoving_realloc\"");
	json_error_t err;
	json_t *root = json_load_file(json, 0, &err), *e, *claim = NULL;
	cr_assert(root, "%s: %s\n%s\n%s", json, err.text, out->out, out->err);
	size_t i;
	json_array_foreach(json_object_get(root, "expectations"), i, e)
		if (json_integer_value(json_object_get(e, "line")) == line)
			claim = e;
	cr_assert(claim, "no expectation at claims.c:%d", line);
	snprintf(verdict, size, "%s", json_string_value(json_object_get(claim, "verdict")));
	snprintf(a_verdict, size, "%s", json_string_value(json_object_get(
		json_object_get(claim, "a"), "verdict")));
	snprintf(b_verdict, size, "%s", json_string_value(json_object_get(claim, "b_verdict")));
	json_decref(root);
	return code;
}

/* A claim false on both sides (here: the same allocator on both, as an
 * A/A run on a machine where the claim is false): reported as failing
 * before and after with both estimates, and the run passes. */
Test(e2e_ab, a_claim_false_on_both_sides_does_not_fail_the_change)
{
	struct spawn_output out;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	/* the sanitizer's allocator replaces glibc's and the preloaded one */
	e2e_skip("a sanitizer build: its own allocator replaces glibc's and the preloaded one");
#endif
	char json[300], moving[600], v[32], a[32], b[32];
	const char *bd = getenv("GATE_BUILD_DIR");
	snprintf(moving, sizeof moving, "%s/tests/preload/libmoving_realloc.so", bd ? bd : "build");
	snprintf(json, sizeof json, "%s/both.json", tmpdir);
	int code = gate_ab_claims(&out, json, v, a, b, sizeof v, "--a-allocator", moving,
				  "--b-allocator", moving, NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect_str_eq(v, "fail_both");
	cr_expect_str_eq(a, "fail");
	cr_expect_str_eq(b, "fail");
	cr_expect(strstr(out.out, "claims that fail before and after"), "%s", out.out);
	/* 19 rounds, or fewer where its variants stopped at a look (10, 11,
	 * 13, 14, 16 or 17 of 19): the same on both sides */
	const char *at = strstr(out.out, "(A fails, lhs-rhs 8 [8, 8], ");
	int ra = 0, rb = 0;
	cr_assert(at && sscanf(at, "(A fails, lhs-rhs 8 [8, 8], %d rounds; B fails, lhs-rhs 8 "
			       "[8, 8], %d rounds)", &ra, &rb) == 2, "%s", out.out);
	cr_expect(ra == rb && (ra == 19 || ra == 10 || ra == 11 || ra == 13 || ra == 14 ||
			       ra == 16 || ra == 17), "%d and %d rounds\n%s", ra, rb, out.out);
	spawn_output_free(&out);
}

/* The same claim held on A (glibc shrinks in place) and broken on B: a
 * failure of the change. */
Test(e2e_ab, a_claim_broken_on_b_fails_the_change)
{
	struct spawn_output out;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	/* the sanitizer's allocator replaces glibc's and the preloaded one */
	e2e_skip("a sanitizer build: its own allocator replaces glibc's and the preloaded one");
#endif
	char json[300], moving[600], v[32], a[32], b[32];
	const char *bd = getenv("GATE_BUILD_DIR");
	snprintf(moving, sizeof moving, "%s/tests/preload/libmoving_realloc.so", bd ? bd : "build");
	snprintf(json, sizeof json, "%s/broken.json", tmpdir);
	int code = gate_ab_claims(&out, json, v, a, b, sizeof v, "--b-allocator", moving, NULL);
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect_str_eq(v, "fail");
	cr_expect_str_eq(a, "pass");
	cr_expect_str_eq(b, "fail");
	cr_expect(strstr(out.out, "expectation violated by the change on strict"), "%s", out.out);
	spawn_output_free(&out);
}

/* A first pull request: the base has no kernels yet (its kernel directory
 * does not exist). B is measured alone and said so; nothing is compared,
 * and only B's own claims could fail it. */
Test(e2e_ab, a_base_without_kernels_measures_b_alone)
{
	struct spawn_output out;
	char json[300], missing[300];
	snprintf(json, sizeof json, "%s/ab.json", tmpdir);
	snprintf(missing, sizeof missing, "%s/no-kernels-at-the-base", tmpdir);
	int code = gate_ab(&out, "--a-kernel-dir", missing, "--json", json, NULL);
	/* 0, or 1 where the toy's timing claim is a coin flip (a sanitizer
	 * build): never 2, the error of a missing directory */
	cr_expect(code == 0 || code == 1, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "alone: A (kernels "), "%s", out.out);
	cr_expect(strstr(out.out, "has no kernel (no such directory)"), "%s", out.out);
	json_t *root = load_result(json);
	json_t *s = series_of(root, "single", "allocs");
	cr_assert(s);
	cr_expect_str_eq(json_string_value(json_object_get(s, "verdict")), "new");
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(root, "problems"), i, p)
		cr_expect(strcmp(json_string_value(json_object_get(p, "what")), "A/B"),
			  "B alone is no problem: %s", out.out);
	json_decref(root);
	spawn_output_free(&out);
}

/* --duet: each round's samples of a variant on A and on B start together,
 * one per CPU (sample/duet.h). Where this machine lets the gate use two
 * CPUs the result says duet, with its CPUs and pairs; where it does not,
 * interleaved with the reason. Counts decide as in any mode. */
Test(e2e_ab, duet_pairs_the_samples_and_says_so)
{
	struct spawn_output out;
	char json[300];
	snprintf(json, sizeof json, "%s/duet.json", tmpdir);
	int code = gate_ab(&out, "--duet", "--no-cost", "--b-env", "TOY_EXTRA_ALLOC=1", "--json",
			   json, NULL);
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "regression toy/single/small: ") &&
		  strstr(out.out, " A 100000 -> B 200000 (+100.0%)"), "%s", out.out);
	json_t *root = load_result(json);
	json_t *sc = json_object_get(root, "ab_schedule");
	cr_assert(json_is_object(sc), "no ab_schedule");
	cr_expect(json_is_true(json_object_get(sc, "duet_asked")));
	const char *mode = json_string_value(json_object_get(sc, "mode"));
	const char *why = json_string_value(json_object_get(sc, "why_not_duet"));
	if (why) {   /* a machine that gives the gate one CPU */
		cr_expect_str_eq(mode, "interleaved");
		cr_expect(strstr(out.err, "interleaved (not duet): "), "%s", out.err);
	} else {
		cr_expect_str_eq(mode, "duet");
		json_t *cpus = json_object_get(sc, "cpus");
		cr_expect_geq(json_array_size(cpus), 2);
		cr_expect_neq(json_integer_value(json_array_get(cpus, 0)),
			      json_integer_value(json_array_get(cpus, 1)));
		/* the rounds taken (19, or fewer when the group stopped at one
		 * of its looks, decided or futile) of two variants, each a pair
		 * (more if a timing suspect took a confirmation batch) */
		json_int_t taken = json_integer_value(json_object_get(sc, "rounds_taken"));
		size_t at[SEQ_LOOKS], looks = seq_looks(19, at);
		bool at_a_look = taken == 19;
		for (size_t k = 0; k < looks; k++)
			at_a_look |= taken == (json_int_t)at[k];
		cr_expect(at_a_look, "rounds taken: %lld", (long long)taken);
		cr_expect_geq(json_integer_value(json_object_get(sc, "pairs")), 2 * taken);
		cr_expect_eq(json_integer_value(json_object_get(sc, "alone")), 0);
		cr_expect(strstr(out.out, "; duet: each round's samples of a variant on A and on B "
				 "started together, on CPUs "), "%s", out.out);
		/* the timing line describes the timing tests: none when a busy
		 * machine left every timing comparison undecided */
		size_t i, tested = 0;
		json_t *s;
		json_array_foreach(json_object_get(root, "series"), i, s) {
			const char *test = json_string_value(json_object_get(s, "test"));
			tested += test && !strncmp(test, "timing (A/B)", 12);
		}
		if (tested)
			cr_expect(strstr(out.out, "timing: per-round ratio B/A (duet: each round's "
					 "samples of A and B started together on CPUs "), "%s", out.out);
		cr_expect(strstr(json_string_value(json_object_get(
					 json_object_get(root, "context"), "pinning")), "duet"));
	}
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_ab, duet_falls_back_to_interleaved_with_the_reason)
{
	struct spawn_output out;
	char json[300];
	snprintf(json, sizeof json, "%s/pinned.json", tmpdir);
	int code = gate_ab(&out, "--duet", "--no-cost", "--pin-cpu", "0", "--json", json, NULL);
	cr_expect(code == 0 || code == 1, "exit %d\n%s", code, out.err);
	cr_expect(strstr(out.err, "gate ab: note: interleaved (not duet): --pin-cpu 0 puts every "
			 "sample on one CPU"), "%s", out.err);
	cr_expect(strstr(out.out, "; interleaved (not duet: --pin-cpu 0"), "%s", out.out);
	json_t *root = load_result(json);
	json_t *sc = json_object_get(root, "ab_schedule");
	cr_expect_str_eq(json_string_value(json_object_get(sc, "mode")), "interleaved");
	cr_expect(strstr(json_string_value(json_object_get(sc, "why_not_duet")), "--pin-cpu 0"));
	cr_expect_null(json_object_get(sc, "cpus"));
	json_decref(root);
	spawn_output_free(&out);
}

/* --variant: only that variant is sampled, on both sides; what it measures
 * still gates, and a claim naming a variant left out is skipped, saying
 * why. */
Test(e2e_ab, variant_measures_that_variant_alone_and_skips_claims_on_others)
{
	struct spawn_output out;
	char json[300];
	snprintf(json, sizeof json, "%s/variant.json", tmpdir);
	int code = gate_ab(&out, "--no-cost", "--variant", "single", "--all-rounds", "--b-env",
			   "TOY_EXTRA_ALLOC=1", "--json", json, NULL);
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "regression toy/single/small: "), "%s", out.out);
	cr_expect(strstr(out.out, "names variant twice, which --variant left out"), "%s", out.out);
	json_t *root = load_result(json);
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(root, "series"), i, s)
		cr_expect_str_eq(json_string_value(json_object_get(s, "variant")), "single");
	cr_expect(series_of(root, "single", "allocs"));
	json_t *sc = json_object_get(root, "ab_schedule");
	cr_expect_eq(json_integer_value(json_object_get(sc, "samples_budget")),
		     2 * json_integer_value(json_object_get(sc, "rounds_budget")),
		     "one variant, two sides a round");
	size_t skipped = 0;
	json_array_foreach(json_object_get(root, "expectations"), i, s) {
		cr_expect_str_eq(json_string_value(json_object_get(s, "verdict")), "skipped");
		skipped += !strcmp(json_string_value(json_object_get(s, "note")),
				   "names variant twice, which --variant left out");
	}
	cr_expect_eq(skipped, 2, "both of the toy's claims name twice");
	json_decref(root);
	spawn_output_free(&out);
}

/* --all-rounds: no look is planned, the group takes its whole budget and
 * the report says why (decide/sequential.h). */
Test(e2e_ab, all_rounds_takes_every_round)
{
	struct spawn_output out;
	char json[300];
	snprintf(json, sizeof json, "%s/all-rounds.json", tmpdir);
	int code = gate_ab(&out, "--no-cost", "--gate", "counts", "--b-env", "ALLOCGATE_AA=1",
			   "--all-rounds", "--json", json, NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "rounds: 19 of 19 taken; no look planned (--all-rounds, or too "
			 "few rounds): every group took its rounds"), "%s", out.out);
	json_t *root = load_result(json);
	json_t *sc = json_object_get(root, "ab_schedule");
	cr_expect_eq(json_integer_value(json_object_get(sc, "rounds_taken")), 19);
	cr_expect_eq(json_integer_value(json_object_get(sc, "rounds_budget")), 19);
	cr_expect_eq(json_integer_value(json_object_get(sc, "groups_settled")), 0);
	cr_expect(json_is_null(json_object_get(sc, "settle_level")), "settle_level not null");
	json_decref(root);
	spawn_output_free(&out);
}

/* Neither flag: the default of core/policy.h. */
Test(e2e_ab, the_default_sampling_follows_the_policy)
{
	struct spawn_output out;
	char json[300];
	snprintf(json, sizeof json, "%s/default.json", tmpdir);
	int code = gate_ab(&out, "--no-cost", "--json", json, NULL);
	cr_expect(code == 0 || code == 1, "exit %d\n%s", code, out.err);
	json_t *root = load_result(json);
	json_t *sc = json_object_get(root, "ab_schedule");
	const char *mode = json_string_value(json_object_get(sc, "mode"));
	cr_assert(mode);
	if (POLICY_AB_SAMPLING_DEFAULT == POLICY_AB_INTERLEAVED) {
		cr_expect_str_eq(mode, "interleaved");
		cr_expect(!json_is_true(json_object_get(sc, "duet_asked")));
	} else {
		cr_expect(json_is_true(json_object_get(sc, "duet_asked")));
	}
	json_decref(root);
	spawn_output_free(&out);
}

/* No --rounds: the rounds of core/policy.h, at the default tier and with
 * --quick (--full: a_claim_false_on_both_sides_does_not_fail_the_change),
 * read from the toy's exact-count claim (every round counts); and no
 * --min-effect: gate ab's own minimum effect in the result's policy. */
static void expect_default_rounds(const char *tier, int rounds)
{
	struct spawn_output out;
	char json[300];
	snprintf(json, sizeof json, "%s/rounds-%s.json", tmpdir, tier ? tier : "default");
	char *argv[] = { gate_path, "ab", "--kernel-dir", kernel_dir, "--kernel", "toy",
			 "--no-color", "--best-of", "1", "--no-cost", "--gate", "counts",
			 "--b-env", "ALLOCGATE_AA=1", "--json", json, (char *)tier, NULL };
	cr_assert(spawn_run(argv, NULL, 300, &out) == 0);
	cr_expect_eq(out.exit_code, 0, "exit %d\n%s\n%s", out.exit_code, out.out, out.err);
	json_t *root = load_result(json), *e;
	/* the budget is the policy's; the toy's one group, or one of its
	 * variants, may have stopped at a look (docs/noise.md, "Stopping
	 * early") */
	json_t *sc = json_object_get(root, "ab_schedule");
	json_int_t taken = json_integer_value(json_object_get(sc, "rounds_taken"));
	cr_expect_eq(json_integer_value(json_object_get(sc, "rounds_budget")), rounds, "%s tier",
		     tier ? tier : "default");
	cr_expect(taken > 0 && taken <= rounds, "%s tier: %lld rounds taken",
		  tier ? tier : "default", (long long)taken);
	/* the claim counts the rounds in which both its variants were
	 * sampled: all the group took, less where one stopped before it */
	json_t *single = NULL, *twice = NULL;
	size_t i, found = 0;
	json_array_foreach(json_object_get(root, "series"), i, e) {
		const char *v = json_string_value(json_object_get(e, "variant"));
		if (strcmp(json_string_value(json_object_get(e, "metric")), "wall_ns"))
			continue;
		if (!strcmp(v, "single"))
			single = json_object_get(e, "samples");
		else if (!strcmp(v, "twice"))
			twice = json_object_get(e, "samples");
	}
	cr_assert(single && twice, "no wall_ns samples of single and twice in %s", json);
	json_int_t both = 0;
	for (i = 0; i < json_array_size(single) && i < json_array_size(twice); i++)
		both += !json_is_null(json_array_get(single, i)) &&
			!json_is_null(json_array_get(twice, i));
	cr_expect(both > 0 && both <= taken, "%s tier: %lld rounds of both variants",
		  tier ? tier : "default", (long long)both);
	json_array_foreach(json_object_get(root, "expectations"), i, e) {
		if (!strstr(json_string_value(json_object_get(e, "expr")), "allocs =="))
			continue;
		found++;
		cr_expect_eq(json_integer_value(json_object_get(e, "rounds")), both, "%s tier",
			     tier ? tier : "default");
		cr_expect_eq(json_integer_value(json_object_get(json_object_get(e, "a"), "rounds")),
			     both, "%s tier, side A", tier ? tier : "default");
	}
	cr_expect_gt(found, 0, "no exact-count claim in %s", json);
	json_t *min_effect = json_object_get(json_object_get(root, "policy"), "min_effect");
	cr_expect(json_is_number(min_effect), "no policy.min_effect in %s", json);
	cr_expect_float_eq(json_number_value(min_effect), POLICY_MIN_EFFECT_AB, 1e-12,
			   "%s tier: minimum effect %g", tier ? tier : "default",
			   json_number_value(min_effect));
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_ab, the_default_rounds_follow_the_policy)
{
	expect_default_rounds(NULL, POLICY_AB_ROUNDS);
	expect_default_rounds("--quick", POLICY_AB_ROUNDS_OTHER_TIERS);
}

/* The same kernel on both sides and nothing else between them: its code is
 * A's, so it is not measured and the run passes saying so; any difference
 * of the sides (an environment variable) measures it. */
Test(e2e_ab, the_same_code_is_not_measured)
{
	struct spawn_output out;
	char json[300];
	snprintf(json, sizeof json, "%s/same.json", tmpdir);
	int code = gate_ab(&out, "--json", json, NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "1 kernel is the same code on both sides (executable, counted "
			 "twin and the project's libraries they load), not measured: toy"),
		  "%s", out.out);
	json_t *root = load_result(json);
	cr_expect_eq(json_array_size(json_object_get(root, "series")), 0);
	cr_expect_eq(json_integer_value(json_object_get(root, "same_code_kernels")), 1);
	json_decref(root);
	spawn_output_free(&out);
	code = gate_ab(&out, "--b-env", "ALLOCGATE_AA=1", "--no-cost", "--gate", "counts",
		       "--json", json, NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect_null(strstr(out.out, "same code"), "%s", out.out);
	root = load_result(json);
	cr_expect_gt(json_array_size(json_object_get(root, "series")), 0);
	json_decref(root);
	spawn_output_free(&out);
}
