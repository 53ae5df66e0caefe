/* test_commit.c: which commit a run measured (gates/core/commit.c): git
 * describe of the work tree, "-dirty" when a tracked file changed, but not
 * for the baselines/ that --update-baseline itself writes. Runs git in a
 * temporary repository; skipped where git is not installed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/commit.h"

static char repo[] = "/tmp/allocgate-commit-XXXXXX";

static int sh(const char *command)
{
	char line[1024];
	snprintf(line, sizeof line, "cd %s && { %s; } >/dev/null 2>&1", repo, command);
	return system(line);
}

static void setup(void)
{
	if (system("git --version >/dev/null 2>&1") != 0)
		cr_skip_test("git is not installed");
	cr_assert_not_null(mkdtemp(repo));
	cr_assert_eq(sh("git init -q . && mkdir baselines && echo a > kernel.c && "
			"echo '{}' > baselines/linux.json && git add . && "
			"git -c user.name=t -c user.email=t@t commit -q -m one"), 0);
	cr_assert_eq(chdir(repo), 0);
}

static void teardown(void)
{
	char line[256];
	snprintf(line, sizeof line, "rm -rf %s", repo);
	if (system(line) != 0)
		cr_log_warn("could not remove %s", repo);
}

Test(commit, a_changed_baseline_is_not_dirty, .init = setup, .fini = teardown)
{
	char clean[80], after[80];
	cr_assert_eq(commit_git_describe(clean, sizeof clean), 0);
	cr_expect_null(strstr(clean, "dirty"), "fresh commit: %s", clean);
	cr_assert_eq(sh("echo '{\"series\": []}' > baselines/linux.json"), 0);
	cr_assert_eq(commit_git_describe(after, sizeof after), 0);
	cr_expect_str_eq(after, clean, "only baselines/ changed: %s", after);
}

Test(commit, a_changed_source_is_dirty, .init = setup, .fini = teardown)
{
	char clean[80], after[80], want[90];
	cr_assert_eq(commit_git_describe(clean, sizeof clean), 0);
	cr_assert_eq(sh("echo b >> kernel.c"), 0);
	cr_assert_eq(commit_git_describe(after, sizeof after), 0);
	snprintf(want, sizeof want, "%s-dirty", clean);
	cr_expect_str_eq(after, want);
}

/* A directory inside a checkout is named by its commit, "-dirty" once a
 * tracked file changed; one in no checkout (or missing) by nothing. */
Test(commit, a_directory_is_named_by_its_checkouts_revision, .init = setup, .fini = teardown)
{
	char rev[80], dir[300], head[80];
	snprintf(dir, sizeof dir, "%s/build/kernels", repo);
	cr_assert_eq(sh("mkdir -p build/kernels && git rev-parse --short=7 HEAD > head.txt"), 0);
	FILE *f = fopen("head.txt", "r");
	cr_assert(f && fgets(head, sizeof head, f));
	fclose(f);
	head[strcspn(head, "\n")] = '\0';
	cr_assert_eq(sh("git tag v1.0"), 0);   /* a revision, not a release's name */
	cr_assert_eq(commit_dir_revision(dir, rev, sizeof rev), 0);
	cr_expect_str_eq(rev, head);
	cr_assert_eq(sh("echo b >> kernel.c"), 0);
	cr_assert_eq(commit_dir_revision(dir, rev, sizeof rev), 0);
	cr_expect(!strncmp(rev, head, strlen(head)) && strstr(rev, "-dirty"), "%s", rev);
	cr_expect_eq(commit_dir_revision("/no/such/dir", rev, sizeof rev), -1);
	cr_expect_str_eq(rev, "");
}

/* What `gate history` asks of a commit: its subject, its committer time in
 * UTC (whatever the zone it was made in), the commits between two; and -1
 * for a commit the checkout does not have. */
Test(commit, subject_time_and_range_of_a_commit, .init = setup, .fini = teardown)
{
	char subject[128], time[32];
	long count = -1;
	cr_assert_eq(sh("for s in two three; do GIT_COMMITTER_DATE='2026-03-04T05:06:07+02:00' "
			"git -c user.name=t -c user.email=t@t commit -q --allow-empty -m \"$s\"; "
			"done"), 0);
	cr_assert_eq(commit_subject("HEAD", subject, sizeof subject), 0);
	cr_expect_str_eq(subject, "three");
	cr_assert_eq(commit_time_utc("HEAD~1", time, sizeof time), 0);
	cr_expect_str_eq(time, "2026-03-04T03:06:07Z");
	cr_assert_eq(commit_count_range("HEAD~2", "HEAD", &count), 0);
	cr_expect_eq(count, 2);
	cr_expect_eq(commit_subject("0123456789abcdef", subject, sizeof subject), -1);
	cr_expect_str_eq(subject, "");
	cr_expect_eq(commit_time_utc("-x", time, sizeof time), -1);
	cr_expect_eq(commit_count_range("HEAD", "0123456789abcdef", &count), -1);
}
