/* test_cost_sites.c: allocation sites from callgrind's call graph
 * (gates/sample/cost_sites.c) on hand-written dumps in callgrind's format
 * (--compress-strings=no --compress-pos=no), and how sites_compare
 * (gates/decide/sites.c) treats the cost pass's sites. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "decide/sites.h"
#include "sample/cost_sites.h"

/* A kernel calls the library's forwarding wrapper x_malloc from two lines
 * (3 and 2 calls), the library's grow() calls realloc itself 7 times,
 * realloc calls malloc inside libc (no site), a function without line
 * information calls free 4 times, and log_alloc, which calls malloc but
 * also puts, is not a wrapper. */
static const char dump[] =
	"version: 1\n"
	"creator: callgrind-3.19.0\n"
	"cmd: kernel\n"
	"part: 1\n"
	"desc: Trigger: Client Request: allocgate/\n"
	"positions: line\n"
	"events: Ir Dr\n"
	"summary: 1000 10\n"
	"ob=/proj/build/kernels/kernel\n"
	"fl=/proj/kernels/k.c\n"
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
	"cob=/proj/build/lib/libx.so\n"
	"cfn=grow'2\n"
	"calls=1 60\n"
	"21 900 2\n"
	"cob=/proj/build/lib/libx.so\n"
	"cfn=log_alloc\n"
	"calls=1 70\n"
	"22 90 2\n"
	"ob=/proj/build/lib/libx.so\n"
	"fl=/proj/src/x.c\n"
	"fn=x_malloc\n"
	"50 5 0\n"
	"cob=/lib/libc.so.6\n"
	"cfn=malloc\n"
	"calls=5 3000\n"
	"51 495 5\n"
	"fn=grow'2\n"
	"60 100 2\n"
	"fi=/proj/src/x_inline.h\n"
	"cob=/lib/libc.so.6\n"
	"cfn=realloc\n"
	"calls=7 3394\n"
	"12 700 7\n"
	"fe=/proj/src/x.c\n"
	"61 10 0\n"
	"fn=log_alloc\n"
	"70 3 0\n"
	"cob=/lib/libc.so.6\n"
	"cfn=malloc\n"
	"calls=1 3000\n"
	"71 80 1\n"
	"cob=/lib/libc.so.6\n"
	"cfn=puts\n"
	"calls=1 10\n"
	"72 7 0\n"
	"ob=/lib/libc.so.6\n"
	"fl=???\n"
	"fn=realloc\n"
	"0 100 1\n"
	"cfn=malloc\n"
	"calls=1 0\n"
	"0 50 1\n"
	"fn=cleanup_internal\n"
	"0 20 1\n"
	"cfn=free\n"
	"calls=4 0\n"
	"0 80 4\n"
	"totals: 1000 10\n";

/* The site of REC at FILE:LINE of KIND, or NULL. */
static const struct record_site *site_at(const struct record *rec, const char *file, int line,
					 const char *kind)
{
	for (size_t i = 0; i < rec->site_count; i++)
		if (rec->sites[i].line == line && !strcmp(rec->sites[i].file, file) &&
		    !strcmp(rec->sites[i].kind, kind))
			return &rec->sites[i];
	return NULL;
}

Test(cost_sites, wrappers_seen_through_to_their_callers_lines)
{
	struct cost_sites g = { 0 };
	struct record rec = { 0 };
	cr_assert_eq(cost_sites_add_dump(&g, dump), 0);
	cr_assert_eq(cost_sites_record(&g, &rec), 0);
	const struct record_site *s = site_at(&rec, "/proj/kernels/k.c", 10, "malloc");
	cr_assert(s, "the wrapper's 3 calls from k.c:10");
	cr_expect_eq(s->calls, 3);
	cr_expect_str_eq(s->function, "run");
	cr_expect_eq(s->bytes, 0, "callgrind does not see the sizes");
	s = site_at(&rec, "/proj/kernels/k.c", 20, "malloc");
	cr_assert(s);
	cr_expect_eq(s->calls, 2);
	cr_expect_null(site_at(&rec, "/proj/src/x.c", 51, "malloc"), "x_malloc only forwards");
	/* inlined code: the line is the inlined file's, the function the one
	 * it was inlined into (callgrind's "'2" recursion suffix dropped) */
	s = site_at(&rec, "/proj/src/x_inline.h", 12, "realloc");
	cr_assert(s, "grow's realloc at its inlined line");
	cr_expect_eq(s->calls, 7);
	cr_expect_str_eq(s->function, "grow");
	s = site_at(&rec, "/proj/src/x.c", 71, "malloc");
	cr_assert(s, "log_alloc calls puts too: not a wrapper");
	cr_expect_eq(s->calls, 1);
	s = site_at(&rec, "libc.so.6", 0, "free");
	cr_assert(s, "no line information: the object's file name at line 0");
	cr_expect_eq(s->calls, 4);
	cr_expect_str_eq(s->function, "-");
	cr_expect_eq(rec.site_count, 5, "realloc's own malloc is no site");
	record_free(&rec);
	cost_sites_free(&g);
}

Test(cost_sites, dumps_add_up_and_other_labels_add_nothing)
{
	struct cost_sites g = { 0 };
	struct record rec = { 0 };
	char other[sizeof dump + 16];
	const char *at = strstr(dump, "allocgate/");
	snprintf(other, sizeof other, "%.*sprogram/%s", (int)(at - dump), dump,
		 at + strlen("allocgate/"));
	cr_assert_eq(cost_sites_add_dump(&g, dump), 0);
	cr_assert_eq(cost_sites_add_dump(&g, dump), 0);
	cr_assert_eq(cost_sites_add_dump(&g, other), 0);
	cr_assert_eq(cost_sites_record(&g, &rec), 0);
	const struct record_site *s = site_at(&rec, "/proj/kernels/k.c", 10, "malloc");
	cr_assert(s);
	cr_expect_eq(s->calls, 6, "two dumps of the probe, the third not the probe's: %llu", (unsigned long long)s->calls);
	record_free(&rec);
	cost_sites_free(&g);
}

/* A wrapper is known by what it does, not by its size: x_malloc doing 100
 * instructions a call of its own (a hook with a fallback, a check) still
 * only calls malloc, once a call, so its callers' lines are the sites,
 * with x_malloc's forwarding line as their "via". */
Test(cost_sites, a_costly_forwarder_is_still_a_wrapper)
{
	char heavy[sizeof dump + 16];
	const char *at = strstr(dump, "fn=x_malloc\n50 5 0\n");
	cr_assert(at);
	snprintf(heavy, sizeof heavy, "%.*sfn=x_malloc\n50 500 0\n%s", (int)(at - dump), dump,
		 at + strlen("fn=x_malloc\n50 5 0\n"));
	struct cost_sites g = { 0 };
	struct record rec = { 0 };
	cr_assert_eq(cost_sites_add_dump(&g, heavy), 0);
	cr_assert_eq(cost_sites_record(&g, &rec), 0);
	cr_expect_null(site_at(&rec, "/proj/src/x.c", 51, "malloc"));
	const struct record_site *s = site_at(&rec, "/proj/kernels/k.c", 10, "malloc");
	cr_assert(s);
	cr_expect_eq(s->calls, 3);
	cr_assert(s->via);
	cr_expect_str_eq(s->via, "/proj/src/x.c:51 x_malloc");
	s = site_at(&rec, "/proj/src/x_inline.h", 12, "realloc");
	cr_assert(s);
	cr_expect_null(s->via, "grow calls realloc itself");
	record_free(&rec);
	cost_sites_free(&g);
}

/* The shapes of three libraries' hooks: jansson's jsonp_free (returns
 * early on NULL: 6 calls in, 4 frees), GLib's g_malloc (one malloc a call),
 * and a buffer's append that calls realloc now and then (11 of 1000
 * calls: it grows on its own account, so it is the site, not its caller);
 * a variant the probe calls, with one malloc, is a site, not a wrapper. */
Test(cost_sites, wrappers_by_what_they_do)
{
	static const char hooks[] =
		"desc: Trigger: Client Request: allocgate/\n"
		"events: Ir\n"
		"ob=/proj/kernel\n"
		"fl=/proj/probe/probe_sample.c\n"
		"fn=probe_run_sample\n"
		"85 10\n"
		"cfn=one_malloc\n"
		"calls=1 20\n"
		"85 50\n"
		"cfn=run\n"
		"calls=1 30\n"
		"85 50\n"
		"fl=/proj/k.c\n"
		"fn=one_malloc\n"
		"20 4\n"
		"cob=/lib/libc.so.6\n"
		"cfn=malloc\n"
		"calls=1 0\n"
		"21 40\n"
		"fn=run\n"
		"30 10\n"
		"cob=/proj/libj.so\n"
		"cfn=jsonp_free\n"
		"calls=6 0\n"
		"31 60\n"
		"cob=/proj/libg.so\n"
		"cfn=g_malloc\n"
		"calls=5 0\n"
		"32 50\n"
		"cob=/proj/libj.so\n"
		"cfn=append\n"
		"calls=1000 0\n"
		"33 9000\n"
		"ob=/proj/libj.so\n"
		"fl=/proj/src/memory.c\n"
		"fn=jsonp_free\n"
		"35 30\n"
		"cob=/lib/libc.so.6\n"
		"cfn=free\n"
		"calls=4 0\n"
		"38 40\n"
		"fl=/proj/src/value.c\n"
		"fn=append\n"
		"500 8000\n"
		"cob=/lib/libc.so.6\n"
		"cfn=realloc\n"
		"calls=11 0\n"
		"522 300\n"
		"ob=/proj/libg.so\n"
		"fl=/proj/glib/gmem.c\n"
		"fn=g_malloc\n"
		"100 60\n"
		"cob=/lib/libc.so.6\n"
		"cfn=malloc\n"
		"calls=5 0\n"
		"104 50\n"
		"totals: 1\n";
	struct cost_sites g = { 0 };
	struct record rec = { 0 };
	cr_assert_eq(cost_sites_add_dump(&g, hooks), 0);
	cr_assert_eq(cost_sites_record(&g, &rec), 0);
	const struct record_site *s = site_at(&rec, "/proj/k.c", 31, "free");
	cr_assert(s, "jsonp_free's caller, though two of its calls freed nothing");
	cr_expect_eq(s->calls, 6, "credited with its calls of the wrapper");
	cr_expect_str_eq(s->via, "/proj/src/memory.c:38 jsonp_free");
	s = site_at(&rec, "/proj/k.c", 32, "malloc");
	cr_assert(s, "g_malloc's caller");
	cr_expect_str_eq(s->via, "/proj/glib/gmem.c:104 g_malloc");
	s = site_at(&rec, "/proj/src/value.c", 522, "realloc");
	cr_assert(s, "append grows its buffer itself: its own line");
	cr_expect_eq(s->calls, 11);
	cr_expect_null(site_at(&rec, "/proj/k.c", 33, "realloc"));
	s = site_at(&rec, "/proj/k.c", 21, "malloc");
	cr_assert(s, "the variant the probe calls is no wrapper");
	cr_expect_null(site_at(&rec, "/proj/probe/probe_sample.c", 85, "malloc"));
	cr_expect_eq(rec.site_count, 4);
	record_free(&rec);
	cost_sites_free(&g);
}

/* A run of variant k/v/p whose counted pass ran, with a counted site and,
 * when COST_CALLS, a site of the cost pass at lib.c:5. */
static void run_with(struct run_result *r, uint64_t cost_calls)
{
	memset(r, 0, sizeof *r);
	struct series *s = result_add_series(r, "k", "v", "p", "heap_calls", "count", METRIC_EXACT);
	cr_assert(s);
	result_series_append(s, 1);
	r->sites_recorded = true;
	cr_assert(result_add_site(r, "k", "v", "p", "k.c", "f", "malloc", 10, 1, 24));
	if (cost_calls) {
		struct site *c = result_add_site(r, "k", "v", "p", "lib.c", "ensure", "realloc", 5,
						 cost_calls, 0);
		cr_assert(c);
		c->cost = true;
	}
	result_sort(r);
}

Test(cost_sites, compared_only_where_both_sides_have_them)
{
	struct run_result before, now;
	run_with(&before, 0);   /* a baseline taken with --no-cost */
	run_with(&now, 11);
	cr_assert_eq(sites_compare(&now, &before), 0);
	cr_expect_eq(now.site_change_count, 0, "the cost pass's sites are not all new");
	result_free(&before);
	result_free(&now);
	run_with(&before, 11);
	run_with(&now, 1998);
	cr_assert_eq(sites_compare(&now, &before), 0);
	cr_assert_eq(now.site_change_count, 1);
	cr_expect_str_eq(now.site_changes[0].file, "lib.c");
	cr_expect_eq(now.site_changes[0].calls_before, 11);
	cr_expect_eq(now.site_changes[0].calls_after, 1998);
	result_free(&before);
	result_free(&now);
}

Test(cost_sites, a_wrapper_of_a_wrapper_is_seen_through)
{
	/* lib_free (public) -> release (static) -> free: both forward */
	static const char chain[] =
		"desc: Trigger: Client Request: allocgate/main\n"
		"events: Ir\n"
		"ob=/proj/kernel\n"
		"fl=/proj/k.c\n"
		"fn=run\n"
		"30 10\n"
		"cob=/proj/libx.so\n"
		"cfn=lib_free\n"
		"calls=4 5\n"
		"31 400\n"
		"ob=/proj/libx.so\n"
		"fl=/proj/x.c\n"
		"fn=lib_free\n"
		"5 8\n"
		"cfn=release\n"
		"calls=4 9\n"
		"6 390\n"
		"fn=release\n"
		"9 4\n"
		"cob=/lib/libc.so.6\n"
		"cfn=free\n"
		"calls=4 1\n"
		"10 384\n"
		"totals: 410\n";
	struct cost_sites g = { 0 };
	struct record rec = { 0 };
	cr_assert_eq(cost_sites_add_dump(&g, chain), 0);
	cr_assert_eq(cost_sites_record(&g, &rec), 0);
	cr_assert_eq(rec.site_count, 1);
	cr_expect_str_eq(rec.sites[0].file, "/proj/k.c");
	cr_expect_eq(rec.sites[0].line, 31);
	cr_expect_str_eq(rec.sites[0].kind, "free");
	cr_expect_eq(rec.sites[0].calls, 4);
	record_free(&rec);
	cost_sites_free(&g);
}

Test(cost_sites, file_names_without_dot_segments)
{
	static const char dots[] =
		"desc: Trigger: Client Request: allocgate/\n"
		"events: Ir\n"
		"ob=/proj/kernel\n"
		"fl=./kernels/k.c\n"
		"fn=run\n"
		"30 10\n"
		"cob=/lib/libc.so.6\n"
		"cfn=free\n"
		"calls=2 5\n"
		"31 40\n"
		"fi=./string/../sysdeps/x/./y.h\n"
		"cob=/lib/libc.so.6\n"
		"cfn=malloc\n"
		"calls=1 5\n"
		"7 40\n"
		"fe=/abs/./dir/../k2.c\n"
		"cob=/lib/libc.so.6\n"
		"cfn=calloc\n"
		"calls=1 5\n"
		"9 40\n"
		"totals: 130\n";
	struct cost_sites g = { 0 };
	struct record rec = { 0 };
	cr_assert_eq(cost_sites_add_dump(&g, dots), 0);
	cr_assert_eq(cost_sites_record(&g, &rec), 0);
	cr_expect(site_at(&rec, "kernels/k.c", 31, "free"), "as the counted build names it");
	cr_expect(site_at(&rec, "sysdeps/x/y.h", 7, "malloc"));
	cr_expect(site_at(&rec, "/abs/k2.c", 9, "calloc"));
	record_free(&rec);
	cost_sites_free(&g);
}
