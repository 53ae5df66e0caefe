/* test_e2e_project.c: allocgate as another project's dependency, from
 * the install to the verdict: tests/e2e_project.sh builds examples/strbuf
 * against a DESTDIR install of this build (GATE_BUILD_DIR) with the
 * example's own Makefile and CMakeLists.txt, and checks what a user would
 * see (its baseline and commit, a passing rerun, a stray allocation named
 * at the kernel's line, notes for a non-kernel and a missing twin). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/spawn.h"

Test(e2e_project, an_installed_gate_gates_a_project_of_its_own, .timeout = 600)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	char ninja_file[300];
	bd = bd && *bd ? bd : "build";
	snprintf(ninja_file, sizeof ninja_file, "%s.ninja", bd);   /* ci/sanitize.sh's naming */
	/* a sanitized build's probe needs its sanitizers at the project's link */
#if defined(__SANITIZE_ADDRESS__)
	char *cflags = "-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer";
	char *interposer = "no-interposer";
#else
	char *cflags = "-O2 -g";
	char *interposer = "interposer";
#endif
	char *argv[] = { "/bin/sh", "tests/e2e_project.sh", ninja_file, (char *)bd, cflags,
			 interposer, NULL };
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, NULL, 540, &out), 0);
	cr_expect(out.status == SPAWN_EXITED && out.exit_code == 0, "exit %d:\n%s\n%s",
		  out.exit_code, out.out, out.err);
	cr_expect(strstr(out.out, "e2e_project: ok"), "%s\n%s", out.out, out.err);
	spawn_output_free(&out);
}
