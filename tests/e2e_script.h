/* e2e_script.h: the Criterion side of the end-to-end shell scripts
 * (tests/e2e_*.sh): what a sanitized build needs at a project's link, and
 * one way to run a script and judge it. */
#ifndef GATE_TEST_E2E_SCRIPT_H
#define GATE_TEST_E2E_SCRIPT_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sample/spawn.h"

/* A sanitized build's probe needs its sanitizers at the project's link,
 * and has no interposer (nor cost pass) to preload. */
#if defined(__SANITIZE_ADDRESS__)
#define E2E_CFLAGS "-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer"
#define E2E_INTERPOSER "no-interposer"
#else
#define E2E_CFLAGS "-O2 -g"
#define E2E_INTERPOSER "interposer"
#endif

/* The build directory the suite tests (GATE_BUILD_DIR, else "build"). */
static inline const char *e2e_build_dir(void)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	return bd && *bd ? bd : "build";
}

/* Runs ARGV (/bin/sh, a script and its arguments) for at most SECONDS and
 * expects exit 0 and OK ("NAME: ok") in what it printed. */
static inline void e2e_script_expect_ok(char *const argv[], double seconds, const char *ok)
{
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, NULL, seconds, &out), 0);
	cr_expect(out.status == SPAWN_EXITED && out.exit_code == 0, "exit %d:\n%s\n%s",
		  out.exit_code, out.out, out.err);
	cr_expect(out.out && strstr(out.out, ok), "%s\n%s", out.out, out.err);
	spawn_output_free(&out);
}

#endif
