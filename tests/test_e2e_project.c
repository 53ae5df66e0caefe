/* test_e2e_project.c: allocgate as another project's dependency, from
 * the install to the verdict: tests/e2e_project.sh builds examples/strbuf
 * against a DESTDIR install of this build (GATE_BUILD_DIR) with the
 * example's own Makefile and CMakeLists.txt, and checks what a user would
 * see (its baseline and commit, a passing rerun, a stray allocation named
 * at the kernel's line, notes for a non-kernel and a missing twin). */
#include <stdio.h>

#include "e2e_script.h"

Test(e2e_project, an_installed_gate_gates_a_project_of_its_own, .timeout = 600)
{
	const char *bd = e2e_build_dir();
	char ninja_file[300];
	snprintf(ninja_file, sizeof ninja_file, "%s.ninja", bd);   /* ci/sanitize.sh's naming */
	char *argv[] = { "/bin/sh", "tests/e2e_project.sh", ninja_file, (char *)bd, E2E_CFLAGS,
			 E2E_INTERPOSER, NULL };
	e2e_script_expect_ok(argv, 540, "e2e_project: ok");
}
