/* test_e2e_hardware.c: the CPU's identity through the whole gate, on the
 * toy kernel: `gate run --json` records it in the context; a baseline
 * whose family and model were edited (another CPU of the same name, as the
 * project's two "AMD EPYC" VMs) makes the header say the hardware
 * differs, naming both, in the terminal, the markdown and the JSON; a
 * baseline without the fields (an older version) is said once, and
 * compared by name and cores. Nothing here depends on timing: --no-cost,
 * and the verdicts are counts. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_fixture.h"
#include "core/cpu_identity.h"
#include "core/platform.h"
#include "sample/spawn.h"

static char baseline[600], json[600], markdown[600];
static struct context here;

static void setup(void)
{
	e2e_prepare("hardware");
	snprintf(baseline, sizeof baseline, "%s/linux-x86_64-glibc.json", tmpdir);
	snprintf(json, sizeof json, "%s/result.json", tmpdir);
	snprintf(markdown, sizeof markdown, "%s/report.md", tmpdir);
	memset(&here, 0, sizeof here);
	cr_assert_eq(platform_context(&here), 0);
}

static void teardown(void)
{
	result_context_free(&here);
	e2e_cleanup();
}

/* build/gate run on the toy's quick set, without the cost pass, with ARGS
 * (NULL-terminated). */
static int gate(struct spawn_output *out, ...)
{
	char *argv[E2E_ARGV_MAX] = { gate_path, "run", "--kernel-dir", kernel_dir,
				     "--baseline-dir", tmpdir, "--no-color", "--best-of", "1",
				     "--kernel", "toy", "--quick", "--no-cost" };
	va_list ap;
	va_start(ap, out);
	int code = e2e_spawn(argv, 13, ap, NULL, 300, out);
	va_end(ap);
	return code;
}

static void make_baseline(void)
{
	struct spawn_output out;
	int code = gate(&out, "--update-baseline", "--runs", "1", NULL);
	/* 1: only the toy's timing expectation, a coin flip under ASan */
	cr_assert(code == 0 || (code == 1 && strstr(out.out, " series written (")),
		  "update-baseline exit %d\n%s\n%s", code, out.out, out.err);
	spawn_output_free(&out);
}

/* Runs the shell command made of FORMAT. */
static void shell(const char *format, ...)
{
	char cmd[2000];
	va_list ap;
	va_start(ap, format);
	vsnprintf(cmd, sizeof cmd, format, ap);
	va_end(ap);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* The number of times NEEDLE occurs in TEXT. */
static int occurrences(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void skip_without_identity(void)
{
	if (!here.cpu_family || !here.cpu_model_number)
		e2e_skip("/proc/cpuinfo and CPUID name no family and model here (%s)",
			 here.arch ? here.arch : "?");
}

TestSuite(e2e_hardware, .init = setup, .fini = teardown, .timeout = 300);

Test(e2e_hardware, json_context_carries_the_identity)
{
	struct spawn_output out;
	json_error_t err;
	int code = gate(&out, "--json", json, NULL);
	cr_expect(code == 0 || code == 1, "exit %d\n%s", code, out.out);
	spawn_output_free(&out);
	json_t *root = json_load_file(json, 0, &err);
	cr_assert_not_null(root, "%s: %s", json, err.text);
	json_t *ctx = json_object_get(root, "context");
	const char *keys[] = { "cpu_vendor", "cpu_family", "cpu_model_number", "cpu_stepping",
			       "cpu_microcode", "cpu_caches", "cpu_cores", "cpu_threads",
			       "cpu_governor", "cpu_boost", "cpu_hypervisor" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		cr_expect_not_null(json_object_get(ctx, keys[i]), "no context.%s", keys[i]);
	json_t *threads = json_object_get(ctx, "cpu_threads");
	cr_expect(json_is_integer(threads) && json_integer_value(threads) == here.cpu_threads,
		  "cpu_threads");
	if (here.cpu_family) {
		json_t *family = json_object_get(ctx, "cpu_family");
		cr_expect(json_is_string(family) &&
			  !strcmp(json_string_value(family), here.cpu_family), "cpu_family");
	}
	json_decref(root);
}

Test(e2e_hardware, another_family_and_model_is_said_naming_both)
{
	struct spawn_output out;
	char want[600];
	skip_without_identity();
	/* a CPU of the same name, another family and model than this one */
	const char *family = strcmp(here.cpu_family, "0x19") ? "0x19" : "0x17";
	const char *model = strcmp(here.cpu_model_number, "0x11") ? "0x11" : "0x31";
	make_baseline();
	shell("sed -i -e 's/\"cpu_family\": \"[^\"]*\"/\"cpu_family\": \"%s\"/' -e "
	      "'s/\"cpu_model_number\": \"[^\"]*\"/\"cpu_model_number\": \"%s\"/' '%s'",
	      family, model, baseline);
	int code = gate(&out, "--json", json, "--markdown", markdown, NULL);
	snprintf(want, sizeof want, "hardware differs from the baseline's: %s family %s model %s -> "
		 "family %s model %s: counts compare; timing against it is information",
		 here.cpu_model, family, model, here.cpu_family, here.cpu_model_number);
	/* 1: only the toy's timing expectation, a coin flip under ASan */
	cr_expect(code == 0 || code == 1, "exit %d\n%s", code, out.out);
	cr_expect_eq(occurrences(out.out, want), 1, "want once: %s\n%s", want, out.out);
	cr_expect(strstr(out.out, "`./gate --update-baseline` records this machine's"), "%s",
		  out.out);
	cr_expect(strstr(out.out, "hardware changed since the baseline: timing not compared"),
		  "the timing series say so\n%s", out.out);
	spawn_output_free(&out);
	char *text = NULL;
	size_t len = 0;
	FILE *f = fopen(markdown, "r");
	cr_assert_not_null(f, "%s", markdown);
	cr_assert(getdelim(&text, &len, '\0', f) > 0);
	fclose(f);
	cr_expect(strstr(text, "hardware differs from the baseline's"), "markdown:\n%s", text);
	free(text);
	json_error_t err;
	json_t *root = json_load_file(json, 0, &err);
	cr_assert_not_null(root, "%s", err.text);
	const char *note = json_string_value(json_object_get(root, "baseline_note"));
	cr_expect(note && strstr(note, want), "baseline_note: %s", note ? note : "null");
	json_decref(root);
}

Test(e2e_hardware, a_baseline_without_identity_is_said_once)
{
	struct spawn_output out;
	skip_without_identity();
	make_baseline();
	/* what an older version wrote: no identity fields at all */
	shell("sed -i -e '/\"cpu_vendor\"/d' -e '/\"cpu_family\"/d' -e '/\"cpu_model_number\"/d' "
	      "-e '/\"cpu_stepping\"/d' '%s'", baseline);
	int code = gate(&out, NULL);
	cr_expect(code == 0 || code == 1, "exit %d\n%s", code, out.out);
	cr_expect_eq(occurrences(out.out, "the baseline records no CPU identity"), 1, "%s",
		     out.out);
	cr_expect(!strstr(out.out, "hardware differs"), "not a difference\n%s", out.out);
	cr_expect(!strstr(out.out, "timing not compared"), "timing compared\n%s", out.out);
	spawn_output_free(&out);
}
