/* test_workflow.c: the workflows in .github/workflows pass the workflow linter
 * (ci/lint-workflows.sh: @action-validator/cli from npm); skipped with
 * the script's one line when npm is not available. Also checks that the
 * ci/ scripts the workflow calls exist and are executable, and what the
 * comment workflow of docs/install.md posts (tests/comment_workflow.sh),
 * and that ci/action.sh names the flame graphs in the step summary
 * (tests/action_flame.sh). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sample/spawn.h"

Test(workflow, passes_action_validator, .timeout = 300)
{
	char line[512] = "";
	FILE *p = popen("ci/lint-workflows.sh 2>&1", "r");
	cr_assert(p, "cannot run ci/lint-workflows.sh");
	char all[8192] = "";
	while (fgets(line, sizeof line, p))
		if (strlen(all) + strlen(line) < sizeof all)
			strcat(all, line);
	int st = pclose(p);
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (code == 77)
		cr_skip_test("%s", all);
	cr_expect_eq(code, 0, "action-validator rejected the workflow:\n%s", all);
}

Test(workflow, calls_scripts_that_exist)
{
	static const char *const scripts[] = { "ci/install-deps.sh", "ci/gate.sh", "ci/merge.sh",
					       "ci/test.sh" };
	FILE *f = fopen(".github/workflows/gate.yml", "r");
	cr_assert(f, "no .github/workflows/gate.yml");
	char text[16384];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
		cr_expect(strstr(text, scripts[i]), "the workflow does not call %s", scripts[i]);
		cr_expect_eq(access(scripts[i], X_OK), 0, "%s is not executable", scripts[i]);
	}
}

/* The pull-request story of docs/install.md is a whole workflow between
 * its markers (ci/lint-workflows.sh validates what it extracts), and uses
 * a form of the action that exists: a local path, no invented owner/tag. */
Test(workflow, install_doc_holds_a_usable_workflow)
{
	FILE *f = fopen("docs/install.md", "r");
	cr_assert(f, "no docs/install.md");
	static char text[65536];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	const char *begin = strstr(text, "<!-- allocgate-workflow-begin -->");
	const char *end = strstr(text, "<!-- allocgate-workflow-end -->");
	cr_assert(begin && end && begin < end, "the workflow markers are missing");
	char workflow[8192];
	size_t len = (size_t)(end - begin) < sizeof workflow ? (size_t)(end - begin)
							   : sizeof workflow - 1;
	memcpy(workflow, begin, len);
	workflow[len] = '\0';
	cr_expect(strstr(workflow, "uses: ./third_party/allocgate"), "%s", workflow);
	cr_expect(strstr(workflow, "mode: record"), "no job records the runner's baseline");
	cr_expect(strstr(workflow, "pull_request"), "%s", workflow);
	cr_expect(!strstr(text, "OWNER/allocgate"), "an owner placeholder left in the doc");
}

/* The comment workflow's script (docs/install.md, "Comments on pull
 * requests") against a fake gh: it posts, updates, refuses a number that
 * is not digits before any call, and comments only on change when asked. */
Test(workflow, comment_workflow_posts_what_it_should, .timeout = 60)
{
	char *argv[] = { "/bin/sh", "tests/comment_workflow.sh", NULL };
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, NULL, 50, &out), 0);
	cr_expect(out.status == SPAWN_EXITED && out.exit_code == 0, "exit %d:\n%s\n%s",
		  out.exit_code, out.out, out.err);
	cr_expect(strstr(out.out, "comment_workflow: ok"), "%s\n%s", out.out, out.err);
	spawn_output_free(&out);
}

/* ci/action.sh names the flame graphs in the step summary, with the
 * artifact that uploads them, only when the gate wrote some
 * (tests/action_flame.sh, against a fake gate). */
Test(workflow, action_names_the_flame_graphs, .timeout = 60)
{
	char *argv[] = { "/bin/sh", "tests/action_flame.sh", NULL };
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, NULL, 50, &out), 0);
	cr_expect(out.status == SPAWN_EXITED && out.exit_code == 0, "exit %d:\n%s\n%s",
		  out.exit_code, out.out, out.err);
	cr_expect(strstr(out.out, "action_flame: ok"), "%s\n%s", out.out, out.err);
	spawn_output_free(&out);
}
