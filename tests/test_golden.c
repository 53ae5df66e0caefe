/* test_golden.c: every renderer's output of fixed results, byte for byte.
 *
 * The inputs are result files of real runs on the 2-core VM (tests/golden/
 * README.md says which commands wrote them) and the hand-built result of
 * tests/report_fixture.h; the expected outputs sit next to them. A change
 * of the code that moves one byte of the terminal, JSON, JUnit, markdown,
 * GitHub annotation, SVG, HTML or diff output fails here. When a change of the
 * output is intended, regenerate with
 *   ALLOCGATE_GOLDEN_UPDATE=1 build/tests/unit --filter 'golden/ *' (no space)
 * and review the diff of tests/golden/ in the commit. */
#include "report_fixture.h"
#include "flame_fixture.h"

#include <errno.h>

#include "decide/diff.h"
#include "report/flame_svg.h"
#include "report/report_github.h"
#include "report/report_html.h"
#include "report/report_json.h"
#include "report/report_junit.h"
#include "report/report_markdown.h"
#include "report/report_svg.h"
#include "report/report_term.h"
#include "store/results_load.h"

#define GOLDEN_DIR "tests/golden/"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			buf = realloc(buf, cap);
			cr_assert_not_null(buf);
		}
		size_t got = fread(buf + n, 1, 4096, f);
		n += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Compares TEXT with the golden file NAME (or writes it under
 * ALLOCGATE_GOLDEN_UPDATE=1), naming the first line that differs. */
static void expect_golden(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, GOLDEN_DIR "%s", name);
	const char *update = getenv("ALLOCGATE_GOLDEN_UPDATE");
	if (update && !strcmp(update, "1")) {
		FILE *f = fopen(path, "wb");
		cr_assert_not_null(f, "%s: %s", path, strerror(errno));
		fputs(text, f);
		cr_assert_eq(fclose(f), 0);
		return;
	}
	size_t len;
	char *want = slurp(path, &len);
	cr_assert_not_null(want, "%s: %s (regenerate: ALLOCGATE_GOLDEN_UPDATE=1)", path,
			   strerror(errno));
	if (strcmp(want, text)) {
		const char *a = want, *b = text;
		int line = 1;
		const char *line_a = want, *line_b = text;
		while (*a && *a == *b) {
			if (*a == '\n') {
				line++;
				line_a = a + 1;
				line_b = b + 1;
			}
			a++, b++;
		}
		a = line_a;
		b = line_b;
		const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
		cr_expect_fail("%s differs at line %d:\n  want: %.*s\n  got:  %.*s", path, line,
			       (int)(ea ? ea - a : (long)strlen(a)), a,
			       (int)(eb ? eb - b : (long)strlen(b)), b);
	}
	free(want);
}

static void load(const char *name, struct run_result *r)
{
	char path[512], err[1024];
	snprintf(path, sizeof path, GOLDEN_DIR "%s", name);
	cr_assert_eq(results_load(path, r, err, sizeof err), 0, "%s", err);
}

static void term(FILE *f, const struct run_result *r, const void *details)
{
	struct report_term_options o = { true, *(const bool *)details };
	report_term_print(f, r, &o, NULL);
}

static void github(FILE *f, const struct run_result *r, const void *arg)
{
	(void)arg;
	report_github_print(f, r);
}

/* NAME's renderings against the golden files NAME.term, .details,
 * .junit.xml, .md, .github and NAME.KERNEL.svg for its first kernel. */
static void check_renderings(const char *name, const struct run_result *r)
{
	static const bool compact = false, details = true;
	cr_assert_gt(r->series_count, 0);
	const char *kernel = r->series[0].kernel;
	char svg[128];
	snprintf(svg, sizeof svg, "%s.svg", kernel);
	const struct {
		const char *suffix;
		void (*render)(FILE *, const struct run_result *, const void *);
		const void *arg;
	} outputs[] = {
		{ "term", term, &compact },
		{ "details", term, &details },
		{ "junit.xml", report_junit_print, NULL },
		{ "md", report_markdown_print, NULL },
		{ "github", github, NULL },
		{ svg, report_svg_print, kernel },
	};
	for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
		char file[256];
		snprintf(file, sizeof file, "%s.%s", name, outputs[i].suffix);
		char *out = fixture_render(outputs[i].render, r, outputs[i].arg);
		expect_golden(file, out);
		free(out);
	}
}

/* R written by report_json_write and compared with the golden file
 * GOLDEN: a loaded result file writes back byte for byte. */
static void check_json(const char *golden, const struct run_result *r)
{
	char path[] = "/tmp/allocgate-golden-XXXXXX", err[1024];
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	cr_assert_eq(report_json_write(path, r, err, sizeof err), 0, "%s", err);
	size_t len;
	char *out = slurp(path, &len);
	remove(path);
	cr_assert_not_null(out);
	expect_golden(golden, out);
	free(out);
}

static void check_file(const char *name)
{
	struct run_result r;
	char file[256];
	snprintf(file, sizeof file, "%s.json", name);
	load(file, &r);
	check_renderings(name, &r);
	if (!getenv("ALLOCGATE_GOLDEN_UPDATE"))  /* the input is its own golden file */
		check_json(file, &r);
	result_free(&r);
}

Test(golden, run_against_the_baseline)
{
	check_file("run");
}

Test(golden, perturbed_run_with_regressions)
{
	check_file("perturbed");
}

Test(golden, ab_comparison)
{
	check_file("ab");
}

Test(golden, hand_built_result)
{
	struct run_result r;
	fixture_build(&r);
	r.series[0].p_value = 0.001;
	check_renderings("fixture", &r);
	check_json("fixture.json.out", &r);
	free(r.comparison);
	r.comparison = strdup("B (GLIBC_TUNABLES=x) against A");
	r.policy.min_effect = 0.03;   /* gate ab --correction bh: the method line says so */
	r.policy.fdr = true;
	check_renderings("fixture-ab", &r);
	result_free(&r);
}

/* The --html page of the hand-built result (not of every result above: a
 * page holds every series, and the other renderings check the words). */
Test(golden, hand_built_result_as_html)
{
	struct run_result r;
	fixture_build(&r);
	char *out = fixture_render(report_html_print, &r, NULL);
	expect_golden("fixture.html", out);
	free(out);
	result_free(&r);
}

/* Adds to R expectation LINE of toy/small: EXPR decided VERDICT from its
 * verdict on A (A_VERDICT, A's figures around A_ESTIMATE) and on B
 * (B_VERDICT, B's figures around B_ESTIMATE), as compare_ab.c decides. */
static void add_claim(struct run_result *r, int line, const char *expr, enum verdict verdict,
		      enum verdict a_verdict, double a_estimate, enum verdict b_verdict,
		      double b_estimate)
{
	struct expect_result *e = result_add_expect(r);
	cr_assert_not_null(e);
	e->kernel = strdup("toy");
	e->params = strdup("small");
	e->file = strdup("tests/kernels/toy.c");
	e->line = line;
	e->expr = strdup(expr);
	e->rounds = 31;
	e->ratio = true;
	e->estimate = b_estimate;
	e->ci_low = b_estimate * 0.9;
	e->ci_high = b_estimate * 1.1;
	e->confidence = 0.97;
	e->b_verdict = b_verdict;
	e->verdict = verdict;
	e->a = (struct expect_side){ true, a_verdict, 31, a_estimate, a_estimate * 0.9,
				     a_estimate * 1.1 };
}

/* gate ab's decisions on declared claims (compare_ab.h): one that fails
 * before and after (not failing the change), one the change broke, one
 * that holds now; every renderer names them with both sides' figures, and
 * the JSON carries side A and loads back into the same renderings. */
Test(golden, hand_built_ab_claims)
{
	struct run_result r, back;
	char path[] = "/tmp/allocgate-golden-XXXXXX", err[1024];
	fixture_build(&r);
	r.comparison = strdup("A/B: B (kernels b) against A (kernels a)");
	r.policy.min_effect = 0.03;
	add_claim(&r, 257, "single.wall_ns < 0.5 * twice.wall_ns", VERDICT_FAIL_BOTH, VERDICT_FAIL,
		  1.31, VERDICT_FAIL, 1.29);
	add_claim(&r, 258, "single.wall_ns < 0.9 * twice.wall_ns", VERDICT_FAIL, VERDICT_PASS, 0.6,
		  VERDICT_FAIL, 1.4);
	add_claim(&r, 259, "single.wall_ns < 2 * twice.wall_ns", VERDICT_IMPROVED, VERDICT_FAIL,
		  1.2, VERDICT_PASS, 0.7);
	check_renderings("fixture-ab-claims", &r);
	check_json("fixture-ab-claims.json.out", &r);
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	cr_assert_eq(report_json_write(path, &r, err, sizeof err), 0, "%s", err);
	cr_assert_eq(results_load(path, &back, err, sizeof err), 0, "%s", err);
	remove(path);
	check_renderings("fixture-ab-claims", &back);
	result_free(&back);
	result_free(&r);
}

struct diff_args {
	const struct diff *d;
	const struct run_result *a, *b;
};

static void diff_text(FILE *f, const struct run_result *unused, const void *arg)
{
	const struct diff_args *x = arg;
	(void)unused;
	diff_print_text(f, x->d, "resize.json", &x->a->ctx, "perturbed.json", &x->b->ctx);
}

Test(golden, diff_of_two_results)
{
	struct run_result a, b;
	struct diff d;
	load("resize.json", &a);
	load("perturbed.json", &b);
	cr_assert_eq(diff_compute(&a, &b, &d), 0);
	struct diff_args args = { &d, &a, &b };
	char *out = fixture_render(diff_text, &a, &args);
	expect_golden("resize-perturbed.diff", out);
	free(out);
	diff_drop_unchanged(&d);
	out = fixture_render(diff_text, &a, &args);
	expect_golden("resize-perturbed.changed.diff", out);
	free(out);
	diff_free(&d);
	result_free(&a);
	result_free(&b);
}

static void flame(FILE *f, const struct run_result *r, const void *ask)
{
	cr_assert_eq(flame_svg_print(f, &r->stacks, &r->stacks_before, ask), 0);
}

/* The flame graphs of the hand-built stacks of tests/flame_fixture.h: B's
 * calls, and B's calls against A's. */
Test(golden, flame_graphs_of_hand_built_stacks)
{
	struct run_result r;
	memset(&r, 0, sizeof r);
	flame_fixture_build(&r.stacks, &r.stacks_before);
	struct flame_ask ask = { "toy", "single", "small", FLAME_CALLS, false, false, "", false };
	char *out = fixture_render(flame, &r, &ask);
	expect_golden("flame.toy.single.small.calls.svg", out);
	free(out);
	ask.differential = true;
	out = fixture_render(flame, &r, &ask);
	expect_golden("flame.toy.single.small.calls.diff.svg", out);
	free(out);
	result_free(&r);
}
