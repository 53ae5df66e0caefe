/* test_cost_regions.c: a cost sample's dumps summed per region
 * (gates/sample/cost_regions.c): hand-written dumps in callgrind's format
 * whose labels name nested regions, the sums and metrics worked out by
 * hand. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/cost_regions.h"

#define EVENTS "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"

/* The interval with only outer open: main calls malloc twice (60 Ir inclusive). */
static const char outer_dump[] = "desc: Trigger: Client Request: allocgate/outer\n" EVENTS
				 "fn=main\n"
				 "1 40\n"
				 "cfn=malloc\n"
				 "calls=2 0\n"
				 "2 60\n"
				 "totals: 100 20 10 4 2 1 1 1 0\n";

/* The interval with inner open inside outer: one free (5 Ir inclusive). */
static const char inner_dump[] = "desc: Trigger: Client Request: allocgate/outer/inner\n" EVENTS
				 "fn=main\n"
				 "1 25\n"
				 "cfn=free\n"
				 "calls=1 0\n"
				 "2 5\n"
				 "totals: 30 6 3 2 1 0 0 1 0\n";

/* Callgrind's own dump at exit: not the probe's, so no region's. */
static const char exit_dump[] = "desc: Trigger: Program termination\n" EVENTS
				"fn=main\n"
				"1 1000\n"
				"totals: 1000 0 0 0 0 0 0 0 0\n";

/* The value of metric NAME in REC; fails the test when it is missing. */
static uint64_t value_of(const struct record *rec, const char *name)
{
	for (size_t i = 0; i < rec->metric_count; i++)
		if (!strcmp(rec->metrics[i].name, name))
			return rec->metrics[i].value;
	cr_assert_fail("no metric %s", name);
	return 0;
}

static void add(struct cost_regions *rs, const char *text, char **ifuncs)
{
	char err[256] = "";
	cr_assert_eq(cost_regions_add_dump(rs, text, ifuncs, err, sizeof err), 0, "%s", err);
}

Test(cost_regions, a_dump_adds_to_every_region_its_label_names)
{
	static struct cost_regions rs;
	struct record rec = { 0 };
	char err[256] = "", *ifuncs = NULL;
	memset(&rs, 0, sizeof rs);
	add(&rs, outer_dump, &ifuncs);
	add(&rs, inner_dump, &ifuncs);
	add(&rs, exit_dump, &ifuncs);
	cr_expect_eq(rs.dumps, 2, "the exit dump is not the probe's");
	cr_assert_eq(rs.n, 2);
	cr_expect_str_eq(rs.r[0].name, "outer", "in the order the dumps named them");
	cr_expect_str_eq(rs.r[1].name, "inner");
	cr_assert_eq(cost_regions_metrics(&rs, "k", &rec, err, sizeof err), 0, "%s", err);
	/* 4 event metrics and 2 per entry point, for each region */
	cr_expect_eq(rec.metric_count, 2 * (4 + 2 * COST_ENTRIES));
	/* outer: both dumps */
	cr_expect_eq(value_of(&rec, "outer.cost_instructions"), 130);
	cr_expect_eq(value_of(&rec, "outer.cost_l1_misses"), 7 + 3);
	cr_expect_eq(value_of(&rec, "outer.cost_ll_misses"), 2 + 1);
	/* 169 accesses, 10 L1 misses of which 3 went to RAM: 159 + 5 x 7 + 35 x 3 */
	cr_expect_eq(value_of(&rec, "outer.cost_est_cycles"), 299);
	cr_expect_eq(value_of(&rec, "outer.cost_malloc_calls"), 2);
	cr_expect_eq(value_of(&rec, "outer.cost_malloc_instructions"), 60);
	cr_expect_eq(value_of(&rec, "outer.cost_free_calls"), 1);
	cr_expect_eq(value_of(&rec, "outer.cost_free_instructions"), 5);
	/* inner: its own dump alone */
	cr_expect_eq(value_of(&rec, "inner.cost_instructions"), 30);
	cr_expect_eq(value_of(&rec, "inner.cost_l1_misses"), 3);
	cr_expect_eq(value_of(&rec, "inner.cost_ll_misses"), 1);
	/* 39 accesses, 3 L1 misses of which 1 went to RAM: 36 + 5 x 2 + 35 */
	cr_expect_eq(value_of(&rec, "inner.cost_est_cycles"), 81);
	cr_expect_eq(value_of(&rec, "inner.cost_malloc_calls"), 0);
	cr_expect_eq(value_of(&rec, "inner.cost_free_instructions"), 5);
	for (size_t i = 0; i < rec.metric_count; i++)
		cr_expect_eq(rec.metrics[i].cls, METRIC_EXACT, "%s", rec.metrics[i].name);
	record_free(&rec);
	free(ifuncs);
}

Test(cost_regions, the_unnamed_region_has_bare_metric_names)
{
	static struct cost_regions rs;
	struct record rec = { 0 };
	char err[256] = "", *ifuncs = NULL;
	memset(&rs, 0, sizeof rs);
	add(&rs, "desc: Trigger: Client Request: allocgate/\n" EVENTS "totals: 8\n", &ifuncs);
	cr_assert_eq(cost_regions_metrics(&rs, "k", &rec, err, sizeof err), 0, "%s", err);
	cr_expect_eq(value_of(&rec, "cost_instructions"), 8);
	record_free(&rec);
	free(ifuncs);
}

Test(cost_regions, no_dump_of_the_probe_names_the_kernel)
{
	static struct cost_regions rs;
	struct record rec = { 0 };
	char err[256] = "", *ifuncs = NULL;
	memset(&rs, 0, sizeof rs);
	add(&rs, exit_dump, &ifuncs);
	cr_expect_eq(cost_regions_metrics(&rs, "build/kernels/k", &rec, err, sizeof err),
		     -ENODATA);
	cr_expect(strstr(err, "build/kernels/k was built without the cost markers"), "%s", err);
	cr_expect_eq(rec.metric_count, 0);
	free(ifuncs);
}

Test(cost_regions, more_regions_than_the_limit_are_refused)
{
	static struct cost_regions rs;
	struct record rec = { 0 };
	char err[256] = "", text[512], *ifuncs = NULL;
	memset(&rs, 0, sizeof rs);
	for (int i = 0; i <= COST_MAX_REGIONS; i++) {
		snprintf(text, sizeof text, "desc: Trigger: Client Request: allocgate/r%d\n"
			 EVENTS "totals: 1\n", i);
		add(&rs, text, &ifuncs);
	}
	cr_expect_eq(rs.n, COST_MAX_REGIONS);
	cr_expect_eq(cost_regions_metrics(&rs, "k", &rec, err, sizeof err), -EINVAL);
	cr_expect_str_eq(err, "more than 16 regions");
	free(ifuncs);
}

Test(cost_regions, a_dump_without_totals_is_refused)
{
	static struct cost_regions rs;
	char err[256] = "", *ifuncs = NULL;
	memset(&rs, 0, sizeof rs);
	cr_expect_eq(cost_regions_add_dump(&rs, "desc: Trigger: Client Request: allocgate/a\n"
					   EVENTS, &ifuncs, err, sizeof err), -EINVAL);
	cr_expect(strstr(err, "totals:"), "%s", err);
	cr_expect_eq(rs.dumps, 0);
	cr_expect_eq(rs.n, 0);
	free(ifuncs);
}
