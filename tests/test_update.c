/* test_update.c: gates/store/update.c, `--update-baseline`: refusal after failed
 * samples, one writer at a time, stale temporary files of a killed writer
 * removed, series written by another updater meanwhile kept, the drift
 * history carried from one recording of the same executable to the next,
 * and the call stacks of the variants a run took no cost sample of kept. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/update.h"
#include "store/baseline.h"
#include "store/file_lock.h"

static char dir[256], path[320];

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/allocgate-update-XXXXXX");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	snprintf(path, sizeof path, "%s/test-x86_64.json", dir);
	/* update_baseline prints what it wrote: keep the test log readable.
	 * Its messages on stderr are checked by the tests (expect_stderr). */
	cr_assert_not_null(freopen("/dev/null", "w", stdout));
	cr_redirect_stderr();
}

/* What the test printed on stderr is exactly the lines LINES (each
 * "%s" in them stands for the baseline's path), or nothing for "". */
static void expect_stderr(const char *lines)
{
	char want[2048];
	snprintf(want, sizeof want, lines, path, path, path);
	fflush(stderr);
	cr_expect_stderr_eq_str(want);
}

static void remove_dir(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(update, .init = make_dir, .fini = remove_dir);

static void one(struct run_result *r, const char *kernel, double value)
{
	struct series *s = result_add_series(r, kernel, "v", "p", "wall_ns", "ns", METRIC_TIMING);
	cr_assert_not_null(s);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(result_series_append(s, value + i), 0);
	s->median = value + 1;
}

static void context(struct run_result *r, const char *when)
{
	r->ctx.platform_key = strdup("test-x86_64");
	r->ctx.started_at = strdup(when);
}

static char *slurp(const char *file)
{
	FILE *fp = fopen(file, "rb");
	if (!fp)
		return NULL;
	char *buf = calloc(1, 1 << 16);
	size_t n = fread(buf, 1, (1 << 16) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

Test(update, refuses_after_failed_samples)
{
	struct run_result r = { 0 };
	context(&r, "2026-01-01T00:00:00Z");
	one(&r, "a", 10);
	cr_expect_eq(update_baseline_wait(&r, NULL, NULL, path, 2, 0), 4);
	cr_expect_neq(access(path, F_OK), 0);
	expect_stderr("gate: baseline not updated: 2 sample(s) failed in this run (see the "
		      "problems above); %s is unchanged\n");
	result_free(&r);
}

Test(update, second_updater_fails_with_2_and_leaves_the_file)
{
	struct run_result r = { 0 };
	struct file_lock held;
	char err[512];
	context(&r, "2026-01-01T00:00:00Z");
	one(&r, "a", 10);
	cr_assert_eq(update_baseline_wait(&r, NULL, NULL, path, 0, 0), 0);
	char *before = slurp(path);
	cr_assert_not_null(before);
	cr_assert_eq(file_lock_acquire(&held, path, 0, err, sizeof err), 0, "%s", err);
	one(&r, "b", 20);
	cr_expect_eq(update_baseline_wait(&r, NULL, NULL, path, 0, 50), 2);
	file_lock_release(&held);
	char lines[1024];
	snprintf(lines, sizeof lines, "gate: baseline not updated: %%s: another process is writing "
		 "it (its directory %s is locked); still locked after 0.1 s\n", dir);
	expect_stderr(lines);
	char *after = slurp(path);
	cr_expect_str_eq(after, before);
	free(before);
	free(after);
	result_free(&r);
}

Test(update, stale_temporary_files_are_removed_under_the_lock)
{
	struct run_result r = { 0 };
	char tmp[400], other[400];
	context(&r, "2026-01-01T00:00:00Z");
	one(&r, "a", 10);
	snprintf(tmp, sizeof tmp, "%s.tmp.AbC123", path);
	snprintf(other, sizeof other, "%s/other.json.tmp.AbC123", dir);
	close(open(tmp, O_CREAT | O_WRONLY, 0600));
	close(open(other, O_CREAT | O_WRONLY, 0600));
	cr_assert_eq(update_baseline_wait(&r, NULL, NULL, path, 0, 0), 0);
	cr_expect_neq(access(tmp, F_OK), 0, "%s left behind", tmp);
	cr_expect_eq(access(other, F_OK), 0, "another file's temporary was removed");
	result_free(&r);
}

Test(update, series_written_meanwhile_by_another_updater_are_kept)
{
	struct run_result first = { 0 }, second = { 0 }, loaded = { 0 };
	char err[512];
	context(&first, "2026-01-01T00:00:00Z");
	context(&second, "2026-01-02T00:00:00Z");
	one(&first, "a", 10);
	one(&second, "b", 20);
	/* Both runs started with no baseline (old = NULL); the second must
	 * still keep what the first wrote while it was measuring. */
	cr_assert_eq(update_baseline_wait(&first, NULL, NULL, path, 0, 0), 0);
	cr_assert_eq(update_baseline_wait(&second, NULL, NULL, path, 0, 0), 0);
	cr_assert_eq(baseline_load(path, &loaded, err, sizeof err), 0, "%s", err);
	cr_expect_not_null(result_find_series(&loaded, "a", "v", "p", "wall_ns"));
	cr_expect_not_null(result_find_series(&loaded, "b", "v", "p", "wall_ns"));
	expect_stderr("gate: note: %s was replaced during this run; merging with its new "
		      "contents\n");
	result_free(&first);
	result_free(&second);
	result_free(&loaded);
}

/* A cost series and one call stack of KERNEL with CALLS calls, in R. */
static void costed(struct run_result *r, const char *kernel, uint64_t calls)
{
	struct series *s = result_add_series(r, kernel, "v", "p", "cost_instructions",
					     "instructions", METRIC_EXACT);
	cr_assert_not_null(s);
	cr_assert_eq(result_series_append(s, 1000), 0);
	const char *frames[] = { "v" };
	struct stack *st = result_add_stack(&r->stacks, kernel, "v", "p", "", "malloc", frames, 1);
	cr_assert_not_null(st);
	st->calls = calls;
	r->stacks.recorded = true;
}

Test(update, call_stacks_of_variants_without_a_cost_sample_are_kept)
{
	struct run_result first = { 0 }, second = { 0 }, loaded = { 0 };
	char err[512];
	context(&first, "2026-01-01T00:00:00Z");
	context(&second, "2026-01-02T00:00:00Z");
	costed(&first, "a", 10);
	costed(&first, "b", 20);
	costed(&second, "a", 11);
	one(&second, "b", 20);   /* measured, but no cost sample (--no-cost) */
	cr_assert_eq(update_baseline_wait(&first, NULL, NULL, path, 0, 0), 0);
	cr_assert_eq(update_baseline_wait(&second, NULL, NULL, path, 0, 0), 0);
	cr_assert_eq(baseline_load(path, &loaded, err, sizeof err), 0, "%s", err);
	cr_expect(loaded.stacks.recorded);
	cr_assert_eq(loaded.stacks.count, 2);
	cr_expect_str_eq(loaded.stacks.items[0].kernel, "a");
	cr_expect_eq(loaded.stacks.items[0].calls, 11, "a's from the second run");
	cr_expect_str_eq(loaded.stacks.items[1].kernel, "b");
	cr_expect_eq(loaded.stacks.items[1].calls, 20, "b's kept from the first");
	expect_stderr("gate: note: %s was replaced during this run; merging with its new "
		      "contents\n");
	result_free(&first);
	result_free(&second);
	result_free(&loaded);
}

Test(update, malformed_file_found_under_the_lock_is_not_overwritten)
{
	struct run_result r = { 0 };
	context(&r, "2026-01-01T00:00:00Z");
	one(&r, "a", 10);
	FILE *fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fputs("{\"schema\": 1, \"series\": [", fp);
	fclose(fp);
	cr_expect_eq(update_baseline_wait(&r, NULL, NULL, path, 0, 0), 2);
	char *after = slurp(path);
	cr_expect_str_eq(after, "{\"schema\": 1, \"series\": [");
	expect_stderr("gate: baseline not updated: %s: line 1, column 25: invalid JSON: ']' "
		      "expected near end of file\n");
	free(after);
	result_free(&r);
}

/* A timing series of kernel "a" measured by executable DIGEST: VALUE,
 * VALUE + 1, VALUE + 2 (median VALUE + 1). */
static void digested(struct run_result *r, const char *digest, double value)
{
	one(r, "a", value);
	r->series[r->series_count - 1].kernel_digest = strdup(digest);
}

static const struct series *stored(struct run_result *loaded)
{
	char err[512];
	result_free(loaded);
	cr_assert_eq(baseline_load(path, loaded, err, sizeof err), 0, "%s", err);
	const struct series *s = result_find_series(loaded, "a", "v", "p", "wall_ns");
	cr_assert_not_null(s);
	return s;
}

Test(update, drift_history_follows_the_same_executable_and_restarts_on_a_new_one)
{
	struct run_result r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, loaded = { 0 };
	context(&r1, "2026-01-01T00:00:00Z");
	context(&r2, "2026-01-01T01:00:00Z");
	context(&r3, "2026-01-01T02:00:00Z");
	context(&r4, "2026-01-01T03:00:00Z");
	digested(&r1, "fnv1a64:1", 100);
	digested(&r2, "fnv1a64:1", 130);
	digested(&r3, "fnv1a64:1", 90);
	digested(&r4, "fnv1a64:2", 95);
	cr_assert_eq(update_baseline_wait(&r1, NULL, NULL, path, 0, 0), 0);
	cr_expect_eq(stored(&loaded)->history_count, 0, "a first recording has no history");
	cr_assert_eq(update_baseline_wait(&r2, NULL, NULL, path, 0, 0), 0);
	const struct series *s = stored(&loaded);
	cr_assert_eq(s->history_count, 1);
	cr_expect_eq(s->history[0], 101, "the first recording's median");
	cr_expect_str_eq(s->kernel_digest, "fnv1a64:1");
	cr_assert_eq(update_baseline_wait(&r3, NULL, NULL, path, 0, 0), 0);
	s = stored(&loaded);
	cr_assert_eq(s->history_count, 2);
	cr_expect_eq(s->history[0], 101);
	cr_expect_eq(s->history[1], 131);
	cr_expect_eq(s->median, 91, "the samples are the newest recording's");
	/* a rebuilt kernel is what an intended change looks like: no history */
	cr_assert_eq(update_baseline_wait(&r4, NULL, NULL, path, 0, 0), 0);
	s = stored(&loaded);
	cr_expect_eq(s->history_count, 0);
	cr_expect_str_eq(s->kernel_digest, "fnv1a64:2");
	/* each update after the first started with no baseline (old = NULL)
	 * and found the file the one before wrote */
	expect_stderr("gate: note: %s was replaced during this run; merging with its new "
		      "contents\n"
		      "gate: note: %s was replaced during this run; merging with its new "
		      "contents\n"
		      "gate: note: %s was replaced during this run; merging with its new "
		      "contents\n");
	result_free(&r1);
	result_free(&r2);
	result_free(&r3);
	result_free(&r4);
	result_free(&loaded);
}
