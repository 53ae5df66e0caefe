/* test_e2e_bisect.c: gate bisect on a toy history (tests/e2e_bisect.sh):
 * the commit that turned a realloc into malloc + copy + free named, with
 * its counts and its line, past a commit that does not build, in
 * ceil(log2(N)) + 2 measured revisions; its cache; its bad input. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/spawn.h"

Test(e2e_bisect, the_commit_that_changed_the_counts_is_named_past_an_unbuildable_one,
     .timeout = 600)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	bd = bd && *bd ? bd : "build";
	/* a sanitized build's probe needs its sanitizers at the project's link */
#if defined(__SANITIZE_ADDRESS__)
	char *interposer = "no-interposer";   /* and no cost pass */
	char *cflags = "-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer";
#else
	char *interposer = "interposer";
	char *cflags = "-O2 -g";
#endif
	char *argv[] = { "/bin/sh", "tests/e2e_bisect.sh", (char *)bd, interposer, cflags, NULL };
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, NULL, 540, &out), 0);
	cr_expect(out.status == SPAWN_EXITED && out.exit_code == 0, "exit %d:\n%s\n%s",
		  out.exit_code, out.out, out.err);
	cr_expect(strstr(out.out, "e2e_bisect: ok"), "%s\n%s", out.out, out.err);
	spawn_output_free(&out);
}
