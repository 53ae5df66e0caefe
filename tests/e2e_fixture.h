/* e2e_fixture.h: what the end-to-end tests share: where build/gate and
 * the test kernels are (GATE_BUILD_DIR, default build) and a fresh
 * temporary directory per test, removed afterwards. */
#ifndef TEST_E2E_FIXTURE_H
#define TEST_E2E_FIXTURE_H

#include <criterion/criterion.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sample/spawn.h"

static char tmpdir[256], gate_path[512], kernel_dir[512];

/* Finds build/gate (asserting it is built) and makes /tmp/allocgate-NAME-XXXXXX. */
static void e2e_prepare(const char *name)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	bd = bd ? bd : "build";
	snprintf(gate_path, sizeof gate_path, "%s/gate", bd);
	snprintf(kernel_dir, sizeof kernel_dir, "%s/tests/kernels", bd);
	cr_assert(access(gate_path, X_OK) == 0, "%s not built (run ci/test.sh)", gate_path);
	snprintf(tmpdir, sizeof tmpdir, "/tmp/allocgate-%s-XXXXXX", name);
	cr_assert(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
}

#define E2E_ARGV_MAX 64

/* Runs ARGV (its first N entries, room for E2E_ARGV_MAX) followed by the
 * NULL-terminated arguments in AP, with environment ENV (NULL: ours);
 * asserts that it exited normally and returns its status, output in OUT. */
static inline int e2e_spawn(char **argv, int n, va_list ap, char *const *env, double timeout,
			    struct spawn_output *out)
{
	for (char *a; n < E2E_ARGV_MAX - 1 && (a = va_arg(ap, char *));)
		argv[n++] = a;
	argv[n] = NULL;
	cr_assert(spawn_run(argv, env, timeout, out) == 0);
	cr_assert(out->status == SPAWN_EXITED, "gate did not exit normally: %s", out->err);
	return out->exit_code;
}

/* The first line of FILE (relative to the repository root, where the
 * suite runs) that contains NEEDLE; fails the test when there is none. */
static inline int e2e_line_of(const char *file, const char *needle)
{
	FILE *f = fopen(file, "r");
	char buf[512];
	int n = 0;
	cr_assert(f, "%s: run from the repository root", file);
	while (fgets(buf, sizeof buf, f)) {
		n++;
		if (strstr(buf, needle)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	cr_assert_fail("no '%s' in %s", needle, file);
	return 0;
}

/* Removes the temporary directory of e2e_prepare. */
static void e2e_cleanup(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	cr_expect(system(cmd) == 0);
}

/* Skips the test, first removing its directory: Criterion does not run a
 * suite's .fini for a skipped test, so every skip left one in /tmp. */
#define e2e_skip(...)                    \
	do {                             \
		e2e_cleanup();           \
		cr_skip_test(__VA_ARGS__); \
	} while (0)

/* Skips a test of a timing verdict when OUT (a gate's report) lacks WANT
 * because other work on the machine disturbed the samples: the gate then
 * says "disturbed: " and decides nothing by timing, which is
 * right (decide/interference.h); the suite must pass on a busy machine. */
#define e2e_skip_if_busy(out, want)                                                     \
	do {                                                                              \
		if (!strstr((out), (want)) && strstr((out), "disturbed: "))                \
			e2e_skip("timing samples disturbed (waits to run, other processes " \
				 "on the machine): no timing verdict to check");             \
	} while (0)

/* Whether OUT (a gate's report) says that timing decided nothing for some
 * series: the machine disturbed its samples ("disturbed: ",
 * decide/interference.h), or its confirmation batch disagreed with the
 * first ("not confirmed", decide/confirm.h; seen under ASan in .ci/run, a
 * 10x slowdown measured +190% then +89% against a one-run baseline). */
static inline int e2e_timing_undecided(const char *out)
{
	return strstr(out, "disturbed: ") || strstr(out, "not confirmed");
}

#define e2e_skip_timing_undecided()                                                   \
	e2e_skip("timing samples disturbed (waits to run, other processes on the "    \
		 "machine) or their confirmation disagreed: no timing verdict to check")

/* e2e_skip_if_busy for a regression paragraph: skips when the line of OUT
 * that begins with START (the group's heading: the paragraph of a (kernel,
 * variant, params) lists every metric that moved, the cost pass's too)
 * does not name WORD (a timing metric) while the gate's timing decided
 * nothing for some series (e2e_timing_undecided). */
#define e2e_skip_if_busy_line(out, start, word)                                         \
	do {                                                                              \
		const char *at_ = strstr((out), (start));                                 \
		size_t len_ = at_ ? strcspn(at_, "\n") : 0;                               \
		char line_[8192];                                                         \
		snprintf(line_, sizeof line_, "%.*s", (int)len_, at_ ? at_ : "");         \
		if (!strstr(line_, (word)) && e2e_timing_undecided(out))                  \
			e2e_skip_timing_undecided();                                      \
	} while (0)

#endif
