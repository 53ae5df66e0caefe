/* test_spawn.c: the environment control of gates/os/spawn_posix.c, seen from
 * inside the child: --pin-cpu's affinity, --no-aslr's personality and
 * --no-thp's prctl (and THP back once it is off), read back from
 * /proc/self/status by the child itself;
 * and spawn_describe's lines (gates/sample/spawn.c and its OS part). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sample/spawn.h"

/* Runs `/bin/grep -E PATTERN /proc/self/status` as a child (spawn_run
 * takes a path, no PATH search); its output in OUT. */
static void child_status(const char *pattern, char *out, size_t size)
{
	char *argv[] = { "/bin/grep", "-E", (char *)pattern, "/proc/self/status", NULL };
	struct spawn_output o;
	cr_assert_eq(spawn_run(argv, NULL, 30, &o), 0);
	cr_assert(o.status == SPAWN_EXITED && o.exit_code == 0, "grep %s: %s", pattern, o.err);
	snprintf(out, size, "%s", o.out ? o.out : "");
	spawn_output_free(&o);
}

static void reset(void)
{
	spawn_configure(-1, 0, 0);
}

TestSuite(spawn, .fini = reset);

Test(spawn, no_thp_reaches_the_child)
{
	char status[256];
	if (access("/proc/self/status", R_OK))
		cr_skip_test("no /proc/self/status");
	child_status("^THP_enabled", status, sizeof status);
	if (!*status)
		cr_skip_test("this kernel does not report THP_enabled (Linux < 5.0)");
	cr_expect(strstr(status, "THP_enabled:\t1"), "default: %s", status);
	spawn_configure(-1, 0, 1);
	child_status("^THP_enabled", status, sizeof status);
	cr_expect(strstr(status, "THP_enabled:\t0"), "--no-thp: %s", status);
	/* the gate sets the flag on itself for its children (a vfork child
	 * shares its memory): the next run's children have THP again */
	spawn_configure(-1, 0, 0);
	child_status("^THP_enabled", status, sizeof status);
	cr_expect(strstr(status, "THP_enabled:\t1"), "after --no-thp: %s", status);
}

Test(spawn, pin_cpu_reaches_the_child)
{
	char status[256];
	spawn_configure(0, 0, 0);
	child_status("^Cpus_allowed_list", status, sizeof status);
	cr_expect(strstr(status, "Cpus_allowed_list:\t0\n"), "--pin-cpu 0: %s", status);
}

Test(spawn, describe_names_the_end_of_a_process)
{
	struct spawn_output o = { .status = SPAWN_SIGNALED, .signal = 11 };
	char line[128];
	spawn_describe(&o, line, sizeof line);
	cr_expect_str_eq(line, "killed by signal 11 (Segmentation fault)");
	o = (struct spawn_output){ .status = SPAWN_EXITED, .exit_code = 3 };
	spawn_describe(&o, line, sizeof line);
	cr_expect_str_eq(line, "exit status 3");
	o = (struct spawn_output){ .status = SPAWN_TIMED_OUT, .seconds = 30 };
	spawn_describe(&o, line, sizeof line);
	cr_expect_str_eq(line, "timed out after 30.0 s and was killed");
}
