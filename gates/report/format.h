/* format.h: the words and numbers every renderer shares, formatted from
 * the run result only: values with their unit, verdict words, the one-line
 * descriptions of a series or an expectation (JUnit, markdown, GitHub) and
 * the run's verdict word; the counts they say are core/result_tally.h's. The
 * terminal, markdown,
 * JUnit, GitHub, SVG and diff renderers use these and nothing of each
 * other. */
#ifndef GATE_FORMAT_H
#define GATE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/result.h"
#include "decide/sites.h"

/* Formats VALUE of UNIT for a person ("1.23 ms", "4.0 MiB", "12"; "-"
 * for NaN) into BUF of SIZE. */
void format_value(double value, const char *unit, char *buf, size_t size);

/* The verdict's name in capitals ("PASS", "INCONCLUSIVE") into BUF. */
void format_verdict_upper(enum verdict v, char *buf, size_t size);

/* "regression toy/single/small wall_ns: 1.01 ms -> 3.02 ms (+199.0%); NOTE"
 * (the first word is the verdict's: regression, improvement, inconclusive,
 * ...) into BUF of SIZE. */
void format_series(const struct series *s, char *buf, size_t size);

/* "expectation violated on small: EXPR (estimate 1.497, interval [1.476,
 * 1.52], 15 rounds); NOTE" (or "holds", "inconclusive", ...) into BUF; of
 * gate ab, with the words of the decision ("expectation fails before and
 * after (...)") and both sides' figures (format_expect_sides); for
 * an expectation that is not gated, "information on small: EXPR: holds
 * under ALLOCATOR too (declared for glibc, not gated) (estimate ...)".
 * ALLOCATOR: the run's (its context's), NULL when unknown. */
void format_expect(const struct expect_result *e, const char *allocator, char *buf, size_t size);

/* gate ab: both sides of claim E (its side A measured): "A fails, lhs/rhs
 * 1.31 [1.22, 1.4], 31 rounds; B fails, lhs/rhs 1.29 [1.2, 1.38], 31
 * rounds" into BUF. */
void format_expect_sides(const struct expect_result *e, char *buf, size_t size);

/* What a not-gated expectation says under ALLOCATOR: "holds under
 * jemalloc too (declared for glibc, not gated)", "does not hold under ...",
 * "inconclusive under ...", into BUF. */
void format_expect_info(const struct expect_result *e, const char *allocator, char *buf,
			size_t size);

/* The allocators E is declared for ("glibc", "glibc|crt"), else its
 * conditions, else "every allocator", into BUF. */
void format_expect_declared(const struct expect_result *e, char *buf, size_t size);

/* V with thousands separated by commas ("80,000") into BUF. */
void format_count(uint64_t v, char *buf, size_t size);

/* Where a site is: "kernels/refcount.c:151", or "inside libc.so.6" for a
 * library's calls (line 0, the interposer's), into BUF. */
void format_site_place(const char *file, int line, char *buf, size_t size);

/* "kernels/refcount.c:151 in worker_strdup: 200,000 strdup calls, 1.3 MiB"
 * ("inside libc.so.6: 200,000 malloc calls, ...") into BUF. */
void format_site(const struct site *s, char *buf, size_t size);

/* What changed at an allocation site, without its place (callers put
 * "FILE:LINE: " first): "new allocation site in worker_strdup: 80,000
 * malloc calls, 1.8 MiB", "allocation site gone in f: was 100 free calls",
 * "allocation site in f: malloc calls 100 -> 200, bytes 3.1 KiB -> 6.2
 * KiB"; AB: the sides are named ("A 100 -> B 200"). */
void format_site_change(const struct site_change *c, bool ab, char *buf, size_t size);

/* What one place changed, as a reviewer reads it: "src/value.c:522
 * json_array_grow: realloc 11 -> malloc 11 + free 11 (via src/memory.c:43
 * jsonp_realloc -> src/memory.c:29 jsonp_malloc)", "k.c:9 f: malloc 100 ->
 * 200", "k.c:9 f: new malloc 5", "inside libx.so: free 3 -> 4", into BUF. */
void format_site_shift(const struct site_shift *sh, char *buf, size_t size);

/* The change of SH's calls alone: "realloc 11 -> malloc 11 + free 11",
 * "malloc 100 -> 200", "new malloc 5", "free 3 gone", into BUF. */
void format_site_shift_calls(const struct site_shift *sh, char *buf, size_t size);

/* The decisive figures of the group of series I (format_moved's), at most
 * MAX of them: counts first, then cost (instructions, estimated cycles),
 * then timing; series that moved alike named together ("cost_free_calls,
 * proc_free_calls 0 -> 11"). Returns how many figures were left out. */
size_t format_moved_brief(const struct run_result *r, size_t i, bool gated, size_t max,
			  char *buf, size_t size);

/* S as XML character data into F (SVG text and titles), under the XML
 * rule of report/escape.h. */
void format_xml_text(FILE *f, const char *s);

/* What R's reference workload (decide/reference.h) says of the machine, as
 * one sentence without a final period, into BUF: the parts' changes since
 * the baseline, and whether the machine held or moved; or, against a
 * baseline without one, that the kernels' median stands in. Returns 0
 * when there is nothing to say (no baseline, another hardware, gate ab). */
int format_reference(const struct run_result *r, char *buf, size_t size);

/* When R's kernels moved together: the cause into BUF when its reference
 * workload held, or the kernels slowed beyond the most it allows the
 * machine (the code; returns 1), or 0 when the machine is the likelier
 * one. */
int format_code_cause(const struct run_result *r, char *buf, size_t size);

/* Series I of R regressed (verdict fail) with GATED as its gated: whether
 * it is the first such series of its (kernel, variant, params), under which
 * a renderer writes the group's one paragraph (format_moved). */
bool format_group_first(const struct run_result *r, size_t i, bool gated);

/* The metrics that regressed in series I's (kernel, variant, params) with
 * GATED as their gated, for a person, into BUF of SIZE: those that moved
 * alike named together ("heap_malloc_calls, proc_malloc_calls,
 * cost_malloc_calls 128 -> 256 (+100.0%); page_faults 190 -> 6174
 * (+3149.5%)"); a timing series with its confirmation. Returns how many. */
size_t format_moved(const struct run_result *r, size_t i, bool gated, char *buf, size_t size);

/* The change of S for a person: "+12.5%", "from 0" when its baseline was
 * 0 (never "nan"), "" without a baseline; into BUF. */
void format_change_word(const struct series *s, char *buf, size_t size);

/* The interval of S's change for a person: "[+2.0%, +8.3%]" (of the ratio
 * current / baseline, as changes), "" without a baseline or an interval;
 * into BUF. */
void format_interval(const struct series *s, char *buf, size_t size);

/* The policy's gates for a person: "counts, cost" (timing is
 * information) into BUF; "everything" for all. */
void format_gates(const struct run_policy *p, char *buf, size_t size);

/* How gate ab took its samples (result.h, struct ab_schedule), as a clause
 * into BUF: "duet: ... on CPUs 0 and 1, swapped every round: 62 pairs,
 * started a median 41 us apart (at most 310 us)" or "interleaved: A and B
 * in the same shuffled rounds (not duet: WHY)"; "" when not gate ab. */
void format_ab_schedule(const struct ab_schedule *sc, char *buf, size_t size);

/* How many rounds gate ab took and why groups stopped (decide/sequential.h),
 * as a sentence into BUF: "rounds: 254 of 610 taken; 8 of 10 groups stopped
 * early, every timing series settled (within 2% either way at 90%, or out
 * of reach of a 2% regression in the rounds left) and every claim
 * decided"; "" when no group was compared on both sides. */
void format_ab_rounds(const struct ab_schedule *sc, double min_effect, char *buf, size_t size);

/* Claim E as its inequality with both sides' values, "7 < 16" (the medians
 * over its rounds of the left and right side, with E's operator), into BUF;
 * empty when E has no values. */
void format_expect_values(const struct expect_result *e, char *buf, size_t size);

#endif
