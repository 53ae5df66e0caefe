/* test_history.c: gates/decide/history.c and gates/core/digest.c, the drift history a
 * baseline keeps of its earlier recordings: when it is carried (same kernel
 * executable, hardware and software), what it holds (earlier batch medians,
 * the most recent HISTORY_MAX) and the FNV-1a digest that tells "the same
 * executable" (published test vectors). */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/digest.h"
#include "decide/history.h"

/* ---- digest ---- */

Test(digest, fnv1a64_published_vectors)
{
	/* FNV-1a 64 test vectors (Fowler-Noll-Vo reference, draft-eastlake-fnv) */
	cr_expect_eq(digest_fnv1a64(DIGEST_FNV1A64_OFFSET, "", 0), 0xcbf29ce484222325ull);
	cr_expect_eq(digest_fnv1a64(DIGEST_FNV1A64_OFFSET, "a", 1), 0xaf63dc4c8601ec8cull);
	cr_expect_eq(digest_fnv1a64(DIGEST_FNV1A64_OFFSET, "foobar", 6), 0x85944171f73967e8ull);
	/* continuing from a state is hashing the concatenation */
	uint64_t h = digest_fnv1a64(DIGEST_FNV1A64_OFFSET, "foo", 3);
	cr_expect_eq(digest_fnv1a64(h, "bar", 3), 0x85944171f73967e8ull);
}

Test(digest, file_digest_and_a_missing_file)
{
	char path[] = "/tmp/allocgate-digest-XXXXXX", out[DIGEST_TEXT_SIZE];
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "foobar", 6), 6);
	close(fd);
	cr_expect_eq(digest_file(path, out, sizeof out), 0);
	cr_expect_str_eq(out, "fnv1a64:85944171f73967e8");
	unlink(path);
	cr_expect_eq(digest_file(path, out, sizeof out), -ENOENT);
	cr_expect_str_eq(out, "");
	cr_expect_eq(digest_file(path, out, 8), -ENOBUFS);
}

/* ---- when the history is carried ---- */

static struct run_result now_r, old_r;

static void fill_ctx(struct context *c)
{
	c->cpu_model = strdup("Some CPU @ 2.0GHz");
	c->cpu_count = 2;
	c->libc_version = strdup("2.36");
	c->kernel_release = strdup("6.1.0");
	c->seed = 1;
}

static void setup(void)
{
	memset(&now_r, 0, sizeof now_r);
	memset(&old_r, 0, sizeof old_r);
	fill_ctx(&now_r.ctx);
	fill_ctx(&old_r.ctx);
}

static void teardown(void)
{
	result_free(&now_r);
	result_free(&old_r);
}

TestSuite(history, .init = setup, .fini = teardown);

static struct series *add(struct run_result *r, enum metric_class cls, const char *digest,
			  const double *v, size_t n, size_t batches)
{
	struct series *s = result_add_series(r, "k", "v", "p", "wall_ns", "ns", cls);
	cr_assert_not_null(s);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(result_series_append(s, v[i]), 0);
	s->batches = batches;
	s->kernel_digest = digest ? strdup(digest) : NULL;
	return s;
}

static const double three[6] = { 10, 12, 20, 22, 30, 32 };  /* batch medians 11, 21, 31 */

/* history_refusal's reason, "" when the history may be carried. */
static const char *why_not(const struct series *now, const struct series *old)
{
	struct comparability c;
	comparable_decide(&old_r.ctx, &now_r.ctx, &c);
	const char *why = history_refusal(now, old, &c);
	return why ? why : "";
}

Test(history, carried_only_for_the_same_executable_machine_and_software)
{
	struct series *now = add(&now_r, METRIC_TIMING, "fnv1a64:1", three, 6, 3);
	struct series *old = add(&old_r, METRIC_TIMING, "fnv1a64:1", three, 6, 3);
	cr_expect_str_eq(why_not(now, old), "");

	free(old->kernel_digest);
	old->kernel_digest = strdup("fnv1a64:2");
	cr_expect_str_eq(why_not(now, old), "kernel executable changed");
	free(old->kernel_digest);
	old->kernel_digest = strdup("fnv1a64-elf:1"); /* loaded part only: another method */
	cr_expect_str_eq(why_not(now, old), "kernel digest of an older allocgate");
	free(old->kernel_digest);
	old->kernel_digest = NULL;
	cr_expect_str_eq(why_not(now, old), "kernel executable unknown");
	old->kernel_digest = strdup("fnv1a64:1");

	old_r.ctx.cpu_count = 4;
	cr_expect_str_eq(why_not(now, old), "hardware changed");
	old_r.ctx.cpu_count = 2;

	old_r.ctx.seed = 2;
	cr_expect_str_eq(why_not(now, old), "software changed");
	old_r.ctx.seed = 1;
	free(old_r.ctx.libc_version);
	old_r.ctx.libc_version = strdup("2.35");
	cr_expect_str_eq(why_not(now, old), "software changed");
	free(old_r.ctx.libc_version);
	old_r.ctx.libc_version = strdup("2.36");
	cr_expect_str_eq(why_not(now, old), "");

	now->cls = old->cls = METRIC_EXACT;
	cr_expect_str_eq(why_not(now, old), "not a timing metric");
}

Test(history, carry_appends_the_old_batch_medians_to_its_history)
{
	static const double earlier[] = { 5, 6 };
	struct series *old = add(&old_r, METRIC_TIMING, "d", three, 6, 3);
	old->history = malloc(sizeof earlier);
	cr_assert_not_null(old->history);
	memcpy(old->history, earlier, sizeof earlier);
	old->history_count = 2;
	double *h;
	size_t n;
	cr_assert_eq(history_carry(old, &h, &n), 0);
	static const double want[] = { 5, 6, 11, 21, 31 };
	cr_assert_eq(n, 5);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(h[i], want[i], "history[%zu] = %g, want %g", i, h[i], want[i]);
	free(h);
}

Test(history, carry_of_one_batch_skips_failed_samples_and_zero_medians)
{
	static const double one_batch[4] = { NAN, 7, 9, NAN };  /* median of 7, 9: 8 */
	struct series *old = add(&old_r, METRIC_TIMING, "d", one_batch, 4, 1);
	double *h;
	size_t n;
	cr_assert_eq(history_carry(old, &h, &n), 0);
	cr_assert_eq(n, 1);
	cr_expect_eq(h[0], 8);
	free(h);

	static const double zeros[3] = { 0, 0, 0 };
	struct series *z = add(&now_r, METRIC_TIMING, "d", zeros, 3, 1);
	cr_assert_eq(history_carry(z, &h, &n), 0);
	cr_expect_eq(n, 0);
	cr_expect_null(h);
}

Test(history, carry_keeps_the_most_recent_HISTORY_MAX)
{
	struct series *old = add(&old_r, METRIC_TIMING, "d", three, 6, 3);
	old->history = malloc(HISTORY_MAX * sizeof *old->history);
	cr_assert_not_null(old->history);
	for (size_t i = 0; i < HISTORY_MAX; i++)
		old->history[i] = 100 + (double)i;
	old->history_count = HISTORY_MAX;
	double *h;
	size_t n;
	cr_assert_eq(history_carry(old, &h, &n), 0);
	cr_assert_eq(n, HISTORY_MAX);
	/* the three oldest (100, 101, 102) went; the new batch medians end it */
	cr_expect_eq(h[0], 103);
	cr_expect_eq(h[HISTORY_MAX - 4], 100 + HISTORY_MAX - 1);
	cr_expect_eq(h[HISTORY_MAX - 3], 11);
	cr_expect_eq(h[HISTORY_MAX - 1], 31);
	free(h);
}
