/* test_update_kill.c: a baseline is never lost. An updater (the real
 * update_baseline path: lock, stale-file cleanup, reload, merge, atomic
 * write) runs in a forked child that is killed with SIGKILL after a
 * pseudo-random delay (fixed seed), KILLS times. After every kill the
 * baseline must be byte for byte the old or the new contents, loadable,
 * with at most one temporary file beside it (the killed writer's, removed
 * by the next writer under the lock). Delays are not timings: they only
 * spread the kill points over the update; the outcome counts are logged. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/update.h"
#include "store/baseline.h"

#define KILLS 240
#define SERIES 400     /* enough JSON (~100 KiB) for kills to land mid-write */

static char dir[256], path[320];

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/allocgate-kill-XXXXXX");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	snprintf(path, sizeof path, "%s/test-x86_64.json", dir);
}

static void remove_dir(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(update_kill, .init = make_dir, .fini = remove_dir);

/* A run of SERIES series whose values depend on GENERATION. */
static void make_run(struct run_result *r, int generation)
{
	char kernel[32];
	r->ctx.platform_key = strdup("test-x86_64");
	r->ctx.started_at = strdup(generation ? "2026-01-02T00:00:00Z" : "2026-01-01T00:00:00Z");
	for (int i = 0; i < SERIES; i++) {
		snprintf(kernel, sizeof kernel, "k%03d", i);
		struct series *s = result_add_series(r, kernel, "v", "p", "wall_ns", "ns",
						     METRIC_TIMING);
		cr_assert_not_null(s);
		for (int j = 0; j < 15; j++)
			cr_assert_eq(result_series_append(s, 1000.0 * (generation + 1) + i + j / 8.0), 0);
		s->median = 1000.0 * (generation + 1) + i + 1;
	}
}

static char *slurp(const char *file, size_t *len)
{
	FILE *fp = fopen(file, "rb");
	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	rewind(fp);
	char *buf = malloc((size_t)n + 1);
	*len = fread(buf, 1, (size_t)n, fp);
	buf[*len] = '\0';
	fclose(fp);
	return buf;
}

static int count_temporaries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL)
		n += strstr(e->d_name, ".json.tmp.") != NULL;
	closedir(d);
	return n;
}

/* Forks an updater writing R over PATH; returns its pid. */
static pid_t start_updater(const struct run_result *r)
{
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		_exit(update_baseline_wait(r, NULL, NULL, path, 0, 10000));
	}
	return pid;
}

static uint64_t next(uint64_t *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state >> 33;
}

Test(update_kill, sigkill_at_random_points_leaves_old_or_new_whole, .timeout = 120)
{
	struct run_result runs[2], loaded;
	char *text[2], err[512];
	size_t len[2], got_len;
	int current = 0, outcome[3] = { 0, 0, 0 };
	uint64_t seed = 20261129;
	unsigned max_delay = 4000;

	memset(runs, 0, sizeof runs);
	make_run(&runs[0], 0);
	make_run(&runs[1], 1);
	for (int g = 1; g >= 0; g--) {
		cr_assert_eq(baseline_save(path, &runs[g], err, sizeof err), 0, "%s", err);
		text[g] = slurp(path, &len[g]);
	}
	for (int k = 0; k < KILLS; k++) {
		/* Uniform in [0, max_delay) us; max_delay follows the update's
		 * length on this machine (shrinks when the updater finished first,
		 * grows when it was killed early), so kills keep landing inside it. */
		useconds_t delay = (useconds_t)(next(&seed) % max_delay);
		pid_t pid = start_updater(&runs[1 - current]);
		usleep(delay);
		kill(pid, SIGKILL);
		int status;
		cr_assert_eq(waitpid(pid, &status, 0), pid);
		char *got = slurp(path, &got_len);
		cr_assert_not_null(got, "kill %d: %s is gone", k, path);
		int is_old = got_len == len[current] && !memcmp(got, text[current], got_len);
		int is_new = got_len == len[1 - current] && !memcmp(got, text[1 - current], got_len);
		cr_assert(is_old || is_new, "kill %d (after %u us): %s is neither the old nor "
			  "the new contents (%zu bytes)", k, (unsigned)delay, path, got_len);
		free(got);
		int finished = WIFEXITED(status);
		outcome[finished ? 2 : is_new]++;
		max_delay = finished ? max_delay * 9 / 10 + 1 : max_delay * 21 / 20 + 1;
		cr_assert_eq(baseline_load(path, &loaded, err, sizeof err), 0, "%s", err);
		result_free(&loaded);
		cr_assert_leq(count_temporaries(), 1, "kill %d: temporary files pile up", k);
		if (is_new)
			current = 1 - current;
	}
	/* An update that is not killed still gets the lock and cleans up. */
	pid_t pid = start_updater(&runs[1 - current]);
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	cr_expect_eq(count_temporaries(), 0);
	cr_log_info("update_kill: %d kills: %d left the old file, %d the new one, %d "
		    "finished before the kill; last delay bound %u us", KILLS, outcome[0], outcome[1],
		    outcome[2], max_delay);
	fprintf(stderr, "update_kill: %d kills: %d left the old file, %d the new one, %d "
		"finished before the kill; last delay bound %u us\n", KILLS, outcome[0], outcome[1],
		outcome[2], max_delay);
	for (int g = 0; g < 2; g++) {
		free(text[g]);
		result_free(&runs[g]);
	}
}
