/* test_matrix.c: the claims x allocators table of `gate matrix`
 * (gates/decide/matrix_table.c) built from hand-made runs of two
 * allocators, and its renderers (gates/report/matrix_*.c). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/matrix.h"
#include "decide/matrix_table.h"
#include "report/matrix_report.h"

static void add(struct run_result *r, const char *variant, const char *metric,
		const double *v, size_t n)
{
	struct series *s = result_add_series(r, "k", variant, "p", metric,
					     strstr(metric, "wall") ? "ns" : "count",
					     strstr(metric, "wall") ? METRIC_TIMING : METRIC_EXACT);
	cr_assert(s);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(result_series_append(s, v[i]), 0);
}

static void claim(struct run_result *r, int line, const char *conditions, bool gated,
		  enum verdict v, double estimate)
{
	struct expect_result *e = result_add_expect(r);
	cr_assert(e);
	e->kernel = strdup("k");
	e->params = strdup("p");
	e->file = strdup("kernels/k.c");
	e->expr = strdup("grow.wall_ns < copy.wall_ns");
	e->conditions = conditions ? strdup(conditions) : NULL;
	e->line = line;
	e->gated = gated;
	e->verdict = v;
	e->ratio = true;
	e->estimate = estimate;
	e->ci_low = estimate * 0.9;
	e->ci_high = estimate * 1.1;
	e->rounds = 4;
}

/* glibc: grow 10 ns a round, 32 mremap calls; jemalloc: grow 20 ns (twice
 * glibc's, round by round), no mremap; both 5 page faults. */
static void two_runs(struct matrix *m, struct run_result runs[2])
{
	static const double g_grow[] = { 10, 11, 9, 10 }, j_grow[] = { 20, 22, 18, 20 },
			    copy[] = { 100, 100, 100, 100 }, mremap[] = { 32, 32, 32, 32 },
			    none[] = { 0, 0, 0, 0 }, faults[] = { 5, 5, 5, 5 };
	memset(m, 0, sizeof *m);
	memset(runs, 0, 2 * sizeof *runs);
	m->allocator_count = 3;   /* the third is missing: its run is empty */
	m->allocators = calloc(3, sizeof *m->allocators);
	m->allocators[0].name = strdup("glibc");
	m->allocators[1].name = strdup("jemalloc");
	m->allocators[2].name = strdup("tcmalloc");
	m->allocators[2].missing = strdup("libtcmalloc_minimal.so.4 not found (install "
					  "libtcmalloc-minimal4)");
	add(&runs[0], "grow", "wall_ns", g_grow, 4);
	add(&runs[0], "copy", "wall_ns", copy, 4);
	add(&runs[0], "grow", "sys_mremap", mremap, 4);
	add(&runs[0], "grow", "page_faults", faults, 4);
	add(&runs[1], "grow", "wall_ns", j_grow, 4);
	add(&runs[1], "copy", "wall_ns", copy, 4);
	add(&runs[1], "grow", "sys_mremap", none, 4);
	add(&runs[1], "grow", "page_faults", faults, 4);
	/* line 30 declared for glibc; line 20 for every allocator */
	claim(&runs[0], 30, "allocator=glibc", true, VERDICT_PASS, 0.1);
	claim(&runs[0], 20, NULL, true, VERDICT_PASS, 0.1);
	claim(&runs[1], 30, "allocator=glibc", false, VERDICT_FAIL, 2.0);
	claim(&runs[1], 20, NULL, true, VERDICT_PASS, 0.2);
}

static void free_runs(struct run_result runs[2])
{
	result_free(&runs[0]);
	result_free(&runs[1]);
}

Test(matrix, cells_counts_and_paired_speeds)
{
	struct matrix m;
	struct run_result runs[3];
	two_runs(&m, runs);
	memset(&runs[2], 0, sizeof runs[2]);
	cr_assert_eq(matrix_table_build(&m, runs), 0);
	cr_assert_eq(m.claim_count, 2);
	cr_expect_eq(m.claims[0].line, 20, "sorted by line within the group");
	const struct matrix_claim *c = &m.claims[1];
	cr_expect_eq(c->line, 30);
	cr_expect_str_eq(c->conditions, "allocator=glibc");
	cr_expect(c->cells[0].measured && c->cells[0].declared);
	cr_expect_eq(c->cells[0].verdict, VERDICT_PASS);
	cr_expect(c->cells[1].measured && !c->cells[1].declared, "information under jemalloc");
	cr_expect_eq(c->cells[1].verdict, VERDICT_FAIL);
	cr_expect_float_eq(c->cells[1].estimate, 2.0, 1e-12);
	cr_expect(!c->cells[2].measured, "tcmalloc was not installed");
	/* sys_mremap differs (32 against 0) and explains; page faults are the
	 * same under both and do not */
	cr_assert_eq(c->count_count, 1);
	cr_expect_str_eq(c->counts[0].variant, "grow");
	cr_expect_str_eq(c->counts[0].metric, "sys_mremap");
	cr_expect_float_eq(c->counts[0].medians[0], 32, 1e-12);
	cr_expect_float_eq(c->counts[0].medians[1], 0, 1e-12);
	cr_expect(isnan(c->counts[0].medians[2]));
	/* grow: jemalloc 2x glibc in every round; copy: 1x */
	cr_assert_eq(m.speed_count, 2);
	for (size_t i = 0; i < m.speed_count; i++) {
		const struct matrix_speed *s = &m.speeds[i];
		double want = !strcmp(s->variant, "grow") ? 2.0 : 1.0;
		cr_expect_float_eq(s->ratio[0], 1.0, 1e-12);
		cr_expect_float_eq(s->ratio[1], want, 1e-12, "%s: %g", s->variant, s->ratio[1]);
		cr_expect(s->ci_low[1] <= want && want <= s->ci_high[1]);
		cr_expect(isnan(s->ratio[2]));
	}
	matrix_free(&m);
	free_runs(runs);
}

Test(matrix, problems_are_joined_once)
{
	struct matrix m;
	struct run_result r;
	memset(&m, 0, sizeof m);
	memset(&r, 0, sizeof r);
	result_add_problem(&r, NULL, NULL, NULL, "cycles", "no hardware PMU");
	result_add_problem(&r, NULL, NULL, NULL, "instructions", "no hardware PMU");
	result_add_problem(&r, "k", "v", "p", "sample", "killed by signal 11");
	cr_assert_eq(matrix_take_problems(&m, NULL, &r), 0);
	cr_assert_eq(matrix_take_problems(&m, "jemalloc", &r), 0, "a second run's same problems");
	cr_assert_eq(m.problem_count, 3);
	cr_expect_str_eq(m.problems[0], "cycles, instructions: no hardware PMU");
	cr_expect_str_eq(m.problems[1], "k/v/p sample: killed by signal 11");
	cr_expect_str_eq(m.problems[2], "jemalloc: k/v/p sample: killed by signal 11");
	result_free(&r);
	matrix_free(&m);
}

static char *render(void (*fn)(FILE *, const struct matrix *), const struct matrix *m)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	cr_assert(f);
	fn(f, m);
	fclose(f);
	return text;
}

static void text_plain(FILE *f, const struct matrix *m)
{
	matrix_text_print(f, m, false, true);
}

Test(matrix, renderers)
{
	struct matrix m;
	struct run_result runs[3];
	two_runs(&m, runs);
	memset(&runs[2], 0, sizeof runs[2]);
	cr_assert_eq(matrix_table_build(&m, runs), 0);
	m.ctx.platform_key = strdup("linux-x86_64-glibc");
	m.ctx.tier = strdup("quick");
	m.rounds = 4;
	char *t = render(text_plain, &m);
	cr_expect(strstr(t, "*holds 0.1"), "declared cells marked: %s", t);
	cr_expect(strstr(t, "fails 2 "), "information cell: %s", t);
	cr_expect(strstr(t, "tcmalloc (not measured: libtcmalloc_minimal.so.4 not found"), "%s", t);
	cr_expect(strstr(t, "grow.sys_mremap"), "%s", t);
	cr_expect(strstr(t, "2x 20 ns"), "paired ratio and median: %s", t);
	free(t);
	char *md = render(matrix_markdown_print, &m);
	cr_expect(strstr(md, "| `kernels/k.c:30` grow.wall_ns &lt; copy.wall_ns | p | **holds** "
			 "0.1 [0.09, 0.11] | fails 2 [1.8, 2.2] | - |"), "%s", md);
	cr_expect(strstr(md, "| k | p | grow.sys_mremap | 32 | 0 | - |"), "%s", md);
	free(md);
	char *svg = render(matrix_svg_print, &m);
	cr_expect(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	cr_expect(strstr(svg, "fill=\"#2e7d32\""), "a declared cell that holds: strong green");
	cr_expect(strstr(svg, "fill=\"#ef9a9a\""), "information that fails: pale red");
	cr_expect(strstr(svg, "&lt; copy.wall_ns"), "the expression escaped");
	cr_expect_null(strstr(svg, "< copy"), "no raw '<' in the text");
	free(svg);
	char path[64], err[256];
	snprintf(path, sizeof path, "/tmp/allocgate-matrix-%d.json", (int)getpid());
	cr_assert_eq(matrix_json_write(path, &m, err, sizeof err), 0, "%s", err);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	remove(path);
	cr_assert(root, "%s", je.text);
	cr_expect_str_eq(json_string_value(json_object_get(root, "kind")), "matrix");
	json_t *c30 = json_array_get(json_object_get(root, "claims"), 1);
	cr_expect_eq(json_integer_value(json_object_get(c30, "line")), 30);
	json_t *cell = json_array_get(json_object_get(c30, "cells"), 1);
	cr_expect_str_eq(json_string_value(json_object_get(cell, "allocator")), "jemalloc");
	cr_expect(json_is_false(json_object_get(cell, "declared")));
	cr_expect_str_eq(json_string_value(json_object_get(cell, "verdict")), "fail");
	cell = json_array_get(json_object_get(c30, "cells"), 2);
	cr_expect(json_is_false(json_object_get(cell, "measured")));
	cr_expect(json_is_null(json_object_get(cell, "verdict")));
	json_decref(root);
	matrix_free(&m);
	free_runs(runs);
}
