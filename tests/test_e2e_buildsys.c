/* test_e2e_buildsys.c: the build systems a library author already has,
 * from allocgate's install to the verdict: tests/e2e_buildsys.sh builds
 * examples/strbuf against a DESTDIR install of this build (GATE_BUILD_DIR)
 * with the installed Make fragment, the CMake package and Meson (skipped
 * with the package's name where it is missing), and gates each build. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/spawn.h"

Test(e2e_buildsys, make_cmake_and_meson_builds_of_a_project_are_gated, .timeout = 600)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	char ninja_file[300];
	bd = bd && *bd ? bd : "build";
	snprintf(ninja_file, sizeof ninja_file, "%s.ninja", bd);   /* ci/sanitize.sh's naming */
	/* a sanitized build's probe needs its sanitizers at the project's link */
#if defined(__SANITIZE_ADDRESS__)
	char *cflags = "-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer";
	char *interposer = "no-interposer";   /* and no cost pass */
#else
	char *cflags = "-O2 -g";
	char *interposer = "interposer";
#endif
	char *argv[] = { "/bin/sh", "tests/e2e_buildsys.sh", ninja_file, cflags, interposer, NULL };
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, NULL, 540, &out), 0);
	cr_expect(out.status == SPAWN_EXITED && out.exit_code == 0, "exit %d:\n%s\n%s",
		  out.exit_code, out.out, out.err);
	cr_expect(strstr(out.out, "e2e_buildsys: ok"), "%s\n%s", out.out, out.err);
	spawn_output_free(&out);
}
