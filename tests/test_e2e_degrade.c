/* test_e2e_degrade.c: honest degradation. build/gate run as an ordinary
 * user (nobody, through setpriv) on a machine with perf_event_paranoid >= 2
 * cannot open perf events nor read tracefs: it must say so in one line per
 * cause, say what it measures instead, and still gate (exit 0 on the toy
 * kernel, never 3: wall time is always measurable). Needs root to drop to
 * nobody and changes no system setting; skipped elsewhere. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sample/spawn.h"

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -9;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -9;
		fclose(f);
	}
	return v;
}

static int count_lines(const char *text, const char *prefix)
{
	int n = 0;
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		n += !strncmp(p, prefix, strlen(prefix));
	return n;
}

Test(e2e_degrade, unprivileged_run_names_each_missing_cause_once_and_still_gates)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	char gate[512], kernels[512], dir[] = "/tmp/allocgate-degrade-XXXXXX";
	bd = bd ? bd : "build";
	if (geteuid() != 0)
		cr_skip("needs root to run the gate as nobody (setpriv)");
	if (access("/usr/bin/setpriv", X_OK) != 0)
		cr_skip("setpriv (util-linux) not installed");
	if (paranoid() < 2)
		cr_skip("perf_event_paranoid is %d: an ordinary user may open perf events here",
			paranoid());
	snprintf(gate, sizeof gate, "%s/gate", bd);
	snprintf(kernels, sizeof kernels, "%s/tests/kernels", bd);
	cr_assert_not_null(mkdtemp(dir));
	chmod(dir, 0777);
	char *argv[] = { "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
			 gate, "run", "--kernel-dir", kernels, "--baseline-dir", dir, "--quick",
			 "--kernel", "toy", "--no-color", NULL };
	struct spawn_output o;
	cr_assert_eq(spawn_run(argv, NULL, 120, &o), 0);
	rmdir(dir);
	if (o.status == SPAWN_EXITED && (o.exit_code == 126 || o.exit_code == 127 ||
					 strstr(o.err, "Permission denied")))
		cr_skip("nobody cannot reach %s (a private checkout): %s", gate, o.err);
	cr_assert_eq(o.status, SPAWN_EXITED, "%s", o.err);
	cr_expect_eq(o.exit_code, 0, "exit %d\n%s\n%s", o.exit_code, o.out, o.err);
	cr_expect_eq(count_lines(o.out, "unavailable: task_clock_ns"), 1, "%s", o.out);
	cr_expect(strstr(o.out, "not permitted (perf_event_paranoid="), "%s", o.out);
	cr_expect_leq(count_lines(o.out, "unavailable:"), 3, "one line per cause:\n%s", o.out);
	cr_expect_eq(count_lines(o.out, "measured instead: "), 1, "%s", o.out);
	cr_expect(strstr(o.out, "wall_ns"), "%s", o.out);
	spawn_output_free(&o);
}
