/* test_windows_cross.c: the Windows counter backend end to end, where this
 * machine can: builds the test kernel with mingw-w64 through configure.py
 * --host x86_64-w64-mingw32 (kernels and probe only; the gate itself under
 * wine is test_windows_gate.c), runs it under wine, parses its record (gates/sample/record.c) and checks
 * that every Windows counter is either a plausible metric or unavailable
 * with a reason. Wine emulates cycles and page faults: they must come out
 * unavailable, never as numbers to gate on. Skipped with the reason when
 * mingw-w64 or wine is missing (wine_fixture.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "sample/record.h"
#include "wine_fixture.h"

static const char *const kernels[] = {
	"tests/kernels/toy.exe", "kernels/thread_cache.exe", NULL
};

/* Runs KERNEL (under the cross build dir) with ARGS under wine into OUT. */
static void run_wine(const char *kernel, const char *args, char *out, size_t size)
{
	char cmd[PATH_MAX * 2];
	snprintf(cmd, sizeof cmd, "%s/%s.exe %s", wine_build_dir, kernel, args);
	cr_assert(wine_run(cmd, 0, out, size) == 0, "%s failed:\n%s", cmd, out);
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
	wine_cross_build(kernels, 0);
	check_sample("tests/kernels/toy");
}

/* winpthreads threads, counted by the process-wide counters */
Test(windows_cross, threaded_kernel_under_wine, .timeout = 120)
{
	wine_cross_build(kernels, 0);
	check_sample("kernels/thread_cache");
}
