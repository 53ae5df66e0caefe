/* test_windows_cross.c: the Windows counter backend end to end, where this
 * machine can: builds the test kernel with mingw-w64 through configure.py
 * --host x86_64-w64-mingw32 (kernels and probe only: no jansson for mingw
 * here), runs it under wine, parses its record (gates/record.c) and checks
 * that every Windows counter is either a plausible metric or unavailable
 * with a reason. Wine emulates cycles and page faults: they must come out
 * unavailable, never as numbers to gate on. Skipped with the reason when
 * mingw-w64 or wine is missing. One wine prefix, under the build dir, is
 * reused: creating it takes most of the time. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

#define CROSS_HOST "x86_64-w64-mingw32"

static char build_dir[512];
static char wine_cmd[PATH_MAX + 64];

static bool have(const char *tool)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

/* Output of shell command CMD (stdout) into OUT; returns its status. */
static int capture(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	cr_assert(p, "popen %s", cmd);
	while (n + 1 < size && !feof(p))
		n += fread(out + n, 1, size - 1 - n, p);
	out[n] = '\0';
	return pclose(p);
}

/* Skips unless mingw-w64 and wine exist; builds the cross build's kernels. */
static void cross_build(void)
{
	char cmd[8192], abs[PATH_MAX];
	const char *bd = getenv("GATE_BUILD_DIR");
	const char *wine = have("wine") ? "wine" : have("wine64") ? "wine64" : NULL;

	if (!have(CROSS_HOST "-gcc"))
		cr_skip_test("no " CROSS_HOST "-gcc (apt-get install mingw-w64)");
	if (!wine)
		cr_skip_test("no wine (apt-get install wine)");
	snprintf(build_dir, sizeof build_dir, "%s/mingw", bd ? bd : "build");
	snprintf(cmd, sizeof cmd, "mkdir -p %s && python3 configure.py --host " CROSS_HOST
		 " --builddir %s --ninja-file %s.ninja >%s.log 2>&1 && ninja -f %s.ninja "
		 "%s/tests/kernels/toy.exe %s/kernels/thread_cache.exe >>%s.log 2>&1",
		 build_dir, build_dir, build_dir, build_dir, build_dir, build_dir, build_dir,
		 build_dir);
	cr_assert(system(cmd) == 0, "cross build failed, see %s.log: %s", build_dir, cmd);
	cr_assert(realpath(build_dir, abs), "realpath %s", build_dir);
	snprintf(wine_cmd, sizeof wine_cmd, "WINEPREFIX=%s/wine WINEDEBUG=-all %s",
		 abs, wine);
}

/* Runs KERNEL (under the cross build dir) with ARGS under wine into OUT. */
static void run_wine(const char *kernel, const char *args, char *out, size_t size)
{
	char cmd[PATH_MAX * 3];
	snprintf(cmd, sizeof cmd, "%s %s/%s.exe %s 2>/dev/null", wine_cmd, build_dir,
		 kernel, args);
	cr_assert(capture(cmd, out, size) == 0, "%s failed:\n%s", cmd, out);
}

/* First word after "KEYWORD " on a line of LIST, into OUT. */
static void first_field(const char *list, const char *keyword, char *out, size_t size)
{
	const char *p = strstr(list, keyword);
	cr_assert(p, "no '%s' line in:\n%s", keyword, list);
	p += strlen(keyword);
	snprintf(out, size, "%.*s", (int)strcspn(p, " \n"), p);
}

/* Name of the first parameter set of LIST in the quick tier, into OUT. */
static void quick_params(const char *list, char *out, size_t size)
{
	char tiers[64];
	for (const char *p = strstr(list, "\nparams "); p; p = strstr(p + 1, "\nparams ")) {
		if (size >= 64 && sscanf(p, "\nparams %63s %63s", out, tiers) == 2 &&
		    strstr(tiers, "quick"))
			return;
	}
	cr_assert_fail("no quick parameter set in:\n%s", list);
}

static const struct record_metric *metric_of(const struct record *r, const char *name)
{
	for (size_t i = 0; i < r->metric_count; i++) {
		if (strcmp(r->metrics[i].name, name) == 0)
			return &r->metrics[i];
	}
	return NULL;
}

static const char *unavailable_of(const struct record *r, const char *name)
{
	for (size_t i = 0; i < r->unavailable_count; i++) {
		if (strcmp(r->unavailable[i].name, name) == 0)
			return r->unavailable[i].reason;
	}
	return NULL;
}

/* Runs one sample of the first variant and parameter set of KERNEL and
 * checks how its counters are classified. */
static void check_sample(const char *kernel)
{
	static char list[16384], text[16384];
	char variant[64], params[64], args[200], err[256];
	struct record rec;

	run_wine(kernel, "--list", list, sizeof list);
	cr_assert(strncmp(list, "allocgate-list 1\n", 17) == 0, "%s", list);
	first_field(list, "\nvariant ", variant, sizeof variant);
	quick_params(list, params, sizeof params);
	snprintf(args, sizeof args, "--variant %s --params %s --threads 2", variant, params);
	run_wine(kernel, args, text, sizeof text);
	cr_assert(record_parse(text, &rec, err, sizeof err) == 0, "%s:\n%s", err, text);

	const struct record_metric *wall = metric_of(&rec, "wall_ns");
	cr_expect(wall && wall->value > 0, "wall_ns must be measured:\n%s", text);
	cr_expect(metric_of(&rec, "cpu_ns") || unavailable_of(&rec, "cpu_ns"),
		  "cpu_ns neither measured nor explained:\n%s", text);
	/* wine: emulated counters are rejected, with wine named in the reason */
	const char *emulated[] = { "cycles", "page_faults" };
	for (size_t i = 0; i < 2; i++) {
		const char *why = unavailable_of(&rec, emulated[i]);
		cr_expect_null(metric_of(&rec, emulated[i]),
			       "%s reported under wine:\n%s", emulated[i], text);
		cr_expect(why && strstr(why, "wine"), "%s not rejected as wine's:\n%s",
			  emulated[i], text);
	}
	record_free(&rec);
}

Test(windows_cross, toy_kernel_under_wine, .timeout = 120)
{
	cross_build();
	check_sample("tests/kernels/toy");
}

/* winpthreads threads, counted by the process-wide counters */
Test(windows_cross, threaded_kernel_under_wine, .timeout = 120)
{
	cross_build();
	check_sample("kernels/thread_cache");
}
