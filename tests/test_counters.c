/* test_counters.c: the counter arithmetic (perf/counters/counters_math.c) and the
 * parameter parser (perf/probe/params.c), on hand-computed cases. Nothing here
 * opens a counter or reads a clock. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "counters/counters_math.h"
#include "probe/params.h"

/* ---- one counter: delta and scale ---- */

Test(counter_delta, plain_difference)
{
	struct counter_raw b = { 100, 0, 0 }, e = { 350, 0, 0 };
	uint64_t out = 0;
	cr_assert_eq(counter_delta(&b, &e, false, &out), COUNTER_OK);
	cr_expect_eq(out, 250);
}

Test(counter_delta, unscaled_ignores_times)
{
	/* clocks and getrusage have no enabled/running times */
	struct counter_raw b = { 7, 0, 0 }, e = { 7, 0, 0 };
	uint64_t out = 1;
	cr_assert_eq(counter_delta(&b, &e, false, &out), COUNTER_OK);
	cr_expect_eq(out, 0);
}

Test(counter_delta, scaled_half_running_doubles)
{
	/* 1000 counted while running 50% of the enabled time -> 2000 */
	struct counter_raw b = { 500, 1000, 1000 }, e = { 1500, 3000, 2000 };
	uint64_t out = 0;
	cr_assert_eq(counter_delta(&b, &e, true, &out), COUNTER_OK);
	cr_expect_eq(out, 2000);
}

Test(counter_delta, backwards_value_is_rejected)
{
	struct counter_raw b = { 1000, 10, 10 }, e = { 999, 20, 20 };
	uint64_t out = 42;
	cr_expect_eq(counter_delta(&b, &e, true, &out), COUNTER_BACKWARDS);
	cr_expect_eq(counter_delta(&b, &e, false, &out), COUNTER_BACKWARDS);
	cr_expect_eq(out, 42, "a rejected reading must not be written");
}

Test(counter_delta, backwards_time_is_rejected)
{
	struct counter_raw b = { 10, 100, 100 }, e = { 20, 90, 100 };
	uint64_t out = 0;
	cr_expect_eq(counter_delta(&b, &e, true, &out), COUNTER_TIME_BACKWARDS);
	e = (struct counter_raw){ 20, 200, 50 };
	cr_expect_eq(counter_delta(&b, &e, true, &out), COUNTER_TIME_BACKWARDS);
}

Test(counter_delta, not_running_is_rejected_not_zero)
{
	/* enabled advanced, running did not: the group never got the PMU */
	struct counter_raw b = { 5, 100, 40 }, e = { 5, 900, 40 };
	uint64_t out = 42;
	cr_expect_eq(counter_delta(&b, &e, true, &out), COUNTER_NOT_RUNNING);
	cr_expect_eq(out, 42);
}

struct scale_case {
	uint64_t value, enabled, running, expected;
};

ParameterizedTestParameters(counter_scale, known_values)
{
	static struct scale_case cases[] = {
		{ 1000, 2000, 1000, 2000 },  /* running half the time */
		{ 1000, 1000, 1000, 1000 },  /* not multiplexed */
		{ 1000, 1000, 1500, 1000 },  /* running > enabled: no scaling */
		{ 0, 1000, 10, 0 },
		{ 1, 3, 2, 2 },              /* 1.5 rounds half up */
		{ 2, 5, 4, 3 },              /* 2.5 -> 3 */
		{ 10, 10, 3, 33 },           /* 33.33 -> 33 */
		{ 2, 3, 1, 6 },
		{ 7, 1000000000, 999999999, 7 },                 /* 7.000000007 */
		{ UINT64_C(1) << 62, 3, 2, UINT64_C(3) << 61 },  /* exact, large */
		{ (UINT64_C(1) << 53) + 1, 10, 10, (UINT64_C(1) << 53) + 1 },
	};
	return cr_make_param_array(struct scale_case, cases,
				   sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct scale_case *c, counter_scale, known_values)
{
	uint64_t out = 0;
	cr_assert_eq(counter_scale(c->value, c->enabled, c->running, &out), COUNTER_OK);
	cr_expect_eq(out, c->expected, "%llu * %llu / %llu: got %llu, want %llu",
		     (unsigned long long)c->value, (unsigned long long)c->enabled,
		     (unsigned long long)c->running, (unsigned long long)out,
		     (unsigned long long)c->expected);
}

Test(counter_scale, zero_running_and_overflow)
{
	uint64_t out = 0;
	cr_expect_eq(counter_scale(0, 0, 0, &out), COUNTER_NOT_RUNNING);
	cr_expect_eq(counter_scale(UINT64_C(1) << 63, 4, 1, &out), COUNTER_TOO_LARGE);
	cr_expect_eq(counter_scale(UINT64_MAX, 2, 1, &out), COUNTER_TOO_LARGE);
}

Test(counter_overhead, subtract_is_clamped_at_zero)
{
	cr_expect_eq(counter_subtract_overhead(100, 30), 70);
	cr_expect_eq(counter_subtract_overhead(30, 100), 0);
	cr_expect_eq(counter_subtract_overhead(5, 5), 0);
	cr_expect_eq(counter_subtract_overhead(UINT64_MAX, 0), UINT64_MAX);
}

/* ---- all counters: overhead estimate and region totals ---- */

/* Sets counter ID of BEGIN/END to one reading VALUE_B..VALUE_E, running
 * the whole time RUN_NS. */
static void reading(struct counter_raw *begin, struct counter_raw *end,
		    enum counter_id id, uint64_t value_b, uint64_t value_e,
		    uint64_t run_ns)
{
	begin[id] = (struct counter_raw){ value_b, 1000, 1000 };
	end[id] = (struct counter_raw){ value_e, 1000 + run_ns, 1000 + run_ns };
}

Test(counter_setup, overhead_is_the_minimum_of_empty_regions)
{
	struct counter_setup s;
	struct counter_raw b[COUNTER_COUNT] = { 0 }, e[COUNTER_COUNT] = { 0 };
	uint32_t open = COUNTER_BIT(COUNTER_WALL_NS) | COUNTER_BIT(COUNTER_TASK_CLOCK_NS) |
			COUNTER_BIT(COUNTER_PAGE_FAULTS);
	counter_setup_init(&s, open, COUNTER_BIT(COUNTER_TASK_CLOCK_NS));
	static const uint64_t wall[] = { 50, 30, 40 }, task[] = { 900, 700, 800 };
	for (int i = 0; i < 3; i++) {
		reading(b, e, COUNTER_WALL_NS, 1000, 1000 + wall[i], 0);
		reading(b, e, COUNTER_TASK_CLOCK_NS, 5000, 5000 + task[i], 100);
		counter_setup_overhead(&s, b, e, 0);
	}
	/* a garbage empty region never lowers the estimate */
	reading(b, e, COUNTER_WALL_NS, 1000, 999, 0);
	reading(b, e, COUNTER_TASK_CLOCK_NS, 5000, 5001, 0);
	counter_setup_overhead(&s, b, e, 0);
	/* nor does a counter whose read failed */
	reading(b, e, COUNTER_WALL_NS, 1000, 1001, 0);
	counter_setup_overhead(&s, b, e, COUNTER_BIT(COUNTER_WALL_NS));
	counter_setup_finish(&s);
	cr_expect_eq(s.overhead[COUNTER_WALL_NS], 30);
	cr_expect_eq(s.overhead[COUNTER_TASK_CLOCK_NS], 700);
	cr_expect_eq(s.overhead[COUNTER_PAGE_FAULTS], 0);
	cr_expect_eq(s.overhead[COUNTER_CYCLES], 0, "closed counters end at 0");
}

Test(counter_setup, counters_outside_open_are_not_scaled)
{
	struct counter_setup s;
	counter_setup_init(&s, COUNTER_BIT(COUNTER_WALL_NS), COUNTER_ALL);
	cr_expect_eq(s.open, COUNTER_BIT(COUNTER_WALL_NS));
	cr_expect_eq(s.scaled, COUNTER_BIT(COUNTER_WALL_NS));
}

Test(counter_totals, entries_accumulate_minus_overhead)
{
	struct counter_setup s;
	struct counter_totals t = { 0 };
	struct counter_raw b[COUNTER_COUNT] = { 0 }, e[COUNTER_COUNT] = { 0 };
	counter_setup_init(&s, COUNTER_BIT(COUNTER_WALL_NS) | COUNTER_BIT(COUNTER_CYCLES),
			   COUNTER_BIT(COUNTER_CYCLES));
	s.overhead[COUNTER_WALL_NS] = 20;
	s.overhead[COUNTER_CYCLES] = 100;

	reading(b, e, COUNTER_WALL_NS, 0, 1020, 0);
	b[COUNTER_CYCLES] = (struct counter_raw){ 0, 0, 0 };
	e[COUNTER_CYCLES] = (struct counter_raw){ 1000, 2000, 1000 }; /* -> 2000 */
	counter_totals_add(&t, &s, b, e, 0);
	reading(b, e, COUNTER_WALL_NS, 5000, 5010, 0);                /* 10 - 20 -> 0 */
	reading(b, e, COUNTER_CYCLES, 0, 600, 50);                    /* 600 - 100 */
	counter_totals_add(&t, &s, b, e, 0);

	cr_expect_eq(t.entries, 2);
	cr_expect_eq(t.value[COUNTER_WALL_NS], 1000 + 0);
	cr_expect_eq(t.value[COUNTER_CYCLES], 1900 + 500);
	cr_expect_eq(t.fault[COUNTER_WALL_NS], COUNTER_OK);
	cr_expect_eq(t.value[COUNTER_TASK_CLOCK_NS], 0, "closed counters stay untouched");
}

Test(counter_totals, first_fault_sticks)
{
	struct counter_setup s;
	struct counter_totals t = { 0 };
	struct counter_raw b[COUNTER_COUNT] = { 0 }, e[COUNTER_COUNT] = { 0 };
	uint32_t open = COUNTER_BIT(COUNTER_PAGE_FAULTS) | COUNTER_BIT(COUNTER_CTX_SWITCHES);
	counter_setup_init(&s, open, open);
	counter_setup_finish(&s);

	reading(b, e, COUNTER_PAGE_FAULTS, 10, 5, 100);     /* backwards */
	reading(b, e, COUNTER_CTX_SWITCHES, 1, 4, 100);
	counter_totals_add(&t, &s, b, e, 0);
	reading(b, e, COUNTER_PAGE_FAULTS, 10, 20, 0);      /* not running */
	reading(b, e, COUNTER_CTX_SWITCHES, 1, 4, 100);
	counter_totals_add(&t, &s, b, e, COUNTER_BIT(COUNTER_CTX_SWITCHES));
	reading(b, e, COUNTER_CTX_SWITCHES, 1, 4, 100);
	counter_totals_add(&t, &s, b, e, 0);

	cr_expect_eq(t.fault[COUNTER_PAGE_FAULTS], COUNTER_BACKWARDS);
	cr_expect_eq(t.fault[COUNTER_CTX_SWITCHES], COUNTER_READ_FAILED);
	cr_expect_eq(t.entries, 3);
}

Test(counter_totals, overflowing_sum_is_rejected)
{
	struct counter_setup s;
	struct counter_totals t = { 0 };
	struct counter_raw b[COUNTER_COUNT] = { 0 }, e[COUNTER_COUNT] = { 0 };
	counter_setup_init(&s, COUNTER_BIT(COUNTER_WALL_NS), 0);
	counter_setup_finish(&s);
	t.value[COUNTER_WALL_NS] = UINT64_MAX - 5;
	reading(b, e, COUNTER_WALL_NS, 0, 10, 0);
	counter_totals_add(&t, &s, b, e, 0);
	cr_expect_eq(t.fault[COUNTER_WALL_NS], COUNTER_TOO_LARGE);
}

/* ---- names ---- */

Test(counter_names, table)
{
	enum counter_id id;
	cr_expect_str_eq(counter_name(COUNTER_WALL_NS), "wall_ns");
	cr_expect_str_eq(counter_unit(COUNTER_TASK_CLOCK_NS), "ns");
	cr_expect_eq(counter_class(COUNTER_PAGE_FAULTS), GATE_NEAR);
	cr_expect_eq(counter_class(COUNTER_INSTRUCTIONS), GATE_NEAR);
	cr_expect_eq(counter_class(COUNTER_CYCLES), GATE_TIMING);
	cr_expect_str_eq(counter_unit(COUNTER_BRANCH_MISSES), "count");
	cr_assert_eq(counter_lookup("cache_misses", &id), 0);
	cr_expect_eq(id, COUNTER_CACHE_MISSES);
	cr_expect_eq(counter_lookup("cycle", &id), -1);
	for (int i = 0; i < COUNTER_COUNT; i++) {
		cr_assert_eq(counter_lookup(counter_name((enum counter_id)i), &id), 0);
		cr_expect_eq((int)id, i, "names must be unique");
	}
}

Test(counter_names, fault_reasons_are_one_line)
{
	for (int f = COUNTER_BACKWARDS; f <= COUNTER_READ_FAILED; f++) {
		const char *why = counter_fault_reason((enum counter_fault)f);
		cr_expect(why[0] != '\0' && !strchr(why, '\n'), "fault %d: '%s'", f, why);
	}
}

/* ---- the parameter parser ---- */

Test(params_parse, parses_the_protocol_example)
{
	struct gate_params p;
	char err[128] = "";
	long long v;
	cr_assert_eq(params_parse("start=2097152 span=1048576 step=1024", &p, err,
				  sizeof err), 0, "%s", err);
	cr_assert_eq(p.count, 3);
	cr_expect_str_eq(p.entries[0].key, "start");
	cr_expect_eq(p.entries[0].value, 2097152);
	cr_assert_eq(params_find(&p, "step", &v), 0);
	cr_expect_eq(v, 1024);
	cr_expect_eq(params_find(&p, "stride", &v), -ENOENT);
}

Test(params_parse, empty_and_spaces)
{
	struct gate_params p;
	char err[128], text[64];
	cr_expect_eq(params_parse(NULL, &p, err, sizeof err), 0);
	cr_expect_eq(p.count, 0);
	cr_expect_eq(params_parse("", &p, err, sizeof err), 0);
	cr_expect_eq(p.count, 0);
	cr_assert_eq(params_parse("  a=1   B_2=-2\tc=+3 ", &p, err, sizeof err), 0, "%s", err);
	cr_assert_eq(p.count, 3);
	cr_expect_eq(p.entries[1].value, -2);
	cr_expect_eq(p.entries[2].value, 3);
	cr_assert_eq(params_format(&p, text, sizeof text), 0);
	cr_expect_str_eq(text, "a=1 B_2=-2 c=3");
	cr_expect_eq(params_format(&p, text, 8), -ENOSPC);
}

Test(params_parse, limits)
{
	struct gate_params p;
	char err[128], text[PARAMS_MAX * 8 + 16] = "";
	cr_expect_eq(params_parse("k=9223372036854775807 m=-9223372036854775808", &p, err,
				  sizeof err), 0, "%s", err);
	cr_expect_eq(p.entries[1].value, -9223372036854775807LL - 1);
	cr_expect_eq(params_parse("abcdefghijklmnopqrstuvwxyz01234=1", &p, err, sizeof err), 0);
	cr_expect_eq(params_parse("abcdefghijklmnopqrstuvwxyz012345=1", &p, err, sizeof err),
		     -EINVAL);
	for (int i = 0; i <= PARAMS_MAX; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "k%d=1 ", i);
	cr_expect_eq(params_parse(text, &p, err, sizeof err), -E2BIG);
}

struct bad_params {
	char values[48];
	char quoted[24];   /* what the message must name */
};

ParameterizedTestParameters(params_parse, rejects)
{
	static struct bad_params cases[] = {
		{ "a", "'a'" },
		{ "a=", "'a='" },
		{ "=1", "'=1'" },
		{ "n=1x", "'n=1x'" },
		{ "n=0x10", "'n=0x10'" },
		{ "n=2M", "'n=2M'" },
		{ "n=1.5", "'n=1.5'" },
		{ "n=-", "'n=-'" },
		{ "1n=2", "'1n=2'" },
		{ "n-m=2", "'n-m=2'" },
		{ "a=1 n=99999999999999999999", "out of range" },
		{ "a=1 a=2", "'a' given twice" },
	};
	return cr_make_param_array(struct bad_params, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct bad_params *c, params_parse, rejects)
{
	struct gate_params p;
	char err[256] = "";
	cr_assert_eq(params_parse(c->values, &p, err, sizeof err), -EINVAL, "'%s'", c->values);
	cr_expect(strstr(err, c->quoted) != NULL, "'%s': message '%s' lacks %s", c->values,
		  err, c->quoted);
}
