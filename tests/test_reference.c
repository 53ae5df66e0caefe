/* test_reference.c: the reference workload (gates/sample/reference.c), how
 * decide/reference.c reads the machine's move from it and compare.c acts on
 * that, and its place in the baseline and result files
 * (store/reference_json.c). Every figure is worked out by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/result.h"
#include "decide/compare.h"
#include "decide/reference.h"
#include "report/format.h"
#include "report/report_json.h"
#include "sample/reference.h"
#include "store/baseline.h"
#include "store/reference_json.h"
#include "store/results_load.h"

#define N 9

/* Nine timings 8% apart end to end (test_compare.c's) */
static const double base_ns[N] = { 1040, 1000, 1080, 1020, 1060, 1010, 1070, 1030, 1050 };

static struct run_result cur, base;
static struct run_policy pol;

static void setup(void)
{
	memset(&cur, 0, sizeof cur);
	memset(&base, 0, sizeof base);
	policy_defaults(&pol);
	cur.ctx.cpu_count = base.ctx.cpu_count = 2;
}

static void teardown(void)
{
	result_free(&cur);
	result_free(&base);
}

TestSuite(reference, .init = setup, .fini = teardown);

static void advisory_groups_slower(double cpu, double memory, double faults);

/* Every part of REF: base_ns times the part's factor. */
static void fill(struct reference *ref, double cpu, double memory, double faults)
{
	const double factor[REFERENCE_PARTS] = { cpu, memory, faults };
	for (int p = 0; p < REFERENCE_PARTS; p++)
		for (int i = 0; i < N; i++)
			cr_assert_eq(result_reference_append(ref, (enum reference_part_id)p,
							     base_ns[i] * factor[p] * 1000), 0);
}

Test(reference, a_machine_holds_when_every_interval_stays_below_the_mark)
{
	fill(&base.reference, 1, 1, 1);
	fill(&cur.reference, 1.0, 0.98, 0.99);
	reference_compare(&cur.reference, &base.reference, true);
	cr_expect_eq(cur.reference.state, REFERENCE_HOLDS);
	cr_expect_eq(cur.reference.shift, 0);
	for (int p = 0; p < REFERENCE_PARTS; p++)
		cr_expect(cur.reference.part[p].ci_high < 1 + REFERENCE_MOVE_MIN, "%s %g",
			  result_reference_part_name(p), cur.reference.part[p].ci_high);
	cr_expect(fabs(cur.reference.part[REFERENCE_FAULTS].change + 0.01) < 1e-9, "%g",
		  cur.reference.part[REFERENCE_FAULTS].change);
	cr_expect(fabs(cur.reference.part[REFERENCE_CPU].median - 1040e3) < 1e-6);
}

Test(reference, an_interval_across_the_mark_is_unsure)
{
	fill(&base.reference, 1, 1, 1);
	fill(&cur.reference, 1.03, 0.98, 1.04);   /* 8% spread: intervals reach past +5% */
	reference_compare(&cur.reference, &base.reference, true);
	cr_expect_eq(cur.reference.state, REFERENCE_UNSURE);
	cr_expect_eq(cur.reference.shift, 0);
	cr_expect(cur.reference.part[REFERENCE_FAULTS].ci_high > 1 + REFERENCE_MOVE_MIN);
	cr_expect(cur.reference.part[REFERENCE_FAULTS].ci_low < 1 + REFERENCE_MOVE_MIN);
}

Test(reference, a_part_past_its_noise_moves_the_machine_by_the_largest)
{
	fill(&base.reference, 1, 1, 1);
	fill(&cur.reference, 1.10, 1.30, 1.0);
	reference_compare(&cur.reference, &base.reference, true);
	cr_expect_eq(cur.reference.state, REFERENCE_MOVED);
	cr_expect_eq(cur.reference.shift_part, REFERENCE_MEMORY);
	cr_expect(fabs(cur.reference.shift - 0.30) < 1e-9, "%g", cur.reference.shift);
	/* a faster machine is no move to discount */
	result_free(&cur);
	memset(&cur, 0, sizeof cur);
	fill(&cur.reference, 0.7, 0.7, 0.7);
	reference_compare(&cur.reference, &base.reference, true);
	cr_expect_eq(cur.reference.state, REFERENCE_HOLDS, "a faster machine");
}

Test(reference, nothing_to_compare_says_why)
{
	fill(&cur.reference, 1, 1, 1);
	reference_compare(&cur.reference, NULL, true);
	cr_expect_eq(cur.reference.state, REFERENCE_NOT_COMPARED, "no baseline");
	reference_compare(&cur.reference, &base.reference, true);
	cr_expect_eq(cur.reference.state, REFERENCE_NO_BASELINE, "a baseline of an older version");
	fill(&base.reference, 2, 2, 2);
	reference_compare(&cur.reference, &base.reference, false);
	cr_expect_eq(cur.reference.state, REFERENCE_NOT_COMPARED, "another hardware");
	cr_expect(isnan(cur.reference.part[REFERENCE_CPU].change));
}

/* Thirteen kernels' wall_ns: eleven 35% slower, one 60%, one 2x (the
 * slowdown test_interference.c puts down to the machine without a
 * reference), against a 25% minimum effect. */
static void thirteen_kernels(void)
{
	char name[16];
	pol.min_effect = 0.25;
	for (int v = 0; v < 13; v++) {
		snprintf(name, sizeof name, "v%d", v);
		struct series *b = result_add_series(&base, "k", name, "p", "wall_ns", "ns",
						     METRIC_TIMING);
		struct series *c = result_add_series(&cur, "k", name, "p", "wall_ns", "ns",
						     METRIC_TIMING);
		cr_assert(b && c);
		double f = v == 11 ? 1.6 : v == 12 ? 2.0 : 1.35;
		for (int i = 0; i < N; i++) {
			cr_assert_eq(result_series_append(b, base_ns[i]), 0);
			cr_assert_eq(result_series_append(c, base_ns[i] * f), 0);
		}
	}
}

static enum verdict verdict_of(const char *variant)
{
	const struct series *s = result_find_series(&cur, "k", variant, "p", "wall_ns");
	cr_assert_not_null(s);
	return s->verdict;
}

/* thirteen_kernels compared with a baseline whose reference (when
 * BASE_HAS_ONE) is base_ns, this run's base_ns times each part's factor. */
static void compared_with(bool base_has_one, double cpu, double memory, double faults)
{
	thirteen_kernels();
	if (base_has_one)
		fill(&base.reference, 1, 1, 1);
	fill(&cur.reference, cpu, memory, faults);
	compare_run(&cur, &base, &pol, true);
}

/* The report's machine line says WANT. */
static void expect_machine_line(const char *want)
{
	char line[400];
	cr_assert(format_reference(&cur, line, sizeof line));
	cr_expect(strstr(line, want), "want '%s' in: %s", want, line);
}

Test(reference, a_slowdown_of_every_kernel_while_the_reference_holds_is_the_code)
{
	compared_with(true, 1.0, 0.99, 0.98);
	cr_expect_eq(cur.reference.state, REFERENCE_HOLDS);
	cr_expect_eq(verdict_of("v0"), VERDICT_FAIL, "+35%% with the machine steady");
	cr_expect_eq(verdict_of("v11"), VERDICT_FAIL);
	cr_expect_eq(verdict_of("v12"), VERDICT_FAIL);
	expect_machine_line("the reference workload held since the baseline (cpu +0.0%, "
			    "memory -1.0%, faults -2.0%)");
}

Test(reference, a_reference_that_moved_leaves_only_what_is_beyond_it)
{
	compared_with(true, 1.02, 1.35, 1.10);
	cr_expect_eq(cur.reference.state, REFERENCE_MOVED);
	const struct series *s = result_find_series(&cur, "k", "v0", "p", "wall_ns");
	cr_expect_eq(s->verdict, VERDICT_INCONCLUSIVE);
	cr_assert_not_null(s->note);
	cr_expect(strstr(s->note, "the machine moved: the reference workload's memory part slowed "
				  "by +35.0% ["), "%s", s->note);
	/* 1.6 / 1.35 = 1.19 within the 25% tolerance; 2.0 / 1.35 = 1.48 beyond it */
	cr_expect_eq(verdict_of("v11"), VERDICT_INCONCLUSIVE);
	cr_expect_eq(verdict_of("v12"), VERDICT_FAIL);
	expect_machine_line("the machine moved: the reference workload's memory part slowed by "
			    "+35.0%");
}

/* The kernels' +35% median stood for the machine, for the reason WHY:
 * v0's +35% is inconclusive, v12's +100% beyond it still fails. */
static void expect_kernels_median_stood_in(const char *why)
{
	char want[200];
	snprintf(want, sizeof want, "slowed by a median of +35.0%% since the baseline (%s)", why);
	const struct series *s = result_find_series(&cur, "k", "v0", "p", "wall_ns");
	cr_assert_not_null(s);
	cr_expect_eq(s->verdict, VERDICT_INCONCLUSIVE);
	cr_expect(s->note && strstr(s->note, want), "want '%s' in: %s", want, s->note);
	cr_expect_eq(verdict_of("v12"), VERDICT_FAIL);
}

Test(reference, without_one_in_the_baseline_the_kernels_median_stands_in)
{
	compared_with(false, 1, 1, 1);
	cr_expect_eq(cur.reference.state, REFERENCE_NO_BASELINE);
	expect_kernels_median_stood_in("which has no reference workload of this version");
	expect_machine_line("`./gate --update-baseline` records one");
}

Test(reference, an_unsure_reference_leaves_the_kernels_median_to_stand_in)
{
	compared_with(true, 1.03, 0.98, 1.04);
	cr_expect_eq(cur.reference.state, REFERENCE_UNSURE);
	expect_kernels_median_stood_in("the reference workload neither held nor moved beyond "
				       "doubt");
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0, "the uniform rule needs a steady "
							      "reference");
}

Test(reference, the_workload_takes_one_sample_of_each_part)
{
	struct reference ref;
	memset(&ref, 0, sizeof ref);
	cr_assert_eq(reference_sample(&ref), 0);
	cr_assert_eq(reference_sample(&ref), 0);
	reference_release();
	for (int p = 0; p < REFERENCE_PARTS; p++) {
		cr_expect_eq(ref.part[p].count, 2, "%s", result_reference_part_name(p));
		cr_expect(ref.part[p].samples[0] > 0 && ref.part[p].samples[1] > 0);
		free(ref.part[p].samples);
	}
}

Test(reference, a_sample_is_due_four_times_a_second_and_once_a_group)
{
	double every = REFERENCE_EVERY_SECONDS;
	cr_expect_eq(every, 0.25);
	cr_expect(reference_due(every, false, true), "after a round, a quarter second on");
	cr_expect(reference_due(every, true, true));
	cr_expect_not(reference_due(every * 0.99, false, false), "after a round: too soon");
	cr_expect_not(reference_due(every * 0.99, true, true),
		      "a group's end right after a sample of that group: not twice");
	cr_expect(reference_due(0, true, false), "a group without one takes one at its end");
	cr_expect_not(reference_due(0, false, false), "but not after its rounds");
}

/* A baseline file holding TEXT as its "reference"; returns baseline_load's status. */
static int load_with(const char *reference, char *err, size_t size)
{
	char text[2048];
	snprintf(text, sizeof text,
		 "{\"schema\": 1, \"platform\": \"linux-x86_64-glibc\", \"context\": {}, "
		 "\"series\": [], \"reference\": %s}", reference);
	result_free(&base);
	memset(&base, 0, sizeof base);
	return baseline_load_text("b.json", text, strlen(text), &base, err, size);
}

Test(reference, a_machine_faster_in_every_part_is_said)
{
	fill(&base.reference, 1, 1, 1);
	fill(&cur.reference, 0.90, 0.88, 0.80);
	reference_compare(&cur.reference, &base.reference, true);
	cr_assert_eq(cur.reference.state, REFERENCE_HOLDS);
	cr_expect(cur.reference.faster);
	cr_expect_eq(cur.reference.faster_part, REFERENCE_FAULTS);
	expect_machine_line("the machine is faster than when the baseline was recorded (every "
			    "part, its faults part by -20.0%), so a slowdown of the code as large as "
			    "the kernels' own speedup can hide: `./gate --update-baseline` records "
			    "this pace");
	/* one part not faster beyond doubt (8% spread at -1%): nothing said */
	result_free(&cur);
	memset(&cur, 0, sizeof cur);
	fill(&cur.reference, 0.99, 0.88, 0.80);
	reference_compare(&cur.reference, &base.reference, true);
	cr_assert(cur.reference.part[REFERENCE_CPU].ci_high > 1);
	cr_expect(!cur.reference.faster);
	char line[400];
	cr_assert(format_reference(&cur, line, sizeof line));
	cr_expect_null(strstr(line, "faster"), "%s", line);
}

Test(reference, the_result_file_keeps_what_the_rules_said)
{
	char path[64], err[512] = "";
	struct run_result back;
	snprintf(path, sizeof path, "/tmp/allocgate-reference-%d.json", (int)getpid());
	advisory_groups_slower(1.03, 0.98, 1.04);
	cr_assert_eq(reference_settle_uniform(&cur, &pol), 4);
	cur.reference.faster = true;   /* not so here: read back all the same */
	cur.reference.faster_part = REFERENCE_MEMORY;
	cr_assert_eq(report_json_write(path, &cur, err, sizeof err), 0, "%s", err);
	cr_assert_eq(results_load(path, &back, err, sizeof err), 0, "%s", err);
	unlink(path);
	cr_expect_eq(back.reference.code_shift, cur.reference.code_shift);
	cr_expect_eq(back.reference.bound, cur.reference.bound);
	cr_expect(back.reference.faster);
	cr_expect_eq(back.reference.faster_part, REFERENCE_MEMORY, "the part that sped up most");
	result_free(&back);
}

Test(reference, the_baseline_file_keeps_the_samples)
{
	char dir[] = "/tmp/allocgate-reference-XXXXXX", path[256], err[512] = "";
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/b.json", dir);
	cur.ctx.platform_key = strdup("linux-x86_64-glibc");
	fill(&cur.reference, 1, 2, 3);
	cr_assert_eq(baseline_save(path, &cur, err, sizeof err), 0, "%s", err);
	cr_assert_eq(baseline_load(path, &base, err, sizeof err), 0, "%s", err);
	unlink(path);
	rmdir(dir);
	for (int p = 0; p < REFERENCE_PARTS; p++) {
		cr_assert_eq(base.reference.part[p].count, N);
		cr_expect_eq(base.reference.part[p].samples[1], 1000e3 * (p + 1));
	}
	/* an older file: none, and that is no error */
	cr_expect_eq(load_with("null", err, sizeof err), 0, "%s", err);
}

/* Samples of another pass (a baseline written before the workload
 * changed) are never compared with this one's: read as absent, and the
 * run says the baseline has no reference of this version. */
Test(reference, samples_of_another_workload_version_are_left_out)
{
	char err[512] = "", text[512];
	snprintf(text, sizeof text, "[{\"part\": \"cpu\", \"version\": %d, \"samples\": [5]}, "
		 "{\"part\": \"memory\", \"samples\": [7]}]", REFERENCE_WORKLOAD_VERSION + 1);
	cr_assert_eq(load_with(text, err, sizeof err), 0, "%s", err);
	cr_expect_eq(base.reference.part[REFERENCE_CPU].count, 0);
	/* no version: the first, which this gate's is */
	cr_expect_eq(base.reference.part[REFERENCE_MEMORY].count, REFERENCE_WORKLOAD_VERSION == 1);
	snprintf(text, sizeof text, "[{\"part\": \"cpu\", \"version\": %d, \"samples\": [5]}]",
		 REFERENCE_WORKLOAD_VERSION + 1);
	cr_assert_eq(load_with(text, err, sizeof err), 0, "%s", err);
	fill(&cur.reference, 1, 1, 1);
	reference_compare(&cur.reference, &base.reference, true);
	cr_expect_eq(cur.reference.state, REFERENCE_NO_BASELINE);
	/* and the file written now says its version */
	json_t *arr = reference_json(&cur.reference, false);
	cr_assert_not_null(arr);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(arr, 0), "version")),
		     REFERENCE_WORKLOAD_VERSION);
	json_decref(arr);
}

Test(reference, a_malformed_reference_is_named)
{
	char err[512] = "";
	cr_expect_neq(load_with("{}", err, sizeof err), 0);
	cr_expect(strstr(err, "reference: expected an array"), "%s", err);
	cr_expect_neq(load_with("[{\"part\": \"disk\", \"samples\": [1]}]", err, sizeof err), 0);
	cr_expect(strstr(err, "reference[0].part: expected \"cpu\", \"memory\" or \"faults\""),
		  "%s", err);
	cr_expect_neq(load_with("[{\"part\": \"cpu\", \"samples\": [1]}, "
				"{\"part\": \"cpu\", \"samples\": [2]}]", err, sizeof err), 0);
	cr_expect(strstr(err, "reference[1].part: \"cpu\" given twice"), "%s", err);
	cr_expect_neq(load_with("[{\"part\": \"faults\", \"samples\": [5, -1]}]", err, sizeof err),
		      0);
	cr_expect(strstr(err, "reference[0].samples: expected positive, finite nanoseconds"),
		  "%s", err);
	cr_expect_neq(load_with("[{\"part\": \"memory\", \"samples\": []}]", err, sizeof err), 0);
	cr_expect(strstr(err, "reference[0].samples: expected a non-empty array"), "%s", err);
	cr_expect_neq(load_with("[{\"part\": \"cpu\", \"version\": \"2\", \"samples\": [1]}]",
				err, sizeof err), 0);
	cr_expect(strstr(err, "reference[0].version: expected a positive integer"), "%s", err);
	cr_expect_neq(load_with("[{\"part\": \"cpu\", \"version\": 9, \"samples\": [1]}, "
				"{\"part\": \"cpu\", \"version\": 9, \"samples\": [2]}]",
				err, sizeof err), 0);
	cr_expect(strstr(err, "reference[1].part: \"cpu\" given twice"), "%s", err);
}

/* Twelve timing series as compare and confirmation left them, three in
 * each of GROUPS parameter sets (1 or 4): CHANGE each, interval [LOW, ...],
 * VERDICT; the reference's state STATE, every part's change 0 and 95%
 * upper bound 1.03 but the faults part's, FAULTS_HIGH. */
static void settled_bounded(int groups, double change, double low, enum verdict verdict,
			    enum reference_state state, double faults_high)
{
	char name[16], params[16];
	for (int v = 0; v < 12; v++) {
		snprintf(name, sizeof name, "v%d", v);
		snprintf(params, sizeof params, "p%d", groups == 1 ? 0 : v / 3);
		struct series *s = result_add_series(&cur, "k", name, params, "wall_ns", "ns",
						     METRIC_TIMING);
		cr_assert_not_null(s);
		s->has_baseline = true;
		s->change = change;
		s->ci_low = low;
		s->ci_high = low + 0.2;
		s->verdict = verdict;
		s->note = strdup("confirmation batch +20.0%: not confirmed");
	}
	cur.reference.state = state;
	for (int p = 0; p < REFERENCE_PARTS; p++) {
		cur.reference.part[p].change = 0;
		cur.reference.part[p].ci_low = 0.97;
		cur.reference.part[p].ci_high = p == REFERENCE_FAULTS ? faults_high : 1.03;
	}
}

static void settled_in(int groups, double change, double low, enum verdict verdict,
		       enum reference_state state)
{
	settled_bounded(groups, change, low, verdict, state, 1.03);
}

static void settled(double change, double low, enum verdict verdict, enum reference_state state)
{
	settled_in(4, change, low, verdict, state);
}

Test(reference, every_kernel_slower_while_the_reference_held_fails_them)
{
	pol.min_effect = 0.25;
	settled(0.35, 1.2, VERDICT_INCONCLUSIVE, REFERENCE_HOLDS);
	/* one disturbed (no interval) and one scheduler count stay as they are */
	cur.series[0].ci_low = NAN;
	struct series *wait = result_add_series(&cur, "k", "v0", "p0", "sched_wait_ns", "ns",
						METRIC_TIMING);
	wait->has_baseline = true;
	wait->change = 0.9;
	wait->ci_low = 1.5;
	wait->verdict = VERDICT_INCONCLUSIVE;
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 11);
	cr_expect_eq(cur.series[0].verdict, VERDICT_INCONCLUSIVE);
	cr_expect_eq(wait->verdict, VERDICT_INCONCLUSIVE);
	cr_expect_eq(cur.series[1].verdict, VERDICT_FAIL);
	cr_expect(strstr(cur.series[1].note, "the code slowed as a whole: 4 of the 4 compared "
					     "groups are slower, by a median of +35.0%"),
		  "%s", cur.series[1].note);
	cr_expect(strstr(cur.series[1].note, "; alone: confirmation batch +20.0%: not confirmed"),
		  "%s", cur.series[1].note);
}

Test(reference, the_uniform_rule_needs_the_effect_beyond_the_machine_and_a_majority)
{
	pol.min_effect = pol.min_effect_whole = 0.25;
	/* the faults part may have slowed by 9%: 1.35 / 1.09 = 1.24 */
	settled_bounded(4, 0.35, 1.2, VERDICT_INCONCLUSIVE, REFERENCE_UNSURE, 1.09);
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0, "the machine may explain it");
	cr_expect_eq(cur.reference.code_shift, 0);
	/* the memory part by its change, not its interval: +9% bounds the
	 * machine at 1.09 whatever its upper bound, ... */
	cur.reference.part[REFERENCE_FAULTS].ci_high = 1.03;
	cur.reference.part[REFERENCE_MEMORY].change = 0.09;
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0, "the memory part's +9%");
	/* ... and 0% with an interval up to +9% bounds it at 1.03 (cpu and
	 * faults): 1.35 / 1.03 = 1.31 */
	cur.reference.part[REFERENCE_MEMORY].change = 0;
	cur.reference.part[REFERENCE_MEMORY].ci_high = 1.09;
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 12, "the memory part's median held");
	cr_expect_eq(cur.reference.bound, 1.03);
	for (size_t i = 0; i < cur.series_count; i++)
		cur.series[i].verdict = VERDICT_INCONCLUSIVE;
	cur.reference.code_shift = 0;
	/* by at most 7%: 1.35 / 1.07 = 1.26, beyond the minimum effect */
	cur.reference.part[REFERENCE_FAULTS].ci_high = 1.07;
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 12, "the machine may have slowed, "
		     "the code more");
	/* the same figures when a part moved beyond doubt: a slow spell of
	 * the host, whose size for the kernels the parts do not bound */
	cur.reference.state = REFERENCE_MOVED;
	for (size_t i = 0; i < cur.series_count; i++)
		cur.series[i].verdict = VERDICT_INCONCLUSIVE;
	cur.reference.code_shift = 0;
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0, "the machine moved: inconclusive");
	cr_expect_eq(cur.reference.code_shift, 0);
	result_free(&cur);
	memset(&cur, 0, sizeof cur);
	settled(0.35, 1.2, VERDICT_INCONCLUSIVE, REFERENCE_UNSURE);
	cur.reference.part[REFERENCE_FAULTS].ci_high = NAN;
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0, "a part not compared bounds nothing");
	cur.reference.part[REFERENCE_FAULTS].ci_high = 1.03;
	cur.reference.state = REFERENCE_NO_BASELINE;
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0, "nothing bounds the machine");
	cur.reference.state = REFERENCE_HOLDS;
	/* two groups of four +60%, two +2% (under the bound 1.03): the median
	 * +31% is beyond it (1.31 / 1.03 = 1.27), but no majority */
	for (int v = 0; v < 12; v++)
		cur.series[v].change = v < 6 ? 0.60 : 0.02;
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0, "two slower groups of four");
	for (int v = 0; v < 12; v++)
		cur.series[v].change = 0.35;
	/* a group is slower by its median: in each, two of three intervals
	 * reach below 1 (advisory series against a drifted baseline); the
	 * rule fails the one whose interval lies above 1 */
	for (int v = 0; v < 12; v++)
		cur.series[v].ci_low = v % 3 ? 0.98 : 1.2;
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 4, "every group slower by its median");
	for (int v = 0; v < 12; v++)
		cr_expect_eq(cur.series[v].verdict, v % 3 ? VERDICT_INCONCLUSIVE : VERDICT_FAIL);
	result_free(&cur);
	memset(&cur, 0, sizeof cur);
	/* one group's series drift together: one group is no "whole" */
	settled_in(1, 0.35, 1.2, VERDICT_INCONCLUSIVE, REFERENCE_HOLDS);
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0, "a single group");
	result_free(&cur);
	memset(&cur, 0, sizeof cur);
	settled(0.20, 1.1, VERDICT_PASS, REFERENCE_HOLDS);
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0, "+20%% is under the minimum effect");
	pol.min_effect = 0.10;
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 12);
}

/* The code as a whole fails from 10% where a series alone needs 25%: the
 * defaults (POLICY_MIN_EFFECT_WHOLE); the smaller of the two applies. */
Test(reference, the_code_as_a_whole_fails_from_its_own_smaller_minimum_effect)
{
	cr_assert_eq(pol.min_effect, 0.25);
	cr_assert_eq(pol.min_effect_whole, 0.10);
	/* 1.20 / 1.03 = 1.165: past 10%, not 25% */
	settled(0.20, 1.1, VERDICT_PASS, REFERENCE_HOLDS);
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 12);
	cr_expect_eq(cur.series[0].verdict, VERDICT_FAIL);
	result_free(&cur);
	memset(&cur, 0, sizeof cur);
	/* 1.12 / 1.03 = 1.087: short of 10% */
	settled(0.12, 1.05, VERDICT_PASS, REFERENCE_HOLDS);
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0);
	/* the smaller applies: a minimum effect of 5% */
	pol.min_effect = 0.05;
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 12);
	result_free(&cur);
	memset(&cur, 0, sizeof cur);
	pol.min_effect = 0.25;
	pol.min_effect_whole = 0.25;
	settled(0.20, 1.1, VERDICT_PASS, REFERENCE_HOLDS);
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0, "--min-effect-whole 25");
}

/* Four groups of one timing series each whose baseline batches drifted
 * (medians 100, 120, 90: drift 20%, tolerance 60% > 50%: advisory), this
 * run 140 each, against a 25% minimum effect; the reference as
 * compared_with's, this run's parts times CPU, MEMORY, FAULTS. */
static void advisory_groups_slower(double cpu, double memory, double faults)
{
	static const double drifted[N] = { 99, 100, 101, 119, 120, 121, 89, 90, 91 };
	static const double now[N] = { 139, 140, 141, 140, 139, 141, 140, 141, 139 };
	char params[8];
	pol.min_effect = 0.25;
	for (int g = 0; g < 4; g++) {
		snprintf(params, sizeof params, "p%d", g);
		struct series *b = result_add_series(&base, "k", "v", params, "wall_ns", "ns",
						     METRIC_TIMING);
		struct series *c = result_add_series(&cur, "k", "v", params, "wall_ns", "ns",
						     METRIC_TIMING);
		cr_assert(b && c);
		b->batches = 3;
		for (int i = 0; i < N; i++) {
			cr_assert_eq(result_series_append(b, drifted[i]), 0);
			cr_assert_eq(result_series_append(c, now[i]), 0);
		}
	}
	fill(&base.reference, 1, 1, 1);
	fill(&cur.reference, cpu, memory, faults);
	compare_run(&cur, &base, &pol, true);
}

Test(reference, advisory_series_count_for_the_uniform_rule_while_the_reference_holds)
{
	advisory_groups_slower(1.0, 0.99, 0.98);
	const struct series *s = &cur.series[0];
	cr_assert_eq(s->verdict, VERDICT_SKIPPED, "alone, its baseline drifted too much");
	cr_assert(s->advisory);
	/* its interval all the same: every pair 140/121 = 1.16 .. 141/89 = 1.58 */
	cr_expect(s->ci_low > 1.15 && s->ci_high < 1.59, "[%g, %g]", s->ci_low, s->ci_high);
	cr_expect(s->change > 0.35 && s->change < 0.45, "%g", s->change);
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 4);
	for (size_t i = 0; i < cur.series_count; i++) {
		cr_expect_eq(cur.series[i].verdict, VERDICT_FAIL);
		cr_expect(!cur.series[i].advisory, "a failure is gated, not advisory");
	}
	cr_expect(strstr(s->note, "the code slowed as a whole: 4 of the 4 compared groups are "
			 "slower"), "%s", s->note);
	cr_expect(strstr(s->note, "; alone: advisory: the baseline's batches differ by up to 20%"),
		  "%s", s->note);
}

Test(reference, advisory_series_stay_advisory_when_the_machine_may_have_slowed_as_much)
{
	advisory_groups_slower(1.0, 1.15, 0.98);
	/* moved (timing inconclusive), and by a bound that would explain it
	 * anyway: 1.40 / 1.13 = 1.24, under +25% */
	cr_assert_eq(cur.reference.state, REFERENCE_MOVED);
	double bound = reference_bound(&cur.reference, NULL);
	cr_assert(bound > 1.13, "%g", bound);
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 0);
	for (size_t i = 0; i < cur.series_count; i++) {
		cr_expect_eq(cur.series[i].verdict, VERDICT_SKIPPED);
		cr_expect(cur.series[i].advisory);
	}
	cr_expect_eq(cur.reference.code_shift, 0);
}

Test(reference, an_unsure_reference_bounds_the_machine_and_the_report_says_the_code)
{
	advisory_groups_slower(1.03, 0.98, 1.04);
	cr_assert_eq(cur.reference.state, REFERENCE_UNSURE);
	enum reference_part_id part = REFERENCE_CPU;
	double bound = reference_bound(&cur.reference, &part);
	cr_expect_eq(part, REFERENCE_FAULTS);
	cr_expect_eq(bound, cur.reference.part[REFERENCE_FAULTS].ci_high);
	cr_assert(bound > 1.05 && bound < 1.08, "%g", bound);   /* 1.40 / 1.08 = 1.30 */
	cr_expect_eq(reference_settle_uniform(&cur, &pol), 4);
	cr_expect_eq(cur.series[0].verdict, VERDICT_FAIL);
	cr_expect(cur.reference.code_shift > 0.35 && cur.reference.code_shift < 0.45);
	cr_expect_eq(cur.reference.bound, bound);
	char want[200];
	snprintf(want, sizeof want, "by a median of %+.1f%%, the machine by at most %+.1f%% (its "
		 "faults part's 95%% upper bound); this one ", 100 * cur.reference.code_shift,
		 100 * (bound - 1));
	cr_expect(strstr(cur.series[0].note, want), "want '%s' in: %s", want, cur.series[0].note);
	/* the report no longer lets the kernels' median stand for the machine */
	snprintf(want, sizeof want, "neither held nor moved beyond doubt since the baseline (cpu "
		 "+3.0%%, memory -2.0%%, faults +4.0%%); the kernels' groups slowed by a median of "
		 "%+.1f%%, more than the %+.1f%% it allows the machine: the code's",
		 100 * cur.reference.code_shift, 100 * (bound - 1));
	expect_machine_line(want);
	char cause[200];
	cr_assert(format_code_cause(&cur, cause, sizeof cause));
	snprintf(want, sizeof want, "the reference workload says the machine slowed by at most "
		 "%+.1f%%, so the code is the cause", 100 * (bound - 1));
	cr_expect(strstr(cause, want), "%s", cause);
}
