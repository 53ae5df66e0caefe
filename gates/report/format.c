/* format.c: the words and numbers every renderer shares (format.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/escape.h"
#include "report/series_rows.h"
#include "core/conditions.h"
#include "core/group_key.h"

void format_value(double v, const char *unit, char *buf, size_t size)
{
	if (!isfinite(v))
		snprintf(buf, size, "-");
	else if (!strcmp(unit, "ns"))
		snprintf(buf, size, v >= 1e9 ? "%.3g s" : v >= 1e6 ? "%.3g ms" : v >= 1e3 ? "%.3g us"
							       : "%.0f ns",
			 v >= 1e9 ? v / 1e9 : v >= 1e6 ? v / 1e6 : v >= 1e3 ? v / 1e3 : v);
	else if (!strcmp(unit, "bytes"))
		snprintf(buf, size, v >= 1 << 30 ? "%.3g GiB" : v >= 1 << 20 ? "%.3g MiB"
						    : v >= 1 << 10 ? "%.3g KiB" : "%.0f B",
			 v >= 1 << 30 ? v / (1 << 30) : v >= 1 << 20 ? v / (1 << 20)
					 : v >= 1 << 10 ? v / (1 << 10) : v);
	else
		snprintf(buf, size, "%.0f", v);
}

void format_verdict_upper(enum verdict v, char *buf, size_t size)
{
	snprintf(buf, size, "%s", result_verdict_name(v));
	for (char *c = buf; *c; c++)   /* ASCII, any locale; fail_both: "FAIL BOTH" */
		*c = *c == '_' ? ' ' : (char)(*c - 32 * (*c >= 'a' && *c <= 'z'));
}

static const char *series_word(enum verdict v)
{
	switch (v) {
	case VERDICT_FAIL: return "regression";
	case VERDICT_IMPROVED: return "improvement";
	case VERDICT_INCONCLUSIVE: return "inconclusive";
	case VERDICT_PASS: return "unchanged";
	case VERDICT_SKIPPED: return "not compared";
	case VERDICT_NEW: return "new (no baseline)";
	default: return result_verdict_name(v);
	}
}

void format_series(const struct series *s, char *buf, size_t size)
{
	char now[32], was[32], change[32] = "";
	format_value(s->median, s->unit, now, sizeof now);
	format_value(s->has_baseline ? s->baseline_median : NAN, s->unit, was,
			  sizeof was);
	if (s->has_baseline && isfinite(s->change))
		snprintf(change, sizeof change, " (%+.1f%%)", 100 * s->change);
	snprintf(buf, size, "%s %s/%s/%s %s: %s -> %s%s%s%s", series_word(s->verdict), s->kernel,
		 s->variant, s->params, s->metric, was, now, change, s->note ? "; " : "",
		 s->note ? s->note : "");
}

static const char *expect_word(const struct expect_result *e)
{
	switch (e->verdict) {
	case VERDICT_FAIL:
		return e->a.measured ? "expectation violated by the change (holds on A, fails on B)"
				     : "expectation violated";
	case VERDICT_FAIL_BOTH:
		return "expectation fails before and after (on A and on B: not a failure of the "
		       "change)";
	case VERDICT_IMPROVED: return "expectation holds now (fails on A, holds on B)";
	case VERDICT_PASS: return e->a.measured ? "expectation holds on A and B" : "expectation holds";
	case VERDICT_INCONCLUSIVE: return "expectation inconclusive";
	case VERDICT_SKIPPED: return "expectation skipped";
	default: return "expectation could not be checked";
	}
}

/* What a claim's own verdict on one side says ("holds", "fails"). */
static const char *side_word(enum verdict v)
{
	switch (v) {
	case VERDICT_PASS: return "holds";
	case VERDICT_FAIL: return "fails";
	case VERDICT_INCONCLUSIVE: return "inconclusive";
	case VERDICT_SKIPPED: return "skipped";
	default: return "could not be checked";
	}
}

void format_expect_sides(const struct expect_result *e, char *buf, size_t size)
{
	const char *q = e->ratio ? "lhs/rhs" : "lhs-rhs";
	snprintf(buf, size, "A %s, %s %.4g [%.4g, %.4g], %zu rounds; B %s, %s %.4g [%.4g, %.4g], "
		 "%zu rounds", side_word(e->a.verdict), q, e->a.estimate, e->a.ci_low,
		 e->a.ci_high, e->a.rounds, side_word(e->b_verdict), q, e->estimate, e->ci_low,
		 e->ci_high, e->rounds);
}

void format_expect_declared(const struct expect_result *e, char *buf, size_t size)
{
	conditions_allocators(e->conditions, buf, size);
	if (size && !buf[0])
		snprintf(buf, size, "%s", e->conditions ? e->conditions : "every allocator");
}

void format_expect_info(const struct expect_result *e, const char *allocator, char *buf,
			size_t size)
{
	char declared[256];
	const char *under = allocator && *allocator ? allocator : "this allocator";
	format_expect_declared(e, declared, sizeof declared);
	switch (e->verdict) {
	case VERDICT_PASS:
		snprintf(buf, size, "holds under %s too (declared for %s, not gated)", under,
			 declared);
		break;
	case VERDICT_FAIL:
		snprintf(buf, size, "does not hold under %s (declared for %s, not gated)", under,
			 declared);
		break;
	case VERDICT_INCONCLUSIVE:
		snprintf(buf, size, "inconclusive under %s (declared for %s, not gated)", under,
			 declared);
		break;
	default:
		snprintf(buf, size, "not measured under %s (declared for %s, not gated)", under,
			 declared);
		break;
	}
}

void format_expect(const struct expect_result *e, const char *allocator, char *buf, size_t size)
{
	char info[400] = "";
	if (!e->gated) {
		format_expect_info(e, allocator, info, sizeof info);
		snprintf(buf, size, "information on %s: %s: %s (estimate %.4g, interval [%.4g, "
			 "%.4g], %zu rounds)%s%s", e->params, e->expr, info, e->estimate, e->ci_low,
			 e->ci_high, e->rounds, e->note ? "; " : "", e->note ? e->note : "");
		return;
	}
	if (e->a.measured) {
		char sides[400];
		format_expect_sides(e, sides, sizeof sides);
		snprintf(buf, size, "%s on %s: %s (%s)%s%s", expect_word(e), e->params, e->expr,
			 sides, e->note ? "; " : "", e->note ? e->note : "");
		return;
	}
	char values[100];
	format_expect_values(e, values, sizeof values);
	if (!*values || !isfinite(e->estimate)) {   /* not measured, or an older file */
		snprintf(buf, size, "%s on %s: %s (estimate %.4g, interval [%.4g, %.4g], %zu "
			 "rounds)%s%s", expect_word(e), e->params, e->expr, e->estimate, e->ci_low,
			 e->ci_high, e->rounds, e->note ? "; " : "", e->note ? e->note : "");
		return;
	}
	snprintf(buf, size, "%s on %s: %s: %s (per-round %s %.4g, interval [%.4g, %.4g], %zu "
		 "rounds)%s%s", expect_word(e), e->params, e->expr, values,
		 e->ratio ? "ratio" : "difference", e->estimate, e->ci_low, e->ci_high, e->rounds,
		 e->note ? "; " : "", e->note ? e->note : "");
}

void format_count(uint64_t v, char *buf, size_t size)
{
	char digits[32];
	int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), k = 0;
	size_t used = 0;
	for (int i = 0; i < n && used + 2 < size; i++) {
		buf[used++] = digits[i];
		k = n - i - 1;
		if (k && k % 3 == 0)
			buf[used++] = ',';
	}
	buf[used < size ? used : size - 1] = '\0';
}

void format_site_place(const char *file, int line, char *buf, size_t size)
{
	if (line > 0)
		snprintf(buf, size, "%s:%d", file, line);
	else
		snprintf(buf, size, "inside %s", file);
}

void format_site(const struct site *s, char *buf, size_t size)
{
	char calls[32], bytes[32] = "", place[600], in[300] = "";
	format_count(s->calls, calls, sizeof calls);
	format_site_place(s->file, s->line, place, sizeof place);
	if (s->bytes)
		format_value((double)s->bytes, "bytes", bytes, sizeof bytes);
	if (s->line > 0)
		snprintf(in, sizeof in, " in %s", s->function);
	snprintf(buf, size, "%s%s: %s %s call%s%s%s", place, in, calls, s->kind,
		 s->calls == 1 ? "" : "s", s->bytes ? ", " : "", bytes);
}

void format_site_change(const struct site_change *c, bool ab, char *buf, size_t size)
{
	char cb[32], ca[32], bb[32], ba[32], in[300] = "";
	if (c->line > 0)
		snprintf(in, sizeof in, " in %s", c->function);
	format_count(c->calls_before, cb, sizeof cb);
	format_count(c->calls_after, ca, sizeof ca);
	format_value((double)c->bytes_before, "bytes", bb, sizeof bb);
	format_value((double)c->bytes_after, "bytes", ba, sizeof ba);
	if (!c->before)
		snprintf(buf, size, "new allocation site%s: %s %s call%s%s%s%s", in, ca, c->kind, c->calls_after == 1 ? "" : "s",
			 c->bytes_after ? ", " : "", c->bytes_after ? ba : "", ab ? " (in B only)" : "");
	else if (!c->after)
		snprintf(buf, size, "allocation site gone%s: was %s %s call%s%s%s%s", in, cb, c->kind, c->calls_before == 1 ? "" : "s",
			 c->bytes_before ? ", " : "", c->bytes_before ? bb : "",
			 ab ? " (in A only)" : "");
	else if (c->calls_before != c->calls_after)
		snprintf(buf, size, "allocation site%s: %s calls %s%s -> %s%s%s%s%s%s", in, c->kind, ab ? "A " : "", cb, ab ? "B " : "", ca,
			 c->bytes_before != c->bytes_after ? ", bytes " : "",
			 c->bytes_before != c->bytes_after ? bb : "",
			 c->bytes_before != c->bytes_after ? " -> " : "",
			 c->bytes_before != c->bytes_after ? ba : "");
	else
		snprintf(buf, size, "allocation site%s: %s bytes %s%s -> %s%s (%s calls)", in,
			 c->kind, ab ? "A " : "", bb, ab ? "B " : "", ba,
			 ca);
}

void format_xml_text(FILE *f, const char *s)
{
	escape_xml(f, s);
}

static int moved(const struct series *s, bool gated)
{
	return s->verdict == VERDICT_FAIL && s->gated == gated;
}

/* moved as a group_key_pick: ARG points to the gated asked for. */
static bool pick_gated_moved(const struct series *s, const void *arg)
{
	return moved(s, *(const bool *)arg);
}

bool format_group_first(const struct run_result *r, size_t i, bool gated)
{
	return group_key_first_series(r, i, GROUP_SCOPE_VARIANT, pick_gated_moved, &gated);
}

void format_change_word(const struct series *s, char *buf, size_t size)
{
	if (!s->has_baseline || isnan(s->baseline_median))
		snprintf(buf, size, "%s", "");
	else if (s->baseline_median == 0)
		snprintf(buf, size, "%s", s->median == 0 ? "+0.0%" : "from 0");
	else if (isfinite(s->change))
		snprintf(buf, size, "%+.1f%%", 100 * s->change);
	else
		snprintf(buf, size, "%s", "");
}

void format_interval(const struct series *s, char *buf, size_t size)
{
	if (s->has_baseline && isfinite(s->ci_low))
		snprintf(buf, size, "[%+.1f%%, %+.1f%%]", 100 * (s->ci_low - 1),
			 100 * (s->ci_high - 1));
	else
		snprintf(buf, size, "%s", "");
}

/* The series of one group that moved with one gating: what a change's
 * line lists, one row per fact (report/series_rows.h). */
struct moved_pick {
	const struct series *group;
	bool gated;
};

static bool pick_moved(const struct series *s, const void *arg)
{
	const struct moved_pick *p = arg;
	return moved(s, p->gated) &&
	       group_key_same(GROUP_KEY(s), GROUP_KEY(p->group), GROUP_SCOPE_VARIANT);
}

/* "METRICS WAS -> NOW (CHANGE; NOTE)" of row S named METRICS, sides
 * named when AB, into BUF at *USED (advanced), "; " before it when not
 * first. */
static void moved_row(const struct series *s, const char *metrics, bool ab, char *buf,
		      size_t size, size_t *used)
{
	char was[32], now[32], change[32];
	format_value(s->baseline_median, s->unit, was, sizeof was);
	format_value(s->median, s->unit, now, sizeof now);
	format_change_word(s, change, sizeof change);
	/* timing: the test's figures (p, tolerance, confirmation) */
	const char *note = s->cls == METRIC_TIMING && s->note ? s->note : NULL;
	if (*used < size)
		*used += (size_t)snprintf(buf + *used, size - *used, "%s%s %s%s -> %s%s (%s%s%s)",
					  *used ? "; " : "", metrics, ab ? "A " : "", was,
					  ab ? "B " : "", now, *change ? change : "changed",
					  note ? "; " : "", note ? note : "");
}

size_t format_moved(const struct run_result *r, size_t i, bool gated, char *buf, size_t size)
{
	struct moved_pick p = { &r->series[i], gated };
	size_t n = 0, used = 0;
	if (size)
		buf[0] = 0;
	for (size_t j = i; j < r->series_count; j++) {
		if (!pick_moved(&r->series[j], &p))
			continue;
		n++;
		if (!series_rows_first(r, j, pick_moved, &p))
			continue;   /* named with an earlier one that moved alike */
		char metrics[400];
		series_rows_metrics(r, j, pick_moved, &p, metrics, sizeof metrics);
		moved_row(&r->series[j], metrics, r->comparison != NULL, buf, size, &used);
	}
	return n;
}

void format_gates(const struct run_policy *p, char *buf, size_t size)
{
	static const struct {
		unsigned bit;
		const char *name;
	} classes[] = { { POLICY_GATE_COUNTS, "counts" }, { POLICY_GATE_COST, "cost" },
			{ POLICY_GATE_TIMING, "timing" } };
	size_t used = 0;
	if (size)
		buf[0] = 0;
	if ((p->gates & POLICY_GATE_ALL) == POLICY_GATE_ALL) {
		snprintf(buf, size, "counts, cost and timing");
		return;
	}
	for (size_t i = 0; i < 3; i++)
		if (p->gates & classes[i].bit)
			used += (size_t)snprintf(buf + (used < size ? used : size),
						 used < size ? size - used : 0, "%s%s",
						 used ? ", " : "", classes[i].name);
	for (size_t i = 0, k = 0; i < 3; i++)
		if (!(p->gates & classes[i].bit))
			used += (size_t)snprintf(buf + (used < size ? used : size),
						 used < size ? size - used : 0, "%s%s",
						 k++ ? ", " : "; information: ", classes[i].name);
}

static void format_operand(double v, char *buf, size_t size)
{
	char digits[32];
	if (v == floor(v) && fabs(v) < 1e15) {
		format_count((uint64_t)fabs(v), digits, sizeof digits);
		snprintf(buf, size, "%s%s", v < 0 ? "-" : "", digits);
	} else {
		snprintf(buf, size, "%.4g", v);
	}
}

/* The comparison operator of claim text EXPR ("<", "<=", ...): the first
 * one in it (metric names and numbers hold none). */
static const char *expect_operator(const char *expr)
{
	const char *p = expr ? strpbrk(expr, "<>=") : NULL;
	if (!p)
		return "?";
	if (p[1] == '=')
		return p[0] == '<' ? "<=" : p[0] == '>' ? ">=" : "==";
	return p[0] == '<' ? "<" : p[0] == '>' ? ">" : "==";
}

void format_expect_values(const struct expect_result *e, char *buf, size_t size)
{
	char l[40], rv[40];
	if (size)
		buf[0] = 0;
	if (!isfinite(e->lhs_median) || !isfinite(e->rhs_median))
		return;
	format_operand(e->lhs_median, l, sizeof l);
	format_operand(e->rhs_median, rv, sizeof rv);
	snprintf(buf, size, "%s %s %s", l, expect_operator(e->expr), rv);
}

/* ": the kernels' groups slowed by a median of +X%, more than the +B% the
 * reference allows the machine: the code's", when the uniform rule said
 * so (decide/reference.h), else "". */
static void code_words(const struct reference *ref, char *buf, size_t size)
{
	buf[0] = 0;
	if (ref->code_shift > 0)
		snprintf(buf, size, "; the kernels' groups slowed by a median of %+.1f%%, more than "
			 "the %+.1f%% it allows the machine: the code's", 100 * ref->code_shift,
			 100 * (ref->bound - 1));
}

/* "; the machine is faster than when the baseline was recorded: ..." when
 * REF says so (decide/reference.h), else "". */
static void faster_words(const struct reference *ref, char *buf, size_t size)
{
	buf[0] = 0;
	if (ref->faster)
		snprintf(buf, size, "; the machine is faster than when the baseline was recorded "
			 "(every part, its %s part by %+.1f%%), so a slowdown of the code as large "
			 "as the kernels' own speedup can hide: `./gate --update-baseline` records "
			 "this pace", result_reference_part_name(ref->faster_part),
			 100 * ref->part[ref->faster_part].change);
}

int format_reference(const struct run_result *r, char *buf, size_t size)
{
	const struct reference *ref = &r->reference;
	char parts[160], code[200], faster[300];
	buf[0] = 0;
	if (r->comparison)   /* gate ab: paired, no machine's move to read */
		return 0;
	result_reference_parts(ref, parts, sizeof parts);
	code_words(ref, code, sizeof code);
	faster_words(ref, faster, sizeof faster);
	switch (ref->state) {
	case REFERENCE_HOLDS:
		snprintf(buf, size, "the reference workload held since the baseline (%s): a "
			 "slowdown of the kernels is the code's, not the machine's%s", parts, faster);
		return 1;
	case REFERENCE_MOVED: {
		const struct reference_part *p = &ref->part[ref->shift_part];
		snprintf(buf, size, "the machine moved: the reference workload's %s part slowed by "
			 "%+.1f%% [%+.1f%%, %+.1f%%] since the baseline (%s); timing failures within "
			 "their tolerance of that are inconclusive%s",
			 result_reference_part_name(ref->shift_part), 100 * p->change,
			 100 * (p->ci_low - 1), 100 * (p->ci_high - 1), parts, code);
		return 1;
	}
	case REFERENCE_UNSURE:
		if (ref->code_shift > 0)
			snprintf(buf, size, "the reference workload neither held nor moved beyond "
				 "doubt since the baseline (%s)%s", parts, code);
		else
			snprintf(buf, size, "the reference workload neither held nor moved beyond "
				 "doubt since the baseline (%s), so the kernels' median move stands for "
				 "the machine's", parts);
		return 1;
	case REFERENCE_NO_BASELINE:
		snprintf(buf, size, "the baseline has no reference workload of this version (an "
			 "older gate wrote it), so the kernels' median move stands for the machine's; "
			 "`./gate --update-baseline` records one");
		return 1;
	default:
		return 0;
	}
}

int format_code_cause(const struct run_result *r, char *buf, size_t size)
{
	const struct reference *ref = &r->reference;
	if (ref->code_shift > 0 && ref->bound > 1)
		snprintf(buf, size, "the reference workload says the machine slowed by at most "
			 "%+.1f%%, so the code is the cause, not the machine", 100 * (ref->bound - 1));
	else if (ref->code_shift > 0 || ref->state == REFERENCE_HOLDS)
		snprintf(buf, size, "the reference workload held, so the code is the cause, not "
			 "the machine");
	else
		return 0;
	return 1;
}

void format_ab_schedule(const struct ab_schedule *sc, char *buf, size_t size)
{
	buf[0] = '\0';
	if (sc->mode == AB_MODE_INTERLEAVED) {
		snprintf(buf, size, "interleaved: A and B ran in the same shuffled rounds%s%s",
			 *sc->why ? " (not duet: " : "", sc->why);
		if (*sc->why && strlen(buf) + 1 < size)
			strcat(buf, ")");
		return;
	}
	if (sc->mode != AB_MODE_DUET || sc->cpu_count < 2)
		return;
	int n = snprintf(buf, size, "duet: each round's samples of A and B started together on "
			 "CPUs %d and %d, swapped every round: %zu pairs, started a median %.0f us "
			 "apart (at most %.0f us)", sc->cpus[0], sc->cpus[1], sc->pairs,
			 sc->skew_median_us, sc->skew_max_us);
	if (n > 0 && (size_t)n < size && sc->interleaved_groups)
		snprintf(buf + n, size - (size_t)n, "; %zu group%s interleaved, their threads "
			 "needing more than half the CPUs", sc->interleaved_groups,
			 sc->interleaved_groups == 1 ? "" : "s");
}

void format_ab_rounds(const struct ab_schedule *sc, double min_effect, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!sc->groups_compared)
		return;
	int n = snprintf(buf, size, "rounds: %zu of %zu taken", sc->rounds_taken,
			 sc->rounds_budget);
	if (n > 0 && (size_t)n < size && sc->samples_budget && sc->settle_level > 0)
		n += snprintf(buf + n, size - (size_t)n, " (samples: %zu of %zu, a variant taking "
			      "none once it is settled)", sc->samples_taken, sc->samples_budget);
	if (n <= 0 || (size_t)n >= size)
		return;
	if (!(sc->settle_level > 0))   /* 0, or NaN read back from null */
		snprintf(buf + n, size - (size_t)n, "; no look planned (--all-rounds, or too few "
			 "rounds): every group took its rounds");
	else if (sc->groups_settled)
		snprintf(buf + n, size - (size_t)n, "; %zu of %zu group%s stopped early, every "
			 "timing series settled (a change of %g%% or more decided beyond doubt, "
			 "within %g%% either way at %g%%, or out of reach of a %g%% regression in "
			 "the rounds left) and every claim decided",
			 sc->groups_settled, sc->groups_compared, sc->groups_compared == 1 ? "" : "s",
			 100 * min_effect, 100 * min_effect, 100 * sc->settle_level,
			 100 * min_effect);
	else
		snprintf(buf + n, size - (size_t)n, "; no group settled before its last round (a "
			 "timing series that the rounds left could still make a %g%% regression, "
			 "or a claim undecided)", 100 * min_effect);
}

/* "realloc 11 + free 3" of the kinds with calls in BY into BUF; "" none. */
static void kinds_text(const uint64_t *by, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; k < SITES_KINDS && used < size; k++) {
		char n[32];
		if (!by[k])
			continue;
		format_count(by[k], n, sizeof n);
		used += (size_t)snprintf(buf + used, size - used, "%s%s %s", used ? " + " : "",
					 sites_kind_name(k), n);
	}
}

/* The one kind of BY with calls, or -1 (none, or several). */
static int only_kind(const uint64_t *by)
{
	int one = -1;
	for (int k = 0; k < SITES_KINDS; k++)
		if (by[k]) {
			if (one >= 0)
				return -1;
			one = k;
		}
	return one;
}

void format_site_shift_calls(const struct site_shift *sh, char *how, size_t size)
{
	char was[300], now[300];
	kinds_text(sh->before, was, sizeof was);
	kinds_text(sh->after, now, sizeof now);
	int k = only_kind(sh->before);
	if (k >= 0 && k == only_kind(sh->after)) {   /* the same call, more or fewer */
		char a[32], b[32];
		format_count(sh->before[k], a, sizeof a);
		format_count(sh->after[k], b, sizeof b);
		snprintf(how, size, "%s %s -> %s", sites_kind_name(k), a, b);
	} else if (!*was) {
		snprintf(how, size, "new %s", now);
	} else if (!*now) {
		snprintf(how, size, "%s gone", was);
	} else {
		snprintf(how, size, "%s -> %s", was, now);
	}
}

void format_site_shift(const struct site_shift *sh, char *buf, size_t size)
{
	char place[600], how[700], via[1200] = "";
	format_site_place(sh->file, sh->line, place, sizeof place);
	format_site_shift_calls(sh, how, sizeof how);
	const char *vb = sh->via_before, *va = sh->via_after;
	if (vb && va && strcmp(vb, va))
		snprintf(via, sizeof via, " (via %s -> %s)", vb, va);
	else if (vb || va)
		snprintf(via, sizeof via, " (via %s)", va ? va : vb);
	if (sh->line > 0)
		snprintf(buf, size, "%s %s: %s%s", place, sh->function, how, via);
	else
		snprintf(buf, size, "%s: %s%s", place, how, via);
}

/* The rank of a metric among a change's figures: counts 0, the cost
 * pass's instructions and estimated cycles 1, its other figures 2, timing
 * 3, anything else 4. */
static int figure_rank(const struct series *s)
{
	const char *m = strrchr(s->metric, '.');
	m = m ? m + 1 : s->metric;
	size_t n = strlen(m);
	if (s->cls == METRIC_TIMING)
		return 3;
	if ((n > 6 && !strcmp(m + n - 6, "_calls")) || !strncmp(m, "heap_", 5) ||
	    !strncmp(m, "proc_", 5) || !strncmp(m, "sys_", 4))
		return 0;
	if (!strcmp(m, "cost_instructions") || !strcmp(m, "cost_est_cycles"))
		return 1;
	return !strncmp(m, "cost_", 5) ? 2 : 4;
}

/* Whether series J (of rank RANK) is the one its row is told under among
 * those P takes: no series alike of a lower rank, or of its rank earlier. */
static bool brief_leads(const struct run_result *r, size_t j, int rank,
			const struct moved_pick *p)
{
	for (size_t k = 0; k < r->series_count; k++) {
		const struct series *o = &r->series[k];
		if (k == j || !pick_moved(o, p) || !series_rows_alike(o, &r->series[j]))
			continue;
		if (figure_rank(o) < rank || (figure_rank(o) == rank && k < j))
			return false;
	}
	return true;
}

size_t format_moved_brief(const struct run_result *r, size_t i, bool gated, size_t max,
			  char *buf, size_t size)
{
	struct moved_pick p = { &r->series[i], gated };
	size_t shown = 0, left = 0, used = 0;
	if (size)
		buf[0] = '\0';
	for (int rank = 0; rank <= 4; rank++)
		for (size_t j = i; j < r->series_count; j++) {
			const struct series *s = &r->series[j];
			if (!pick_moved(s, &p) || figure_rank(s) != rank ||
			    !brief_leads(r, j, rank, &p))
				continue;
			if (shown == max) {
				left++;
				continue;
			}
			shown++;
			char metrics[400];
			series_rows_metrics(r, j, pick_moved, &p, metrics, sizeof metrics);
			moved_row(s, metrics, false, buf, size, &used);
		}
	return left;
}
