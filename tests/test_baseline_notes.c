/* test_baseline_notes.c: gates/run/baseline_notes.c with core/commit.c's
 * revision and file lookups: a baseline changed by the change under test
 * is named with the series whose medians moved, against HEAD for an
 * uncommitted edit, HEAD~1 for the last commit, the merge base with
 * ALLOCGATE_BASE_REF or origin/$GITHUB_BASE_REF; nothing without git or
 * when the file is unchanged. Runs git in a temporary repository; skipped
 * where git is not installed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/baseline_notes.h"
#include "core/commit.h"
#include "store/baseline.h"

static char repo[] = "/tmp/allocgate-notes-XXXXXX";
static char path[600];

static int sh(const char *command)
{
	char line[1024];
	snprintf(line, sizeof line, "cd %s && { %s; } >/dev/null 2>&1", repo, command);
	return system(line);
}

/* A baseline of two exact series at PATH: allocs with median M, frees 7. */
static void write_baseline(double m)
{
	struct run_result r;
	char err[256];
	memset(&r, 0, sizeof r);
	struct series *s = result_add_series(&r, "k", "v", "p", "allocs", "count", METRIC_EXACT);
	cr_assert_not_null(s);
	result_series_append(s, m);
	s = result_add_series(&r, "k", "v", "p", "frees", "count", METRIC_EXACT);
	result_series_append(s, 7);
	cr_assert_eq(baseline_save(path, &r, err, sizeof err), 0, "%s", err);
	result_free(&r);
}

static int commit(const char *message)
{
	char line[200];
	snprintf(line, sizeof line, "git add -A && git -c user.name=t -c user.email=t@t "
		 "commit -q -m '%s'", message);
	return sh(line);
}

static void setup(void)
{
	if (system("git --version >/dev/null 2>&1") != 0)
		cr_skip_test("git is not installed");
	unsetenv("GITHUB_BASE_REF");
	unsetenv("ALLOCGATE_BASE_REF");
	cr_assert_not_null(mkdtemp(repo));
	snprintf(path, sizeof path, "%s/baselines/linux.json", repo);
	cr_assert_eq(sh("git init -q -b main . && mkdir baselines && echo a > kernel.c"), 0);
	write_baseline(100);
	cr_assert_eq(commit("one"), 0);
}

static void teardown(void)
{
	char line[256];
	snprintf(line, sizeof line, "rm -rf %s", repo);
	if (system(line) != 0)
		cr_log_warn("could not remove %s", repo);
}

TestSuite(baseline_notes, .init = setup, .fini = teardown);

Test(baseline_notes, an_unchanged_baseline_says_nothing)
{
	cr_assert_eq(sh("echo b >> kernel.c"), 0);
	cr_assert_eq(commit("two: code only"), 0);
	cr_expect_null(baseline_notes_change(path));
}

Test(baseline_notes, an_uncommitted_edit_is_measured_against_head)
{
	write_baseline(101);
	char *note = baseline_notes_change(path);
	cr_assert_not_null(note);
	cr_expect_not_null(strstr(note, "at HEAD (an edit not committed yet)"), "%s", note);
	cr_expect_not_null(strstr(note, "1 series' median moved (the most: k/v/p allocs 100 -> "
				  "101 (+1.0%))"), "%s", note);
	cr_expect_not_null(strstr(note, "`gate ab`"), "%s", note);
	cr_expect_null(strchr(note, '\n'), "one line: %s", note);
	free(note);
}

Test(baseline_notes, the_last_commit_is_measured_against_the_one_before)
{
	write_baseline(150);
	cr_assert_eq(sh("echo b >> kernel.c"), 0);
	cr_assert_eq(commit("two: code and baseline together"), 0);
	char *note = baseline_notes_change(path);
	cr_assert_not_null(note);
	cr_expect_not_null(strstr(note, "at HEAD~1 (the last commit's change)"), "%s", note);
	cr_expect_not_null(strstr(note, "k/v/p allocs 100 -> 150 (+50.0%)"), "%s", note);
	cr_expect_not_null(strstr(note, "0 added, 0 removed"), "%s", note);
	free(note);
}

Test(baseline_notes, a_pull_request_is_measured_against_the_merge_base)
{
	cr_assert_eq(sh("git checkout -q -b topic"), 0);
	write_baseline(90);
	cr_assert_eq(commit("topic: baseline"), 0);
	cr_assert_eq(sh("echo b >> kernel.c"), 0);
	cr_assert_eq(commit("topic: code after it"), 0);
	/* HEAD~1 holds the edit already: only the merge base shows it */
	setenv("ALLOCGATE_BASE_REF", "main", 1);
	char *note = baseline_notes_change(path);
	unsetenv("ALLOCGATE_BASE_REF");
	cr_assert_not_null(note);
	cr_expect_not_null(strstr(note, "(the merge base with main (ALLOCGATE_BASE_REF))"), "%s",
			   note);
	cr_expect_not_null(strstr(note, "k/v/p allocs 100 -> 90 (-10.0%)"), "%s", note);
	free(note);
	/* no origin/main here: GITHUB_BASE_REF falls back to the local branch */
	setenv("GITHUB_BASE_REF", "main", 1);
	note = baseline_notes_change(path);
	unsetenv("GITHUB_BASE_REF");
	cr_assert_not_null(note);
	cr_expect_not_null(strstr(note, "merge base with main (GITHUB_BASE_REF)"), "%s", note);
	free(note);
}

Test(baseline_notes, a_ref_that_could_be_an_option_or_a_command_is_refused)
{
	char rev[128], why[256];
	write_baseline(101);
	setenv("ALLOCGATE_BASE_REF", "--output=/tmp/x", 1);
	cr_expect_eq(commit_base_revision(path, 1 << 20, rev, sizeof rev, why, sizeof why), -1);
	setenv("ALLOCGATE_BASE_REF", "main; touch pwned", 1);
	cr_expect_eq(commit_base_revision(path, 1 << 20, rev, sizeof rev, why, sizeof why), -1);
	setenv("ALLOCGATE_BASE_REF", "$(touch pwned)", 1);
	cr_expect_null(baseline_notes_change(path));
	unsetenv("ALLOCGATE_BASE_REF");
	cr_expect_neq(sh("test -e pwned"), 0);
}

Test(baseline_notes, outside_a_checkout_nothing_is_said)
{
	char other[] = "/tmp/allocgate-notes-nogit-XXXXXX", file[600];
	cr_assert_not_null(mkdtemp(other));
	snprintf(file, sizeof file, "%s/linux.json", other);
	snprintf(path, sizeof path, "%s", file);
	write_baseline(100);
	cr_expect_null(baseline_notes_change(file));
	remove(file);
	rmdir(other);
}

Test(baseline_notes, an_older_files_leniency_is_named_once)
{
	struct run_result base;
	memset(&base, 0, sizeof base);
	char *note = baseline_notes_leniency(&base);
	cr_assert_not_null(note);
	cr_expect_not_null(strstr(note, "records no policy and no context"), "%s", note);
	cr_expect_null(strchr(note, '\n'));
	free(note);
	base.policy.recorded = true;
	base.ctx.os = (char *)"linux";
	cr_expect_null(baseline_notes_leniency(&base));
}
