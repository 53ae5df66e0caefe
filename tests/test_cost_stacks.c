/* test_cost_stacks.c: allocation call stacks from callgrind's contexts
 * (gates/sample/cost_stacks.c) on hand-written dumps in callgrind's format
 * with --separate-callers (the callee named "malloc'caller'its_caller"),
 * how the cost metrics read such names (gates/sample/cost_dump.c), the
 * bound and the bytes of decide/stacks.c, and the JSON of
 * store/stacks_json.c. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/stacks.h"
#include "sample/cost_dump.h"
#include "sample/cost_regions.h"
#include "sample/cost_sites.h"
#include "sample/cost_stacks.h"
#include "store/stacks_json.h"

/* The probe calls the variant v_main (its contexts name the probe, as a
 * dump whose instrumentation began before the variant would); v_main calls
 * run, which calls the library's forwarding wrapper x_malloc from two lines
 * (3 and 2 calls), and helper, which mallocs 4 times itself. A thread of
 * the kernel's own (worker, below start_thread) frees 6 times; a parallel
 * region's worker (below the probe's probe_thread_start) mallocs twice;
 * the thread's exit frees once inside libc without line information;
 * realloc mallocs inside libc (the allocator's own call: no stack); the
 * function that opened a region (opener, the outermost frame callgrind
 * saw) mallocs 7 times. */
static const char dump[] =
	"version: 1\n"
	"creator: callgrind-3.19.0\n"
	"desc: Trigger: Client Request: allocgate/\n"
	"positions: line\n"
	"events: Ir Dr\n"
	"ob=/proj/build/kernels/kernel\n"
	"fl=/proj/kernels/k.c\n"
	"fn=v_main\n"
	"29 5 0\n"
	"cfn=run\n"
	"calls=1 9\n"
	"30 900 10\n"
	"cfn=helper\n"
	"calls=1 39\n"
	"31 450 4\n"
	"fn=run\n"
	"9 40 1\n"
	"cob=/proj/build/lib/libx.so\n"
	"cfn=x_malloc\n"
	"calls=3 50\n"
	"10 300 3\n"
	"cob=/proj/build/lib/libx.so\n"
	"cfn=x_malloc\n"
	"calls=2 50\n"
	"20 200 2\n"
	"fn=helper\n"
	"39 10 0\n"
	"cob=/lib/libc.so.6\n"
	"cfn=malloc'helper'v_main'probe_run_sample'main\n"
	"calls=4 3000\n"
	"40 400 4\n"
	"fn=worker\n"
	"59 6 0\n"
	"cob=/lib/libc.so.6\n"
	"cfn=free'worker'start_thread'clone\n"
	"calls=6 3100\n"
	"60 60 6\n"
	"fn=pool_worker\n"
	"64 6 0\n"
	"cob=/lib/libc.so.6\n"
	"cfn=malloc'pool_worker'probe_thread_start'start_thread'clone\n"
	"calls=2 3000\n"
	"65 20 2\n"
	"fn=opener\n"
	"69 1 0\n"
	"cob=/lib/libc.so.6\n"
	"cfn=malloc'opener\n"
	"calls=7 3000\n"
	"70 70 7\n"
	"cob=/lib/libc.so.6\n"
	"cfn=realloc'opener\n"
	"calls=1 3200\n"
	"71 90 1\n"
	"ob=/proj/build/lib/libx.so\n"
	"fl=/proj/src/x.c\n"
	"fn=x_malloc\n"
	"50 5 0\n"
	"cob=/lib/libc.so.6\n"
	"cfn=malloc'x_malloc'run'v_main'probe_run_sample'main\n"
	"calls=5 3000\n"
	"51 500 5\n"
	"ob=/lib/libc.so.6\n"
	"fl=???\n"
	"fn=realloc'opener\n"
	"0 100 1\n"
	"cfn=malloc'realloc'opener\n"
	"calls=1 0\n"
	"0 50 1\n"
	"fn=__libc_thread_freeres\n"
	"0 20 1\n"
	"cfn=free'__libc_thread_freeres'start_thread'clone\n"
	"calls=1 0\n"
	"0 80 1\n"
	"totals: 1000 10\n";

/* The stacks of the dumps TEXTS[0..N) (call graph and contexts) into OUT. */
static void stacks_of(const char *const *texts, size_t n, struct stacks *out)
{
	struct cost_sites g = { 0 };
	struct cost_stacks s = { 0 };
	struct record rec = { 0 };
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(cost_sites_add_dump(&g, texts[i]), 0);
		cr_assert_eq(cost_stacks_add_dump(&s, texts[i]), 0);
	}
	cr_assert_eq(cost_sites_record(&g, &rec), 0);
	cr_assert_eq(cost_stacks_record(&s, &g, out), 0);
	record_free(&rec);
	cost_stacks_free(&s);
	cost_sites_free(&g);
}

/* The stack of SET of KIND with frames FRAMES ("a b c", root first) at
 * LINE (-1: any), or NULL. */
static const struct stack *find(const struct stacks *set, const char *kind, const char *frames,
				int line)
{
	for (size_t i = 0; i < set->count; i++) {
		const struct stack *s = &set->items[i];
		char joined[1024] = "";
		for (size_t f = 0; f < s->frame_count; f++)
			snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s",
				 f ? " " : "", s->frames[f]);
		if (!strcmp(s->kind, kind) && !strcmp(joined, frames) && (line < 0 || s->line == line))
			return s;
	}
	return NULL;
}

Test(cost_stacks, wrappers_folded_and_cut_at_the_variant)
{
	struct stacks set = { 0 };
	const char *texts[] = { dump };
	stacks_of(texts, 1, &set);
	cr_expect(set.recorded);
	/* x_malloc is a wrapper: its 5 calls go to run's two lines, 3 and 2,
	 * as the sites do; the probe's frame and main are cut */
	const struct stack *s = find(&set, "malloc", "v_main run", 10);
	cr_assert(s, "run's line 10 through the wrapper");
	cr_expect_eq(s->calls, 3);
	cr_expect_eq(s->instructions, 300, "5 calls' 500 instructions shared 3:2");
	cr_expect_str_eq(s->file, "/proj/kernels/k.c");
	cr_expect(!s->truncated && !s->rest && !s->bytes_known);
	s = find(&set, "malloc", "v_main run", 20);
	cr_assert(s);
	cr_expect_eq(s->calls, 2);
	cr_expect_eq(s->instructions, 200);
	s = find(&set, "malloc", "v_main helper", 40);
	cr_assert(s, "helper calls malloc itself: no fold");
	cr_expect_eq(s->calls, 4);
	cr_expect_eq(s->instructions, 400);
	cr_expect_null(find(&set, "malloc", "run x_malloc", -1));
	cr_expect_null(find(&set, "malloc", "realloc", -1), "the allocator's own call");
	cr_expect_null(find(&set, "malloc", "opener realloc", -1));
	result_stacks_free(&set);
}

Test(cost_stacks, threads_and_the_regions_opener_are_roots)
{
	struct stacks set = { 0 };
	const char *texts[] = { dump };
	stacks_of(texts, 1, &set);
	const struct stack *s = find(&set, "free", "worker", 60);
	cr_assert(s, "the function start_thread called");
	cr_expect_eq(s->calls, 6);
	cr_expect(!s->truncated);
	s = find(&set, "malloc", "pool_worker", 65);
	cr_assert(s, "the worker the probe's thread start called");
	cr_expect_eq(s->calls, 2);
	s = find(&set, "free", "__libc_thread_freeres", 0);
	cr_assert(s, "the thread's exit, no line information");
	cr_expect_null(s->file);
	s = find(&set, "malloc", "opener", 70);
	cr_assert(s, "the context ended before the depth: its outermost frame is the root");
	cr_expect_eq(s->calls, 7);
	cr_expect(!s->truncated);
	s = find(&set, "realloc", "opener", 71);
	cr_assert(s, "opener's realloc");
	cr_expect_eq(s->calls, 1);
	cr_expect_eq(set.count, 8, "%zu stacks", set.count);
	result_stacks_free(&set);
}

Test(cost_stacks, dumps_add_up_and_other_labels_add_nothing)
{
	char other[sizeof dump + 16];
	const char *at = strstr(dump, "allocgate/");
	snprintf(other, sizeof other, "%.*sprogram/%s", (int)(at - dump), dump,
		 at + strlen("allocgate/"));
	struct stacks set = { 0 };
	const char *texts[] = { dump, dump, other };
	stacks_of(texts, 3, &set);
	const struct stack *s = find(&set, "malloc", "v_main run", 10);
	cr_assert(s);
	cr_expect_eq(s->calls, 6, "two dumps of the probe, the third not the probe's");
	s = find(&set, "malloc", "opener", 70);
	cr_assert(s);
	cr_expect_eq(s->calls, 14);
	cr_expect_eq(s->instructions, 140);
	result_stacks_free(&set);
}

/* A context of NAMES frames f1 (the caller) .. fNAMES, none a root. */
static void deep_dump(char *out, size_t size, int names)
{
	int n = snprintf(out, size, "desc: Trigger: Client Request: allocgate/\n"
				    "events: Ir\nob=/k\nfl=/k.c\nfn=f1\n"
				    "cob=/lib/libc.so.6\ncfn=malloc");
	for (int i = 1; i <= names; i++)
		n += snprintf(out + n, size - (size_t)n, "'f%d", i);
	snprintf(out + n, size - (size_t)n, "\ncalls=9 0\n5 90\ntotals: 90\n");
}

Test(cost_stacks, a_context_as_deep_as_the_depth_is_truncated)
{
	char full[4096], shorter[4096];
	deep_dump(full, sizeof full, COST_STACK_DEPTH);
	deep_dump(shorter, sizeof shorter, COST_STACK_DEPTH - 1);
	struct stacks set = { 0 };
	const char *texts[] = { full };
	stacks_of(texts, 1, &set);
	cr_assert_eq(set.count, 1);
	cr_expect(set.items[0].truncated, "callgrind's context was full");
	cr_expect_eq(set.items[0].frame_count, COST_STACK_DEPTH);
	char root[16];
	snprintf(root, sizeof root, "f%d", COST_STACK_DEPTH);
	cr_expect_str_eq(set.items[0].frames[0], root, "the outermost frame named first");
	cr_expect_str_eq(set.items[0].frames[COST_STACK_DEPTH - 1], "f1");
	result_stacks_free(&set);
	texts[0] = shorter;
	stacks_of(texts, 1, &set);
	cr_assert_eq(set.count, 1);
	cr_expect(!set.items[0].truncated, "the context ended before the depth");
	result_stacks_free(&set);
}

/* Every reader of a name cuts it at its context first: the main thread's
 * context names glibc's versioned __libc_start_main, whose '@' must not be
 * taken for the callee's version; a callee in a context of realloc is the
 * allocator's own call. */
Test(cost_stacks, a_context_with_a_versioned_frame_still_counts_as_malloc)
{
	static const char text[] =
		"desc: Trigger: Client Request: allocgate/\n"
		"events: Ir\n"
		"ob=/k\n"
		"fl=/k.c\n"
		"fn=main\n"
		"cob=/lib/libc.so.6\n"
		"cfn=malloc'main'(below main)'__libc_start_main@@GLIBC_2.34'(below main)'0x4\n"
		"calls=3 0\n"
		"7 300\n"
		"cob=/lib/libc.so.6\n"
		"cfn=realloc'main'(below main)'__libc_start_main@@GLIBC_2.34\n"
		"calls=1 0\n"
		"8 200\n"
		"ob=/lib/libc.so.6\n"
		"fn=realloc'main'(below main)'__libc_start_main@@GLIBC_2.34\n"
		"0 100\n"
		"cfn=malloc'realloc'main'(below main)'__libc_start_main@@GLIBC_2.34\n"
		"calls=1 0\n"
		"0 50\n"
		"totals: 500\n";
	struct cost_dump d;
	char err[128];
	cr_assert_eq(cost_parse_dump(text, &d, err, sizeof err), 0, "%s", err);
	cr_expect_eq(d.calls[COST_MALLOC], 3, "realloc's own malloc is not counted");
	cr_expect_eq(d.entry_ir[COST_MALLOC], 300);
	cr_expect_eq(d.calls[COST_REALLOC], 1);
	cr_expect_eq(cost_entry_of("free'x'y@@GLIBC_2.2", "free'x'y@@GLIBC_2.2" + 19, 1), COST_FREE);
	struct stacks set = { 0 };
	const char *texts[] = { text };
	stacks_of(texts, 1, &set);
	const struct stack *s = find(&set, "malloc", "0x4 (below main) __libc_start_main@@GLIBC_2.34 "
				     "(below main) main", 7);
	cr_assert(s, "frames as callgrind names them");
	cr_expect_eq(s->calls, 3);
	cr_expect_eq(set.count, 2, "malloc and realloc of main");
	result_stacks_free(&set);
}

Test(cost_stacks, the_command_line_splits_every_entry_point_by_its_callers)
{
	char out_arg[256], *prefix[COST_PREFIX_MAX];
	size_t n = cost_prefix("valgrind", "/tmp/cg.out", out_arg, sizeof out_arg, prefix);
	char want[64];
	int plain = 0, versioned = 0, aligned = 0;
	snprintf(want, sizeof want, "--separate-callers%d=malloc", COST_STACK_DEPTH);
	for (size_t i = 0; i < n; i++) {
		plain |= !strcmp(prefix[i], want);
		versioned |= !strncmp(prefix[i], want, strlen(want)) && !strcmp(prefix[i] + strlen(want), "@*");
		aligned |= strstr(prefix[i], "=posix_memalign") != NULL;
	}
	cr_expect(plain && versioned && aligned);
}

/* One dump of LABEL ("allocgate/..."): opener mallocs MALLOCS times at
 * line 70, and frees FREES times through its helper drop at line 80. */
static void region_dump(char *out, size_t size, const char *label, int mallocs, int frees)
{
	snprintf(out, size,
		 "desc: Trigger: Client Request: %s\n"
		 "events: Ir\nob=/k\nfl=/k.c\n"
		 "fn=opener\n69 1\n"
		 "cob=/lib/libc.so.6\ncfn=malloc'opener\ncalls=%d 0\n70 %d\n"
		 "cfn=drop'opener\ncalls=1 0\n71 %d\n"
		 "fn=drop'opener\n79 1\n"
		 "cob=/lib/libc.so.6\ncfn=free'drop'opener\ncalls=%d 0\n80 %d\n"
		 "totals: 1000\n",
		 label, mallocs, 10 * mallocs, 1 + 5 * frees, frees, 5 * frees);
}

/* The calls of KIND of SET's stacks made while REGION was open. */
static uint64_t calls_in(const struct stacks *set, const char *kind, const char *region)
{
	uint64_t sum = 0;
	char label[600];
	for (size_t i = 0; i < set->count; i++) {
		snprintf(label, sizeof label, "allocgate/%s", set->items[i].region);
		if (!strcmp(set->items[i].kind, kind) && cost_label_has(label, region) == 1)
			sum += set->items[i].calls;
	}
	return sum;
}

/* The value of metric NAME in REC; fails the test when it is missing. */
static double metric(const struct record *rec, const char *name)
{
	for (size_t i = 0; i < rec->metric_count; i++)
		if (!strcmp(rec->metrics[i].name, name))
			return rec->metrics[i].value;
	cr_assert_fail("no metric %s", name);
	return 0;
}

/* Sequential regions (alloc, then free, then alloc again: it accumulates)
 * and nested ones (outer, with inner opened inside it): a stack per set of
 * open regions, and each region's stacks add up to its cost metrics, the
 * outer one's including the inner one's. */
Test(cost_stacks, the_stacks_of_a_region_add_up_to_its_cost_calls)
{
	static const struct { const char *label; int mallocs, frees; } dumps[] = {
		{ "allocgate/alloc", 3, 0 }, { "allocgate/free", 0, 5 },
		{ "allocgate/alloc", 2, 1 }, { "allocgate/outer", 7, 0 },
		{ "allocgate/outer/inner", 11, 13 }, { "allocgate/outer", 0, 17 },
	};
	char texts[6][1024];
	const char *t[6];
	struct cost_regions *rs = calloc(1, sizeof *rs);
	struct record rec = { 0 };
	char err[256] = "", *ifuncs = NULL;
	cr_assert(rs);
	for (size_t i = 0; i < 6; i++) {
		region_dump(texts[i], sizeof texts[i], dumps[i].label, dumps[i].mallocs,
			    dumps[i].frees);
		t[i] = texts[i];
		cr_assert_eq(cost_regions_add_dump(rs, t[i], &ifuncs, err, sizeof err), 0, "%s", err);
	}
	cr_assert_eq(cost_regions_metrics(rs, "k", &rec, err, sizeof err), 0, "%s", err);
	struct stacks set = { 0 };
	stacks_of(t, 6, &set);
	const struct stack *s = find(&set, "malloc", "opener", 70);
	cr_assert(s);
	cr_expect_str_eq(s->region, "alloc", "the first in result_stack_order");
	cr_expect_eq(s->calls, 5, "alloc entered twice accumulates");
	static const char *const regions[] = { "alloc", "free", "outer", "inner" };
	for (size_t i = 0; i < 4; i++) {
		char name[64];
		snprintf(name, sizeof name, "%s.cost_malloc_calls", regions[i]);
		cr_expect_eq((double)calls_in(&set, "malloc", regions[i]), metric(&rec, name), "%s",
			     name);
		snprintf(name, sizeof name, "%s.cost_free_calls", regions[i]);
		cr_expect_eq((double)calls_in(&set, "free", regions[i]), metric(&rec, name), "%s",
			     name);
	}
	cr_expect_eq(calls_in(&set, "malloc", "outer"), 18, "outer includes inner's 11");
	size_t inner = 0;
	for (size_t i = 0; i < set.count; i++)
		inner += !strcmp(set.items[i].region, "outer/inner");
	cr_expect_eq(inner, 2, "one malloc and one free stack while both were open");
	result_stacks_free(&set);
	record_free(&rec);
	free(ifuncs);
	free(rs);
}

/* Adds a stack of kernel k, VARIANT, params p to SET; returns it (valid
 * until the next add). */
static struct stack *add(struct stacks *set, const char *variant, const char *kind,
			 const char *frames, const char *file, int line, uint64_t calls)
{
	const char *f[8];
	char buf[256];
	size_t n = 0;
	snprintf(buf, sizeof buf, "%s", frames);
	for (char *p = strtok(buf, " "); p && n < 8; p = strtok(NULL, " "))
		f[n++] = p;
	struct stack *s = result_add_stack(set, "k", variant, "p", "", kind, f, n);
	cr_assert(s);
	if (file)
		s->file = strdup(file);
	s->line = line;
	s->calls = calls;
	s->instructions = 10 * calls;
	return s;
}

Test(cost_stacks, the_bound_keeps_99_percent_and_sums_the_rest_by_kind)
{
	struct stacks set = { 0 };
	set.recorded = true;
	add(&set, "v", "malloc", "v a", "k.c", 1, 100000);
	/* STACKS_KEPT_MIN - 1 more of 1,000 calls: with them 32 stacks explain
	 * 131,000 of 131,010 calls */
	for (int i = 0; i < STACKS_KEPT_MIN - 1; i++) {
		char frames[32];
		snprintf(frames, sizeof frames, "v f%02d", i);
		add(&set, "v", "malloc", frames, "k.c", 100 + i, 1000);
	}
	add(&set, "v", "malloc", "v c", "k.c", 3, 5);
	add(&set, "v", "free", "v d", "k.c", 4, 3);
	add(&set, "v", "free", "v e", "k.c", 5, 2);
	add(&set, "w", "malloc", "w a", "k.c", 9, 1);   /* another variant: all of its calls */
	/* another region of v: bounded on its own, its one stack kept */
	struct stack *other_region = add(&set, "v", "free", "v g", "k.c", 6, 1);
	free(other_region->region);
	other_region->region = strdup("free");
	cr_assert_eq(stacks_bound(&set), 0);
	const struct stack *g = find(&set, "free", "v g", 6);
	cr_expect(g && !strcmp(g->region, "free"), "the free region's only stack is kept");
	cr_expect(set.recorded);
	cr_expect(find(&set, "malloc", "v a", 1) && find(&set, "malloc", "v f30", 130),
		  "the largest 32 kept");
	cr_expect_null(find(&set, "malloc", "v c", 3));
	cr_expect_null(find(&set, "free", "v e", 5));
	cr_expect(find(&set, "malloc", "w a", 9));
	const struct stack *rest_malloc = NULL, *rest_free = NULL;
	for (size_t i = 0; i < set.count; i++)
		if (set.items[i].rest)
			*(!strcmp(set.items[i].kind, "malloc") ? &rest_malloc : &rest_free) = &set.items[i];
	cr_assert(rest_malloc && rest_free);
	cr_expect_eq(rest_malloc->calls, 5);
	cr_expect_eq(rest_free->calls, 5);
	cr_expect_eq(rest_free->instructions, 50);
	cr_expect_eq(rest_free->frame_count, 0);
	cr_expect_null(rest_free->file);
	cr_expect_eq(set.count, STACKS_KEPT_MIN + 4, "32 kept, two rests, w's one, free's one");
	/* sorted, a rest after its kind's stacks; bounding again changes nothing */
	for (size_t i = 1; i < set.count; i++)
		cr_expect_lt(result_stack_order(&set.items[i - 1], &set.items[i]), 0);
	cr_assert_eq(stacks_bound(&set), 0);
	cr_expect_eq(set.count, STACKS_KEPT_MIN + 4);
	result_stacks_free(&set);
}

/* A variant of few stacks is kept whole: a rare path (an array's growth
 * beside its elements' allocations) stays a stack of its own, which the
 * differential flame graph can colour. */
Test(cost_stacks, the_bound_keeps_a_variant_of_few_stacks_whole)
{
	struct stacks set = { 0 };
	set.recorded = true;
	add(&set, "v", "malloc", "v parse_value", "k.c", 1, 10000);
	add(&set, "v", "realloc", "v json_array_grow", "k.c", 2, 11);
	cr_assert_eq(stacks_bound(&set), 0);
	cr_expect(find(&set, "realloc", "v json_array_grow", 2), "0.1%% of the calls, kept");
	for (size_t i = 0; i < set.count; i++)
		cr_expect(!set.items[i].rest, "no rest");
	cr_expect_eq(set.count, 2);
	result_stacks_free(&set);
}

Test(cost_stacks, bytes_are_known_where_one_stack_reaches_a_counted_site)
{
	struct run_result r;
	memset(&r, 0, sizeof r);
	cr_assert(result_add_site(&r, "k", "v", "p", "k.c", "f", "malloc", 10, 5, 640));
	cr_assert(result_add_site(&r, "k", "v", "p", "k.c", "g", "malloc", 20, 8, 800));
	cr_assert(result_add_site(&r, "k", "v", "p", "k.c", "h", "posix_memalign", 30, 1, 64));
	struct site *cost = result_add_site(&r, "k", "v", "p", "k.c", "i", "free", 40, 2, 0);
	cr_assert(cost);
	cost->cost = true;
	add(&r.stacks, "v", "malloc", "v f", "k.c", 10, 5);
	add(&r.stacks, "v", "malloc", "v x g", "k.c", 20, 4);
	add(&r.stacks, "v", "malloc", "v y g", "k.c", 20, 4);
	add(&r.stacks, "v", "aligned", "v h", "k.c", 30, 1);
	add(&r.stacks, "v", "free", "v i", "k.c", 40, 2);
	add(&r.stacks, "w", "malloc", "w f", "k.c", 10, 5);
	stacks_bytes(&r.stacks, &r);
	const struct stack *one = &r.stacks.items[0], *two_a = &r.stacks.items[1];
	const struct stack *two_b = &r.stacks.items[2], *aligned = &r.stacks.items[3];
	const struct stack *by_cost = &r.stacks.items[4], *other = &r.stacks.items[5];
	cr_expect(one->bytes_known);
	cr_expect_eq(one->bytes, 640);
	cr_expect(!two_a->bytes_known && !two_b->bytes_known, "two stacks reach line 20");
	cr_expect(aligned->bytes_known && aligned->bytes == 64, "posix_memalign is aligned");
	cr_expect(!by_cost->bytes_known, "a cost site has no bytes");
	cr_expect(!other->bytes_known, "another variant's site");
	result_free(&r);
}

Test(cost_stacks, the_other_side_is_taken_for_the_variants_measured)
{
	struct run_result r;
	struct stacks base = { 0 };
	memset(&r, 0, sizeof r);
	cr_assert(result_add_series(&r, "k", "v", "p", "cost_instructions", "count", METRIC_EXACT));
	base.recorded = true;
	add(&base, "v", "malloc", "v a", "k.c", 1, 7);
	add(&base, "w", "malloc", "w a", "k.c", 1, 7);
	cr_assert_eq(stacks_take_before(&r, &base), 0);
	cr_expect(r.stacks_before.recorded);
	cr_assert_eq(r.stacks_before.count, 1, "w was not measured");
	cr_expect_str_eq(r.stacks_before.items[0].variant, "v");
	result_stacks_free(&base);
	result_free(&r);
}

Test(cost_stacks, json_round_trip)
{
	struct stacks set = { 0 }, back = { 0 };
	set.recorded = true;
	struct stack *s = add(&set, "v", "malloc", "v helper", "k.c", 12, 1000);
	s->bytes = 64000;
	s->bytes_known = true;
	s = add(&set, "v", "free", "v helper", NULL, 0, 3);
	s->truncated = true;
	s = result_add_stack(&set, "k", "v", "p", "outer/inner", "free", NULL, 0);
	cr_assert(s);
	s->rest = true;
	s->calls = 2;
	s->instructions = 200;
	json_t *a = stacks_json(&set);
	cr_assert(a);
	char *text = json_dumps(a, JSON_COMPACT);
	cr_expect(strstr(text, "\"frames\":[\"v\",\"helper\"],\"file\":\"k.c\",\"line\":12,"
			       "\"calls\":1000,\"bytes\":64000"), "%s", text);
	char err[256] = "";
	cr_assert_eq(stacks_json_load(a, "stacks", &back, err, sizeof err), 0, "%s", err);
	cr_expect(back.recorded);
	cr_assert_eq(back.count, 3);
	result_stacks_sort(&set);
	for (size_t i = 0; i < 3; i++) {
		const struct stack *x = &set.items[i], *y = &back.items[i];
		cr_expect_eq(result_stack_order(x, y), 0);
		cr_expect_str_eq(x->region, y->region);
		cr_expect(x->calls == y->calls && x->bytes == y->bytes &&
			  x->bytes_known == y->bytes_known && x->instructions == y->instructions &&
			  x->truncated == y->truncated && x->rest == y->rest && x->line == y->line);
	}
	free(text);
	json_decref(a);
	result_stacks_free(&back);
	cr_expect_eq(stacks_json_load(NULL, "stacks", &back, err, sizeof err), 0);
	cr_expect(!back.recorded, "an older file: not recorded");
	result_stacks_free(&set);
}

/* ENTRY (one object's text) is refused with WANT. */
static void refused(const char *entry, const char *want)
{
	char text[1024], err[256] = "";
	struct stacks back = { 0 };
	snprintf(text, sizeof text, "[{\"kernel\":\"k\",\"variant\":\"v\",\"params\":\"p\",\"region\":\"\","
				    "\"kind\":\"malloc\",\"frames\":[\"v\"],\"file\":null,\"line\":0,"
				    "\"calls\":1,\"bytes\":null,\"instructions\":1,"
				    "\"truncated\":false,\"rest\":false}, %s]", entry);
	json_error_t je;
	json_t *a = json_loads(text, 0, &je);
	cr_assert(a, "%s", je.text);
	cr_expect_eq(stacks_json_load(a, "stacks", &back, err, sizeof err), -1, "%s", entry);
	cr_expect_str_eq(err, want);
	json_decref(a);
	result_stacks_free(&back);
}

Test(cost_stacks, a_malformed_entry_is_refused_by_entry_and_field)
{
	refused("{\"kernel\":\"k\",\"variant\":\"v\",\"params\":\"p\",\"region\":\"\",\"kind\":\"malloc\","
		"\"frames\":[\"v\",7],\"file\":null,\"line\":0,\"calls\":1,\"bytes\":null,"
		"\"instructions\":1,\"truncated\":false,\"rest\":false}",
		"stacks[1].frames[1]: expected a non-empty string");
	refused("{\"kernel\":\"k\",\"variant\":\"v\",\"params\":\"p\",\"region\":\"\",\"kind\":\"strdup\","
		"\"frames\":[\"v\"],\"file\":null,\"line\":0,\"calls\":1,\"bytes\":null,"
		"\"instructions\":1,\"truncated\":false,\"rest\":false}",
		"stacks[1].kind: 'strdup' is not an allocator entry point (malloc, calloc, realloc, "
		"free, aligned)");
	refused("{\"kernel\":\"k\",\"variant\":\"v\",\"params\":\"p\",\"region\":\"\",\"kind\":\"free\","
		"\"frames\":[\"v\"],\"file\":null,\"line\":0,\"calls\":-1,\"bytes\":null,"
		"\"instructions\":1,\"truncated\":false,\"rest\":false}",
		"stacks[1].calls: expected a non-negative integer");
	refused("{\"kernel\":\"k\",\"variant\":\"v\",\"params\":\"p\",\"region\":\"\",\"kind\":\"free\","
		"\"frames\":[\"v\"],\"file\":null,\"line\":0,\"calls\":1,\"bytes\":null,"
		"\"instructions\":1,\"rest\":false}",
		"stacks[1].truncated: missing");
	refused("{\"kernel\":\"k\",\"variant\":\"v\",\"params\":\"p\",\"region\":\"\",\"kind\":\"free\","
		"\"frames\":[\"v\"],\"file\":null,\"line\":0,\"calls\":1,\"bytes\":null,"
		"\"instructions\":1,\"truncated\":false,\"rest\":true}",
		"stacks[1].frames: a rest has no frames");
	refused("{\"kernel\":\"k\",\"variant\":\"v\",\"params\":\"p\",\"kind\":\"free\","
		"\"frames\":[\"v\"],\"file\":null,\"line\":0,\"calls\":1,\"bytes\":null,"
		"\"instructions\":1,\"truncated\":false,\"rest\":false}",
		"stacks[1].region: missing");
	refused("{\"kernel\":\"k\",\"variant\":\"v\",\"params\":\"p\",\"region\":\"a//b\","
		"\"kind\":\"free\",\"frames\":[\"v\"],\"file\":null,\"line\":0,\"calls\":1,"
		"\"bytes\":null,\"instructions\":1,\"truncated\":false,\"rest\":false}",
		"stacks[1].region: expected \"\" or region names ([A-Za-z0-9_]+) joined by '/'");
	refused("{\"kernel\":\"k\",\"variant\":\"v\",\"params\":\"p\",\"region\":\"a<b\","
		"\"kind\":\"free\",\"frames\":[\"v\"],\"file\":null,\"line\":0,\"calls\":1,"
		"\"bytes\":null,\"instructions\":1,\"truncated\":false,\"rest\":false}",
		"stacks[1].region: expected \"\" or region names ([A-Za-z0-9_]+) joined by '/'");
	refused("7", "stacks[1]: expected an object");
}
