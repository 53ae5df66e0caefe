/* test_e2e_leaks.c: leaks end to end, on tests/kernels/leaks.c, whose one
 * variant frees every node it allocates in its region unless LEAKS_KEEP=K
 * keeps K of them live past the region's end. Its claim
 * `list.heap_live_bytes == 0` holds without the leak and fails at its own
 * line with it; against a baseline the live counts are exact counts: a
 * rise from 0 fails the run, a fall is reported as improved. Only counts
 * and claims decide here (timing against a baseline gates only under
 * --gate), so the verdicts do not depend on the machine's load. */
#include <jansson.h>

#include "e2e_fixture.h"

static void setup(void)
{
	e2e_prepare("leaks");
}

/* `gate run` of the leaks kernel with the baselines in the test's
 * directory, ARGS (NULL-terminated) after; returns its exit status. */
static int gate(struct spawn_output *out, ...)
{
	char *argv[E2E_ARGV_MAX] = { gate_path, "run", "--kernel-dir", kernel_dir,
				     "--baseline-dir", tmpdir, "--kernel", "leaks", "--quick",
				     "--no-cost", "--no-color", "--best-of", "1" };
	va_list ap;
	spawn_output_free(out);   /* a test's earlier call, if any */
	va_start(ap, out);
	int code = e2e_spawn(argv, 13, ap, NULL, 300, out);
	va_end(ap);
	return code;
}

static int claim_line(void)
{
	return e2e_line_of("tests/kernels/leaks.c", "\"list.heap_live_bytes == 0\"");
}

static json_t *load(const char *path)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	cr_assert(root, "%s: %s", path, je.text);
	return root;
}

/* Series METRIC of leaks/list/small in ROOT, or NULL. */
static json_t *series(json_t *root, const char *metric)
{
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(root, "series"), i, s)
		if (!strcmp(json_string_value(json_object_get(s, "metric")), metric) &&
		    !strcmp(json_string_value(json_object_get(s, "variant")), "list"))
			return s;
	return NULL;
}

/* Checks that series METRIC of ROOT is an exact count with median MEDIAN
 * and verdict VERDICT. */
static void expect_series(json_t *root, const char *metric, double median, const char *verdict)
{
	json_t *s = series(root, metric);
	cr_assert(s, "no series %s", metric);
	cr_expect_str_eq(json_string_value(json_object_get(s, "class")), "exact", "%s", metric);
	cr_expect_eq(json_number_value(json_object_get(s, "median")), median, "%s median %g",
		     metric, json_number_value(json_object_get(s, "median")));
	cr_expect_str_eq(json_string_value(json_object_get(s, "verdict")), verdict, "%s", metric);
}

/* The verdict of the claim at leaks.c:LINE in ROOT ("" when absent). */
static const char *claim_verdict(json_t *root, int line)
{
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(root, "expectations"), i, e)
		if (json_integer_value(json_object_get(e, "line")) == line)
			return json_string_value(json_object_get(e, "verdict"));
	return "";
}

/* Writes the baseline, with LEAKS_KEEP=KEEP in the kernel's environment
 * when KEEP is not NULL. */
static void make_baseline(const char *keep)
{
	struct spawn_output out = { 0 };
	int code = keep ? gate(&out, "--update-baseline", "--runs", "1", "--env", keep, NULL)
			: gate(&out, "--update-baseline", "--runs", "1", NULL);
	/* 1: the leak's own claim fails; the baseline is written all the same */
	cr_assert(code == (keep ? 1 : 0), "update-baseline exit %d\n%s\n%s", code, out.out,
		  out.err);
	cr_assert(strstr(out.out, "wrote "), "%s", out.out);
	spawn_output_free(&out);
}

TestSuite(e2e_leaks, .init = setup, .fini = e2e_cleanup, .timeout = 300);

Test(e2e_leaks, without_the_leak_the_claim_holds_on_0)
{
	struct spawn_output out = { 0 };
	char json[400];
	snprintf(json, sizeof json, "%s/r.json", tmpdir);
	int code = gate(&out, "--json", json, NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	json_t *root = load(json);
	expect_series(root, "heap_live_bytes", 0, "new");
	expect_series(root, "heap_live_blocks", 0, "new");
	cr_expect_str_eq(claim_verdict(root, claim_line()), "pass");
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_leaks, a_leak_fails_the_claim_at_its_line)
{
	struct spawn_output out = { 0 };
	char json[400], want[200];
	snprintf(json, sizeof json, "%s/r.json", tmpdir);
	int code = gate(&out, "--env", "LEAKS_KEEP=3", "--json", json, NULL);
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	snprintf(want, sizeof want, "tests/kernels/leaks.c:%d: expectation violated on small: "
		 "list.heap_live_bytes == 0", claim_line());
	cr_expect(strstr(out.out, want), "want '%s' in:\n%s", want, out.out);
	json_t *root = load(json);
	/* three 48-byte nodes: at least 3 x 48 usable bytes */
	json_t *bytes = series(root, "heap_live_bytes");
	cr_assert(bytes);
	cr_expect_geq(json_number_value(json_object_get(bytes, "median")), 3 * 48);
	expect_series(root, "heap_live_blocks", 3, "new");
	cr_expect_str_eq(claim_verdict(root, claim_line()), "fail");
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_leaks, a_rise_against_the_baseline_fails_as_an_exact_count)
{
	struct spawn_output out = { 0 };
	char json[400];
	snprintf(json, sizeof json, "%s/r.json", tmpdir);
	make_baseline(NULL);
	int code = gate(&out, "--env", "LEAKS_KEEP=3", "--json", json, NULL);
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "exact count changed: 0 -> 3"), "%s", out.out);
	cr_expect(strstr(out.out, "regression leaks/list/small: heap_live_blocks"), "%s", out.out);
	json_t *root = load(json);
	expect_series(root, "heap_live_blocks", 3, "fail");
	json_t *bytes = series(root, "heap_live_bytes");
	cr_assert(bytes);
	cr_expect_str_eq(json_string_value(json_object_get(bytes, "verdict")), "fail");
	/* the interposer's count, where it ran (Linux, not a sanitizer build) */
	if (series(root, "proc_live_blocks"))
		expect_series(root, "proc_live_blocks", 3, "fail");
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_leaks, a_fall_against_the_baseline_is_improved)
{
	struct spawn_output out = { 0 };
	char json[400];
	snprintf(json, sizeof json, "%s/r.json", tmpdir);
	make_baseline("LEAKS_KEEP=3");
	int code = gate(&out, "--json", json, NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	json_t *root = load(json);
	expect_series(root, "heap_live_blocks", 0, "improved");
	expect_series(root, "heap_live_bytes", 0, "improved");
	if (series(root, "proc_live_blocks"))
		expect_series(root, "proc_live_blocks", 0, "improved");
	cr_expect_str_eq(claim_verdict(root, claim_line()), "pass");
	json_decref(root);
	spawn_output_free(&out);
}
