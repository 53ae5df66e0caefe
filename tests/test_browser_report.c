/* test_browser_report.c: the --html report in a browser. It writes the
 * page of a hand-built result (report_fixture.h: toy/single/small
 * regressed; flame_fixture.h's call stacks, whose calls changed against
 * A's; a variant and a frame named to end the page's script and start one
 * of their own) into BUILD/tests/browser/fixture.html, and
 * tests/browser_report.sh opens it and the page `gate merge --html` makes
 * of a run with regressions in headless Chromium, checks what a person
 * sees, keeps a screenshot of each (BUILD/tests/browser/merge.png,
 * fixture.png), and shows that a broken script and a missing verdict fail
 * its checks. Skipped, with the script's line, without Chromium. */
#include "report_fixture.h"
#include "flame_fixture.h"

#include <errno.h>
#include <sys/stat.h>

#include "e2e_script.h"
#include "report/report_dhat.h"
#include "report/report_html.h"

/* tests/browser_report.sh's hostile name, the same bytes. */
static const char hostile[] =
	"copy_grow</script><script>document.body.setAttribute('data-pwned','')</script>&\"'";

/* The fixture, its stacks, and the hostile name as a failing variant and
 * as a function of a stack of toy/twice/small (the same on both sides). */
static void browser_build(struct run_result *r)
{
	const char *const frames[] = { "twice", hostile, NULL };
	fixture_build(r);
	struct series *s = result_add_series(r, "toy", hostile, "small", "heap_malloc_calls",
					     "count", METRIC_EXACT);
	cr_assert_not_null(s);
	result_series_append(s, 2);
	s->median = 2, s->baseline_median = 1, s->has_baseline = true, s->change = 1;
	s->ci_low = s->ci_high = NAN;
	s->verdict = VERDICT_FAIL;
	s->gated = true;
	s->note = strdup(hostile);
	flame_fixture_build(&r->stacks, &r->stacks_before);
	for (int side = 0; side < 2; side++) {
		struct stacks *set = side ? &r->stacks_before : &r->stacks;
		struct stack *st = result_add_stack(set, "toy", "twice", "small", "", "malloc", frames, 2);
		cr_assert_not_null(st);
		st->calls = 7, st->instructions = 700;
	}
	result_sort(r);
}

/* Runs a browser script ARGV (at most TIMEOUT_S seconds): skipped with its
 * one line when it exits 77 (no browser), else it must exit 0 and print
 * OK_LINE. */
static void run_browser_script(char *argv[], double timeout_s, const char *ok_line)
{
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, NULL, timeout_s, &out), 0);
	if (out.status == SPAWN_EXITED && out.exit_code == 77) {
		char why[512];
		snprintf(why, sizeof why, "%.*s", (int)strcspn(out.out ? out.out : "", "\n"),
			 out.out ? out.out : "");   /* its one line */
		spawn_output_free(&out);
		cr_skip_test("%s", why);
	}
	cr_expect(out.status == SPAWN_EXITED && out.exit_code == 0, "exit %d:\n%s\n%s",
		  out.exit_code, out.out, out.err);
	cr_expect(out.out && strstr(out.out, ok_line), "%s\n%s", out.out, out.err);
	spawn_output_free(&out);
}

/* The test's fixture written by WRITE as build/tests/browser/NAME, into
 * DIR (room for 300), for a browser script to open. */
typedef int (*fixture_write_fn)(const char *path, const struct run_result *r, char *err,
				size_t err_size);

static void browser_fixture(const char *name, fixture_write_fn write, char *dir)
{
	char path[400], err[512] = "";
	snprintf(dir, 300, "%s/tests/browser", e2e_build_dir());
	cr_assert(mkdir(dir, 0755) == 0 || errno == EEXIST, "%s: %s", dir, strerror(errno));
	snprintf(path, sizeof path, "%s/%s", dir, name);
	struct run_result r;
	browser_build(&r);
	cr_assert_eq(write(path, &r, err, sizeof err), 0, "%s", err);
	result_free(&r);
}

Test(browser_report, the_page_reads_right_in_chromium_and_a_broken_one_does_not,
     .timeout = 600)
{
	char dir[300];
	browser_fixture("fixture.html", report_html_write, dir);
	char *argv[] = { "/bin/sh", "tests/browser_report.sh", (char *)e2e_build_dir(), dir, NULL };
	run_browser_script(argv, 580, "browser_report: ok");
}

/* The --dhat file of the same stacks in DHAT's own viewer
 * (tests/browser_dhat.sh). */
Test(browser_report, the_dhat_file_opens_in_dhats_viewer, .timeout = 300)
{
	char dir[300];
	browser_fixture("fixture.dhat.json", report_dhat_write, dir);
	char *argv[] = { "/bin/sh", "tests/browser_dhat.sh", dir, NULL };
	run_browser_script(argv, 280, "browser_dhat: ok");
}
