/* report_bisect.c: `gate bisect`'s outcome as text and JSON
 * (report_bisect.h). A commit's subject is anyone's text: escaped under
 * the terminal's rule. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_bisect.h"
#include "core/group_key.h"
#include "core/policy.h"
#include "decide/sites.h"
#include "report/escape.h"
#include "report/format.h"
#include "store/jsonout.h"

static const char *mark_word(enum bisect_mark m)
{
	return m == BISECT_GOOD ? "good" : m == BISECT_BAD ? "bad" : m == BISECT_SKIP ? "skipped"
										     : "unknown";
}

/* "7-digit-hash subject", the subject escaped. */
static void commit_line(FILE *f, const char *commit, const char *subject)
{
	char *safe = subject ? escape_term_dup(subject) : NULL;
	fprintf(f, "%.7s%s%s", commit, safe ? " " : "", safe ? safe : "");
	free(safe);
}

/* Whether series I of AFTER moved against BEFORE (decide/bisect.h); with
 * --timing, whether gate ab found it slower than the good revision's. */
static const struct series *moved(const struct bisect_outcome *o, size_t i)
{
	const struct series *s = &o->after.series[i];
	if (o->timing)
		return s->cls == METRIC_TIMING && s->verdict == VERDICT_FAIL ? s : NULL;
	const struct series *b = result_find_series(&o->before, s->kernel, s->variant, s->params,
						    s->metric);
	if (s->cls == METRIC_TIMING || (b && !bisect_series_moved(s, b, POLICY_COST_TOLERANCE)))
		return NULL;
	return s;
}

/* V as a count with its digits grouped when it is a whole number (an
 * exact count says every digit), else with its unit. */
static void exact_value(double v, const char *unit, char *buf, size_t size)
{
	if (v == floor(v) && fabs(v) < 1e15 && v >= 0)
		format_count((unsigned long long)v, buf, size);
	else
		format_value(v, unit, buf, size);
}

/* The series of one (kernel, variant, params) that moved at the culprit,
 * "metric before -> after; ..." on one line. */
static void group_line(FILE *f, const struct bisect_outcome *o, size_t first)
{
	const struct series *g = &o->after.series[first];
	char a[64], b[64];
	fprintf(f, "  %s/%s/%s:", g->kernel, g->variant, g->params);
	const char *sep = " ";
	for (size_t i = first; i < o->after.series_count; i++) {
		const struct series *s = &o->after.series[i];
		if (!group_key_same(GROUP_KEY(s), GROUP_KEY(g), GROUP_SCOPE_VARIANT))
			break;
		if (!moved(o, i))
			continue;
		const struct series *was = result_find_series(&o->before, s->kernel, s->variant,
							      s->params, s->metric);
		if (o->timing) {   /* gate ab: A is the good revision */
			format_value(s->baseline_median, s->unit, a, sizeof a);
			format_value(s->median, s->unit, b, sizeof b);
			fprintf(f, "%s%s %s -> %s (%+.1f%%)", sep, s->metric, a, b, 100 * s->change);
			sep = "; ";
			continue;
		}
		exact_value(was ? was->median : 0, s->unit, a, sizeof a);
		exact_value(s->median, s->unit, b, sizeof b);
		fprintf(f, "%s%s %s -> %s", sep, s->metric, was ? a : "(none)", b);
		sep = "; ";
	}
	fputc('\n', f);
}

/* The places whose allocation calls changed in the group of O's site
 * change I, when I is its group's first, into SH (room for 8); how many. */
static size_t group_places(const struct bisect_outcome *o, size_t i, struct site_shift *sh)
{
	const struct site_change *c = &o->after.site_changes[i];
	if (!sites_first_of_group(&o->after, i))
		return 0;
	return sites_shifts(&o->after, c->kernel, c->variant, c->params, sh, 8);
}

/* Each place whose allocation calls changed at the culprit, once. */
static void places(FILE *f, const struct bisect_outcome *o)
{
	char text[2048], said[16][2048];
	size_t n_said = 0;
	for (size_t i = 0; i < o->after.site_change_count; i++) {
		struct site_shift sh[8];
		size_t n = group_places(o, i, sh);
		for (size_t k = 0; k < n; k++) {
			format_site_shift(&sh[k], text, sizeof text);
			size_t j = 0;
			while (j < n_said && strcmp(said[j], text))
				j++;
			if (j < n_said)
				continue;
			char *safe = escape_term_dup(text);
			fprintf(f, "  at %s\n", safe ? safe : text);
			free(safe);
			if (n_said < 16)
				snprintf(said[n_said++], sizeof said[0], "%s", text);
		}
	}
}

/* Whether series I and J of R belong to one (kernel, variant, params). */
static bool same_group(const struct run_result *r, size_t i, size_t j)
{
	return group_key_same(GROUP_KEY(&r->series[i]), GROUP_KEY(&r->series[j]),
			      GROUP_SCOPE_VARIANT);
}

/* The culprit's paragraph: a line per group whose series moved, then the
 * places. */
static void culprit(FILE *f, const struct bisect_outcome *o)
{
	const struct run_result *r = &o->after;
	for (size_t i = 0; i < r->series_count; i++) {
		if (i && same_group(r, i - 1, i))
			continue;
		bool any = false;
		for (size_t j = i; j < r->series_count && same_group(r, i, j) && !any; j++)
			any = moved(o, j) != NULL;
		if (any)
			group_line(f, o, i);
	}
	places(f, o);
}

void report_bisect_text(FILE *f, const struct bisect_outcome *o)
{
	size_t cached = 0, built = 0;
	fprintf(f, "%zu commit%s after %.7s (good) up to %.7s (bad): %zu %s\n", o->commits,
		o->commits == 1 ? "" : "s", o->good, o->bad, o->moved,
		o->timing ? "timing series slower (gate ab of good against bad)"
			  : "exact series differ");
	for (size_t i = 0; i < o->probe_count; i++) {
		const struct bisect_probe *p = &o->probes[i];
		fprintf(f, "  %-7s ", mark_word(p->mark));
		commit_line(f, p->commit, p->subject);
		if (p->why) {
			char *safe = escape_term_dup(p->why);
			fprintf(f, ": %s", safe ? safe : "");
			free(safe);
		}
		fputs(p->cached ? " (measured by an earlier search)\n" : "\n", f);
		cached += p->cached;
		built += !p->cached;
	}
	if (!o->moved) {
		fputs(o->timing ? "no first bad commit: gate ab finds the bad revision's timing "
				  "no slower than the good one's\n"
				: "no first bad commit: the good and the bad revision measure the same "
				  "in every exact series (counts, calls, cost)\n", f);
	} else if (o->found) {
		fputs("first bad commit: ", f);
		commit_line(f, o->first, o->first_subject);
		fputc('\n', f);
		culprit(f, o);
		if (strcmp(o->first, o->bad))
			fprintf(f, "a series that differs between the ends but not here changed after "
				"it: --good %.7s --bad %.7s searches on\n", o->first, o->bad);
	} else {
		fprintf(f, "no single first bad commit: it is one of %.7s..%.7s, whose commits "
			"before the last were skipped\n", o->first, o->last);
		culprit(f, o);
	}
	fprintf(f, "%zu revision%s measured (%zu built now, %zu by an earlier search) of %zu "
		"commits\n", o->probe_count, o->probe_count == 1 ? "" : "s", built, cached,
		o->commits);
}

/* A with X appended; NULL (both freed) when X is NULL or on no memory. */
static json_t *append(json_t *a, json_t *x)
{
	if (x && !json_array_append_new(a, x))
		return a;
	json_decref(a);
	return NULL;
}

/* The series of the culprit that moved, as JSON objects. */
static json_t *series_json(const struct bisect_outcome *o)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < o->after.series_count; i++) {
		const struct series *s = moved(o, i);
		if (!s)
			continue;
		const struct series *b = result_find_series(&o->before, s->kernel, s->variant,
							    s->params, s->metric);
		json_t *x = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "kernel",
				      jsonout_string(s->kernel), "variant", jsonout_string(s->variant),
				      "params", jsonout_string(s->params), "metric",
				      jsonout_string(s->metric), "before",
				      o->timing ? jsonout_number(s->baseline_median)
				      : b ? jsonout_number(b->median) : json_null(), "after",
				      jsonout_number(s->median));
		if (!(a = append(a, x)))
			return NULL;
	}
	return a;
}

/* The places of the culprit whose allocation calls changed. */
static json_t *places_json(const struct bisect_outcome *o)
{
	json_t *a = json_array();
	char text[2048];
	for (size_t i = 0; a && i < o->after.site_change_count; i++) {
		const struct site_change *c = &o->after.site_changes[i];
		struct site_shift sh[8];
		size_t n = group_places(o, i, sh);
		for (size_t k = 0; k < n; k++) {
			format_site_shift_calls(&sh[k], text, sizeof text);
			json_t *x = json_pack("{s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:o}", "kernel",
					      jsonout_string(c->kernel), "variant",
					      jsonout_string(c->variant), "params",
					      jsonout_string(c->params), "file",
					      jsonout_string(sh[k].file), "function",
					      jsonout_string(sh[k].function), "line", sh[k].line,
					      "calls", jsonout_string(text), "wrapper",
					      jsonout_string(sh[k].via_after ? sh[k].via_after
									     : sh[k].via_before));
			if (!(a = append(a, x)))
				return NULL;
		}
	}
	return a;
}

static json_t *probes_json(const struct bisect_outcome *o)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < o->probe_count; i++) {
		const struct bisect_probe *p = &o->probes[i];
		json_t *x = json_pack("{s:s, s:o, s:s, s:o, s:b}", "commit", p->commit, "subject",
				      jsonout_string(p->subject), "mark", mark_word(p->mark), "why",
				      jsonout_string(p->why), "cached", p->cached);
		if (!(a = append(a, x)))
			return NULL;
	}
	return a;
}

json_t *report_bisect_json(const struct bisect_outcome *o)
{
	bool culprit_known = o->moved && o->found;
	json_t *root = json_pack("{s:i, s:s, s:s, s:I, s:b, s:I, s:o, s:s, s:o, s:o, s:o, s:o, s:o}",
				 "allocgate_bisect", REPORT_BISECT_VERSION, "good", o->good, "bad",
				 o->bad, "commits", (json_int_t)o->commits, "timing", o->timing, "moved",
				 (json_int_t)o->moved, "probes", probes_json(o), "outcome",
				 !o->moved ? "none" : o->found ? "found" : "range", "first",
				 o->moved ? json_string(o->first) : json_null(), "last",
				 o->moved ? json_string(o->last) : json_null(), "subject",
				 culprit_known ? jsonout_string(o->first_subject) : json_null(),
				 "series", o->moved ? series_json(o) : json_array(), "places",
				 o->moved ? places_json(o) : json_array());
	return root;
}
