/* report_junit.c: the --junit report (report_junit.h).
 *
 * Only the elements and attributes that both Jenkins' junit-10.xsd and
 * Maven Surefire's XSD allow (docs/robustness.md, "JUnit"): testsuites
 * (name, tests, failures, errors, time), testsuite (name, tests,
 * failures, errors, skipped, time), testcase (classname, name, time),
 * failure / error / skipped (message, type), system-out. The file and
 * line of a case lead its message and text ("kernels/toy.c:64: ..."),
 * where stack-trace parsers find them; the gate's own GitHub annotations
 * (report_github.c) carry them as fields. allocgate does not time a
 * series, so a case's time is 0 and the run's wall time is on testsuites. */
#include <stdio.h>
#include <string.h>

#include "report/report_junit.h"
#include "report/escape.h"
#include "report/format.h"
#include "report/report_file.h"
#include "core/group_key.h"

/* Text and attribute values under the XML rule (escape.h). */
#define xml escape_xml

/* Every series is a test case: one that was not compared, or has no
 * baseline, is a skipped case that says why. */
struct tally {
	size_t tests, failures, errors, skipped;
};

/* How a verdict appears: as a failure, an error, a skipped case (not
 * compared, new, inconclusive, a claim that fails before and after:
 * visible, not failing) or a passing one. */
static const char *outcome_tag(enum verdict v)
{
	switch (v) {
	case VERDICT_FAIL:
		return "failure";
	case VERDICT_ERROR:
		return "error";
	case VERDICT_SKIPPED:
	case VERDICT_NEW:
	case VERDICT_INCONCLUSIVE:
	case VERDICT_FAIL_BOTH:   /* gate ab: fails before and after, not the change's */
		return "skipped";
	default:
		return NULL;
	}
}

static void count(struct tally *t, enum verdict v)
{
	const char *tag = outcome_tag(v);
	t->tests++;
	t->failures += v == VERDICT_FAIL;
	t->errors += v == VERDICT_ERROR;
	t->skipped += tag && !strcmp(tag, "skipped");
}

/* A regression of a class the run does not gate (--gate) is a skipped
 * case: visible, never failing the suite. */
static enum verdict series_outcome(const struct series *s)
{
	return s->verdict == VERDICT_FAIL && !s->gated ? VERDICT_SKIPPED : s->verdict;
}

/* A not-gated expectation (declared for another allocator) is a passed
 * test whose output says what it measured: it never fails the suite. */
static enum verdict expect_outcome(const struct expect_result *e)
{
	return e->gated ? e->verdict : VERDICT_PASS;
}

/* Whether NAME (a series', an expectation's or a problem's kernel; NULL:
 * the run's) is KERNEL (NULL: any kernel). */
static bool of_kernel(const char *name, const char *kernel)
{
	return group_key_in(GROUP_KEY_OF(name, NULL, NULL), GROUP_KEY_OF(kernel, NULL, NULL));
}

static struct tally tally_kernel(const struct run_result *r, const char *kernel)
{
	struct tally t = { 0, 0, 0, 0 };
	for (size_t i = 0; i < r->series_count; i++)
		if (of_kernel(r->series[i].kernel, kernel))
			count(&t, series_outcome(&r->series[i]));
	for (size_t i = 0; i < r->expect_count; i++)
		if (of_kernel(r->expects[i].kernel, kernel))
			count(&t, expect_outcome(&r->expects[i]));
	for (size_t i = 0; i < r->problem_count; i++)
		if (r->problems[i].kernel && of_kernel(r->problems[i].kernel, kernel))
			count(&t, VERDICT_ERROR);
	return t;
}

/* The body of a test case: its text, or a failure, error or skipped
 * element whose message and text start with FILE:LINE when known. */
static void outcome(FILE *f, enum verdict v, const char *text, const char *file, int line)
{
	const char *tag = outcome_tag(v);
	char where[600] = "";
	if (file && *file)
		snprintf(where, sizeof where, "%s:%d: ", file, line);
	if (!tag) {
		fputs("<system-out>", f);
		xml(f, where);
		xml(f, text);
		fputs("</system-out>", f);
		return;
	}
	fprintf(f, "<%s message=\"", tag);
	xml(f, where);
	xml(f, text);
	/* junit-10.xsd's skipped has a message only; the text says which it is */
	if (strcmp(tag, "skipped"))
		fprintf(f, "\" type=\"%s", result_verdict_name(v));
	fputs("\">", f);
	xml(f, where);
	xml(f, text);
	fprintf(f, "</%s>", tag);
}

/* A failing heap_* series' text gains the site changes of its variant
 * that explain it ("; new allocation site kernels/x.c:12 in f: ..."). */
static void append_site_changes(const struct run_result *r, const struct series *s, char *text,
				size_t size)
{
	if (!result_metric_is_allocation_count(s->metric))
		return;
	for (size_t i = 0; i < r->site_change_count; i++) {
		const struct site_change *c = &r->site_changes[i];
		size_t used = strlen(text);
		if (!group_key_same(GROUP_KEY(c), GROUP_KEY(s), GROUP_SCOPE_VARIANT) ||
		    used + 3 >= size)
			continue;
		char place[600];
		format_site_place(c->file, c->line, place, sizeof place);
		int n = snprintf(text + used, size - used, "; %s: ", place);
		if (n > 0 && used + (size_t)n < size)
			format_site_change(c, r->comparison != NULL, text + used + (size_t)n,
					   size - used - (size_t)n);
	}
}

static void testcase_open(FILE *f, const char *kernel)
{
	fputs("    <testcase classname=\"", f);
	xml(f, kernel);
	fputs("\" time=\"0\" name=\"", f);
}

static void print_kernel(FILE *f, const struct run_result *r, const char *kernel)
{
	struct tally t = tally_kernel(r, kernel);
	char text[2048];
	fputs("  <testsuite name=\"", f);
	xml(f, kernel);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"0\">\n",
		t.tests, t.failures, t.errors, t.skipped);
	for (size_t i = 0; i < r->expect_count; i++) {
		const struct expect_result *e = &r->expects[i];
		if (!of_kernel(e->kernel, kernel))
			continue;
		testcase_open(f, kernel);
		fputs("expect ", f);
		xml(f, e->params);
		fputs(": ", f);
		xml(f, e->expr);
		fputs("\">", f);
		format_expect(e, r->ctx.allocator, text, sizeof text);
		outcome(f, expect_outcome(e), text, e->file, e->line);
		fputs("</testcase>\n", f);
	}
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!of_kernel(s->kernel, kernel))
			continue;
		testcase_open(f, kernel);
		xml(f, s->variant);
		fputc('/', f);
		xml(f, s->params);
		fputc(' ', f);
		xml(f, s->metric);
		fputs("\">", f);
		format_series(s, text, sizeof text);
		if (s->verdict == VERDICT_FAIL)
			append_site_changes(r, s, text, sizeof text);
		outcome(f, series_outcome(s), text, s->file, s->line);
		fputs("</testcase>\n", f);
	}
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		if (!of_kernel(p->kernel, kernel))
			continue;
		testcase_open(f, kernel);
		fputs("problem ", f);
		xml(f, p->variant ? p->variant : "-");
		fputc('/', f);
		xml(f, p->params ? p->params : "-");
		fputc(' ', f);
		xml(f, p->what);
		fputs("\">", f);
		outcome(f, VERDICT_ERROR, p->reason, NULL, 0);
		fputs("</testcase>\n", f);
	}
	fputs("  </testsuite>\n", f);
}

/* Whether KERNEL already appeared among the first N series / expectations. */
static int seen(const struct run_result *r, const char *kernel, size_t ns, size_t ne)
{
	for (size_t i = 0; i < ns && i < r->series_count; i++)
		if (of_kernel(r->series[i].kernel, kernel))
			return 1;
	for (size_t i = 0; i < ne && i < r->expect_count; i++)
		if (of_kernel(r->expects[i].kernel, kernel))
			return 1;
	return 0;
}

/* Whether one of the first N problems concerns KERNEL. */
static int problem_seen(const struct run_result *r, const char *kernel, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r->problems[i].kernel && of_kernel(r->problems[i].kernel, kernel))
			return 1;
	return 0;
}

void report_junit_print(FILE *f, const struct run_result *r, const void *arg)
{
	struct tally t = tally_kernel(r, NULL);
	(void)arg;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<testsuites name=\"allocgate\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		   "time=\"%.3f\">\n", t.tests, t.failures, t.errors,
		r->wall_seconds == r->wall_seconds ? r->wall_seconds : 0.0);
	for (size_t i = 0; i < r->series_count; i++)
		if (!seen(r, r->series[i].kernel, i, 0))
			print_kernel(f, r, r->series[i].kernel);
	for (size_t i = 0; i < r->expect_count; i++)
		if (!seen(r, r->expects[i].kernel, r->series_count, i))
			print_kernel(f, r, r->expects[i].kernel);
	for (size_t i = 0; i < r->problem_count; i++)
		if (r->problems[i].kernel && !seen(r, r->problems[i].kernel, r->series_count,
						   r->expect_count) &&
		    !problem_seen(r, r->problems[i].kernel, i))
			print_kernel(f, r, r->problems[i].kernel);
	fputs("</testsuites>\n", f);
}

int report_junit_write(const char *path, const struct run_result *r, char *err, size_t err_size)
{
	return report_file_write(path, report_junit_print, r, NULL, err, err_size);
}
