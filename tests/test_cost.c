/* test_cost.c: the cost pass's pure parts (gates/sample/cost_dump.c): callgrind dump
 * files written by hand in callgrind's format, with the figures worked out
 * by hand; the dump labels of perf/probe/probe_region.c; the estimated-cycles model. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "core/metric_name.h"
#include "sample/cost_dump.h"

/* A dump as callgrind writes it with --cache-sim=yes --compress-strings=no
 * --compress-pos=no: main calls malloc twice (inclusive 120 Ir) and free
 * twice (40 Ir); malloc calls _int_malloc (not counted again), and
 * realloc, called from inside calloc, is the allocator's own call. */
static const char dump_text[] =
	"# callgrind format\n"
	"version: 1\n"
	"creator: callgrind-3.19.0\n"
	"desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
	"desc: Trigger: Client Request: allocgate/alloc\n"
	"\n"
	"positions: line\n"
	"events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
	"summary: 999 1 1 1 1 1 1 1 1\n"
	"\n"
	"ob=/usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"fl=./malloc/malloc.c\n"
	"fn=malloc\n"
	"3300 80 20 10 2 1 0 1 0 0\n"
	"cfn=_int_malloc\n"
	"calls=2 4000\n"
	"3301 40 10 5 0 0 0 0 0 0\n"
	"fn=calloc\n"
	"3400 10\n"
	"cfn=realloc\n"
	"calls=1 3500\n"
	"3401 25\n"
	"fl=./kernel.c\n"
	"fn=main\n"
	"12 200 50 20 3 4 5 1 2 3\n"
	"cfi=./malloc/malloc.c\n"
	"cfn=malloc\n"
	"calls=2 3300\n"
	"13 120 30 15 2 1 0 1 0 0\n"
	"cfn=free@@GLIBC_2.2.5\n"
	"calls=2 3600\n"
	"14 40 10 4\n"
	"cfn=strlen\n"
	"calls=5 0\n"
	"15 500\n"
	"\n"
	"totals: 430 90 39 5 5 5 2 2 3\n";

Test(cost, a_dump_gives_its_label_totals_and_entry_points)
{
	struct cost_dump d;
	char err[128];
	cr_assert_eq(cost_parse_dump(dump_text, &d, err, sizeof err), 0, "%s", err);
	cr_expect_str_eq(d.label, "allocgate/alloc");
	/* totals:, not summary: (the summary counts more than the dump shows) */
	cr_expect_eq(d.events[COST_IR], 430);
	cr_expect_eq(d.events[COST_DW], 39);
	cr_expect_eq(d.events[COST_DLMW], 3);
	cr_expect_eq(d.calls[COST_MALLOC], 2);
	cr_expect_eq(d.entry_ir[COST_MALLOC], 120);
	cr_expect_eq(d.calls[COST_FREE], 2, "a versioned name counts as free");
	cr_expect_eq(d.entry_ir[COST_FREE], 40);
	cr_expect_eq(d.calls[COST_REALLOC], 0, "called from inside calloc: not the program's call");
	cr_expect_eq(d.calls[COST_CALLOC], 0);
	cr_expect_eq(d.calls[COST_ALIGNED], 0);
}

Test(cost, events_are_found_by_name_not_position)
{
	/* without the cache simulation: Ir only */
	static const char text[] = "events: Ir\n"
				   "fn=main\n"
				   "1 7\n"
				   "cfn=posix_memalign\n"
				   "calls=3 9\n"
				   "2 33\n"
				   "totals: 40\n";
	struct cost_dump d;
	char err[128];
	cr_assert_eq(cost_parse_dump(text, &d, err, sizeof err), 0, "%s", err);
	cr_expect_eq(d.events[COST_IR], 40);
	cr_expect_eq(d.events[COST_D1MR], 0);
	cr_expect_eq(d.calls[COST_ALIGNED], 3);
	cr_expect_eq(d.entry_ir[COST_ALIGNED], 33);
	cr_expect_str_eq(d.label, "");
}

Test(cost, a_dump_without_events_or_totals_is_refused)
{
	struct cost_dump d;
	char err[128];
	cr_expect_eq(cost_parse_dump("totals: 5\n", &d, err, sizeof err), -EINVAL);
	cr_expect(strstr(err, "events:"), "%s", err);
	cr_expect_eq(cost_parse_dump("events: Dr Dw\ntotals: 5 6\n", &d, err, sizeof err),
		     -EINVAL, "no Ir column");
	cr_expect_eq(cost_parse_dump("events: Ir\nfn=main\n1 5\n", &d, err, sizeof err), -EINVAL);
	cr_expect(strstr(err, "totals:"), "%s", err);
}

Test(cost, labels_name_the_open_regions)
{
	cr_expect_eq(cost_label_has("allocgate/alloc", "alloc"), 1);
	cr_expect_eq(cost_label_has("allocgate/alloc", "free"), 0);
	cr_expect_eq(cost_label_has("allocgate/alloc", ""), 0);
	cr_expect_eq(cost_label_has("allocgate/", ""), 1, "the unnamed region");
	cr_expect_eq(cost_label_has("allocgate/outer/inner", "inner"), 1);
	cr_expect_eq(cost_label_has("allocgate/outer/inner", "outer"), 1);
	cr_expect_eq(cost_label_has("allocgate/outer/inner", "out"), 0);
	cr_expect_eq(cost_label_has("allocgate//inner", ""), 1);
	cr_expect_eq(cost_label_has("Program termination", ""), -1);
	cr_expect_eq(cost_label_has("allocgatex/a", "a"), -1);
}

static void collect(const char *region, void *arg)
{
	char *out = arg;
	strcat(strcat(out, "["), region);
	strcat(out, "]");
}

Test(cost, a_label_lists_its_regions_outermost_first)
{
	char out[128] = "";
	cost_label_regions("allocgate//inner/x", collect, out);
	cr_expect_str_eq(out, "[][inner][x]");
	out[0] = '\0';
	cost_label_regions("elsewhere/a", collect, out);
	cr_expect_str_eq(out, "");
}

Test(cost, estimated_cycles_follow_the_l1_ll_ram_weights)
{
	/* Ir 1000, Dr 300, Dw 200 (1500 accesses); L1 misses 10+20+30 = 60;
	 * LL misses (RAM) 1+2+3 = 6: L1 hits 1440, LL hits 54, RAM 6 ->
	 * 1440 + 5 * 54 + 35 * 6 = 1920 */
	uint64_t e[COST_EVENTS] = { 1000, 300, 200, 10, 20, 30, 1, 2, 3 };
	cr_expect_eq(cost_estimated_cycles(e), 1920);
	uint64_t none[COST_EVENTS] = { 0 };
	cr_expect_eq(cost_estimated_cycles(none), 0);
}

Test(cost, metric_names_and_the_command_line)
{
	char out_arg[256], *prefix[COST_PREFIX_MAX];
	cr_expect(metric_is_cost("alloc.cost_instructions"));
	cr_expect(metric_is_cost("cost_malloc_calls"));
	cr_expect(!metric_is_cost("heap_malloc_calls"));
	cr_expect(!metric_is_cost("alloc.wall_ns"));
	size_t n = cost_prefix("/usr/bin/valgrind", "/tmp/x/cg.out", out_arg, sizeof out_arg,
			       prefix);
	cr_assert_leq(n, COST_PREFIX_MAX);
	cr_expect_str_eq(prefix[0], "/usr/bin/valgrind");
	int instr_off = 0, fixed_ll = 0, out = 0, fair = 0;
	for (size_t i = 0; i < n; i++) {
		instr_off |= !strcmp(prefix[i], "--instr-atstart=no");
		fair |= !strcmp(prefix[i], "--fair-sched=yes");
		fixed_ll |= !strcmp(prefix[i], COST_LL);
		out |= !strcmp(prefix[i], "--callgrind-out-file=/tmp/x/cg.out");
	}
	cr_expect(instr_off && fixed_ll && out && fair);
	cr_expect_str_eq(cost_entry_name(COST_FREE), "free");
}

Test(cost, an_allocators_own_names_count_only_in_a_library)
{
	/* thread_cache.c has a static tc_free of its own: not tcmalloc's */
	static const char text[] = "events: Ir\n"
				   "ob=/work/build/kernels/thread_cache\n"
				   "fn=worker\n"
				   "1 10\n"
				   "cfn=tc_free\n"
				   "calls=7 50\n"
				   "2 70\n"
				   "cob=/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4\n"
				   "cfn=tc_free\n"
				   "calls=2 60\n"
				   "3 40\n"
				   "cfn=free\n"
				   "calls=1 61\n"
				   "4 9\n"
				   "totals: 129\n";
	struct cost_dump d;
	char err[128];
	cr_assert_eq(cost_parse_dump(text, &d, err, sizeof err), 0, "%s", err);
	/* the library's tc_free (2 calls) and the plain free (1): not the kernel's 7 */
	cr_expect_eq(d.calls[COST_FREE], 3);
	cr_expect_eq(d.entry_ir[COST_FREE], 49);
}
