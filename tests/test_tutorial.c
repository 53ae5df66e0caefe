/* test_tutorial.c: docs/tutorial.md followed literally: tests/tutorial.sh
 * runs its marked code blocks in order in a temporary HOME (allocgate
 * installed there by the page's own command, from this checkout's files),
 * the pull request's job through the action's script, and the Make and
 * Meson sections (Meson skipped with the package's name where it is
 * missing); skipped with the script's line when cmake or valgrind is. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/spawn.h"

Test(tutorial, every_block_of_the_tutorial_runs_as_written, .timeout = 900)
{
#if defined(__SANITIZE_ADDRESS__)
	/* the page builds and installs allocgate itself: this build is not in it */
	cr_skip_test("the tutorial installs its own allocgate: run by the plain build's suite");
#endif
	char *argv[] = { "/bin/sh", "tests/tutorial.sh", NULL };
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, NULL, 840, &out), 0);
	if (out.status == SPAWN_EXITED && out.exit_code == 77) {
		char reason[512];
		snprintf(reason, sizeof reason, "%s", out.out);
		spawn_output_free(&out);
		cr_skip_test("%s", reason);
	}
	cr_expect(out.status == SPAWN_EXITED && out.exit_code == 0, "exit %d:\n%s\n%s",
		  out.exit_code, out.out, out.err);
	cr_expect(strstr(out.out, "tutorial: ok"), "%s\n%s", out.out, out.err);
	spawn_output_free(&out);
}
