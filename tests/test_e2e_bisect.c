/* test_e2e_bisect.c: gate bisect on a toy history (tests/e2e_bisect.sh):
 * the commit that turned a realloc into malloc + copy + free named, with
 * its counts and its line, past a commit that does not build, in
 * ceil(log2(N)) + 2 measured revisions; its cache; its bad input. */
#include "e2e_script.h"

Test(e2e_bisect, the_commit_that_changed_the_counts_is_named_past_an_unbuildable_one,
     .timeout = 600)
{
	char *argv[] = { "/bin/sh", "tests/e2e_bisect.sh", (char *)e2e_build_dir(), E2E_INTERPOSER,
			 E2E_CFLAGS, NULL };
	e2e_script_expect_ok(argv, 540, "e2e_bisect: ok");
}
