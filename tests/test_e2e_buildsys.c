/* test_e2e_buildsys.c: the build systems a library author already has,
 * from allocgate's install to the verdict: tests/e2e_buildsys.sh builds
 * examples/strbuf against a DESTDIR install of this build (GATE_BUILD_DIR)
 * with the installed Make fragment, the CMake package and Meson (skipped
 * with the package's name where it is missing), and gates each build. */
#include <stdio.h>

#include "e2e_script.h"

Test(e2e_buildsys, make_cmake_and_meson_builds_of_a_project_are_gated, .timeout = 600)
{
	char ninja_file[300];
	snprintf(ninja_file, sizeof ninja_file, "%s.ninja", e2e_build_dir());   /* ci/sanitize.sh's naming */
	char *argv[] = { "/bin/sh", "tests/e2e_buildsys.sh", ninja_file, E2E_CFLAGS, E2E_INTERPOSER,
			 NULL };
	e2e_script_expect_ok(argv, 540, "e2e_buildsys: ok");
}
