/* test_alloc_count.c: perf/counting/alloc_count.c, the counting wrappers, called
 * directly (the forced include only renames calls to them). Sizes of
 * blocks are the allocator's usable sizes, so the live figures are
 * checked through alloc_count_block_size, not against constants. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "counting/alloc_count_probe.h"
#include "counting/alloc_sites.h"
#include "allocgate/alloc_count.h"

/* The basic calls in one region; *LEAKED: the usable size of the block
 * it leaves live (freed after the region). */
static struct alloc_count_totals ac_run_basic(size_t *leaked)
{
	struct alloc_count_snapshot s;
	struct alloc_count_totals t;
	memset(&t, 0, sizeof t);
	gate_alloc_count_install();
	alloc_count_begin(&s);
	char *a = gate_count_malloc(100);
	char *b = gate_count_calloc(4, 25);
	char *c = gate_count_strdup("foobar");
	char *d = gate_count_strndup("foobar", 3);
	void *e = NULL;
	cr_assert_eq(gate_count_posix_memalign(&e, 64, 128), 0);
	void *f = gate_count_aligned_alloc(64, 64);
	gate_count_free(b);
	gate_count_free(c);
	gate_count_free(d);
	gate_count_free(e);
	gate_count_free(f);
	gate_count_free(NULL);
	alloc_count_end(&s, &t);
	*leaked = alloc_count_block_size(a);
	gate_count_free(a);   /* outside the region: not counted */
	return t;
}

Test(alloc_count, calls_and_bytes)
{
	size_t leaked;
	struct alloc_count_totals t = ac_run_basic(&leaked);
	cr_expect_eq(t.value[ALLOC_MALLOC_CALLS], 1);
	cr_expect_eq(t.value[ALLOC_CALLOC_CALLS], 1);
	cr_expect_eq(t.value[ALLOC_STRDUP_CALLS], 2);
	cr_expect_eq(t.value[ALLOC_ALIGNED_CALLS], 2);
	cr_expect_eq(t.value[ALLOC_FREE_CALLS], 6);
	cr_expect_eq(t.value[ALLOC_CALLS], 12);
	cr_expect_eq(t.value[ALLOC_ALLOCS], 6);
	cr_expect_eq(t.value[ALLOC_FREES], 5);
	/* 100 + 100 + 7 + 4 + 128 + 64 */
	cr_expect_eq(t.value[ALLOC_BYTES_REQUESTED], 403);
	cr_expect_eq(t.value[ALLOC_LIVE_BLOCKS], 1);   /* a, freed after the region */
	cr_expect_geq(leaked, 100);
	cr_expect_eq(t.value[ALLOC_LIVE_BYTES], leaked);
}

/* The live figures of a region entered several times add up entry by
 * entry; a region that frees more than it made reads 0, not less. */
Test(alloc_count, live_bytes_add_up_over_entries_and_stop_at_zero)
{
	struct alloc_count_snapshot s;
	struct alloc_count_totals t, freeing;
	char *kept[2];
	memset(&t, 0, sizeof t);
	memset(&freeing, 0, sizeof freeing);
	gate_alloc_count_install();
	for (int i = 0; i < 2; i++) {
		alloc_count_begin(&s);
		kept[i] = gate_count_malloc(200);
		gate_count_free(gate_count_malloc(5000));   /* made and freed: not live */
		alloc_count_end(&s, &t);
	}
	size_t usable = alloc_count_block_size(kept[0]) + alloc_count_block_size(kept[1]);
	cr_expect_eq(t.value[ALLOC_LIVE_BLOCKS], 2);
	cr_expect_eq(t.value[ALLOC_LIVE_BYTES], usable);
	cr_expect_geq(t.value[ALLOC_PEAK_LIVE_BYTES], 5000);
	/* a region that frees the two blocks and makes a smaller one */
	alloc_count_begin(&s);
	gate_count_free(kept[0]);
	gate_count_free(kept[1]);
	char *small = gate_count_malloc(8);
	alloc_count_end(&s, &freeing);
	cr_expect_eq(freeing.value[ALLOC_LIVE_BLOCKS], 0);
	cr_expect_eq(freeing.value[ALLOC_LIVE_BYTES], 0);
	gate_count_free(small);
}

/* A realloc of a block made before the region counts only its growth. */
Test(alloc_count, live_bytes_of_a_realloc_are_the_growth)
{
	struct alloc_count_snapshot s;
	struct alloc_count_totals t;
	memset(&t, 0, sizeof t);
	gate_alloc_count_install();
	char *p = gate_count_malloc(16);
	size_t before = alloc_count_block_size(p);
	alloc_count_begin(&s);
	p = gate_count_realloc(p, 4096);
	alloc_count_end(&s, &t);
	cr_assert_not_null(p);
	cr_expect_eq(t.value[ALLOC_LIVE_BLOCKS], 0, "the block existed before the region");
	cr_expect_eq(t.value[ALLOC_LIVE_BYTES], alloc_count_block_size(p) - before);
	gate_count_free(p);
}

/* A realloc that must move (a second block pins the first one's end). */
Test(alloc_count, realloc_moves_and_copies)
{
	struct alloc_count_snapshot s;
	struct alloc_count_totals t;
	memset(&t, 0, sizeof t);
	gate_alloc_count_install();
	char *p = gate_count_malloc(64);
	char *pin = gate_count_malloc(64);
	size_t old_usable = alloc_count_block_size(p);
	alloc_count_begin(&s);
	char *q = gate_count_realloc(p, 1 << 20);   /* 1 MiB: never fits in place */
	char *r = gate_count_realloc(q, 1 << 19);   /* shrinking an mmap'd block */
	char *n = gate_count_realloc(NULL, 10);
	alloc_count_end(&s, &t);
	cr_expect_eq(t.value[ALLOC_REALLOC_CALLS], 3);
	cr_expect_eq(t.value[ALLOC_REALLOC_MOVED] + t.value[ALLOC_REALLOC_IN_PLACE], 2);
	cr_expect_geq(t.value[ALLOC_REALLOC_MOVED], 1);
	cr_expect_geq(t.value[ALLOC_REALLOC_COPIED], old_usable);
	cr_expect_eq(t.value[ALLOC_ALLOCS], 1);   /* realloc(NULL, 10) */
	cr_expect_eq(t.value[ALLOC_BYTES_REQUESTED], (1u << 20) + (1u << 19) + 10);
	cr_expect_geq(t.value[ALLOC_PEAK_LIVE_BYTES], (1u << 20) - old_usable);
	gate_count_free(r);
	gate_count_free(n);
	gate_count_free(pin);
}

static void *ac_worker(void *arg)
{
	for (int i = 0; i < 1000; i++)
		gate_count_free(gate_count_strdup(arg));
	return NULL;
}

/* Counts of threads that have exited still add up (the registry). */
Test(alloc_count, threads)
{
	struct alloc_count_snapshot s;
	struct alloc_count_totals t;
	pthread_t th[4];
	memset(&t, 0, sizeof t);
	gate_alloc_count_install();
	alloc_count_begin(&s);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(pthread_create(&th[i], NULL, ac_worker, "foobar"), 0);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	alloc_count_end(&s, &t);
	cr_expect_eq(t.value[ALLOC_STRDUP_CALLS], 4000);
	cr_expect_eq(t.value[ALLOC_ALLOCS], 4000);
	cr_expect_eq(t.value[ALLOC_FREES], 4000);
	cr_expect_eq(t.value[ALLOC_BYTES_REQUESTED], 28000);
	cr_expect_eq(t.value[ALLOC_LIVE_BLOCKS], 0);
	cr_expect_eq(t.value[ALLOC_LIVE_BYTES], 0);
}

static void *ac_leaking_worker(void *arg)
{
	for (int i = 0; i < 1000; i++)
		gate_count_free(gate_count_strdup(arg));
	return gate_count_malloc(100);   /* still live when the thread ends */
}

/* Threads that each leave one block: the live figures at the region's
 * end are those blocks exactly, whichever thread ran when. */
Test(alloc_count, live_bytes_of_threads_are_exact)
{
	struct alloc_count_snapshot s;
	struct alloc_count_totals t;
	pthread_t th[4];
	void *left[4];
	size_t usable = 0;
	memset(&t, 0, sizeof t);
	gate_alloc_count_install();
	alloc_count_begin(&s);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(pthread_create(&th[i], NULL, ac_leaking_worker, "foobar"), 0);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], &left[i]);
	alloc_count_end(&s, &t);
	for (int i = 0; i < 4; i++) {
		usable += alloc_count_block_size(left[i]);
		gate_count_free(left[i]);
	}
	cr_expect_eq(t.value[ALLOC_LIVE_BLOCKS], 4);
	cr_expect_eq(t.value[ALLOC_LIVE_BYTES], usable);
}

struct seen_sites {
	int n;
	struct alloc_site_view v[8];
};

static void collect(const struct alloc_site_view *v, void *arg)
{
	struct seen_sites *s = arg;
	if (s->n < 8)
		s->v[s->n++] = *v;
}

Test(alloc_count, sites)
{
	struct alloc_count_snapshot s;
	struct alloc_count_totals t;
	memset(&t, 0, sizeof t);
	gate_alloc_count_install();
	char *before = gate_count_malloc_at(8, "x.c", 1, "outside");   /* no region yet */
	alloc_count_begin(&s);
	for (int i = 0; i < 3; i++)
		gate_count_free_at(gate_count_malloc_at(24, "a.c", 10, "f"), "a.c", 11, "f");
	/* the same text through another pointer (a header inlined twice) */
	char file[] = "a.c";
	gate_count_free_at(gate_count_malloc_at(8, file, 10, "f"), "a.c", 11, "f");
	gate_count_free(gate_count_malloc(5));   /* no site: totals only */
	char *r = gate_count_realloc_at(NULL, 100, "b.c", 7, "g");
	gate_count_free_at(r, "b.c", 8, "g");
	alloc_count_end(&s, &t);
	gate_count_free(before);
	struct seen_sites seen = { 0 };
	alloc_sites_each(collect, &seen);
	cr_assert_eq(seen.n, 4, "a.c:10 malloc, a.c:11 free, b.c:7 realloc, b.c:8 free");
	int found = 0;
	for (int i = 0; i < seen.n; i++) {
		const struct alloc_site_view *v = &seen.v[i];
		if (!strcmp(v->file, "a.c") && v->line == 10) {
			cr_expect_str_eq(v->kind, "malloc");
			cr_expect_str_eq(v->function, "f");
			cr_expect_eq(v->calls, 4);
			cr_expect_eq(v->bytes, 3 * 24 + 8);
			found++;
		} else if (!strcmp(v->file, "a.c") && v->line == 11) {
			cr_expect_str_eq(v->kind, "free");
			cr_expect_eq(v->calls, 4);
			cr_expect_eq(v->bytes, 0);
			found++;
		} else if (!strcmp(v->file, "b.c") && v->line == 7) {
			cr_expect_str_eq(v->kind, "realloc");
			cr_expect_eq(v->bytes, 100);
			found++;
		}
	}
	cr_expect_eq(found, 3);
	cr_expect_eq(t.value[ALLOC_CALLS], 12, "the totals count the site-less calls too");
	cr_expect_eq(alloc_sites_dropped(), 0);
}

Test(alloc_count, a_full_site_table_drops_calls_and_says_so)
{
	struct alloc_count_snapshot s;
	struct alloc_count_totals t;
	memset(&t, 0, sizeof t);
	gate_alloc_count_install();
	alloc_count_begin(&s);
	for (int line = 1; line <= ALLOC_SITE_SLOTS + 10; line++)
		gate_count_free_at(NULL, "many.c", line, "f");
	alloc_count_end(&s, &t);
	cr_expect_eq(alloc_sites_dropped(), 10, "the table holds %d sites", ALLOC_SITE_SLOTS);
	cr_expect_eq(t.value[ALLOC_FREE_CALLS], ALLOC_SITE_SLOTS + 10);
}

Test(alloc_count, names)
{
	cr_expect_str_eq(alloc_count_name(ALLOC_REALLOC_MOVED), "heap_realloc_moved");
	cr_expect_str_eq(alloc_count_unit(ALLOC_BYTES_REQUESTED), "bytes");
	cr_expect_str_eq(alloc_count_class(ALLOC_PEAK_LIVE_BYTES), "near");
	cr_expect_str_eq(alloc_count_class(ALLOC_CALLS), "exact");
	cr_expect_str_eq(alloc_count_name(ALLOC_LIVE_BYTES), "heap_live_bytes");
	cr_expect_str_eq(alloc_count_unit(ALLOC_LIVE_BYTES), "bytes");
	cr_expect_str_eq(alloc_count_class(ALLOC_LIVE_BYTES), "exact");
}

/* Value of "metric NAME CLASS UNIT VALUE" in RECORD, or -1. */
static long long ac_metric(const char *record, const char *name)
{
	char key[96];
	snprintf(key, sizeof key, "metric %s ", name);
	const char *at = strstr(record, key);
	long long v = -1;
	if (at && sscanf(at + strlen(key), "%*s %*s %lld", &v) != 1)
		v = -1;
	return v;
}

/* The counted build of tests/kernels/allocs.c (forced include, no source
 * change): ops=1000 malloc(16 + i % 16)/free, 10 strdup of a 21-character
 * string, calloc(4, 8), realloc to 4096, free(NULL). */
Test(alloc_count, counted_test_kernel, .timeout = 60)
{
	static const char path[] = "build/tests/kernels-counted/allocs";
	char record[8192];
	size_t n = 0;
	if (access(path, X_OK) != 0)
		cr_skip_test("%s not built", path);
	FILE *p = popen("build/tests/kernels-counted/allocs --variant counted --params small", "r");
	cr_assert_not_null(p);
	n = fread(record, 1, sizeof record - 1, p);
	record[n] = '\0';
	cr_assert_eq(pclose(p), 0, "%s", record);
	cr_expect_eq(ac_metric(record, "work.heap_malloc_calls"), 1000);
	cr_expect_eq(ac_metric(record, "work.heap_strdup_calls"), 10);
	cr_expect_eq(ac_metric(record, "work.heap_calloc_calls"), 1);
	cr_expect_eq(ac_metric(record, "work.heap_realloc_calls"), 1);
	cr_expect_eq(ac_metric(record, "work.heap_free_calls"), 1012);
	cr_expect_eq(ac_metric(record, "work.heap_calls"), 2024);
	cr_expect_eq(ac_metric(record, "work.heap_blocks_allocated"), 1011);
	cr_expect_eq(ac_metric(record, "work.heap_blocks_freed"), 1011);
	/* 1000 x 16 + 62 x (0 + ... + 15) + (0 + ... + 7) + 10 x 22 + 32 + 4096 */
	cr_expect_eq(ac_metric(record, "work.heap_bytes_requested"), 27816);
	cr_expect_eq(ac_metric(record, "work.heap_realloc_moved") +
		     ac_metric(record, "work.heap_realloc_in_place"), 1);
	cr_expect_eq(ac_metric(record, "work.heap_live_blocks"), 0);
	cr_expect_eq(ac_metric(record, "work.heap_live_bytes"), 0);
}
