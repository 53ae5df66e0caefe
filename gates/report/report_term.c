/* report_term.c: the terminal renderer. It reads the run result and
 * never computes a statistic of its own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report_term.h"
#include "core/cpu_identity.h"
#include "core/group_key.h"
#include "core/result_tally.h"
#include "decide/sites.h"
#include "report/escape.h"
#include "report/format.h"
#include "report/unavailable.h"

struct style {
	const char *red, *green, *yellow, *bold, *dim, *off;
};

static struct style pick_style(FILE *f, const struct report_term_options *o)
{
	struct style plain = { "", "", "", "", "", "" };
	struct style color = { "\033[31m", "\033[32m", "\033[33m", "\033[1m", "\033[2m", "\033[0m" };
	const char *no = getenv("NO_COLOR");
	if (o->no_color || (no && *no) || !isatty(fileno(f)))
		return plain;
	return color;
}

static const char *verdict_color(const struct style *st, enum verdict v)
{
	switch (v) {
	case VERDICT_FAIL:
	case VERDICT_ERROR:
		return st->red;
	case VERDICT_INCONCLUSIVE:
	case VERDICT_FAIL_BOTH:
		return st->yellow;
	case VERDICT_IMPROVED:
		return st->green;
	default:
		return "";
	}
}

/* Metrics shown on every row: wall time of each region and the exact and
 * near-exact counts; the rest only when their verdict says something. */
static int shown(const struct series *s)
{
	const char *base = strrchr(s->metric, '.');
	base = base ? base + 1 : s->metric;
	int quiet = s->verdict == VERDICT_PASS || s->verdict == VERDICT_NEW;
	/* counts that stayed at zero say nothing (dozens of heap_* and sys_*
	 * counters per variant); the JSON keeps them */
	if (s->cls != METRIC_TIMING && quiet && s->median == 0 &&
	    (!s->has_baseline || s->baseline_median == 0))
		return 0;
	if (!strcmp(base, "wall_ns") || s->cls != METRIC_TIMING)
		return 1;
	return s->verdict == VERDICT_FAIL || s->verdict == VERDICT_IMPROVED ||
	       s->verdict == VERDICT_INCONCLUSIVE || s->verdict == VERDICT_ERROR;
}

/* The change column of S: "+5.1% [+2.0%, +8.3%]", or empty without a
 * baseline. */
static void format_change(const struct series *s, char *buf, size_t size)
{
	char interval[64];
	format_change_word(s, buf, size);
	format_interval(s, interval, sizeof interval);
	if (*interval)
		snprintf(buf + strlen(buf), size - strlen(buf), " %s", interval);
}

/* Widths of the text columns of one params group: at least the header's,
 * wider when a name or change is longer (alloc.heap_blocks_allocated,
 * +1234.5% [...]), so that every row of the group stays in line. */
struct columns {
	int variant, metric, change;
};

static int wider(int width, const char *text)
{
	int n = (int)strlen(text);
	return n > width ? n : width;
}

/* One series row, and its note unless it is *SAID, the note the row above
 * it in the same group printed (a group's timing series share one
 * "disturbed: ..." note: said once). */
static void print_series(FILE *f, const struct style *st, const struct columns *w,
			 const struct series *s, const char **said)
{
	char now[32], was[32], change[64];
	format_value(s->median, s->unit, now, sizeof now);
	format_value(s->baseline_median, s->unit, was, sizeof was);
	format_change(s, change, sizeof change);
	int info = s->verdict == VERDICT_FAIL && !s->gated;
	fprintf(f, "    %-*s %-*s %11s %11s  %-*s %s%s%s%s\n", w->variant, s->variant, w->metric,
		s->metric, now, s->has_baseline ? was : "-", w->change, change,
		info ? st->yellow : verdict_color(st, s->verdict),
		result_series_verdict_name(s->verdict), info ? " (not gated)" : "", st->off);
	if (s->note && s->verdict != VERDICT_PASS && s->verdict != VERDICT_NEW &&
	    !(*said && !strcmp(*said, s->note)))
		fprintf(f, "    %s%-*s %s%s\n", st->dim, w->variant, "", s->note, st->off);
	if (s->note && s->verdict != VERDICT_PASS && s->verdict != VERDICT_NEW)
		*said = s->note;
}

/* The label and colour of an expectation: its verdict, or INFO when it is
 * not gated (declared for another allocator). */
static const char *expect_label(const struct style *st, const struct expect_result *e,
				char *upper, size_t size)
{
	if (!e->gated) {
		snprintf(upper, size, "INFO");
		return st->dim;
	}
	format_verdict_upper(e->verdict, upper, size);
	return verdict_color(st, e->verdict);
}

static void print_expect(FILE *f, const struct style *st, const struct run_result *r,
			 const struct expect_result *e)
{
	char upper[16], info[400];
	const char *color = expect_label(st, e, upper, sizeof upper);
	fprintf(f, "    %s%-12s%s %s:%d  %s\n", color, upper, st->off, e->file, e->line, e->expr);
	if (!e->gated) {
		format_expect_info(e, r->ctx.allocator, info, sizeof info);
		fprintf(f, "    %-12s %s\n", "", info);
	}
	if (e->a.measured) {
		format_expect_sides(e, info, sizeof info);
		fprintf(f, "    %-12s %s\n", "", info);
	} else if (isfinite(e->estimate)) {
		char values[100];
		format_expect_values(e, values, sizeof values);
		fprintf(f, "    %-12s %s%sper-round %s %.4g, %.0f%% interval [%.4g, %.4g], %zu "
			"rounds\n", "", values, *values ? "; " : "",
			e->ratio ? "ratio lhs/rhs" : "difference lhs-rhs", e->estimate,
			100 * e->confidence, e->ci_low, e->ci_high, e->rounds);
	}
	if (e->note)
		fprintf(f, "    %-12s %s%s%s\n", "", st->dim, e->note, st->off);
}

/* Whether S of (KERNEL, PARAMS, VARIANT) belongs to the row (VARIANT NULL:
 * any variant of the group). */
static int in_row(const struct series *s, const char *kernel, const char *params,
		  const char *variant)
{
	return group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, variant, params));
}

/* Whether expectation E is of group (KERNEL, PARAMS). */
static bool of_group(const struct expect_result *e, const char *kernel, const char *params)
{
	return group_key_in(GROUP_KEY_OF(e->kernel, NULL, e->params),
			    GROUP_KEY_OF(kernel, NULL, params));
}

/* --details: every allocation site of the group's variants. */
static void print_sites(FILE *f, const struct style *st, const struct run_result *r,
			const char *kernel, const char *params)
{
	const struct site *heading = NULL;   /* the first site of the variant shown */
	char text[1200];
	for (size_t i = 0; i < r->site_count; i++) {
		const struct site *s = &r->sites[i];
		if (!group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, NULL, params)))
			continue;
		if (!heading ||
		    !group_key_same(GROUP_KEY(heading), GROUP_KEY(s), GROUP_SCOPE_VARIANT)) {
			heading = s;
			fprintf(f, "    %sallocation sites of %s%s\n", st->dim, s->variant,
				st->off);
		}
		format_site(s, text, sizeof text);
		fprintf(f, "      %s\n", text);
	}
}

static void print_group(FILE *f, const struct style *st, const struct run_result *r,
			const char *kernel, const char *params)
{
	struct columns w = { 18, 22, 26 };
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		char change[64];
		if (in_row(s, kernel, params, NULL) && shown(s)) {
			format_change(s, change, sizeof change);
			w.variant = wider(w.variant, s->variant);
			w.metric = wider(w.metric, s->metric);
			w.change = wider(w.change, change);
		}
	}
	fprintf(f, "  %sparams %s%s\n", st->bold, params, st->off);
	fprintf(f, "    %s%-*s %-*s %11s %11s  %-*s %s%s\n", st->dim, w.variant, "variant",
		w.metric, "metric", r->comparison ? "B median" : "median",
		r->comparison ? "A median" : "baseline", w.change, "change [95% interval]", "verdict",
		st->off);
	const char *said = NULL;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (in_row(s, kernel, params, NULL) && shown(s))
			print_series(f, st, &w, s, &said);
	}
	for (size_t i = 0; i < r->expect_count; i++)
		if (of_group(&r->expects[i], kernel, params))
			print_expect(f, st, r, &r->expects[i]);
	print_sites(f, st, r, kernel, params);
}

/* ---- the compact report (the default; --details prints print_group) ---- */

/* How much a verdict says about a variant: the row shows its worst. */
static int verdict_weight(enum verdict v);

/* The weight of S on its row: a regression that does not gate (--gate)
 * weighs as an inconclusive one (shown, never failing). */
static int series_weight(const struct series *s);

static int verdict_weight(enum verdict v)
{
	switch (v) {
	case VERDICT_FAIL:
		return 5;
	case VERDICT_ERROR:
		return 4;
	case VERDICT_INCONCLUSIVE:
		return 3;
	case VERDICT_IMPROVED:
		return 2;
	default:
		return 0;
	}
}

static int series_weight(const struct series *s)
{
	if (s->verdict == VERDICT_FAIL && !s->gated)
		return verdict_weight(VERDICT_INCONCLUSIVE);
	return verdict_weight(s->verdict);
}


/* Whether NAME is one of the *N names of SEEN; if not it is added (SEEN
 * has room for every name the caller may add). Linear in *N, a group's
 * variants, never the run's series. */
static int seen_before(const char **seen, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(seen[i], name))
			return 1;
	seen[(*n)++] = name;
	return 0;
}

/* A timing series left undecided only because other processes disturbed
 * its samples: counted in its group's line with the group's one note, not
 * listed (beside a busy neighbour every timing series is such). */
static int disturbed_only(const struct series *s)
{
	return s->verdict == VERDICT_INCONCLUSIVE && s->cls == METRIC_TIMING && s->note &&
	       !strncmp(s->note, "disturbed:", 10);
}

/* A series shown in full under its variant's row: it failed, changed, is
 * inconclusive for another reason than disturbance, or could not be checked. */
static int notable(const struct series *s)
{
	return series_weight(s) > 0 && !disturbed_only(s);
}

/* Appends "  [REGION.]NAME VALUE[ CHANGE]" to BUF for every series of the
 * row whose metric's last part is BASE (one per region). */
static void key_figures(const struct run_result *r, const char *kernel, const char *params,
			const char *variant, const char *base, const char *name, char *buf,
			size_t size)
{
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		const char *dot = strrchr(s->metric, '.');
		if (!in_row(s, kernel, params, variant) || strcmp(dot ? dot + 1 : s->metric, base))
			continue;
		char value[32], change[64] = "";
		double v = s->median;
		if (!strcmp(s->unit, "ns") || !strcmp(s->unit, "bytes") || !(v >= 1e4))
			format_value(v, s->unit, value, sizeof value);
		else   /* a count: 3 digits are enough on the row, --details has them all */
			snprintf(value, sizeof value, v >= 1e9 ? "%.3gG" : v >= 1e6 ? "%.3gM" : "%.3gk",
				 v >= 1e9 ? v / 1e9 : v >= 1e6 ? v / 1e6 : v / 1e3);
		if (s->has_baseline && s->verdict != VERDICT_SKIPPED &&
		    (s->baseline_median == 0 ? s->median != 0
					     : isfinite(s->change) && fabs(s->change) >= 0.0005)) {
			change[0] = ' ';
			format_change_word(s, change + 1, sizeof change - 1);
		}
		size_t n = strlen(buf);
		snprintf(buf + n, size - n, "  %.*s%s %s%s", dot ? (int)(dot - s->metric + 1) : 0,
			 s->metric, name, value, change);
	}
}

/* The row's allocation calls: heap_calls ("allocs") when the counted
 * build saw any, else each proc_*_calls the interposer counted (code the
 * counting include did not compile: a prebuilt library), so that a row
 * never says "allocs 0" over calls another counter saw. */
static void alloc_figures(const struct run_result *r, const char *kernel, const char *params,
			  const char *variant, char *buf, size_t size)
{
	static const char *const proc[][2] = {
		{ "proc_malloc_calls", "malloc" }, { "proc_calloc_calls", "calloc" },
		{ "proc_realloc_calls", "realloc" }, { "proc_aligned_calls", "aligned" },
	};
	int heap_seen = 0, proc_seen = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		const char *dot = strrchr(s->metric, '.'), *base = dot ? dot + 1 : s->metric;
		if (!in_row(s, kernel, params, variant) || !(s->median > 0))
			continue;
		heap_seen |= !strcmp(base, "heap_calls");
		proc_seen |= !strncmp(base, "proc_", 5) && strstr(base, "_calls") != NULL;
	}
	if (heap_seen || !proc_seen) {
		key_figures(r, kernel, params, variant, "heap_calls", "allocs", buf, size);
		return;
	}
	for (size_t k = 0; k < sizeof proc / sizeof proc[0]; k++) {
		int any = 0;
		for (size_t i = 0; i < r->series_count && !any; i++) {
			const struct series *s = &r->series[i];
			const char *dot = strrchr(s->metric, '.');
			any = in_row(s, kernel, params, variant) && s->median > 0 &&
			      !strcmp(dot ? dot + 1 : s->metric, proc[k][0]);
		}
		if (any)
			key_figures(r, kernel, params, variant, proc[k][0], proc[k][1], buf, size);
	}
}

/* One row per variant of the group: its key figures and worst verdict,
 * then its notable series in full. */
static void print_rows(FILE *f, const struct style *st, const struct run_result *r,
		       const char *kernel, const char *params, struct columns *w)
{
	const char *said = NULL;   /* the group's last note */
	const char **seen = calloc(r->series_count + 1, sizeof *seen);
	size_t seen_count = 0;
	for (size_t i = 0; seen && i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		const char *variant = s->variant;
		/* each variant's row once, at its first series */
		if (!in_row(s, kernel, params, NULL) || seen_before(seen, &seen_count, variant))
			continue;
		const struct series *worst = NULL;
		for (size_t j = i; j < r->series_count; j++)
			if (in_row(&r->series[j], kernel, params, variant) &&
			    series_weight(&r->series[j]) > (worst ? series_weight(worst) : 0))
				worst = &r->series[j];
		int info = worst && worst->verdict == VERDICT_FAIL && !worst->gated;
		char figures[600] = "";
		key_figures(r, kernel, params, variant, "wall_ns", "wall", figures, sizeof figures);
		alloc_figures(r, kernel, params, variant, figures, sizeof figures);
		key_figures(r, kernel, params, variant, "cost_instructions", "instr", figures,
			    sizeof figures);
		fprintf(f, "    %-*s%s  %s%s%s\n", w->variant, variant, figures,
			info ? st->yellow : verdict_color(st, worst ? worst->verdict : VERDICT_PASS),
			info ? "moved (not gated)" : result_verdict_name(worst ? worst->verdict
										: VERDICT_PASS), st->off);
		for (size_t j = i; j < r->series_count; j++)
			if (in_row(&r->series[j], kernel, params, variant) && notable(&r->series[j]))
				print_series(f, st, w, &r->series[j], &said);
	}
	free(seen);
}

/* The reasons a folded line gave in full, so that a later group's line
 * names the same one by its head ("cost key changed since the baseline
 * (as above)") instead of repeating the whole on every group. */
struct fold_said {
	const char *why[8];
	size_t count;
};

/* Appends to LINE (of SIZE, N used) reason WHY in full the first time,
 * by its head (up to its first " (" or ':') after that. */
static size_t fold_reason(char *line, size_t size, size_t n, const char *why,
			  struct fold_said *said)
{
	size_t k = 0;
	while (k < said->count && strcmp(said->why[k], why))
		k++;
	if (n >= size)
		return n;
	if (k == said->count) {
		if (said->count < sizeof said->why / sizeof said->why[0])
			said->why[said->count++] = why;
		n += (size_t)snprintf(line + n, size - n, "%s", why);
	} else {
		size_t head = strcspn(why, ":");
		const char *paren = strstr(why, " (");
		if (paren && (size_t)(paren - why) < head)
			head = (size_t)(paren - why);
		if (head)
			n += (size_t)snprintf(line + n, size - n, "%.*s (as above)", (int)head, why);
		else
			n += (size_t)snprintf(line + n, size - n, "%s", why);
	}
	return n < size ? n : size;
}

/* The folded rest of a group: how many series passed unchanged, are new,
 * advisory, or were not compared (with each reason and its count). */
static void print_folded(FILE *f, const struct style *st, const struct run_result *r,
			 const char *kernel, const char *params, struct fold_said *said)
{
	enum { REASONS = 4 };
	size_t counts = 0, timings = 0, skipped = 0, fresh = 0, advisory = 0, disturbed = 0;
	const char *disturbed_note = NULL;
	const char *why[REASONS] = { 0 };
	size_t why_count[REASONS] = { 0 }, other = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!in_row(s, kernel, params, NULL) || notable(s))
			continue;
		if (disturbed_only(s)) {
			disturbed++;
			disturbed_note = disturbed_note ? disturbed_note : s->note;
		} else if (s->advisory) {
			advisory++;
		} else if (s->verdict == VERDICT_SKIPPED) {
			size_t k = 0;
			skipped++;
			while (k < REASONS && why[k] && strcmp(why[k], s->note ? s->note : ""))
				k++;
			if (k == REASONS) {
				other++;
				continue;
			}
			why[k] = s->note ? s->note : "";
			why_count[k]++;
		} else if (s->verdict == VERDICT_NEW) {
			fresh++;
		} else if (s->cls == METRIC_TIMING) {
			timings++;
		} else {
			counts++;
		}
	}
	char line[2000];
	size_t n = (size_t)snprintf(line, sizeof line, "%zu counts unchanged", counts);
#define FOLD_ADD(...) (n += (size_t)snprintf(line + n, n < sizeof line ? sizeof line - n : 0, \
					       __VA_ARGS__), n = n < sizeof line ? n : sizeof line)
	if (timings)
		FOLD_ADD(", %zu timings within tolerance", timings);
	if (fresh)
		FOLD_ADD(", %zu new (no baseline)", fresh);
	if (disturbed)
		FOLD_ADD(", %zu timings disturbed (not decided)", disturbed);
	if (advisory)
		FOLD_ADD(", %zu timings advisory", advisory);
	if (skipped)
		FOLD_ADD(", %zu not compared", skipped);
	for (size_t k = 0; k < REASONS && why[k]; k++) {
		FOLD_ADD("%s%zu: ", k ? "; " : " (", why_count[k]);
		n = fold_reason(line, sizeof line, n, why[k], said);
	}
	if (other)
		FOLD_ADD("; %zu for other reasons", other);
	if (why[0])
		FOLD_ADD(")");
#undef FOLD_ADD
	fprintf(f, "    %s%s%s\n", st->dim, line, st->off);
	if (disturbed_note)
		fprintf(f, "    %s%s%s\n", st->dim, disturbed_note, st->off);
}

/* One line for the expectations of a group that are not gated: how many,
 * what they are declared for, how many hold (--details lists each). */
static void print_information(FILE *f, const struct style *st, const struct run_result *r,
			      const char *kernel, const char *params)
{
	size_t n = 0, held = 0, failed = 0;
	char declared[256] = "", first[256] = "";
	for (size_t i = 0; i < r->expect_count; i++) {
		const struct expect_result *e = &r->expects[i];
		if (e->gated || !of_group(e, kernel, params))
			continue;
		n++;
		held += e->verdict == VERDICT_PASS;
		failed += e->verdict == VERDICT_FAIL;
		format_expect_declared(e, declared, sizeof declared);
		size_t used = strlen(first), k = strlen(declared);
		int listed = 0;
		for (const char *p = first; (p = strstr(p, declared)) && !listed; p++)
			listed = (p == first || p[-1] == ' ') && (p[k] == ',' || !p[k]);
		if (!listed && used + k + 3 < sizeof first)
			snprintf(first + used, sizeof first - used, "%s%s", used ? ", " : "", declared);
	}
	if (!n)
		return;
	fprintf(f, "    %sinformation: %zu claim%s declared for %s, not gated under %s: %zu hold%s, "
		"%zu do%s not, %zu undecided (--details)%s\n", st->dim, n, n == 1 ? "" : "s", first,
		r->ctx.allocator ? r->ctx.allocator : "this allocator", held,
		held == 1 ? "s" : "", failed, failed == 1 ? "es" : "", n - held - failed, st->off);
}

/* One claim's line, and its note unless it is *SAID, the note of the
 * group's claim printed before it (a busy neighbour disturbs them alike). */
static void print_expect_line(FILE *f, const struct style *st, const struct expect_result *e,
			      const char **said)
{
	char upper[16], estimate[420] = "";
	if (!e->gated)
		return;   /* print_information's line */
	format_verdict_upper(e->verdict, upper, sizeof upper);
	if (e->a.measured) {
		char sides[400];
		format_expect_sides(e, sides, sizeof sides);
		snprintf(estimate, sizeof estimate, "  (%s)", sides);
	} else {
		format_expect_values(e, estimate + 2, sizeof estimate - 2);
		if (estimate[2])
			memcpy(estimate, ": ", 2);
		else if (isfinite(e->estimate))   /* a result file without both sides' values */
			snprintf(estimate, sizeof estimate, "  (%s %.4g [%.4g, %.4g])",
				 e->ratio ? "lhs/rhs" : "lhs-rhs", e->estimate, e->ci_low,
				 e->ci_high);
	}
	fprintf(f, "    %s%-12s%s %s:%d  %s%s\n", verdict_color(st, e->verdict), upper, st->off,
		e->file, e->line, e->expr, estimate);
	if (e->note && e->verdict != VERDICT_PASS && !(*said && !strcmp(*said, e->note)))
		fprintf(f, "    %-12s %s%s%s\n", "", st->dim, e->note, st->off);
	if (e->note && e->verdict != VERDICT_PASS)
		*said = e->note;
}

static void print_compact_group(FILE *f, const struct style *st, const struct run_result *r,
				const char *kernel, const char *params, struct fold_said *folded)
{
	struct columns w = { 18, 22, 26 };
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		char change[64];
		if (in_row(s, kernel, params, NULL)) {
			w.variant = wider(w.variant, s->variant);
			if (notable(s)) {
				format_change(s, change, sizeof change);
				w.metric = wider(w.metric, s->metric);
				w.change = wider(w.change, change);
			}
		}
	}
	fprintf(f, "  %sparams %s%s\n", st->bold, params, st->off);
	print_rows(f, st, r, kernel, params, &w);
	print_folded(f, st, r, kernel, params, folded);
	const char *said = NULL;
	for (size_t i = 0; i < r->expect_count; i++)
		if (of_group(&r->expects[i], kernel, params))
			print_expect_line(f, st, &r->expects[i], &said);
	print_information(f, st, r, kernel, params);
}

static void print_kernels(FILE *f, const struct style *st, const struct run_result *r,
			  int details)
{
	const char *kernel = NULL;
	/* the first series of each group printed so far */
	const struct series **groups = calloc(r->series_count + 1, sizeof *groups);
	size_t group_count = 0;
	struct fold_said said = { .count = 0 };
	for (size_t i = 0; groups && i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!kernel || !group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, NULL, NULL))) {
			kernel = s->kernel;
			fprintf(f, "\n%s%s%s\n", st->bold, kernel, st->off);
		}
		/* series are sorted by kernel, variant, params: each group once, at
		 * its first series */
		size_t g = 0;
		while (g < group_count && !in_row(groups[g], s->kernel, s->params, NULL))
			g++;
		if (g < group_count)
			continue;
		groups[group_count++] = s;
		if (details)
			print_group(f, st, r, kernel, s->params);
		else
			print_compact_group(f, st, r, kernel, s->params, &said);
	}
	free(groups);
}

static void print_header(FILE *f, const struct style *st, const struct run_result *r,
			 const struct run_result *base)
{
	const struct context *c = &r->ctx;
	char cpu[300] = "?";
	if (c->cpu_model)   /* "AMD EPYC family 0x1a model 0x02 stepping 1" */
		cpu_identity_text(c, cpu, sizeof cpu);
	fprintf(f, "%sallocgate %s%s  %s  %s (%d cores)  %s tier  seed %lld\n", st->bold,
		c->gate_version ? c->gate_version : "?", st->off, c->platform_key,
		cpu, c->cpu_count, c->tier ? c->tier : "?", c->seed);
	if (c->env && *c->env)
		fprintf(f, "kernel environment: %s\n", c->env);
	if (c->cost_tool && *c->cost_tool)
		fprintf(f, "cost pass: %s, CPU under valgrind %s\n", c->cost_tool,
			c->cost_cpu ? c->cost_cpu : "?");
	if (r->comparison)
		fprintf(f, "%s\n", r->comparison);
	else if (r->baseline_written)
		fprintf(f, "baseline: written to %s by this run (the next run compares against "
			"it)\n", r->baseline_written);
	else if (r->baseline_path)
		fprintf(f, "baseline: %s (recorded %s, commit %s)\n", r->baseline_path,
			base && base->ctx.started_at ? base->ctx.started_at : "?",
			base && base->ctx.commit ? base->ctx.commit : "not recorded");
	else
		fprintf(f, "baseline: none for %s; expectations are still checked "
			"(create one: rerun with --update-baseline)\n", c->platform_key);
	if (r->baseline_note)
		fprintf(f, "%s%s%s\n", st->yellow, r->baseline_note, st->off);
	unavailable_print(f, r);
}

static void print_problems(FILE *f, const struct style *st, const struct run_result *r)
{
	int any = 0;
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		if (!p->kernel)
			continue;
		if (!any++)
			fprintf(f, "\n%sproblems%s\n", st->bold, st->off);
		fprintf(f, "  %s%s%s%s%s%s%s %s: %s\n", st->red, p->kernel, p->variant ? "/" : "",
			p->variant ? p->variant : "", p->params ? "/" : "", p->params ? p->params : "",
			st->off, p->what, p->reason);
	}
}

/* The numbers of the method line from R's policy ("alpha 0.05, minimum
 * effect 3%"), or what a file that did not record them says instead. */
static void policy_numbers(const struct run_result *r, size_t timed, char *buf, size_t size)
{
	const struct run_policy *p = &r->policy;
	if (!p->recorded) {
		snprintf(buf, size, "over %zu comparisons (this result file does not record its "
			 "alpha and minimum effect)", timed);
		return;
	}
	if (r->comparison)
		snprintf(buf, size, "over %zu comparisons (alpha %.2g), minimum effect %.0f%%",
			 timed, p->alpha, 100 * p->min_effect);
	else
		snprintf(buf, size, "over %zu comparisons (alpha %.2g), tolerance max(%.0f%%, %g x "
			 "drift of the baseline's batches and history), the code as a whole %.0f%%",
			 timed, p->alpha, 100 * p->min_effect, p->drift_factor,
			 100 * fmin(p->min_effect, p->min_effect_whole));
}

/* How the comparisons were decided: the tests and the correction, named,
 * with the thresholds of R's own policy. */
static void print_method(FILE *f, const struct style *st, const struct run_result *r)
{
	size_t timed = 0, confirmed = 0, advisory = 0;
	const struct run_policy *p = &r->policy;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		timed += s->cls == METRIC_TIMING && isfinite(s->p_value);
		confirmed += s->confirmed >= 0;
		advisory += s->advisory;
	}
	if (advisory)
		fprintf(f, "\n%s%zu timing series advisory: their drift (the baseline's batches and "
			"earlier recordings) is too large to gate them; shown, never failing.%s\n",
			st->dim, advisory, st->off);
	if (p->recorded) {
		char gates[120];
		format_gates(p, gates, sizeof gates);
		fprintf(f, "\n%sgating %s (--gate); declared expectations always gate.%s\n", st->dim,
			gates, st->off);
	}
	size_t disturbed, samples;
	result_tally_disturbed(r, &disturbed, &samples);
	if (disturbed)
		fprintf(f, "\n%sinterference: %zu of %zu timing samples disturbed (other tasks held "
			"their CPU or the machine), left out of timing verdicts.%s\n", st->dim,
			disturbed, samples, st->off);
	if (!timed)
		return;
	char numbers[200];
	policy_numbers(r, timed, numbers, sizeof numbers);
	if (r->comparison) {
		char how[600], rounds[300];
		format_ab_schedule(&r->schedule, how, sizeof how);
		format_ab_rounds(&r->schedule, p->min_effect, rounds, sizeof rounds);
		if (*rounds)
			fprintf(f, "\n%s%s.%s\n", st->dim, rounds, st->off);
		fprintf(f, "\n%stiming: per-round ratio B/A (%s), "
			"median with binomial 95%% interval, one-sided Wilcoxon signed-rank, "
			"%s correction %s; %zu "
			"suspected regressions re-measured in a confirmation batch of both sides. "
			"exact: %g%% tolerance; page faults: A's spread + %g%% + %g.%s\n", st->dim,
			*how ? how : "A and B ran in the same shuffled rounds",
			p->fdr ? "Benjamini-Hochberg" : "Holm", numbers, confirmed,
			100 * p->exact_tolerance, 100 * p->near_tolerance, p->near_floor, st->off);
		return;
	}
	fprintf(f, "\n%stiming: Hodges-Lehmann ratio with Moses 95%% interval, one-sided Mann-Whitney, "
		"%s correction %s; %zu suspected regressions "
		"re-measured in a confirmation batch. "
		"exact: %g%% tolerance; page faults: baseline spread + %g%% + %g.%s\n", st->dim,
		p->fdr ? "Benjamini-Hochberg" : "Holm", numbers, confirmed, 100 * p->exact_tolerance, 100 * p->near_tolerance, p->near_floor,
		st->off);
	double shift;
	size_t shifted = result_tally_machine_shift(r, &shift);
	char reference[400];
	if (format_reference(r, reference, sizeof reference))
		fprintf(f, "%smachine: %s.%s\n", st->dim, reference, st->off);
	if (shifted)
		fprintf(f, "%smachine: the %zu compared timing series moved by a median of "
			"%+.1f%% since the baseline.%s\n", st->dim, shifted, 100 * shift, st->off);
}

/* Under "what broke", when a timing series failed while the run's timing
 * as a whole moved: the reader's first question. */
static void print_shift_warning(FILE *f, const struct run_result *r)
{
	double shift;
	size_t shifted = result_tally_machine_shift(r, &shift);
	if (!shifted || fabs(shift) < RESULT_SHIFT_NOTABLE)
		return;
	char held[200];
	const char *cause = format_code_cause(r, held, sizeof held) ? held
		: "when every kernel moves at once, the machine's state (its load, its "
		  "neighbours) is the likelier cause; `gate ab` measures both builds in the "
		  "same rounds";
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (s->verdict == VERDICT_FAIL && s->gated && s->cls == METRIC_TIMING) {
			fprintf(f, "  note: the %zu compared timing series moved by a median of "
				"%+.1f%% since the baseline: %s\n", shifted, 100 * shift, cause);
			return;
		}
	}
}

static void print_summary(FILE *f, const struct style *st, const struct run_result *r)
{
	size_t sv[VERDICT_ERROR + 1], ev[VERDICT_ERROR + 1], information, failures;
	result_tally_verdicts(r, sv, ev, &information, &failures);
	char info[160] = "";
	size_t n = 0;
	/* gate ab's decisions on claims, named only where there are some */
	if (ev[VERDICT_IMPROVED])
		n += (size_t)snprintf(info + n, sizeof info - n, ", %zu improved (failing on A, "
				      "holding on B)", ev[VERDICT_IMPROVED]);
	if (ev[VERDICT_FAIL_BOTH])
		n += (size_t)snprintf(info + n, sizeof info - n, ", %zu failing before and after "
				      "(not failing the change)", ev[VERDICT_FAIL_BOTH]);
	if (information)
		snprintf(info + n, sizeof info - n, ", %zu not gated (information)", information);
	const char *word = gate_exit_word(r->exit_code);
	char moved[64] = "";
	size_t not_gated = result_tally_not_gated(r);
	if (not_gated)
		snprintf(moved, sizeof moved, ", %zu moved but not gated", not_gated);
	fprintf(f, "\n%s%s%s: %zu series (%zu regressed, %zu improved, %zu inconclusive, %zu new, "
		"%zu not compared%s); %zu expectations (%zu pass, %zu fail, %zu inconclusive, %zu "
		"skipped, %zu error)%s; %zu problems; %.1f s; exit %d\n",
		r->exit_code ? st->red : st->green, word, st->off, r->series_count, sv[VERDICT_FAIL],
		sv[VERDICT_IMPROVED], sv[VERDICT_INCONCLUSIVE], sv[VERDICT_NEW], sv[VERDICT_SKIPPED],
		moved, r->expect_count - information, ev[VERDICT_PASS], ev[VERDICT_FAIL], ev[VERDICT_INCONCLUSIVE],
		ev[VERDICT_SKIPPED], ev[VERDICT_ERROR], info, failures, r->wall_seconds, r->exit_code);
}

/* The places of (KERNEL, VARIANT, PARAMS) whose allocation calls changed,
 * one line each ("src/value.c:522 json_array_grow: realloc 11 -> malloc 11
 * + free 11 (via ...)"), the group named after it when LABELLED. */
static void print_site_changes(FILE *f, const struct run_result *r, const char *kernel,
			       const char *variant, const char *params, int indent, bool labelled)
{
	struct site_shift sh[16];
	char text[2400];
	size_t n = sites_shifts(r, kernel, variant, params, sh, 16);
	for (size_t k = 0; k < n; k++) {
		format_site_shift(&sh[k], text, sizeof text);
		if (labelled)
			fprintf(f, "%*s%s (%s/%s/%s)\n", 2 + 2 * indent, "", text, kernel, variant,
				params);
		else
			fprintf(f, "%*s%s\n", 2 + 2 * indent, "", text);
	}
}

/* Site changes of variants whose counts did not regress (a call moved to
 * another line, or a site of equal calls and other bytes): listed, not
 * failing. */
static void print_other_site_changes(FILE *f, const struct style *st, const struct run_result *r)
{
	int any = 0;
	for (size_t i = 0; i < r->site_change_count; i++) {
		const struct site_change *c = &r->site_changes[i];
		if (!sites_first_of_group(r, i) ||
		    sites_explain_failure(r, c->kernel, c->variant, c->params))
			continue;
		if (!any++)
			fprintf(f, "\n%sallocation calls that moved%s (no count of their variant "
				"regressed)\n", st->bold, st->off);
		print_site_changes(f, r, c->kernel, c->variant, c->params, 0, true);
	}
}

/* One line of "what broke" for violated expectation E: its inequality with
 * both sides' values; of gate ab with both sides' figures (it held on A). */
static void print_failed_claim(FILE *f, const struct expect_result *e)
{
	char sides[400], values[100];
	if (!e->a.measured) {
		format_expect_values(e, values, sizeof values);
		fprintf(f, "  %s:%d: expectation violated on %s: %s%s%s (per-round %s %.4g, "
			"interval [%.4g, %.4g], %zu rounds)\n", e->file, e->line, e->params, e->expr,
			*values ? ": " : "", values, e->ratio ? "ratio" : "difference", e->estimate,
			e->ci_low, e->ci_high, e->rounds);
		return;
	}
	format_expect_sides(e, sides, sizeof sides);
	fprintf(f, "  %s:%d: expectation violated by the change on %s: %s (%s)\n", e->file, e->line,
		e->params, e->expr, sides);
}

/* One paragraph per (kernel, variant, params) whose series regressed with
 * GATED as their gated: its place, the metrics that moved (format_moved),
 * and for gated ones the allocation sites that changed under it. */
static void print_moved(FILE *f, const struct run_result *r, bool gated)
{
	char text[4000];
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!format_group_first(r, i, gated))
			continue;
		format_moved(r, i, gated, text, sizeof text);
		fprintf(f, "  %s:%d: %s %s/%s/%s: %s\n", s->file ? s->file : "?", s->line,
			gated ? "regression" : "moved", s->kernel, s->variant, s->params, text);
		if (gated && sites_explain_failure(r, s->kernel, s->variant, s->params))
			print_site_changes(f, r, s->kernel, s->variant, s->params, 1, false);
	}
}

/* gate ab: the claims of verdict V (fail_both, improved) under TITLE,
 * each with both sides' figures. */
static void print_claims(FILE *f, const struct style *st, const struct run_result *r,
			 enum verdict v, const char *title)
{
	char sides[400];
	int any = 0;
	for (size_t i = 0; i < r->expect_count; i++) {
		const struct expect_result *e = &r->expects[i];
		if (e->verdict != v || !e->gated)
			continue;
		if (!any++)
			fprintf(f, "\n%s%s%s\n", st->bold, title, st->off);
		format_expect_sides(e, sides, sizeof sides);
		fprintf(f, "  %s:%d: %s on %s: %s (%s)\n", e->file, e->line, e->kernel, e->params,
			e->expr, sides);
	}
}

static void print_failures(FILE *f, const struct style *st, const struct run_result *r)
{
	int any = 0;
	for (size_t i = 0; i < r->expect_count; i++) {
		const struct expect_result *e = &r->expects[i];
		if (e->verdict != VERDICT_FAIL || !e->gated)
			continue;
		if (!any++)
			fprintf(f, "\n%swhat broke%s\n", st->bold, st->off);
		print_failed_claim(f, e);
	}
	for (size_t i = 0; i < r->series_count && !any; i++)
		if (r->series[i].verdict == VERDICT_FAIL && r->series[i].gated)
			any = fprintf(f, "\n%swhat broke%s\n", st->bold, st->off) > 0;
	print_moved(f, r, true);
	if (any)
		print_shift_warning(f, r);
	if (result_tally_not_gated(r)) {
		char gates[120];
		format_gates(&r->policy, gates, sizeof gates);
		fprintf(f, "\n%smoved, not gated%s (this run gates %s: --gate)\n", st->bold, st->off,
			gates);
		print_moved(f, r, false);
	}
	print_claims(f, st, r, VERDICT_FAIL_BOTH, "claims that fail before and after (on A and "
		     "on B: false on this machine whatever the change; not failing it)");
	print_claims(f, st, r, VERDICT_IMPROVED, "claims that hold now (failed on A, hold on B)");
	print_other_site_changes(f, st, r);
}

static void print_report(FILE *f, const struct run_result *r, const struct report_term_options *o,
			 const struct run_result *base)
{
	struct style st = pick_style(f, o);
	print_header(f, &st, r, base);
	print_kernels(f, &st, r, o->details);
	print_problems(f, &st, r);
	print_failures(f, &st, r);
	print_method(f, &st, r);
	print_summary(f, &st, r);
	fflush(f);
}

/* Every text of R and BASE under the terminal's rule (escape.h) first. */
void report_term_print(FILE *f, const struct run_result *r, const struct report_term_options *o,
		       const struct run_result *base)
{
	struct run_result er, eb;

	if (escape_result(r, escape_term_dup, &er) < 0) {
		fputs("gate: out of memory rendering the report\n", f);
		return;
	}
	if (base && escape_result(base, escape_term_dup, &eb) < 0) {
		escape_result_free(&er);
		fputs("gate: out of memory rendering the report\n", f);
		return;
	}
	print_report(f, &er, o, base ? &eb : NULL);
	escape_result_free(&er);
	if (base)
		escape_result_free(&eb);
}
