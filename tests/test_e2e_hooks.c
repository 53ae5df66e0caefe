/* test_e2e_hooks.c: a library that allocates only through hooks, as a
 * shared object, gated by an installed allocgate found on PATH:
 * tests/e2e_hooks.sh builds examples/hooked_json against a DESTDIR install
 * of this build (GATE_BUILD_DIR) and checks that the gate finds its
 * interposer from its prefix, that the variants' allocation counts are
 * nonzero, and that the growth policy's regression is named at the
 * library's file:line and function by gate run and gate ab. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/spawn.h"

Test(e2e_hooks, a_hooked_library_named_at_its_own_line, .timeout = 600)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	cr_skip_test("a sanitizer build: no cost pass and no interposer");
#endif
	const char *bd = getenv("GATE_BUILD_DIR");
	char ninja_file[300];
	bd = bd && *bd ? bd : "build";
	snprintf(ninja_file, sizeof ninja_file, "%s.ninja", bd);   /* ci/sanitize.sh's naming */
	char *argv[] = { "/bin/sh", "tests/e2e_hooks.sh", ninja_file, (char *)bd, "-O2 -g", NULL };
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, NULL, 540, &out), 0);
	cr_expect(out.status == SPAWN_EXITED && out.exit_code == 0, "exit %d:\n%s\n%s",
		  out.exit_code, out.out, out.err);
	if (strstr(out.out, "e2e_hooks: skipped:")) {
		spawn_output_free(&out);
		cr_skip_test("valgrind is not installed: no cost pass");
	}
	cr_expect(strstr(out.out, "e2e_hooks: ok"), "%s\n%s", out.out, out.err);
	spawn_output_free(&out);
}
