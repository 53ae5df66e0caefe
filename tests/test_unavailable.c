/* test_unavailable.c: gates/report/unavailable.c, one `unavailable:` line per
 * cause (the reasons are those perf/counters/counters_linux.c gives). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/unavailable.h"

#define PARANOID " (perf_event_paranoid=3; run as root or sysctl kernel.perf_event_paranoid=1)"
#define TRACEFS " (tracefs not mounted on /sys/kernel/tracing, or a kernel without " \
	"CONFIG_FTRACE_SYSCALLS)"

static char *render(const struct run_result *r)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	cr_assert_not_null(f);
	unavailable_print(f, r);
	fclose(f);
	return buf;
}

static void refuse(struct run_result *r, const char *what, const char *reason)
{
	cr_assert_eq(result_add_problem(r, NULL, NULL, NULL, what, reason), 0);
}

Test(unavailable, one_line_per_cause_and_what_is_measured_instead)
{
	struct run_result r = { 0 };
	r.ctx.counters = strdup("available: wall_ns,page_faults,ctx_switches; unavailable: "
				"task_clock_ns,cycles,sys_mmap,sys_brk");
	refuse(&r, "task_clock_ns", "not permitted" PARANOID);
	refuse(&r, "sys_mmap", "no tracepoint raw_syscalls:sys_enter" TRACEFS);
	refuse(&r, "cycles", "not permitted" PARANOID);
	refuse(&r, "sys_brk", "no tracepoint raw_syscalls:sys_enter" TRACEFS);
	cr_assert_eq(result_add_problem(&r, "toy", "single", "small", "sample", "killed by signal 9"), 0);
	cr_expect_str_eq(render(&r),
			 "unavailable: task_clock_ns, cycles: not permitted" PARANOID "\n"
			 "unavailable: sys_mmap, sys_brk: no tracepoint raw_syscalls:sys_enter" TRACEFS "\n"
			 "measured instead: wall_ns,page_faults,ctx_switches (what is "
			 "unavailable is never gated)\n");
	result_free(&r);
}

/* Reasons of one cause that differ before it: the line keeps the words
 * they share. */
Test(unavailable, one_cause_keeps_the_words_its_reasons_share)
{
	struct run_result r = { 0 };
	refuse(&r, "sys_mmap", "no event sys_enter_mmap" TRACEFS);
	refuse(&r, "sys_brk", "no event sys_enter_brk" TRACEFS);
	cr_expect_str_eq(render(&r), "unavailable: sys_mmap, sys_brk: no event" TRACEFS "\n");
	result_free(&r);
}

Test(unavailable, nothing_printed_when_everything_is_there)
{
	struct run_result r = { 0 };
	r.ctx.counters = strdup("available: wall_ns; unavailable: none");
	cr_expect_str_eq(render(&r), "");
	result_free(&r);
}

Test(unavailable, a_single_counter_keeps_its_whole_reason)
{
	struct run_result r = { 0 };
	refuse(&r, "cycles", "no hardware PMU (perf_event_open: No such file or directory)");
	cr_expect_str_eq(render(&r), "unavailable: cycles: no hardware PMU (perf_event_open: "
			 "No such file or directory)\n");
	result_free(&r);
}
