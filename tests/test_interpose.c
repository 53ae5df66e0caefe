/* test_interpose.c: liballocgate-interpose.so (perf/interpose/), the
 * counter of allocations made by code not compiled with the counting
 * include. Its proc_* counts of the counted twins: exact for the allocs
 * test kernel (whose strdup mallocs inside the C library, which heap_*
 * counts as strdup), equal to the compile-time heap_* counts on the
 * single-threaded seed kernels, and above them where the kernel calls
 * malloc through a function pointer (thread_cache's malloc_free), which
 * the wrappers cannot see. A gate run reports them as series. Linux, not
 * under a sanitizer (its runtime must come first in the process). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sample/spawn.h"

static char bd[256], lib[600];

static void setup(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	cr_skip_test("a sanitizer build: its kernels need their runtime first in the process");
#endif
	const char *b = getenv("GATE_BUILD_DIR");
	snprintf(bd, sizeof bd, "%s", b && *b ? b : "build");
	char cwd[300];
	cr_assert(getcwd(cwd, sizeof cwd));
	snprintf(lib, sizeof lib, "%s/%s/liballocgate-interpose.so", cwd, bd);
	if (access(lib, R_OK) != 0)
		cr_skip_test("%s not built (Linux only)", lib);
}

TestSuite(interpose, .init = setup);

/* Value of metric NAME in the record TEXT; -1 when absent. */
static long long metric(const char *text, const char *name)
{
	char key[200];
	snprintf(key, sizeof key, "metric %s ", name);
	const char *at = strstr(text, key);
	if (!at)
		return -1;
	const char *end = strchr(at, '\n');
	const char *num = end;
	while (num > at && num[-1] != ' ')
		num--;
	return strtoll(num, NULL, 10);
}

/* One counted sample of KERNEL (a path under the build directory) with the
 * interposer preloaded, followed by the library ALSO (under the build
 * directory; NULL: none) as the runner preloads an allocator, and
 * variable EXTRA ("NAME=VALUE"; NULL: none) in its environment; its record
 * in a new string. */
static char *sample_with(const char *kernel, const char *variant, const char *params,
			 const char *also, const char *extra)
{
	char path[700], preload[1400];
	snprintf(path, sizeof path, "%s/%s", bd, kernel);
	if (also)
		snprintf(preload, sizeof preload, "LD_PRELOAD=%s:%s/%s", lib, bd, also);
	else
		snprintf(preload, sizeof preload, "LD_PRELOAD=%s", lib);
	char *argv[] = { path, "--variant", (char *)variant, "--params", (char *)params, NULL };
	char *env[] = { preload, (char *)extra, NULL };
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, env, 120, &out), 0);
	cr_assert(out.status == SPAWN_EXITED && out.exit_code == 0, "%s: exit %d: %s", path,
		  out.exit_code, out.err);
	char *text = strdup(out.out);
	spawn_output_free(&out);
	return text;
}

static char *counted_sample(const char *kernel, const char *variant, const char *params)
{
	return sample_with(kernel, variant, params, NULL, NULL);
}

Test(interpose, counts_every_call_of_the_allocs_kernel)
{
	char *r = counted_sample("tests/kernels-counted/allocs", "counted", "small");
	/* ops=1000 strdups=10: 1000 mallocs, 10 strdups (a malloc each, inside
	 * the C library), one calloc, one realloc, then free of every block,
	 * of the realloc'd one and of NULL */
	cr_expect_eq(metric(r, "work.proc_malloc_calls"), 1010, "%s", r);
	cr_expect_eq(metric(r, "work.proc_calloc_calls"), 1);
	cr_expect_eq(metric(r, "work.proc_realloc_calls"), 1);
	cr_expect_eq(metric(r, "work.proc_free_calls"), 1012);
	cr_expect_eq(metric(r, "work.proc_aligned_calls"), 0);
	/* what the wrappers saw: the kernel's own calls, strdup as strdup */
	cr_expect_eq(metric(r, "work.heap_malloc_calls"), 1000);
	cr_expect_eq(metric(r, "work.heap_strdup_calls"), 10);
	free(r);
}

/* The interposer's counts of region PREFIX of R equal the wrappers'. */
static void expect_agree(const char *r, const char *what, const char *prefix)
{
	char a[120], b[120], c[120];
	static const char *const calls[] = { "calloc", "realloc", "free", "aligned" };
	snprintf(a, sizeof a, "%sproc_malloc_calls", prefix);
	snprintf(b, sizeof b, "%sheap_malloc_calls", prefix);
	snprintf(c, sizeof c, "%sheap_strdup_calls", prefix);
	cr_expect_eq(metric(r, a), metric(r, b) + metric(r, c), "%s %s", what, a);
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		snprintf(a, sizeof a, "%sproc_%s_calls", prefix, calls[i]);
		snprintf(b, sizeof b, "%sheap_%s_calls", prefix, calls[i]);
		cr_expect_eq(metric(r, a), metric(r, b), "%s %s: %lld, heap %lld", what, a,
			     metric(r, a), metric(r, b));
	}
}

Test(interpose, agrees_with_the_compile_time_counts_of_the_seed_kernels)
{
	static const char *const resize[] = { "lossful_grow", "lossful_shrink", "copy_grow",
					      "copy_shrink", "realloc_grow", "realloc_shrink" };
	for (size_t i = 0; i < sizeof resize / sizeof resize[0]; i++) {
		char *r = counted_sample("kernels-counted/resize", resize[i], "256KB_1KB");
		cr_expect_gt(metric(r, "proc_realloc_calls") + metric(r, "proc_malloc_calls"), 0,
			     "%s: %s", resize[i], r);
		expect_agree(r, resize[i], "");
		free(r);
	}
	static const char *const free_cost[] = { "alloc_order", "random_order" };
	for (size_t i = 0; i < 2; i++) {
		char *r = counted_sample("kernels-counted/free_cost", free_cost[i], "n_1k");
		expect_agree(r, free_cost[i], "alloc.");
		expect_agree(r, free_cost[i], "free.");
		free(r);
	}
}

Test(interpose, sees_what_the_wrappers_cannot)
{
	/* malloc_free calls malloc and free through function pointers */
	char *r = counted_sample("kernels-counted/thread_cache", "malloc_free", "cores_5m_x11");
	cr_expect_eq(metric(r, "heap_malloc_calls"), 0, "%s", r);
	cr_expect_geq(metric(r, "proc_malloc_calls"), 1000000, "%s", r);
	free(r);
}

Test(interpose, a_gate_run_reports_proc_series, .timeout = 300)
{
	char gate[300], kdir[300], json[] = "/tmp/allocgate-interpose-XXXXXX";
	int fd = mkstemp(json);
	cr_assert(fd >= 0);
	close(fd);
	snprintf(gate, sizeof gate, "%s/gate", bd);
	snprintf(kdir, sizeof kdir, "%s/tests/kernels", bd);
	char *argv[] = { gate, "run", "--kernel-dir", kdir, "--baseline-dir", "/tmp/allocgate-interpose-none", "--kernel",
			 "allocs", "--quick", "--no-cost", "--no-color", "--json", json, NULL };
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, NULL, 240, &out), 0);
	cr_expect(out.status == SPAWN_EXITED && (out.exit_code == 0 || out.exit_code == 1),
		  "exit %d: %s", out.exit_code, out.err);
	spawn_output_free(&out);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
		 "s=[x for x in d[\"series\"] if x[\"metric\"]==\"work.proc_malloc_calls\"]; "
		 "assert s and s[0][\"median\"]==1010, s' %s", json);
	cr_expect_eq(system(cmd), 0, "no work.proc_malloc_calls = 1010 series in %s", json);
	remove(json);
}

/* The library sites: strdup's own malloc is the C library's; the kernel
 * executable's calls are not a library's (the counted build has their
 * lines: `site` records). */
Test(interpose, names_the_library_that_allocated)
{
	char *r = counted_sample("tests/kernels-counted/allocs", "counted", "small");
	cr_expect(strstr(r, "\nlib-site malloc 10 220 libc.so.6\n"), "%s", r);
	cr_expect(strstr(r, "\nsite malloc 27 1000 "), "the executable's own: %s", r);
	cr_expect_null(strstr(r, "lib-site malloc 1010"), "%s", r);
	cr_expect_null(strstr(r, "sites-dropped"), "%s", r);
	free(r);
}

/* The live totals balance over every kind of call (the allocs kernel
 * frees all it makes, strdup's malloc inside the C library included) and
 * count a leak as the wrappers do: the same blocks, the same usable sizes. */
Test(interpose, live_bytes_balance_and_count_what_is_kept)
{
	char *r = counted_sample("tests/kernels-counted/allocs", "counted", "small");
	cr_expect_eq(metric(r, "work.proc_live_bytes"), 0, "%s", r);
	cr_expect_eq(metric(r, "work.proc_live_blocks"), 0, "%s", r);
	free(r);
	r = sample_with("tests/kernels-counted/leaks", "list", "small", NULL, "LEAKS_KEEP=3");
	cr_expect_eq(metric(r, "proc_live_blocks"), 3, "%s", r);
	cr_expect_eq(metric(r, "heap_live_blocks"), 3, "%s", r);
	cr_expect_geq(metric(r, "proc_live_bytes"), 3 * 48, "%s", r);
	cr_expect_eq(metric(r, "proc_live_bytes"), metric(r, "heap_live_bytes"), "%s", r);
	free(r);
}

/* An allocator that replaces only realloc (tests/preload/moving_realloc.c:
 * a malloc, a copy and a free that come back through the interposer) would
 * count its blocks twice: the live totals are said unavailable, never
 * reported wrong, and the call counts stay. */
Test(interpose, a_partial_allocator_turns_the_live_totals_off)
{
	char *r = sample_with("tests/kernels-counted/claims", "shrink", "small",
			      "tests/preload/libmoving_realloc.so", NULL);
	cr_expect_eq(metric(r, "proc_realloc_calls"), 8, "%s", r);
	cr_expect_eq(metric(r, "proc_live_bytes"), -1, "%s", r);
	cr_expect_eq(metric(r, "proc_live_blocks"), -1, "%s", r);
	cr_expect(strstr(r, "\nunavailable proc_live_bytes the allocator's malloc"), "%s", r);
	cr_expect(strstr(r, "\nunavailable proc_live_blocks "), "%s", r);
	free(r);
}
