/* test_sanity.c: rejecting counters over known work (perf/counters/sanity.c), on
 * hand-made readings: a plausible real machine, a dead cycle counter, a
 * fault counter that does not count, and the same under an emulator. */
#include <string.h>

#include <criterion/criterion.h>

#include "counters/sanity.h"

#define READ_ALL (COUNTER_BIT(COUNTER_WALL_NS) | COUNTER_BIT(COUNTER_CPU_NS) | \
		  COUNTER_BIT(COUNTER_CYCLES) | COUNTER_BIT(COUNTER_PAGE_FAULTS) | \
		  COUNTER_BIT(COUNTER_INSTRUCTIONS))

/* 5 ms of busy work at 3 GHz touching 64 fresh pages. */
static struct sanity_work plausible(void)
{
	return (struct sanity_work){
		.read = READ_ALL, .wall_ns = 5000000, .cpu_ns = 15625000,
		.cycles = 15000000, .instructions = 20000000, .page_faults = 66,
		.pages_touched = 64, .cpu_tick_ns = 15625000, .emulator = NULL,
	};
}

Test(sanity, plausible_readings_pass)
{
	struct sanity_work w = plausible();
	char reasons[COUNTER_COUNT][SANITY_REASON_SIZE];
	cr_expect_eq(sanity_reject_all(&w, reasons), 0);
}

Test(sanity, dead_cycle_counter_is_rejected)
{
	struct sanity_work w = plausible();
	char why[SANITY_REASON_SIZE] = "";
	w.cycles = 0;
	cr_assert(sanity_reject(COUNTER_CYCLES, &w, why, sizeof why));
	cr_expect_str_eq(why, "cycle counter did not advance over 5.0 ms of work");
}

Test(sanity, cycles_outside_believable_rate_are_rejected)
{
	struct sanity_work w = plausible();
	char why[SANITY_REASON_SIZE] = "";
	w.cycles = 400000;  /* 0.08 GHz */
	cr_expect(sanity_reject(COUNTER_CYCLES, &w, why, sizeof why));
	cr_expect(strstr(why, "0.08 GHz") != NULL, "%s", why);
	w.cycles = 60000000;  /* 12 GHz */
	cr_expect(sanity_reject(COUNTER_CYCLES, &w, why, sizeof why));
	w.cycles = 500000;  /* 0.1 GHz: the bound itself passes */
	cr_expect_not(sanity_reject(COUNTER_CYCLES, &w, why, sizeof why));
}

Test(sanity, zero_faults_over_fresh_pages_are_rejected)
{
	struct sanity_work w = plausible();
	char why[SANITY_REASON_SIZE] = "";
	w.page_faults = 0;
	cr_assert(sanity_reject(COUNTER_PAGE_FAULTS, &w, why, sizeof why));
	cr_expect_str_eq(why, "page faults counted 0 over 64 fresh pages touched");
	w.page_faults = 16;  /* fault-around of 4 pages is still believed */
	cr_expect_not(sanity_reject(COUNTER_PAGE_FAULTS, &w, why, sizeof why));
}

Test(sanity, zero_instructions_are_rejected)
{
	struct sanity_work w = plausible();
	char why[SANITY_REASON_SIZE] = "";
	w.instructions = 0;
	cr_expect(sanity_reject(COUNTER_INSTRUCTIONS, &w, why, sizeof why));
}

Test(sanity, cpu_time_ahead_of_wall_is_rejected)
{
	struct sanity_work w = plausible();
	char why[SANITY_REASON_SIZE] = "";
	w.cpu_ns = w.wall_ns + 2 * w.cpu_tick_ns;  /* within the resolution */
	cr_expect_not(sanity_reject(COUNTER_CPU_NS, &w, why, sizeof why));
	w.cpu_ns += 1;
	cr_expect(sanity_reject(COUNTER_CPU_NS, &w, why, sizeof why));
}

Test(sanity, emulator_rejects_plausible_cycles_and_faults)
{
	struct sanity_work w = plausible();
	char reasons[COUNTER_COUNT][SANITY_REASON_SIZE];
	w.emulator = "wine 8.0";
	uint32_t bad = sanity_reject_all(&w, reasons);
	cr_expect_eq(bad, COUNTER_BIT(COUNTER_CYCLES) | COUNTER_BIT(COUNTER_PAGE_FAULTS) |
		     COUNTER_BIT(COUNTER_INSTRUCTIONS));
	cr_expect_str_eq(reasons[COUNTER_CYCLES], "untrustworthy under wine 8.0: cycles "
			 "read 15000000 over 5.0 ms of work, not the CPU's count");
}

Test(sanity, emulator_reason_keeps_what_was_seen)
{
	struct sanity_work w = plausible();
	char why[SANITY_REASON_SIZE] = "";
	w.emulator = "wine 8.0";
	w.cycles = 0;
	cr_assert(sanity_reject(COUNTER_CYCLES, &w, why, sizeof why));
	cr_expect_str_eq(why, "untrustworthy under wine 8.0: cycle counter did not "
			 "advance over 5.0 ms of work");
}

Test(sanity, counters_not_read_are_never_rejected)
{
	struct sanity_work w = plausible();
	char why[SANITY_REASON_SIZE] = "";
	w.read = COUNTER_BIT(COUNTER_WALL_NS);
	w.cycles = 0;
	w.emulator = "wine 8.0";
	cr_expect_not(sanity_reject(COUNTER_CYCLES, &w, why, sizeof why));
	cr_expect_not(sanity_reject(COUNTER_WALL_NS, &w, why, sizeof why));
}
