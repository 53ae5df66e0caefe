/* test_sites.c: allocation site verdicts (gates/decide/sites.c), their
 * words (gates/report/format.c), and the sites in the JSON files
 * (gates/store/sites_json.c, the baseline and the --json result). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "decide/sites.h"
#include "report/format.h"
#include "report/report_json.h"
#include "store/baseline.h"
#include "store/results_load.h"

/* A run whose variant v counted (heap_calls series) with sites. */
static void run_with(struct run_result *r, uint64_t calls_10, int with_12)
{
	memset(r, 0, sizeof *r);
	r->ctx.platform_key = strdup("linux-x86_64-glibc");
	struct series *s = result_add_series(r, "k", "v", "p", "heap_calls", "count", METRIC_EXACT);
	cr_assert(s);
	result_series_append(s, (double)(calls_10 + (with_12 ? 5 : 0)));
	r->sites_recorded = true;
	if (calls_10)
		cr_assert(result_add_site(r, "k", "v", "p", "k.c", "f", "malloc", 10, calls_10,
					  calls_10 * 24));
	if (with_12)
		cr_assert(result_add_site(r, "k", "v", "p", "k.c", "f", "free", 12, 5, 0));
	cr_assert(result_add_site(r, "k", "v", "p", "k.c", "g", "strdup", 30, 2, 14));
	result_sort(r);
}

Test(sites, new_gone_changed_and_unchanged)
{
	struct run_result before, now;
	run_with(&before, 100, 1);
	run_with(&now, 200, 0);
	cr_assert(result_add_site(&now, "k", "v", "p", "k.c", "h", "calloc", 40, 1, 64));
	result_sort(&now);
	cr_assert_eq(sites_compare(&now, &before), 0);
	cr_assert_eq(now.site_change_count, 3, "k.c:30 is unchanged");
	const struct site_change *c = &now.site_changes[0];
	cr_expect_eq(c->line, 10);
	cr_expect(c->before && c->after);
	cr_expect_eq(c->calls_before, 100);
	cr_expect_eq(c->calls_after, 200);
	c = &now.site_changes[1];
	cr_expect_eq(c->line, 12);
	cr_expect(c->before && !c->after, "gone");
	c = &now.site_changes[2];
	cr_expect_eq(c->line, 40);
	cr_expect(!c->before && c->after, "new");
	result_free(&before);
	result_free(&now);
}

Test(sites, a_call_moved_by_added_lines_is_no_change)
{
	struct run_result before, now;
	run_with(&before, 100, 1);
	run_with(&now, 100, 1);
	/* two lines added above f's calls: the same calls at lines 12 and 14 */
	now.sites[0].line = 12;
	now.sites[1].line = 14;
	result_sort(&now);
	cr_assert_eq(sites_compare(&now, &before), 0);
	cr_expect_eq(now.site_change_count, 0);
	/* moved and changed: gone at 10, new at 12 */
	now.sites[0].calls = 101;
	cr_assert_eq(sites_compare(&now, &before), 0);
	cr_expect_eq(now.site_change_count, 2);
	result_free(&before);
	result_free(&now);
}

Test(sites, not_compared_without_both_sides)
{
	struct run_result before, now;
	run_with(&before, 100, 1);
	run_with(&now, 200, 0);
	before.sites_recorded = false;   /* a baseline of an older version */
	cr_assert_eq(sites_compare(&now, &before), 0);
	cr_expect_eq(now.site_change_count, 0);
	before.sites_recorded = true;
	/* the variant's counted pass did not run before: no heap_calls */
	free(before.series[0].metric);
	before.series[0].metric = strdup("wall_ns");
	cr_assert_eq(sites_compare(&now, &before), 0);
	cr_expect_eq(now.site_change_count, 0, "not 'every site is new'");
	result_free(&before);
	result_free(&now);
}

Test(sites, explain_a_failing_heap_series_only)
{
	struct run_result r;
	run_with(&r, 1, 0);
	cr_expect_not(sites_explain_failure(&r, "k", "v", "p"));
	r.series[0].verdict = VERDICT_FAIL;
	cr_expect(sites_explain_failure(&r, "k", "v", "p"));
	cr_expect_not(sites_explain_failure(&r, "k", "w", "p"));
	result_free(&r);
}

Test(sites, words)
{
	char buf[400];
	format_count(80000, buf, sizeof buf);
	cr_expect_str_eq(buf, "80,000");
	format_count(999, buf, sizeof buf);
	cr_expect_str_eq(buf, "999");
	format_count(1234567, buf, sizeof buf);
	cr_expect_str_eq(buf, "1,234,567");
	struct site_change c = { "k", "v", "p", "kernels/refcount.c", "worker_strdup", "malloc",
				 153, false, true, 0, 80000, 0, 1920000, NULL, NULL, false };
	format_site_change(&c, false, buf, sizeof buf);
	cr_expect_str_eq(buf, "new allocation site in worker_strdup: 80,000 malloc calls, 1.83 MiB");
	c.before = true;
	c.after = false;
	c.calls_before = 3;
	c.bytes_before = 0;
	format_site_change(&c, true, buf, sizeof buf);
	cr_expect_str_eq(buf, "allocation site gone in worker_strdup: was 3 malloc calls (in A only)");
	c.after = true;
	c.calls_after = 6;
	c.bytes_after = 0;
	format_site_change(&c, true, buf, sizeof buf);
	cr_expect_str_eq(buf, "allocation site in worker_strdup: malloc calls A 3 -> B 6");
	struct site s = { "k", "v", "p", "k.c", "f", "strdup", 30, 200000, 1400000, false, NULL };
	format_site(&s, buf, sizeof buf);
	cr_expect_str_eq(buf, "k.c:30 in f: 200,000 strdup calls, 1.34 MiB");
	struct site lib = { "k", "v", "p", "libc.so.6", "-", "malloc", 0, 1, 7, false, NULL };
	format_site(&lib, buf, sizeof buf);
	cr_expect_str_eq(buf, "inside libc.so.6: 1 malloc call, 7 B");
	struct site_change lc = { "k", "v", "p", "libglib-2.0.so.0", "-", "malloc", 0, false, true,
				  0, 500, 0, 0, NULL, NULL, false };
	format_site_change(&lc, false, buf, sizeof buf);
	cr_expect_str_eq(buf, "new allocation site: 500 malloc calls");
	format_site_place(lc.file, lc.line, buf, sizeof buf);
	cr_expect_str_eq(buf, "inside libglib-2.0.so.0");
}

Test(sites, result_and_baseline_files_keep_them)
{
	struct run_result before, now, back;
	char path[64], err[512];
	snprintf(path, sizeof path, "/tmp/allocgate-sites-%d.json", (int)getpid());
	run_with(&before, 100, 1);
	run_with(&now, 200, 0);
	cr_assert_eq(sites_compare(&now, &before), 0);
	cr_assert_eq(report_json_write(path, &now, err, sizeof err), 0, "%s", err);
	cr_assert_eq(results_load(path, &back, err, sizeof err), 0, "%s", err);
	cr_expect(back.sites_recorded);
	cr_expect_eq(back.site_count, now.site_count);
	cr_expect_eq(back.site_change_count, 2);
	cr_expect_str_eq(back.sites[0].function, "f");
	cr_expect(back.site_changes[1].before && !back.site_changes[1].after);
	result_free(&back);
	cr_assert_eq(baseline_save(path, &now, err, sizeof err), 0, "%s", err);
	cr_assert_eq(baseline_load(path, &back, err, sizeof err), 0, "%s", err);
	cr_expect(back.sites_recorded);
	cr_expect_eq(back.site_count, 2);
	cr_expect_eq(back.sites[0].calls, 200);
	result_free(&back);
	/* a baseline without "sites" (an older version): none, not recorded */
	now.sites_recorded = false;
	cr_assert_eq(baseline_save(path, &now, err, sizeof err), 0, "%s", err);
	cr_assert_eq(baseline_load(path, &back, err, sizeof err), 0, "%s", err);
	cr_expect(!back.sites_recorded);
	cr_expect_eq(back.site_count, 0);
	result_free(&back);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs("{\"schema\":1,\"series\":[],\"sites\":[{\"kernel\":\"k\",\"variant\":\"v\","
	      "\"params\":\"p\",\"file\":\"k.c\",\"line\":3,\"function\":\"f\",\"kind\":\"mallok\","
	      "\"calls\":1,\"bytes\":1}]}", f);
	fclose(f);
	cr_expect_eq(baseline_load(path, &back, err, sizeof err), -EINVAL);
	cr_expect(strstr(err, "sites[0].kind: 'mallok' is not an allocation call"), "%s", err);
	remove(path);
	result_free(&before);
	result_free(&now);
}

/* A site of the cost pass, through wrapper VIA, in run R. */
static void cost_site(struct run_result *r, const char *function, const char *kind, int line,
		      uint64_t calls, const char *via)
{
	struct site *s = result_add_site(r, "k", "v", "p", "src/value.c", function, kind, line,
					 calls, 0);
	cr_assert(s);
	s->cost = true;
	s->via = strdup(via);
}

/* jansson's array growth turned from realloc into malloc + copy + free:
 * A's realloc through jsonp_realloc in the inlined json_array_append_new,
 * B's malloc and free through jsonp_malloc and jsonp_free in
 * json_array_grow, lines apart: one place, said as one change of kind,
 * with the wrappers it went through; a library's line-0 change is left
 * out of what is told once the cost pass named the lines. */
Test(sites, a_realloc_turned_into_malloc_and_free_is_one_place)
{
	struct run_result a, b;
	run_with(&a, 3, 0);
	run_with(&b, 3, 0);
	cost_site(&a, "json_array_append_new", "realloc", 522, 11, "src/memory.c:43 jsonp_realloc");
	cost_site(&b, "json_array_grow", "malloc", 522, 11, "src/memory.c:29 jsonp_malloc");
	cost_site(&b, "json_array_grow", "free", 529, 11, "src/memory.c:36 jsonp_free");
	cr_assert(result_add_site(&a, "k", "v", "p", "libjansson.so", "-", "realloc", 0, 11, 4096));
	cr_assert(result_add_site(&b, "k", "v", "p", "libjansson.so", "-", "free", 0, 11, 0));
	result_sort(&a);
	result_sort(&b);
	cr_assert_eq(sites_compare(&b, &a), 0);
	cr_expect_eq(b.site_change_count, 5);
	struct site_shift sh[4];
	size_t n = sites_shifts(&b, "k", "v", "p", sh, 4);
	cr_assert_eq(n, 1, "one place, the library's line 0 left out");
	cr_expect_str_eq(sh[0].file, "src/value.c");
	cr_expect_eq(sh[0].line, 522);
	cr_expect_str_eq(sh[0].function, "json_array_grow", "B's function names the place");
	char text[1024];
	format_site_shift(&sh[0], text, sizeof text);
	cr_expect_str_eq(text, "src/value.c:522 json_array_grow: realloc 11 -> malloc 11 + free 11 "
			       "(via src/memory.c:43 jsonp_realloc -> src/memory.c:29 jsonp_malloc)");
	/* the same call, more of it */
	struct site_shift more = { "k.c", "f", 10, { 0 }, { 0 }, NULL, NULL, true, false };
	more.before[0] = 10;
	more.after[0] = 1000;
	format_site_shift_calls(&more, text, sizeof text);
	cr_expect_str_eq(text, "malloc 10 -> 1,000");
	result_free(&a);
	result_free(&b);
}

/* A string library's compaction: one path reallocates, the other mallocs,
 * copies and frees. A ran the realloc path alone, so its cost pass took
 * sds_compact for a wrapper of realloc and put the call at the kernel's
 * lines (via sds_compact); B ran the other path, whose calls it made
 * inside sds_compact. Compared, A's calls are put back at sds_compact's
 * own line: one place, at the library's line, nothing "gone" at the
 * kernel's lines; a wrapper that both sides fold (jsonp_free) stays folded. */
Test(sites, a_function_one_side_took_for_a_wrapper_is_one_place_at_its_line)
{
	struct run_result a, b;
	run_with(&a, 3, 0);
	run_with(&b, 3, 0);
	cr_assert(result_add_site(&a, "k", "v", "p", "kernels/str.c", "trim", "realloc", 40, 1, 0));
	cr_assert(result_add_site(&a, "k", "v", "p", "kernels/str.c", "join", "realloc", 58, 2, 0));
	a.sites[a.site_count - 2].cost = a.sites[a.site_count - 1].cost = true;
	cr_assert(a.sites[a.site_count - 2].via = strdup("src/sds.c:265 sds_compact"));
	cr_assert(a.sites[a.site_count - 1].via = strdup("src/sds.c:265 sds_compact"));
	cr_assert(result_add_site(&a, "k", "v", "p", "kernels/str.c", "trim", "free", 44, 1, 0));
	a.sites[a.site_count - 1].cost = true;
	cr_assert(a.sites[a.site_count - 1].via = strdup("src/zmalloc.c:9 zfree"));
	cr_assert(result_add_site(&b, "k", "v", "p", "src/sds.c", "sds_compact", "malloc", 262, 3, 0));
	b.sites[b.site_count - 1].cost = true;
	cr_assert(result_add_site(&b, "k", "v", "p", "src/sds.c", "sds_compact", "free", 268, 3, 0));
	b.sites[b.site_count - 1].cost = true;
	cr_assert(result_add_site(&b, "k", "v", "p", "kernels/str.c", "trim", "free", 44, 1, 0));
	b.sites[b.site_count - 1].cost = true;
	cr_assert(b.sites[b.site_count - 1].via = strdup("src/zmalloc.c:9 zfree"));
	result_sort(&a);
	result_sort(&b);
	cr_assert_eq(sites_compare(&b, &a), 0);
	struct site_shift sh[4];
	size_t n = sites_shifts(&b, "k", "v", "p", sh, 4);
	for (size_t i = 0; i < b.site_change_count; i++)
		cr_expect_str_neq(b.site_changes[i].file, "kernels/str.c",
				  "no change at the kernel's line %d", b.site_changes[i].line);
	cr_assert_eq(n, 1, "one place");
	char text[1024];
	format_site_shift(&sh[0], text, sizeof text);
	cr_expect_str_eq(text, "src/sds.c:262 sds_compact: realloc 3 -> malloc 3 + free 3");
	for (size_t i = 0; i < a.site_count; i++)
		cr_expect(strcmp(a.sites[i].file, "src/sds.c"), "A's own sites are left as recorded");
	result_free(&a);
	result_free(&b);
}
