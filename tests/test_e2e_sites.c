/* test_e2e_sites.c: allocation sites end to end: the toy kernel's extra
 * allocation (TOY_EXTRA_ALLOC=1, in tests/kernels/toy_work.h, which
 * tests/kernels/toy.c includes) named at its own
 * line by gate ab, gate run against a baseline, the GitHub annotations
 * and gate diff; an A/A run names none. */
#include <jansson.h>

#include "e2e_fixture.h"

static void setup(void)
{
	e2e_prepare("sites");
}

/* where churn() lives: a site is named in the file of its line */
#define TOY_WORK "tests/kernels/toy_work.h"

static int line_of(const char *needle)
{
	return e2e_line_of(TOY_WORK, needle);
}

/* `gate COMMAND --kernel-dir ... --kernel toy --quick ARGS...` */
static int gate(struct spawn_output *out, const char *command, ...)
{
	char *argv[E2E_ARGV_MAX] = { gate_path, (char *)command, "--kernel-dir", kernel_dir,
				     "--kernel", "toy", "--quick", "--no-color", "--best-of", "1",
				     "--no-cost" };
	va_list ap;
	spawn_output_free(out);   /* a test's earlier call, if any */
	va_start(ap, command);
	int code = e2e_spawn(argv, 11, ap, NULL, 300, out);
	va_end(ap);
	return code;
}

TestSuite(e2e_sites, .init = setup, .fini = e2e_cleanup, .timeout = 300);

Test(e2e_sites, ab_names_the_new_allocation_at_its_line)
{
	struct spawn_output out = { 0 };
	char want[200], annotation[200], json[300];
	int line = line_of("void *q = malloc(32);");
	snprintf(json, sizeof json, "%s/ab.json", tmpdir);
	setenv("GITHUB_ACTIONS", "true", 1);
	int code = gate(&out, "ab", "--b-env", "TOY_EXTRA_ALLOC=1", "--json", json, NULL);
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	snprintf(want, sizeof want, TOY_WORK ":%d churn: new malloc 100,000", line);
	cr_expect(strstr(out.out, want), "want '%s' in %s", want, out.out);
	snprintf(annotation, sizeof annotation, "::error file=" TOY_WORK ",line=%d,", line);
	cr_expect(strstr(out.out, annotation), "want '%s' in %s", annotation, out.out);
	json_error_t je;
	json_t *root = json_load_file(json, 0, &je);
	cr_assert(root, "%s", je.text);
	json_t *changes = json_object_get(root, "site_changes");
	cr_expect_eq(json_array_size(changes), 4, "a malloc and a free site, in both variants");
	json_t *c = json_array_get(changes, 0);
	cr_expect(json_is_null(json_object_get(c, "calls_before")));
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_sites, a_a_run_names_no_site)
{
	struct spawn_output out = { 0 };
	char json[300];
	snprintf(json, sizeof json, "%s/aa.json", tmpdir);
	/* --gate counts: the exit status follows the counts, which an A/A run
	 * repeats exactly; its timing is a measurement with its own false
	 * alarm rate (docs/noise.md), not what this test is about (a CI run
	 * of the ASan build saw a confirmed +4% on toy/twice) */
	/* a variable nothing reads: the same code, measured all the same */
	int code = gate(&out, "ab", "--b-env", "ALLOCGATE_AA=1", "--json", json, "--gate", "counts",
			NULL);
	cr_expect_eq(code, 0, "exit %d\n%s", code, out.out);
	cr_expect_null(strstr(out.out, "allocation site"), "%s", out.out);
	json_error_t je;
	json_t *root = json_load_file(json, 0, &je);
	cr_assert(root, "%s", je.text);
	cr_expect_eq(json_array_size(json_object_get(root, "site_changes")), 0);
	cr_expect_eq(json_array_size(json_object_get(root, "sites")), 4,
		     "each variant's malloc and free site");
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_sites, baseline_keeps_sites_and_run_and_diff_name_the_change)
{
	struct spawn_output out = { 0 };
	char base[300], now[300], baseline[400], want[200];
	int line = line_of("void *q = malloc(32);");
	snprintf(base, sizeof base, "%s/base.json", tmpdir);
	snprintf(now, sizeof now, "%s/now.json", tmpdir);
	/* exit 0 or 1: the toy's timing against a 1-batch baseline may wobble */
	int code = gate(&out, "run", "--baseline-dir", tmpdir, "--update-baseline", "--json", base,
			NULL);
	cr_assert(code == 0 || code == 1, "exit %d\n%s\n%s", code, out.out, out.err);
	snprintf(baseline, sizeof baseline, "%s/linux-x86_64-glibc.json", tmpdir);
	json_error_t je;
	json_t *root = json_load_file(baseline, 0, &je);
	cr_assert(root, "%s: %s", baseline, je.text);
	cr_expect_eq(json_array_size(json_object_get(root, "sites")), 4, "the baseline's sites");
	json_decref(root);
	code = gate(&out, "run", "--baseline-dir", tmpdir, "--env", "TOY_EXTRA_ALLOC=1", "--json",
		    now, "--details", NULL);
	cr_expect_eq(code, 1, "exit %d\n%s", code, out.out);
	snprintf(want, sizeof want, TOY_WORK ":%d churn: new malloc", line);
	cr_expect(strstr(out.out, want), "want '%s' in %s", want, out.out);
	cr_expect(strstr(out.out, "allocation sites of single"), "--details lists the sites: %s",
		  out.out);
	char *argv[] = { gate_path, "diff", base, now, NULL };
	spawn_output_free(&out);
	cr_assert_eq(spawn_run(argv, NULL, 60, &out), 0);
	cr_expect_eq(out.exit_code, 0, "%s", out.err);
	cr_expect(strstr(out.out, "allocation sites: 4 changed"), "%s", out.out);
	/* gate diff lists every site that changed, one line each */
	snprintf(want, sizeof want, TOY_WORK ":%d: new allocation site in churn", line);
	cr_expect(strstr(out.out, want), "want '%s' in %s", want, out.out);
	spawn_output_free(&out);
}
