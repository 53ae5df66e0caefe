/* expect_eval.c: expectations evaluated on paired per-round values. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/expect_eval.h"
#include "decide/counted.h"
#include "decide/expr.h"
#include "decide/interference.h"
#include "decide/stats.h"
#include "sample/groups.h"
#include "core/group_key.h"

struct lookup_ctx {
	const struct run_result *r;
	const char *kernel, *params;
	size_t round;
	bool disturbed;        /* a value of this round was left out: disturbed */
	char missing[1200];     /* first reference without a value */
};

static const struct series *find(const struct lookup_ctx *c, const struct expr_ref *ref)
{
	return result_find_series(c->r, c->kernel, ref->variant, c->params, ref->metric);
}

static int lookup(const struct expr_ref *ref, void *arg, double *value)
{
	struct lookup_ctx *c = arg;
	const struct series *s = find(c, ref);
	if (!s || c->round >= s->sample_count || isnan(s->samples[c->round]))
		return -1;
	if (interference_sample_disturbed(s, c->round)) {
		c->disturbed = true;
		return -1;
	}
	*value = s->samples[c->round];
	return 0;
}

/* Notes the first heap_* reference of a group the counted build did not
 * see (counted.h): its zeros are no measurement. */
static int check_counted(const struct expr_ref *ref, void *arg)
{
	struct lookup_ctx *c = arg;
	const char *base = strrchr(ref->metric, '.');
	base = base ? base + 1 : ref->metric;
	if (strncmp(base, "heap_", 5))
		return 0;
	char why[900];
	if (counted_sight(c->r, c->kernel, c->params, why, sizeof why) == COUNTED_SEEN)
		return 0;
	snprintf(c->missing, sizeof c->missing, "%s.%s %s", ref->variant, ref->metric, why);
	return 1;
}

/* Notes the first reference that has no series at all. */
static int check_ref(const struct expr_ref *ref, void *arg)
{
	struct lookup_ctx *c = arg;
	if (find(c, ref))
		return 0;
	snprintf(c->missing, sizeof c->missing, "%s.%s", ref->variant, ref->metric);
	return 1;
}

/* Edit distance (Levenshtein) of A and B, at most 64 characters of each. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b), row[65];
	if (n > 64 || m > 64)
		return (size_t)-1;
	for (size_t j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t diagonal = row[0];
		row[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t up = row[j];
			size_t best = diagonal + (a[i - 1] != b[j - 1]);
			best = up + 1 < best ? up + 1 : best;
			best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
			row[j] = best;
			diagonal = up;
		}
	}
	return row[m];
}

/* The "VARIANT.METRIC" of (KERNEL, PARAMS) in R nearest to REF, into BUF,
 * when within a third of REF's length (at least 2 edits); else "". */
static void nearest_ref(const struct run_result *r, const char *kernel, const char *params,
			const char *ref, char *buf, size_t size)
{
	size_t best = strlen(ref) / 3 > 2 ? strlen(ref) / 3 : 2;
	buf[0] = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		char name[160];
		if (!group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, NULL, params)))
			continue;
		snprintf(name, sizeof name, "%s.%s", s->variant, s->metric);
		size_t d = edit_distance(ref, name);
		if (d <= best && d > 0) {
			best = d;
			snprintf(buf, size, "%s", name);
		}
	}
}

/* Whether reference REF ("variant.metric") of K on PARAMS names what K
 * does not have: a variant K does not declare, or a metric its variant's
 * records lack although that variant was measured. A variant whose every
 * sample failed has no series at all: not a misspelling (the failure is
 * the run's problem, exit 4). */
static int misspelt(const struct kernel_info *k, const struct run_result *r, const char *params,
		    const char *ref)
{
	size_t n = strcspn(ref, ".");
	int declared = 0;
	for (size_t i = 0; i < k->variant_count && !declared; i++)
		declared = strlen(k->variants[i]) == n && !strncmp(k->variants[i], ref, n);
	if (!declared)
		return 1;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (group_key_in(GROUP_KEY(s), GROUP_KEY_OF(k->name, NULL, params)) &&
		    strlen(s->variant) == n && !strncmp(s->variant, ref, n))
			return 1;
	}
	return 0;
}

/* Why a reference REF of (KERNEL, PARAMS) has no series: a refused counter
 * (returns 1), or an unknown name, with the nearest one of the kernel's
 * records ("did you mean") (returns 0). */
static int explain_missing(const struct run_result *r, const char *kernel, const char *params,
			   const char *ref, char *buf, size_t size)
{
	const char *metric = strrchr(ref, '.');
	metric = metric ? metric + 1 : ref;
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		if (!p->kernel && !strcmp(p->what, metric)) {
			snprintf(buf, size, "%s unavailable on this machine: %s", ref, p->reason);
			return 1;
		}
	}
	/* a run without the cost pass (--no-cost, no valgrind, a sanitizer
	 * build): its context says why */
	if (!strncmp(metric, "cost_", 5) && !(r->ctx.cost_tool && *r->ctx.cost_tool)) {
		snprintf(buf, size, "no measurement named %s: the cost pass did not run (%s)", ref,
			 r->ctx.cost_cpu ? r->ctx.cost_cpu : "off");
		return 1;
	}
	const char *family = !strncmp(metric, "heap_", 5) ? "heap_* (counted build)"
			     : !strncmp(metric, "proc_", 5) ? "proc_* (interposer)" : NULL;
	if (family) {
		for (size_t i = 0; i < r->problem_count; i++) {
			const struct problem *p = &r->problems[i];
			if (!p->kernel && !strcmp(p->what, family)) {
				snprintf(buf, size, "no measurement named %s: %s", ref, p->reason);
				return 1;
			}
		}
	}
	char near[160];
	nearest_ref(r, kernel, params, ref, near, sizeof near);
	if (*near)
		snprintf(buf, size, "unknown metric %s: did you mean %s?", ref, near);
	else
		snprintf(buf, size, "unknown metric %s: no measurement of %s/%s has that name "
			 "(misspelt, or every sample of it failed; `gate list` names them)", ref,
			 kernel, params);
	return 0;
}

static enum verdict decide(enum expr_compare op, double lo, double hi, double pivot)
{
	switch (op) {
	case EXPR_LT:
		return hi < pivot ? VERDICT_PASS : lo >= pivot ? VERDICT_FAIL : VERDICT_INCONCLUSIVE;
	case EXPR_LE:
		return hi <= pivot ? VERDICT_PASS : lo > pivot ? VERDICT_FAIL : VERDICT_INCONCLUSIVE;
	case EXPR_GT:
		return lo > pivot ? VERDICT_PASS : hi <= pivot ? VERDICT_FAIL : VERDICT_INCONCLUSIVE;
	case EXPR_GE:
		return lo >= pivot ? VERDICT_PASS : hi < pivot ? VERDICT_FAIL : VERDICT_INCONCLUSIVE;
	case EXPR_EQ:
		return lo == pivot && hi == pivot ? VERDICT_PASS
		       : (lo > pivot || hi < pivot) ? VERDICT_FAIL : VERDICT_INCONCLUSIVE;
	}
	return VERDICT_ERROR;
}

/* Per-round lhs and rhs; returns the number of usable rounds, and in
 * *DISTURBED those left out because a value was disturbed. */
static size_t collect(const struct expr *x, struct lookup_ctx *c, size_t rounds,
		      double *lhs, double *rhs, size_t *disturbed)
{
	size_t n = 0;
	*disturbed = 0;
	for (c->round = 0; c->round < rounds; c->round++) {
		c->disturbed = false;
		double l = expr_eval_side(x->lhs, lookup, c);
		double rv = expr_eval_side(x->rhs, lookup, c);
		if (isfinite(l) && isfinite(rv)) {
			lhs[n] = l;
			rhs[n] = rv;
			n++;
		} else if (c->disturbed) {
			(*disturbed)++;
		}
	}
	return n;
}

static size_t max_rounds(const struct run_result *r, const char *kernel, const char *params)
{
	size_t n = 0;
	for (size_t i = 0; i < r->series_count; i++)
		if (group_key_in(GROUP_KEY(&r->series[i]), GROUP_KEY_OF(kernel, NULL, params)) &&
		    r->series[i].sample_count > n)
			n = r->series[i].sample_count;
	return n;
}

static void estimate(struct expect_result *out, const struct expr *x, double *lhs,
		     double *rhs, size_t n, double level)
{
	int ratio = 1;
	out->lhs_median = stats_median(lhs, n);
	out->rhs_median = stats_median(rhs, n);
	for (size_t i = 0; i < n; i++)
		if (!(rhs[i] > 0) || lhs[i] < 0)
			ratio = 0;
	for (size_t i = 0; i < n; i++)
		lhs[i] = ratio ? lhs[i] / rhs[i] : lhs[i] - rhs[i];
	out->ratio = ratio;
	out->estimate = stats_median(lhs, n);
	stats_median_ci(lhs, n, level, &out->ci_low, &out->ci_high, &out->confidence);
	out->verdict = decide(x->op, out->ci_low, out->ci_high, ratio ? 1.0 : 0.0);
}

/* A new result for E of K on PARAMS, not yet decided; NULL on no memory. */
static struct expect_result *expect_begin(const struct kernel_info *k,
					  const struct kernel_expect *e, const char *params,
					  struct run_result *r)
{
	struct expect_result *out = result_add_expect(r);
	if (!out)
		return NULL;
	out->kernel = strdup(k->name);
	out->params = strdup(params);
	out->file = strdup(e->file);
	out->expr = strdup(e->expr);
	out->conditions = e->conditions ? strdup(e->conditions) : NULL;
	out->gated = true;
	out->line = e->line;
	out->estimate = out->ci_low = out->ci_high = NAN;
	return out;
}

int expect_evaluate(const struct kernel_info *k, const struct kernel_expect *e,
		    const char *params, double level, struct run_result *r)
{
	struct expect_result *out = expect_begin(k, e, params, r);
	if (!out)
		return -ENOMEM;
	char msg[256];
	struct expr x;
	if (expr_parse(e->expr, &x, msg, sizeof msg)) {
		out->verdict = VERDICT_ERROR;
		out->note = strdup(msg);
		return 0;
	}
	struct lookup_ctx c = { r, k->name, params, 0, false, "" };
	size_t rounds = max_rounds(r, k->name, params);
	double *lhs = calloc(rounds + 1, sizeof *lhs), *rhs = calloc(rounds + 1, sizeof *rhs);
	if (!lhs || !rhs) {
		out->verdict = VERDICT_ERROR;
	} else if (expr_each_ref(&x, check_ref, &c)) {
		int refused = explain_missing(r, k->name, params, c.missing, msg, sizeof msg);
		out->verdict = refused ? VERDICT_SKIPPED : VERDICT_ERROR;
		out->unknown_metric = !refused && misspelt(k, r, params, c.missing);
		out->note = strdup(msg);
	} else if (expr_each_ref(&x, check_counted, &c)) {
		out->verdict = VERDICT_ERROR;
		out->note = strdup(c.missing);
	} else if ((out->rounds = collect(&x, &c, rounds, lhs, rhs, &out->disturbed)),
		   interference_too_few(out->rounds, out->disturbed)) {
		snprintf(msg, sizeof msg, "disturbed: %zu of %zu rounds had a timing sample that "
			 "waited to run or shared the machine (docs/counters.md, \"Interference\"): "
			 "not decided", out->disturbed, out->disturbed + out->rounds);
		out->verdict = VERDICT_INCONCLUSIVE;
		out->note = strdup(msg);
		if (out->rounds >= 2)
			estimate(out, &x, lhs, rhs, out->rounds, level);
		out->verdict = VERDICT_INCONCLUSIVE;
	} else if (out->rounds < 2) {
		out->verdict = VERDICT_ERROR;
		out->note = strdup("fewer than 2 rounds with every referenced value (samples failed)");
	} else {
		estimate(out, &x, lhs, rhs, out->rounds, level);
	}
	free(lhs);
	free(rhs);
	expr_free(&x);
	return 0;
}

int expect_eval_skip(const struct kernel_info *k, const struct kernel_expect *e, const char *params,
		const char *why, struct run_result *r)
{
	struct expect_result *out = expect_begin(k, e, params, r);
	if (!out)
		return -ENOMEM;
	out->verdict = VERDICT_SKIPPED;
	out->note = strdup(why);
	return 0;
}

void expect_check_kernels(const struct kernel_info *kernels, size_t count, unsigned tier,
			  const struct condition_target *t, struct run_result *r)
{
	interference_mark(r);
	for (size_t k = 0; k < count; k++) {
		const struct kernel_info *ki = &kernels[k];
		for (size_t e = 0; e < ki->expect_count; e++) {
			const struct kernel_expect *ex = &ki->expects[e];
			char why[256] = "";
			enum condition_outcome c = conditions_evaluate(ex->conditions, t, why,
								       sizeof why);
			if (c == CONDITION_OTHER_OS)
				continue;
			struct group_iter it;
			struct group g;
			groups_begin(&it, ki, 1, tier);
			while (groups_next(&it, &g)) {
				if (!kernel_info_list_has(ex->params, g.params->name))
					continue;
				if (ex->left_out)
					snprintf(why, sizeof why, "names variant %s, which --variant "
						 "left out", ex->left_out);
				if (c == CONDITION_UNMET || ex->left_out) {
					expect_eval_skip(ki, ex, g.params->name, why, r);
					continue;
				}
				size_t before = r->expect_count;
				expect_evaluate(ki, ex, g.params->name, 0.95, r);
				if (c == CONDITION_OTHER_ALLOCATOR && r->expect_count > before)
					r->expects[before].gated = false;
			}
		}
	}
}

static int ref_is_variant(const struct expr_ref *ref, void *variant)
{
	return !strcmp(ref->variant, variant);
}

/* Whether expression TEXT names VARIANT (one that does not parse names
 * every variant: it holds them all back). */
static bool names_variant(const char *text, const char *variant)
{
	struct expr e;
	char err[200];
	if (expr_parse(text, &e, err, sizeof err))
		return true;
	bool named = expr_each_ref(&e, ref_is_variant, (void *)variant) != 0;
	expr_free(&e);
	return named;
}

bool expect_group_decided(const struct kernel_info *k, const char *params, const char *variant,
			  const struct condition_target *t, double level, size_t rounds_left,
			  struct run_result *r)
{
	/* the rounds left out as expect_check_kernels leaves them out */
	bool decided = interference_mark_group_as(r, k->name, params, true) == 0;
	for (size_t e = 0; decided && e < k->expect_count; e++) {
		const struct kernel_expect *ex = &k->expects[e];
		char why[256];
		if (!kernel_info_list_has(ex->params, params) || ex->left_out ||
		    (variant && !names_variant(ex->expr, variant)) ||
		    conditions_evaluate(ex->conditions, t, why, sizeof why) != CONDITION_APPLIES)
			continue;
		size_t before = r->expect_count;
		if (expect_evaluate(k, ex, params, level, r))
			decided = false;
		else if (r->expect_count > before && !r->expects[before].unknown_metric)
			/* one too disturbed for the rounds left reads
			 * "disturbed", inconclusive, as a timing series */
			decided = r->expects[before].verdict != VERDICT_INCONCLUSIVE ||
				  interference_beyond_reach(r->expects[before].rounds,
							    r->expects[before].disturbed,
							    rounds_left);
		result_drop_expects(r, before);
	}
	return decided;
}
