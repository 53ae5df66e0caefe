/* test_e2e_history.c: `gate history` as a user runs it. A synthetic
 * history of 50 commits written with the store's own functions (fixed
 * seeds), with two planted changes, one exact and one of timing in 3%
 * noise, and the same history unchanged; bad input; and `gate history add`
 * then `gate history` on a toy git repository with results of
 * build/tests/kernels' toy kernel, a gap of commits between two results. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "e2e_fixture.h"
#include "store/history_dir.h"

static char gate_abs[PATH_MAX], kernels_abs[PATH_MAX];

static void setup(void)
{
	e2e_prepare("history");
	cr_assert(realpath(gate_path, gate_abs) && realpath(kernel_dir, kernels_abs));
}

TestSuite(e2e_history, .init = setup, .fini = e2e_cleanup, .timeout = 300);

/* A normal number of mean 1 and deviation SIGMA (Box-Muller). */
static double noise(struct rng *rng, double sigma)
{
	double u = ((double)(rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
	return 1 + sigma * sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Commit I's id: 40 hexadecimal digits, the first 7 its own. */
static void commit_id(size_t i, char *out, size_t size)
{
	snprintf(out, size, "a%06zx%033d", i, 0);
}

static void add(struct history_run *r, const char *variant, const char *metric,
		enum metric_class cls, double median)
{
	struct history_value v = { "toy", (char *)variant, "small", (char *)metric,
				   cls == METRIC_TIMING ? "ns" : "count", cls, median,
				   cls == METRIC_TIMING ? 9 : 0,
				   cls == METRIC_TIMING ? median * 0.02 : NAN };
	cr_assert_eq(result_history_add_value(r, &v), 0);
}

/* 50 results in DIR/hist: heap_malloc_calls 1000 -> 1007 at commit 20
 * and single's wall_ns +8% at commit 35 when PLANTED; twice's wall_ns in
 * the same 3% noise unchanged; constant calls, cost instructions 4 parts
 * per million apart, and context switches that move wildly (never
 * scanned). */
static void synthetic(bool planted)
{
	struct rng rng;
	char dir[512], path[1024], err[512], id[64], time[32];
	snprintf(dir, sizeof dir, "%s/hist", tmpdir);
	rng_seed(&rng, 20261207);
	for (size_t i = 0; i < 50; i++) {
		struct history_run r = { 0 };
		commit_id(i, id, sizeof id);
		snprintf(time, sizeof time, "2026-01-%02zuT%02zu:00:00Z", 1 + i / 24, i % 24);
		r.commit = strdup(id);
		r.time = strdup(time);
		r.run_at = strdup(time);
		r.time_is_commit = true;
		r.platform = strdup("linux-x86_64-glibc");
		add(&r, "single", "heap_malloc_calls", METRIC_EXACT, planted && i >= 20 ? 1007 : 1000);
		add(&r, "single", "heap_free_calls", METRIC_EXACT, 1000);
		add(&r, "single", "cost_instructions", METRIC_EXACT, 24010078 - (i % 2) * 94);
		add(&r, "single", "ctx_switches", METRIC_TIMING, (double)(i * i * 100 + 1));
		add(&r, "single", "wall_ns", METRIC_TIMING,
		    1e6 * noise(&rng, 0.03) * (planted && i >= 35 ? 1.08 : 1));
		add(&r, "twice", "wall_ns", METRIC_TIMING, 2e6 * noise(&rng, 0.03));
		cr_assert_eq(history_dir_write(dir, &r, path, sizeof path, err, sizeof err), 0,
			     "%s", err);
		result_history_run_free(&r);
	}
}

/* Runs `cd CWD && build/gate ARGS...` (NULL-terminated); its status, the
 * output in OUT. */
static int gate_in(struct spawn_output *out, const char *cwd, ...)
{
	char cmd[4096];
	int n = snprintf(cmd, sizeof cmd, "cd '%s' && exec '%s'", cwd, gate_abs);
	va_list ap;
	va_start(ap, cwd);
	for (const char *a; (a = va_arg(ap, const char *));)
		n += snprintf(cmd + n, sizeof cmd - (size_t)n, " '%s'", a);
	va_end(ap);
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	cr_assert_eq(spawn_run(argv, NULL, 300, out), 0);
	cr_assert_eq(out->status, SPAWN_EXITED, "%s: %s", cmd, out->err);
	return out->exit_code;
}

/* The --json file PATH's change points. */
static json_t *change_points(const char *path, json_t **root)
{
	json_error_t jerr;
	*root = json_load_file(path, 0, &jerr);
	cr_assert(*root, "%s: %s", path, jerr.text);
	return json_object_get(*root, "change_points");
}

static const char *field(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

Test(e2e_history, finds_both_planted_changes_and_nothing_else)
{
	struct spawn_output out;
	char dir[512], json[512], id20[64], id35[64];
	json_t *root;
	synthetic(true);
	snprintf(dir, sizeof dir, "%s/hist", tmpdir);
	snprintf(json, sizeof json, "%s/cp.json", tmpdir);
	int code = gate_in(&out, "/", "history", "--dir", dir, "--json", json, NULL);
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	json_t *points = change_points(json, &root);
	cr_assert_eq(json_array_size(points), 2, "%s", out.out);
	commit_id(20, id20, sizeof id20);
	commit_id(35, id35, sizeof id35);
	json_t *a = json_array_get(points, 0), *b = json_array_get(points, 1);
	cr_expect_str_eq(field(a, "metric"), "heap_malloc_calls");
	cr_expect_str_eq(field(a, "commit"), id20);
	cr_expect_str_eq(field(a, "method"), "exact");
	cr_expect_eq(json_number_value(json_object_get(a, "after")), 1007);
	cr_expect_str_eq(field(b, "metric"), "wall_ns");
	cr_expect_str_eq(field(b, "variant"), "single");
	cr_expect_str_eq(field(b, "commit"), id35);
	cr_expect_str_eq(field(b, "method"), "e-divisive");
	double change = json_number_value(json_object_get(b, "change"));
	cr_expect(change > 0.04 && change < 0.12, "change %g", change);
	cr_expect_leq(json_number_value(json_object_get(b, "p_value")), 0.05);
	cr_expect(strstr(out.out, "a000014 (2026-01-01T20:00:00Z)"), "%s", out.out);
	cr_expect(strstr(out.out, "heap_malloc_calls: 1000 -> 1007 (+0.7%), exact"), "%s", out.out);
	cr_expect(strstr(out.out, "2 change points in 5 series over 50 commits"), "%s", out.out);
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_history, unchanged_history_has_none)
{
	struct spawn_output out;
	char dir[512], svg[512];
	synthetic(false);
	snprintf(dir, sizeof dir, "%s/hist", tmpdir);
	snprintf(svg, sizeof svg, "%s/w.svg", tmpdir);
	int code = gate_in(&out, "/", "history", "--dir", dir, "--metric", "wall_ns", "--svg", svg,
			   NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "0 change points in 2 series over 50 commits"), "%s", out.out);
	FILE *f = fopen(svg, "r");
	cr_assert(f, "no %s", svg);
	static char text[1 << 18];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	cr_expect(strstr(text, "toy/single/small wall_ns") && strstr(text, "toy/twice/small wall_ns"),
		  "both chosen series drawn: %.2000s", text);
	spawn_output_free(&out);
}

Test(e2e_history, bad_input_exits_2)
{
	struct spawn_output out;
	char dir[512], bad[600];
	snprintf(dir, sizeof dir, "%s/none", tmpdir);
	cr_expect_eq(gate_in(&out, "/", "history", "--dir", dir, NULL), 2);
	cr_expect(strstr(out.err, "no such directory"), "%s", out.err);
	spawn_output_free(&out);
	synthetic(false);
	snprintf(dir, sizeof dir, "%s/hist", tmpdir);
	cr_expect_eq(gate_in(&out, "/", "history", "--dir", dir, "--kernel", "nosuch", NULL), 2);
	cr_expect(strstr(out.err, "no series of kernel nosuch"), "%s", out.err);
	spawn_output_free(&out);
	snprintf(bad, sizeof bad, "%s/zz.json", dir);
	FILE *f = fopen(bad, "w");
	cr_assert(f);
	fputs("{\"schema\":1,\"kind\":\"history\",\"commit\":7}", f);
	fclose(f);
	cr_expect_eq(gate_in(&out, "/", "history", "--dir", dir, NULL), 2);
	cr_expect(strstr(out.err, "zz.json: commit: expected a string"), "%s", out.err);
	spawn_output_free(&out);
	cr_expect_eq(gate_in(&out, "/", "history", NULL), 2);
	cr_expect(strstr(out.err, "missing --dir DIR (gate history --help shows the usage)"), "%s",
		  out.err);
	spawn_output_free(&out);
	cr_expect_eq(gate_in(&out, "/", "history", "--dir", dir, "--bogus", NULL), 2);
	cr_expect(strstr(out.err, "'--bogus'"), "%s", out.err);
	spawn_output_free(&out);
	cr_expect_eq(gate_in(&out, "/", "history", "--min-effect", "x", NULL), 2);
	spawn_output_free(&out);
}

/* --help of both forms: the usage on stdout, nothing on stderr, exit 0. */
Test(e2e_history, help)
{
	struct spawn_output out;
	cr_expect_eq(gate_in(&out, "/", "history", "--help", NULL), 0);
	cr_expect(strstr(out.out, "usage: gate history --dir DIR"), "%s", out.out);
	cr_expect_str_empty(out.err);
	spawn_output_free(&out);
	cr_expect_eq(gate_in(&out, "/", "history", "add", "--help", NULL), 0);
	cr_expect(strstr(out.out, "usage: gate history add RESULT.json --dir DIR"), "%s", out.out);
	cr_expect_str_empty(out.err);
	spawn_output_free(&out);
}

/* Runs `sh -c COMMAND` in the repository REPO; asserts it succeeded. */
static void in_repo(const char *repo, const char *command)
{
	char line[2048];
	snprintf(line, sizeof line, "cd '%s' && { %s; } >/dev/null 2>&1", repo, command);
	cr_assert_eq(system(line), 0, "%s", line);
}

/* The commit N commits before the repository's HEAD into OUT. */
static void rev(const char *repo, int back, char *out, size_t size)
{
	char line[1024];
	snprintf(line, sizeof line, "git -C '%s' rev-parse HEAD~%d", repo, back);
	FILE *p = popen(line, "r");
	cr_assert(p && fgets(out, (int)size, p));
	pclose(p);
	out[strcspn(out, "\n")] = '\0';
}

/* The toy kernel's quick tier measured as commit COMMIT into RESULT
 * (ENV: one --env assignment or NULL). */
static void measure(const char *commit, const char *result, const char *env)
{
	struct spawn_output out;
	char assign[128], *argv[E2E_ARGV_MAX] = { gate_abs, "run", "--quick", "--kernel", "toy",
						  "--kernel-dir", kernels_abs, "--baseline-dir",
						  tmpdir, "--no-color", "--best-of", "1", "--no-cost",
						  "--json", (char *)result, "--env",
						  (char *)(env ? env : "TOY_NOTHING=1"), NULL };
	char *const penv[] = { assign, NULL };
	snprintf(assign, sizeof assign, "ALLOCGATE_COMMIT=%s", commit);
	cr_assert_eq(spawn_run(argv, penv, 300, &out), 0);
	cr_assert(out.status == SPAWN_EXITED && out.exit_code <= 1, "%s\n%s", out.out, out.err);
	spawn_output_free(&out);
}

/* Five commits; results of the 1st, 2nd and 5th, the 5th with an extra
 * allocation per operation: its counts changed, two commits between it and
 * the 2nd are not in the history, so gate bisect is the next step. */
Test(e2e_history, add_and_scan_a_git_repository)
{
	struct spawn_output out;
	char repo[512], hist[512], result[600], c[3][64], want[512];
	static const int taken[3] = { 4, 3, 0 };   /* HEAD~4, HEAD~3, HEAD */
	if (system("git --version >/dev/null 2>&1") != 0)
		e2e_skip("git is not installed");
	snprintf(repo, sizeof repo, "%s/repo", tmpdir);
	snprintf(hist, sizeof hist, "%s/hist", tmpdir);
	in_repo(tmpdir, "mkdir repo && cd repo && git init -q . && for i in 1 2 3 4 5; do "
		"GIT_COMMITTER_DATE=2026-01-0${i}T10:00:00Z GIT_AUTHOR_DATE=2026-01-0${i}T10:00:00Z "
		"git -c user.name=t -c user.email=t@t commit -q --allow-empty -m \"change $i\"; done");
	for (int k = 0; k < 3; k++) {
		rev(repo, taken[k], c[k], sizeof c[k]);
		snprintf(result, sizeof result, "%s/r%d.json", tmpdir, k);
		measure(c[k], result, k == 2 ? "TOY_EXTRA_ALLOC=1" : NULL);
		cr_expect_eq(gate_in(&out, repo, "history", "add", result, "--dir", hist, NULL), 0,
			     "%s", out.err);
		snprintf(want, sizeof want, "(commit time 2026-01-0%dT10:00:00Z)", 5 - taken[k]);
		cr_expect(strstr(out.out, want), "%s", out.out);
		spawn_output_free(&out);
	}
	int code = gate_in(&out, repo, "history", "--dir", hist, NULL);
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	snprintf(want, sizeof want, "%.7s (2026-01-05T10:00:00Z) change 5\n", c[2]);
	cr_expect(strstr(out.out, want), "%s", out.out);
	cr_expect(strstr(out.out, "heap_malloc_calls"), "%s", out.out);
	snprintf(want, sizeof want, "%.7s; 2 commits between them not in the history", c[1]);
	cr_expect(strstr(out.out, want), "%s", out.out);
	snprintf(want, sizeof want, "next: gate bisect --good %s --bad %s --build CMD", c[1], c[2]);
	cr_expect(strstr(out.out, want), "%s", out.out);
	spawn_output_free(&out);
}

/* The composite action's script in mode baseline with AG_HISTORY_DIR: a
 * run that measured everything joins the history, one that exits 2 does
 * not (ci/action.sh, AG_GATE: this build's gate). */
Test(e2e_history, action_keeps_the_history)
{
	struct spawn_output out;
	char assign[8][600], *env[9], listing[1024] = "", cmd[600];
	const char *values[8][2] = {
		{ "AG_GATE", gate_abs }, { "AG_BUILD", "true" }, { "AG_KERNEL_DIR", kernels_abs },
		{ "AG_BASELINE_DIR", tmpdir }, { "AG_TIER", "quick" }, { "AG_HISTORY_DIR", NULL },
		{ "AG_OUT", NULL }, { "AG_ARGS", "--kernel toy --no-cost --best-of 1" },
	};
	char hist[512], outdir[512];
	snprintf(hist, sizeof hist, "%s/hist", tmpdir);
	snprintf(outdir, sizeof outdir, "%s/out", tmpdir);
	values[5][1] = hist;
	values[6][1] = outdir;
	for (int k = 0; k < 2; k++) {
		if (k)
			values[7][1] = "--kernel nosuch";
		for (int i = 0; i < 8; i++) {
			snprintf(assign[i], sizeof assign[i], "%s=%s", values[i][0], values[i][1]);
			env[i] = assign[i];
		}
		env[8] = NULL;
		char *argv[] = { "/bin/sh", "ci/action.sh", NULL };
		cr_assert_eq(spawn_run(argv, env, 300, &out), 0);
		cr_expect_eq(out.exit_code, k ? 2 : 0, "%s\n%s", out.out, out.err);
		if (k)
			cr_expect(strstr(out.err, "not added to the history"), "%s", out.err);
		spawn_output_free(&out);
	}
	snprintf(cmd, sizeof cmd, "ls '%s' | wc -l", hist);
	FILE *p = popen(cmd, "r");
	cr_assert(p && fgets(listing, sizeof listing, p));
	pclose(p);
	cr_expect_eq(atoi(listing), 1, "one run kept: %s", listing);
}
