/* run_merge.c: `gate merge` (run.h): joins the --json results of
 * shards (--shard I/N) and platforms into one result, one report and one
 * verdict, so that CI spreads a gate run over machines without a scheduler
 * of ours.
 *
 * Series of one platform must not overlap (two shards that measured the
 * same series were not disjoint: exit 2). When the files come from more
 * than one platform, every kernel name is prefixed "<platform>/" so that
 * the platforms stay apart. The verdict: fail when any file failed, else
 * error when any file errored, else unmeasured when any measured nothing,
 * else pass; files with no series and no expectations (a shard with no
 * group) do not count.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/reports.h"
#include "run/run.h"
#include "core/message.h"
#include "decide/exit_decide.h"
#include "decide/readjust.h"
#include "decide/stats.h"
#include "report/report_term.h"
#include "store/results_load.h"

/* Copies S into OUT under kernel name KERNEL; 0 or -ENOMEM. */
static int copy_series(struct run_result *out, const char *kernel, const struct series *s)
{
	struct series *d = result_add_series(out, kernel, s->variant, s->params, s->metric,
					     s->unit, s->cls);
	if (!d)
		return -ENOMEM;
	for (size_t k = 0; k < s->sample_count; k++)
		if (result_series_append(d, s->samples[k]))
			return -ENOMEM;
	d->file = result_dup_or_null(s->file);
	d->note = result_dup_or_null(s->note);
	d->kernel_digest = result_dup_or_null(s->kernel_digest);
	if ((s->file && !d->file) || (s->note && !d->note) ||
	    (s->kernel_digest && !d->kernel_digest))
		return -ENOMEM;
	if (s->history_count) {
		d->history = malloc(s->history_count * sizeof *d->history);
		if (!d->history)
			return -ENOMEM;
		memcpy(d->history, s->history, s->history_count * sizeof *d->history);
		d->history_count = s->history_count;
	}
	d->line = s->line;
	d->gated = s->gated;
	d->batches = s->batches;
	d->drift = s->drift;
	d->tolerance = s->tolerance;
	d->advisory = s->advisory;
	d->median = s->median;
	d->has_baseline = s->has_baseline;
	d->baseline_median = s->baseline_median;
	d->baseline_count = s->baseline_count;
	d->change = s->change;
	d->ci_low = s->ci_low;
	d->ci_high = s->ci_high;
	d->p_value = s->p_value;
	d->test = s->test;
	d->confirmed = s->confirmed;
	d->confirm_change = s->confirm_change;
	d->verdict = s->verdict;
	return 0;
}

static int copy_expect(struct run_result *out, const char *kernel, const struct expect_result *e)
{
	struct expect_result *d = result_add_expect(out);
	if (!d)
		return -ENOMEM;
	*d = *e;
	d->kernel = strdup(kernel);
	d->params = result_dup_or_null(e->params);
	d->file = result_dup_or_null(e->file);
	d->expr = result_dup_or_null(e->expr);
	d->note = result_dup_or_null(e->note);
	d->conditions = result_dup_or_null(e->conditions);
	return d->kernel && d->params && d->file && d->expr && (d->note || !e->note) &&
	       (d->conditions || !e->conditions) ? 0 : -ENOMEM;
}

/* Whether a run-level problem like P is already in OUT (every shard of a
 * machine reports the same refused counters). */
static int has_problem(const struct run_result *out, const struct problem *p)
{
	for (size_t i = 0; i < out->problem_count; i++)
		if (!out->problems[i].kernel && !strcmp(out->problems[i].what, p->what) &&
		    !strcmp(out->problems[i].reason, p->reason))
			return 1;
	return 0;
}

/* "<platform>/<name>" when MULTI, else NAME, into BUF. */
static const char *name_in(const struct run_result *in, const char *name, int multi, char *buf,
			   size_t size)
{
	if (!multi || !name)
		return name;
	snprintf(buf, size, "%s/%s", in->ctx.platform_key ? in->ctx.platform_key : "unknown", name);
	return buf;
}

/* Adds the call stacks FROM of input IN to TO, their kernels named as
 * name_in says. 0 or -ENOMEM. */
static int add_stacks(struct stacks *to, const struct stacks *from, const struct run_result *in,
		      int multi)
{
	char name[512];
	to->recorded |= from->recorded;
	for (size_t i = 0; i < from->count; i++) {
		const struct stack *s = &from->items[i];
		if (!result_add_stack_copy(to, s, name_in(in, s->kernel, multi, name, sizeof name)))
			return -ENOMEM;
	}
	return 0;
}

/* Adds the series, expectations and problems of IN (file PATH) to OUT;
 * ORIGIN[i] records which input each series of OUT came from. Returns 0,
 * GATE_EXIT_USAGE after a message about overlapping series, or -ENOMEM. */
static int add_result(struct run_result *out, const struct run_result *in, int multi,
		      const char **origin, const char *path)
{
	char name[512];
	for (size_t i = 0; i < in->series_count; i++) {
		const struct series *s = &in->series[i];
		const char *kernel = name_in(in, s->kernel, multi, name, sizeof name);
		const struct series *dup = result_find_series(out, kernel, s->variant, s->params,
							      s->metric);
		if (dup) {
			message_error("%s and %s both have the series %s %s %s %s of "
				"platform %s: the shards overlap (use --shard I/N with the same N "
				"and distinct I, and the same options)", origin[dup - out->series],
				path, s->kernel, s->variant, s->params, s->metric,
				in->ctx.platform_key ? in->ctx.platform_key : "unknown");
			return GATE_EXIT_USAGE;
		}
		if (copy_series(out, kernel, s))
			return -ENOMEM;
		origin[out->series_count - 1] = path;
	}
	for (size_t i = 0; i < in->expect_count; i++)
		if (copy_expect(out, name_in(in, in->expects[i].kernel, multi, name, sizeof name),
				&in->expects[i]))
			return -ENOMEM;
	out->sites_recorded |= in->sites_recorded;
	for (size_t i = 0; i < in->site_count; i++) {
		const struct site *st = &in->sites[i];
		struct site *copy = result_add_site(out, name_in(in, st->kernel, multi, name,
								 sizeof name),
						    st->variant, st->params, st->file, st->function,
						    st->kind, st->line, st->calls, st->bytes);
		if (!copy || (st->via && !(copy->via = strdup(st->via))))
			return -ENOMEM;
		copy->cost = st->cost;
	}
	for (size_t i = 0; i < in->site_change_count; i++) {
		const struct site_change *c = &in->site_changes[i];
		struct site at = { (char *)name_in(in, c->kernel, multi, name, sizeof name),
				   c->variant, c->params, c->file, c->function, c->kind, c->line,
				   0, 0, false, NULL };
		struct site_change *d = result_add_site_change(out, &at);
		if (!d)
			return -ENOMEM;
		d->before = c->before;
		d->after = c->after;
		d->calls_before = c->calls_before;
		d->calls_after = c->calls_after;
		d->bytes_before = c->bytes_before;
		d->bytes_after = c->bytes_after;
		if ((c->via_before && !(d->via_before = strdup(c->via_before))) ||
		    (c->via_after && !(d->via_after = strdup(c->via_after))))
			return -ENOMEM;
	}
	if (add_stacks(&out->stacks, &in->stacks, in, multi) ||
	    add_stacks(&out->stacks_before, &in->stacks_before, in, multi))
		return -ENOMEM;
	for (size_t i = 0; i < in->problem_count; i++) {
		const struct problem *p = &in->problems[i];
		if ((!p->kernel && has_problem(out, p)) ||
		    result_add_problem(out, name_in(in, p->kernel, multi, name, sizeof name) ,
				       p->variant, p->params, p->what, p->reason) == 0)
			continue;
		return -ENOMEM;
	}
	return 0;
}

/* The verdict of several runs (see the top of this file). */
/* Number of distinct platform keys among the N inputs. */
static int platform_count(const struct run_result *in, size_t n)
{
	int count = 0;
	for (size_t i = 0; i < n; i++) {
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(in[j].ctx.platform_key ? in[j].ctx.platform_key : "",
				       in[i].ctx.platform_key ? in[i].ctx.platform_key : "");
		count += !seen;
	}
	return count;
}

/* The reference workload of the merge: every input's samples, one after the
 * other, and the state that says most (moved, then unsure or no baseline
 * reference, then holds), with its figures; the largest slowdown of the code
 * as a whole that an input found, with its bound. Inputs of several platforms keep none: no
 * one machine's pace. Returns 0 or -ENOMEM. */
static int merge_reference(struct reference *out, const struct run_result *in, size_t n)
{
	static const int says[] = { [REFERENCE_NOT_COMPARED] = 0, [REFERENCE_HOLDS] = 1,
				    [REFERENCE_UNSURE] = 2, [REFERENCE_NO_BASELINE] = 2,
				    [REFERENCE_MOVED] = 3 };
	for (size_t i = 0; i < n; i++) {
		const struct reference *r = &in[i].reference;
		for (int p = 0; p < REFERENCE_PARTS; p++)
			for (size_t j = 0; j < r->part[p].count; j++)
				if (result_reference_append(out, (enum reference_part_id)p,
							    r->part[p].samples[j]))
					return -ENOMEM;
		if (says[r->state] > says[out->state] ||
		    (r->state == REFERENCE_MOVED && r->shift > out->shift)) {
			for (int p = 0; p < REFERENCE_PARTS; p++) {
				out->part[p].baseline_median = r->part[p].baseline_median;
				out->part[p].change = r->part[p].change;
				out->part[p].ci_low = r->part[p].ci_low;
				out->part[p].ci_high = r->part[p].ci_high;
			}
			out->state = r->state;
			out->shift = r->shift;
			out->shift_part = r->shift_part;
			out->faster = r->faster;
			out->faster_part = r->faster_part;
		}
		if (r->code_shift > out->code_shift) {   /* a shard whose code slowed as a whole */
			out->code_shift = r->code_shift;
			out->bound = r->bound;
		}
	}
	for (int p = 0; p < REFERENCE_PARTS; p++)
		out->part[p].median = stats_median(out->part[p].samples, out->part[p].count);
	return 0;
}

/* Context, baseline and time of the merge: the first input's context (with
 * every platform key joined by '+' when they differ), the first baseline
 * path and note, and the longest wall time (shards run side by side). */
static int merge_header(struct run_result *out, struct run_result *in, size_t n, int multi)
{
	out->ctx = in[0].ctx;
	memset(&in[0].ctx, 0, sizeof in[0].ctx);
	if (!multi && merge_reference(&out->reference, in, n))
		return -ENOMEM;
	out->wall_seconds = 0;
	for (size_t i = 0; i < n; i++) {
		if (isfinite(in[i].wall_seconds) && in[i].wall_seconds > out->wall_seconds)
			out->wall_seconds = in[i].wall_seconds;
		out->same_code_kernels += in[i].same_code_kernels;
		if (!out->baseline_path && in[i].baseline_path)
			out->baseline_path = strdup(in[i].baseline_path);
		if (!out->baseline_note && in[i].baseline_note)
			out->baseline_note = strdup(in[i].baseline_note);
		if (!out->comparison && in[i].comparison)
			out->comparison = strdup(in[i].comparison);
		if (multi && i > 0 && in[i].ctx.platform_key) {
			const char *key = out->ctx.platform_key ? out->ctx.platform_key : "unknown";
			size_t len = strlen(key) + strlen(in[i].ctx.platform_key) + 2;
			char *joined = malloc(len);
			if (!joined)
				return -ENOMEM;
			if (strstr(key, in[i].ctx.platform_key))
				snprintf(joined, len, "%s", key);
			else
				snprintf(joined, len, "%s+%s", key, in[i].ctx.platform_key);
			free(out->ctx.platform_key);
			out->ctx.platform_key = joined;
		}
	}
	return 0;
}

/* The policy of the merged result: the inputs' when every input recorded
 * one and they decide alike; not recorded when some input did not record
 * it. Inputs decided by different policies are refused: one verdict needs
 * one set of rules. Returns 0 or GATE_EXIT_USAGE after a message. */
static int merge_policy(struct run_result *out, const struct run_result *in, size_t n,
			const char *const *names)
{
	out->policy = in[0].policy;
	for (size_t i = 1; i < n; i++) {
		char what[160];
		if (!policy_merge_next(&out->policy, &in[0].policy, &in[i].policy, what,
				       sizeof what)) {
			message_error("%s and %s were decided by different policies (%s); merge "
					"results of one policy", names[0], names[i], what);
			return GATE_EXIT_USAGE;
		}
	}
	return 0;
}

/* The shards' timing comparisons as one family per platform
 * (decide/readjust.h), under OUT's policy (merge_policy): CODES[i] is
 * decided again for an input that failed and lost a failure, when it
 * recorded its failed samples. OUT's sample failures: the inputs' sum, -1
 * when one did not record them. Returns 0 or -ENOMEM. */
static int readjust(struct run_result *out, struct run_result *in, size_t n, int *codes)
{
	size_t *lost = calloc(n + 1, sizeof *lost);
	long total = -1;
	/* files that did not record their policy: their alpha is unknown, and
	 * each keeps its own verdicts */
	if (lost)
		total = out->policy.recorded ? readjust_timing(in, n, &out->policy, lost) : 0;
	out->sample_failures = 0;
	for (size_t i = 0; total >= 0 && i < n; i++) {
		if (in[i].sample_failures < 0 || out->sample_failures < 0)
			out->sample_failures = -1;
		else
			out->sample_failures += in[i].sample_failures;
		if (lost[i] && codes[i] == GATE_EXIT_REGRESSION && in[i].sample_failures >= 0)
			codes[i] = exit_decide_run(&in[i], in[i].sample_failures);
	}
	if (total > 0)
		message_note("%ld timing %s of the shards %s not significant over the merged "
			     "run's timing comparisons (%s, as one family): inconclusive", total,
			     total == 1 ? "failure" : "failures", total == 1 ? "is" : "are",
			     out->policy.fdr ? "Benjamini-Hochberg" : "Holm");
	free(lost);
	return total < 0 ? -ENOMEM : 0;
}

/* Loads every input into IN (N of them) and joins them into OUT; returns
 * 0 or an exit status after a message. */
static int merge(struct run_result *out, struct run_result *in, const struct merge_plan *a)
{
	char err[1024];
	size_t n = a->input_count, total = 0;
	int *codes = calloc(n, sizeof *codes), *empty = calloc(n, sizeof *empty), ret = 0;
	const char **origin = NULL;
	for (size_t i = 0; !ret && codes && empty && i < n; i++) {
		int rc = results_load(a->inputs[i], &in[i], err, sizeof err);
		if (rc) {
			if (rc == -ENOENT)
				message_error("%s: no such file", a->inputs[i]);
			else
				message_error("%s", err);
			ret = GATE_EXIT_USAGE;
		}
		codes[i] = in[i].exit_code;
		empty[i] = !in[i].series_count && !in[i].expect_count;
		total += in[i].series_count;
	}
	int multi = platform_count(in, n) > 1;
	origin = calloc(total + 1, sizeof *origin);
	if (!ret && (!codes || !empty || !origin))
		ret = -ENOMEM;
	if (!ret)   /* first: the shards' Holm families are one run's only under one policy */
		ret = merge_policy(out, in, n, a->inputs);
	if (!ret)
		ret = readjust(out, in, n, codes);
	for (size_t i = 0; !ret && i < n; i++)
		ret = add_result(out, &in[i], multi, origin, a->inputs[i]);
	if (!ret && merge_header(out, in, n, multi)) /* takes in[0]'s context: last */
		ret = -ENOMEM;
	if (ret == -ENOMEM) {
		message_error("out of memory");
		ret = GATE_EXIT_USAGE;
	}
	if (!ret)
		out->exit_code = exit_decide_merge(codes, empty, n);
	free(codes);
	free(empty);
	free(origin);
	return ret;
}

int run_merge(const struct merge_plan *p)
{
	struct run_result out, *in = calloc(p->input_count, sizeof *in);
	int ret;
	memset(&out, 0, sizeof out);
	ret = in ? merge(&out, in, p) : GATE_EXIT_USAGE;
	if (!ret) {
		result_sort(&out);
		struct report_term_options style = { p->no_color, false };
		ret = reports_write_run(&out, &p->reports, &style, NULL);
	}
	for (size_t i = 0; in && i < p->input_count; i++)
		result_free(&in[i]);
	free(in);
	result_free(&out);
	return ret;
}
