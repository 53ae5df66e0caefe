/* test_bisect.c: gates/decide/bisect.c: the search over commits (probes
 * in order, the culprit, skipped commits) on hand-made histories, and what
 * counts as a moved series. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "decide/bisect.h"

/* Runs the search over N commits whose first bad one is FIRST_BAD (the
 * commits in SKIP skipped), probes answered by that; returns the probes
 * made and the culprit range. */
static size_t search(size_t n, size_t first_bad, const bool *skip, size_t *first, size_t *last,
		     bool *found)
{
	enum bisect_mark marks[256];
	struct bisect b = { marks, n };
	for (size_t i = 0; i < n; i++)
		marks[i] = BISECT_UNKNOWN;
	marks[n - 1] = BISECT_BAD;
	size_t probes = 0;
	for (long i; (i = bisect_next(&b)) >= 0; probes++) {
		cr_assert_lt(probes, n, "the search ends");
		cr_assert_eq(marks[i], BISECT_UNKNOWN, "a commit is probed once");
		marks[i] = skip && skip[i] ? BISECT_SKIP
			   : (size_t)i >= first_bad ? BISECT_BAD : BISECT_GOOD;
	}
	*found = bisect_culprit(&b, first, last);
	return probes;
}

Test(bisect, every_first_bad_commit_of_40_is_found_in_at_most_ceil_log2_probes)
{
	for (size_t bad = 0; bad < 40; bad++) {
		size_t first, last;
		bool found;
		size_t probes = search(40, bad, NULL, &first, &last, &found);
		cr_expect(found, "first bad %zu", bad);
		cr_expect_eq(first, bad);
		cr_expect_leq(probes, 6, "ceil(log2(40)) = 6 probes, first bad %zu: %zu", bad, probes);
	}
}

Test(bisect, the_middle_first)
{
	enum bisect_mark marks[7] = { 0, 0, 0, 0, 0, 0, BISECT_BAD };
	struct bisect b = { marks, 7 };
	cr_expect_eq(bisect_next(&b), 2, "between the good revision (-1) and 6: 2");
	marks[2] = BISECT_GOOD;
	cr_expect_eq(bisect_next(&b), 4);
	marks[4] = BISECT_BAD;
	cr_expect_eq(bisect_next(&b), 3);
	marks[3] = BISECT_BAD;
	cr_expect_eq(bisect_next(&b), -1);
	size_t first, last;
	cr_expect(bisect_culprit(&b, &first, &last));
	cr_expect_eq(first, 3);
}

Test(bisect, a_skipped_commit_sends_the_search_to_a_neighbour)
{
	bool skip[20] = { false };
	skip[9] = skip[10] = true;
	size_t first, last;
	bool found;
	search(20, 13, skip, &first, &last, &found);
	cr_expect(found);
	cr_expect_eq(first, 13, "the culprit beside two unbuildable commits");
	search(20, 10, skip, &first, &last, &found);
	cr_expect(!found, "the culprit is one of the skipped ones or the next");
	cr_expect_eq(first, 9);
	cr_expect_eq(last, 11);
}

Test(bisect, one_commit_is_the_culprit_without_a_probe)
{
	enum bisect_mark marks[1] = { BISECT_BAD };
	struct bisect b = { marks, 1 };
	size_t first, last;
	cr_expect_eq(bisect_next(&b), -1);
	cr_expect(bisect_culprit(&b, &first, &last));
	cr_expect_eq(first, 0);
}

static struct series one(const char *metric, enum metric_class cls, double median)
{
	struct series s;
	memset(&s, 0, sizeof s);
	s.metric = (char *)metric;
	s.cls = cls;
	s.median = median;
	return s;
}

Test(bisect, exact_counts_move_by_any_difference_cost_beyond_its_tolerance_timing_never)
{
	struct series a = one("heap_malloc_calls", METRIC_EXACT, 1000);
	struct series b = one("heap_malloc_calls", METRIC_EXACT, 1001);
	cr_expect(bisect_series_moved(&b, &a, 0.002));
	cr_expect(!bisect_series_moved(&a, &a, 0.002));
	a = one("cost_instructions", METRIC_EXACT, 1e6);
	b = one("cost_instructions", METRIC_EXACT, 1e6 + 4);
	cr_expect(!bisect_series_moved(&b, &a, 0.002), "4 parts per million");
	b.median = 1.01e6;
	cr_expect(bisect_series_moved(&b, &a, 0.002));
	a = one("cost_l1_misses", METRIC_EXACT, 1146);
	b = one("cost_l1_misses", METRIC_EXACT, 1149);
	cr_expect(!bisect_series_moved(&b, &a, 0.002), "simulated misses follow the layout");
	a = one("page_faults", METRIC_EXACT, 28);
	b = one("page_faults", METRIC_EXACT, 32);
	cr_expect(!bisect_series_moved(&b, &a, 0.002), "page faults follow the host's pages");
	a = one("proc_bytes_requested", METRIC_EXACT, 107000);
	b = one("proc_bytes_requested", METRIC_EXACT, 115000);
	cr_expect(bisect_series_moved(&b, &a, 0.002));
	a = one("wall_ns", METRIC_TIMING, 100);
	b = one("wall_ns", METRIC_TIMING, 200);
	cr_expect(!bisect_series_moved(&b, &a, 0.002));
	b = one("heap_free_calls", METRIC_EXACT, NAN);
	a = one("heap_free_calls", METRIC_EXACT, 3);
	cr_expect(bisect_series_moved(&b, &a, 0.002), "measured on one side only");
}
