/* test_counted.c: gates/decide/counted.c: a group whose heap_* counts are 0
 * while another counter saw its allocation calls is not measured by the
 * counted build: never a pass. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/result.h"
#include "decide/counted.h"

static struct run_result r;

static void setup(void)
{
	memset(&r, 0, sizeof r);
}

static void teardown(void)
{
	result_free(&r);
}

TestSuite(counted, .init = setup, .fini = teardown);

static struct series *add(const char *variant, const char *metric, double value)
{
	struct series *s = result_add_series(&r, "json", variant, "small", metric, "count",
					     METRIC_EXACT);
	cr_assert_not_null(s);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(result_series_append(s, value), 0);
	s->median = value;
	s->verdict = VERDICT_PASS;
	return s;
}

Test(counted, heap_calls_seen_is_seen)
{
	char why[600] = "";
	add("parse", "heap_calls", 12);
	add("parse", "proc_malloc_calls", 12);
	cr_expect_eq(counted_sight(&r, "json", "small", why, sizeof why), COUNTED_SEEN);
	counted_mark(&r);
	cr_expect_eq(r.series[0].verdict, VERDICT_PASS);
	cr_expect_eq(r.problem_count, 0);
}

Test(counted, nothing_allocated_anywhere_is_a_measured_zero)
{
	char why[600] = "";
	add("parse", "heap_calls", 0);
	add("parse", "proc_free_calls", 3);   /* free(NULL) is no allocation */
	cr_expect_eq(counted_sight(&r, "json", "small", why, sizeof why), COUNTED_SEEN);
}

Test(counted, interposer_saw_what_the_counted_build_did_not)
{
	char why[600] = "";
	struct series *heap = add("parse", "heap_calls", 0);
	struct series *realloc_calls = add("parse", "heap_realloc_calls", 0);
	add("parse", "proc_realloc_calls", 1998);
	add("print", "heap_calls", 0);
	cr_expect_eq(counted_sight(&r, "json", "small", why, sizeof why), COUNTED_BLIND_PROC);
	cr_expect(strstr(why, "interposer counted 1998"), "%s", why);
	counted_mark(&r);
	/* not compared: proc_* gates the counts, the heap_* zeros are no figure */
	cr_expect_eq(heap->verdict, VERDICT_SKIPPED);
	cr_expect_eq(realloc_calls->verdict, VERDICT_SKIPPED);
	cr_expect_eq(r.series[2].verdict, VERDICT_PASS, "the proc_* series keeps its verdict");
	cr_expect_eq(r.problem_count, 0);
}

Test(counted, only_the_cost_pass_saw_them_fails_the_run)
{
	char why[600] = "";
	struct series *heap = add("parse", "heap_calls", 0);
	add("parse", "cost_realloc_calls", 40);
	cr_expect_eq(counted_sight(&r, "json", "small", why, sizeof why), COUNTED_BLIND_COST);
	counted_mark(&r);
	cr_expect_eq(heap->verdict, VERDICT_ERROR);
	cr_assert_eq(r.problem_count, 1);
	cr_expect_str_eq(r.problems[0].what, "counted build");
	cr_expect(strstr(r.problems[0].reason, "cost pass counted 40"), "%s",
		  r.problems[0].reason);
}
