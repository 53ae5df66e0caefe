/* wine_fixture.h: what the tests under wine share: the mingw-w64 cross
 * build in GATE_BUILD_DIR/mingw (default build/mingw), made by configure.py
 * --host with build/mingw.ninja beside it, and its one wine prefix
 * (GATE_BUILD_DIR/mingw/wine), reused from run to run: creating a prefix
 * takes most of the first run. A test skips with one reason when
 * mingw-w64 or wine is missing, or (for the gate) when ci/mingw-jansson.sh
 * cannot make jansson for mingw, e.g. offline. */
#ifndef TEST_WINE_FIXTURE_H
#define TEST_WINE_FIXTURE_H

#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define WINE_CROSS_HOST "x86_64-w64-mingw32"

/* A sanitizer build of the suite (ci/sanitize.sh) would cross-build the
 * same unsanitized gate.exe again in its own directory, with a wine prefix
 * of its own: no sanitizer reaches the mingw build, so the plain suite's
 * run is the one. */
#if defined(__SANITIZE_ADDRESS__)
#define WINE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WINE_SANITIZED 1
#endif
#endif

static char wine_build_dir[512];          /* GATE_BUILD_DIR/mingw */
static char wine_cmd[PATH_MAX + 64];      /* "WINEPREFIX=... WINEDEBUG=-all wine" */

static bool wine_have(const char *tool)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

/* The exit status of shell command CMD, -1 when it did not exit. */
static int wine_system(const char *cmd)
{
	int status = system(cmd);
	return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The contents of PATH into OUT (at most SIZE - 1 bytes; "" when missing). */
static void wine_read_file(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(out, 1, size - 1, f) : 0;
	out[n] = '\0';
	if (f)
		fclose(f);
}

/* The last line of PATH into OUT, for a skip reason. */
static void wine_last_line(const char *path, char *out, size_t size)
{
	static char text[8192];
	wine_read_file(path, text, sizeof text);
	size_t n = strlen(text);
	while (n && text[n - 1] == '\n')
		text[--n] = '\0';
	const char *line = strrchr(text, '\n');
	snprintf(out, size, "%s", line ? line + 1 : text);
}

/* Skips unless mingw-w64 and wine exist; with GATE, also builds jansson
 * for mingw (ci/mingw-jansson.sh) or skips saying why it could not. Then
 * configures the cross build and builds TARGETS (NULL-terminated, paths
 * under the cross build dir) with ninja; sets wine_build_dir and wine_cmd. */
static void wine_cross_build(const char *const targets[], int gate)
{
	char cmd[8192], log[600], why[300], abs[PATH_MAX], outputs[4096] = "";
	const char *bd = getenv("GATE_BUILD_DIR");
	const char *wine = wine_have("wine") ? "wine" : wine_have("wine64") ? "wine64" : NULL;

#ifdef WINE_SANITIZED
	cr_skip_test("a sanitizer build: the mingw cross build has no sanitizer, and the plain "
		     "suite (ci/test.sh) runs these tests under wine");
#endif
	if (!wine_have(WINE_CROSS_HOST "-gcc"))
		cr_skip_test("no " WINE_CROSS_HOST "-gcc (apt-get install mingw-w64)");
	if (!wine)
		cr_skip_test("no wine (apt-get install wine)");
	snprintf(wine_build_dir, sizeof wine_build_dir, "%s/mingw", bd ? bd : "build");
	snprintf(log, sizeof log, "%s.log", wine_build_dir);
	snprintf(cmd, sizeof cmd, "mkdir -p %s", wine_build_dir);
	cr_assert(wine_system(cmd) == 0, "%s", cmd);
	if (gate) {
		snprintf(cmd, sizeof cmd, "ci/mingw-jansson.sh %s >%s.jansson.log 2>&1",
			 wine_build_dir, wine_build_dir);
		if (wine_system(cmd) != 0) {
			snprintf(cmd, sizeof cmd, "%s.jansson.log", wine_build_dir);
			wine_last_line(cmd, why, sizeof why);
			cr_skip_test("no jansson for mingw: %s", why);
		}
	}
	for (size_t i = 0, n = 0; targets[i]; i++)
		n += (size_t)snprintf(outputs + n, n < sizeof outputs ? sizeof outputs - n : 0,
				      " %s/%s", wine_build_dir, targets[i]);
	/* configure.py every time: it globs the sources, which may have changed */
	snprintf(cmd, sizeof cmd, "python3 configure.py --host " WINE_CROSS_HOST
		 " --builddir %s --ninja-file %s.ninja >%s 2>&1 && ninja -f %s.ninja%s >>%s 2>&1",
		 wine_build_dir, wine_build_dir, log, wine_build_dir, outputs, log);
	cr_assert(wine_system(cmd) == 0, "cross build failed, see %s: %s", log, cmd);
	cr_assert(realpath(wine_build_dir, abs), "realpath %s", wine_build_dir);
	snprintf(wine_cmd, sizeof wine_cmd, "WINEPREFIX=%s/wine WINEDEBUG=-all %s", abs, wine);
}

/* Runs "wine ARGS" (ARGS: the .exe and its arguments, shell words) with
 * its stdout, and its stderr too when WITH_STDERR, into OUT; returns its
 * exit status. Through a file, not a pipe: wineserver may outlive the
 * command holding a pipe open. */
static int wine_run(const char *args, int with_stderr, char *out, size_t size)
{
	char file[sizeof wine_build_dir + 32], cmd[sizeof wine_cmd + sizeof file + 16384];
	/* one file per test process: a gate.exe left running by an interrupted
	 * run must not write into the next test's output */
	snprintf(file, sizeof file, "%s/wine-run.%ld.out", wine_build_dir, (long)getpid());
	snprintf(cmd, sizeof cmd, "%s %s >%s %s", wine_cmd, args, file,
		 with_stderr ? "2>&1" : "2>/dev/null");
	int status = wine_system(cmd);
	wine_read_file(file, out, size);
	remove(file);
	return status;
}

#endif
