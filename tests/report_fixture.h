/* report_fixture.h: a small hand-built run_result shared by the renderer
 * tests (test_report_junit.c, test_report_markdown.c, test_report_github.c,
 * test_report_svg.c), and rendering into a string. Header-only: each test
 * file includes it once. */
#ifndef TESTS_REPORT_FIXTURE_H
#define TESTS_REPORT_FIXTURE_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/result.h"

/* toy/single/small wall_ns regressed 1 ms -> 3 ms (file toy.c:64), an
 * unchanged exact count, a new series, a violated expectation (toy.c:78),
 * an inconclusive one (toy.c:79) and a kernel problem. */
static inline void fixture_build(struct run_result *r)
{
	static const double fast[] = { 1e6, 1.1e6, 0.9e6 }, slow[] = { 3e6, 3.1e6, 2.9e6 };
	memset(r, 0, sizeof *r);
	r->ctx.platform_key = strdup("linux-x86_64-glibc");
	r->ctx.tier = strdup("quick");
	r->ctx.commit = strdup("abc1234");
	r->baseline_path = strdup("baselines/linux-x86_64-glibc.json");
	r->wall_seconds = 1.5;
	r->exit_code = 1;
	policy_defaults(&r->policy);   /* as a run records it (core/policy.h) */
	r->policy.recorded = true;
	r->policy.rounds = 9;
	r->policy.runs = 1;
	r->policy.warmup = 1;
	r->policy.cost_runs = 1;
	struct series *s = result_add_series(r, "toy", "single", "small", "wall_ns", "ns",
					     METRIC_TIMING);
	for (int i = 0; i < 3; i++)
		result_series_append(s, slow[i]);
	s->file = strdup("tests/kernels/toy.c");
	s->line = 64;
	s->median = 3e6;
	s->has_baseline = true;
	s->baseline_median = 1e6;
	s->change = 2.0;
	s->ci_low = 2.9;
	s->ci_high = 3.1;
	s->verdict = VERDICT_FAIL;
	s->note = strdup("p = 0.001, 100% & <confirmed>");
	s = result_add_series(r, "toy", "single", "small", "allocs", "count", METRIC_EXACT);
	result_series_append(s, 100);
	s->file = strdup("tests/kernels/toy.c");
	s->line = 64;
	s->median = 100;
	s->has_baseline = true;
	s->baseline_median = 100;
	s->change = 0;
	s->ci_low = s->ci_high = NAN;
	s->verdict = VERDICT_PASS;
	s = result_add_series(r, "toy", "twice", "small", "wall_ns", "ns", METRIC_TIMING);
	for (int i = 0; i < 3; i++)
		result_series_append(s, fast[i]);
	s->median = 1e6;
	s->change = s->ci_low = s->ci_high = NAN;
	s->verdict = VERDICT_NEW;
	struct expect_result *e = result_add_expect(r);
	e->kernel = strdup("toy");
	e->params = strdup("small");
	e->file = strdup("tests/kernels/toy.c");
	e->line = 78;
	e->expr = strdup("single.wall_ns < 0.75 * twice.wall_ns");
	e->rounds = 9;
	e->ratio = true;
	e->estimate = 3;
	e->lhs_median = 3e6;     /* 3 ms < 0.75 x 1 ms: violated */
	e->rhs_median = 0.75e6;
	e->ci_low = 2.5;
	e->ci_high = 3.5;
	e->confidence = 0.96;
	e->verdict = VERDICT_FAIL;
	e = result_add_expect(r);
	e->kernel = strdup("toy");
	e->params = strdup("small");
	e->file = strdup("tests/kernels/toy.c");
	e->line = 79;
	e->expr = strdup("twice.allocs == 2 * single.allocs");
	e->rounds = 9;
	e->ratio = true;
	e->estimate = 1;
	e->lhs_median = 14;
	e->rhs_median = 14;
	e->ci_low = 0.5;
	e->ci_high = 1.5;
	e->confidence = 0.96;
	e->verdict = VERDICT_INCONCLUSIVE;
	e->note = strdup("line one\nline two, 50%");
	result_add_problem(r, "toy", "twice", "small", "sample", "killed by signal 11");
}

/* Renders R with RENDER (a report_file.h renderer) into a new string. */
static inline char *fixture_render(void (*render)(FILE *, const struct run_result *, const void *),
			    const struct run_result *r, const void *arg)
{
	FILE *f = tmpfile();
	cr_assert(f);
	render(f, r, arg);
	long n = ftell(f);
	char *buf = calloc((size_t)n + 1, 1);
	rewind(f);
	cr_assert(fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	return buf;
}

/* Runs python3 with SCRIPT on the file holding TEXT; its exit status, or
 * -1 when python3 is missing (then the caller skips). */
static inline int fixture_python(const char *script, const char *text)
{
	if (system("python3 -c 'pass' >/dev/null 2>&1") != 0)
		return -1;
	char path[] = "/tmp/allocgate-fixture-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "python3 -c '%s' '%s'", script, path);
	int st = system(cmd);
	remove(path);
	return st;
}

#endif
