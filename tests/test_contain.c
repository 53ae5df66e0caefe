/* test_contain.c: no process a kernel starts survives its sample
 * (gates/os/spawn_posix.c, gates/os/spawn_reap_linux.c), and the
 * environment a kernel gets (gates/sample/spawn.c): the hostile modes of
 * tests/kernels/crashy.c run through spawn_run as the gate runs them, in a
 * test process made a subreaper by spawn_contain as the gate's main does. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hostile_fixture.h"
#include "sample/spawn.h"

static char crashy[512];

/* Runs the crashy kernel's victim in MODE with MARKER through spawn_run
 * (time limit TIMEOUT); its output in OUT. */
static void run_victim(const char *mode, const char *marker, double timeout,
		       struct spawn_output *out)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	char mode_env[64];
	snprintf(crashy, sizeof crashy, "%s/tests/kernels/crashy", bd ? bd : "build");
	cr_assert(access(crashy, X_OK) == 0, "%s not built", crashy);
	snprintf(mode_env, sizeof mode_env, "CRASHY_MODE=%s", mode);
	char *argv[] = { crashy, "--variant", "victim", "--params", "small", NULL };
	char *env[] = { mode_env, (char *)marker, NULL };
	cr_assert_eq(spawn_run(argv, env, timeout, out), 0);
}

/* No process carrying MARKER a second after the sample ended (any are
 * killed, so that a failure leaves none behind). */
static void expect_none_left(const char *marker)
{
	int left = hostile_count_after_a_second(marker);
	hostile_kill_all(marker);
	cr_expect_eq(left, 0, "%d processes of the sample outlived it", left);
}

static void linux_only(void)
{
	if (access("/proc/self/environ", R_OK))
		cr_skip_test("no /proc: the processes cannot be found by their marker");
	cr_assert_eq(spawn_contain(), 0, "PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
}

Test(contain, child_that_closes_its_descriptors_ends_with_the_sample)
{
	char marker[128];
	struct spawn_output out;
	linux_only();
	hostile_marker("orphan", marker, sizeof marker);
	run_victim("orphan", marker, 60, &out);
	cr_expect_eq(out.status, SPAWN_EXITED, "%s", out.err);
	cr_expect_eq(out.exit_code, 0, "%s", out.err);
	expect_none_left(marker);
	spawn_output_free(&out);
}

Test(contain, child_in_a_session_of_its_own_ends_with_the_sample)
{
	char marker[128];
	struct spawn_output out;
	linux_only();
	hostile_marker("setsid", marker, sizeof marker);
	run_victim("setsid", marker, 60, &out);
	cr_expect_eq(out.status, SPAWN_EXITED, "%s", out.err);
	expect_none_left(marker);
	spawn_output_free(&out);
}

/* The sample ends when the kernel exits, not when its pipes close: a
 * child that holds them open is killed then, and the sample keeps its
 * output and exit status (under a 60 s limit, a wait for the pipes' EOF
 * would read as timed out). */
Test(contain, child_that_keeps_the_pipes_open_ends_with_the_sample)
{
	char marker[128];
	struct spawn_output out;
	linux_only();
	hostile_marker("setsid-pipes", marker, sizeof marker);
	run_victim("setsid-pipes", marker, 60, &out);
	cr_expect_eq(out.status, SPAWN_EXITED, "status %d: %s", (int)out.status, out.err);
	cr_expect_eq(out.exit_code, 0, "%s", out.err);
	cr_expect(strstr(out.out, "metric "), "the sample's output was lost: %s", out.out);
	expect_none_left(marker);
	spawn_output_free(&out);
}

Test(contain, child_in_a_session_of_its_own_ends_with_a_timed_out_sample)
{
	char marker[128];
	struct spawn_output out;
	linux_only();
	hostile_marker("setsid-hang", marker, sizeof marker);
	run_victim("setsid-hang", marker, 1, &out);
	cr_expect_eq(out.status, SPAWN_TIMED_OUT);
	expect_none_left(marker);
	spawn_output_free(&out);
}

/* A kernel that closes its stdout and stderr and goes on: the pipes say
 * nothing more, the time limit still holds. */
Test(contain, kernel_that_closes_its_output_still_times_out, .timeout = 60)
{
	char marker[128];
	struct spawn_output out;
	linux_only();
	hostile_marker("close-hang", marker, sizeof marker);
	run_victim("close-hang", marker, 1, &out);
	cr_expect_eq(out.status, SPAWN_TIMED_OUT);
	expect_none_left(marker);
	spawn_output_free(&out);
}

/* The sample's own end is still reported: its status is read after what
 * it left behind was ended (the kernel is reaped last). */
Test(contain, the_sample_keeps_its_exit_status)
{
	char marker[128];
	struct spawn_output out;
	linux_only();
	hostile_marker("exit3", marker, sizeof marker);
	run_victim("exit3", marker, 60, &out);
	cr_expect_eq(out.status, SPAWN_EXITED);
	cr_expect_eq(out.exit_code, 3);
	spawn_output_free(&out);
}

static void env_reset(void)
{
	spawn_configure_env(0);
}

Test(contain, withheld_names, .fini = env_reset)
{
	cr_expect(spawn_env_withheld("GITHUB_ENV=/x"));
	cr_expect(spawn_env_withheld("GITHUB_STEP_SUMMARY=/x"));
	cr_expect(spawn_env_withheld("ACTIONS_RUNTIME_TOKEN=t"));
	cr_expect(spawn_env_withheld("RUNNER_TEMP=/t"));
	cr_expect(spawn_env_withheld("CI_JOB_TOKEN=t"));
	cr_expect(spawn_env_withheld("npm_token=t"), "letter case is ignored");
	cr_expect(spawn_env_withheld("AWS_SECRET_ACCESS_KEY=k"));
	cr_expect(spawn_env_withheld("DB_PASSWORD=p"));
	cr_expect(!spawn_env_withheld("PATH=/bin"));
	cr_expect(!spawn_env_withheld("HOME=/root"));
	cr_expect(!spawn_env_withheld("LD_LIBRARY_PATH=/l"));
	cr_expect(!spawn_env_withheld("TMPDIR=/tmp"));
	cr_expect(!spawn_env_withheld("LANG=C.UTF-8"));
	cr_expect(!spawn_env_withheld("CI=true"));
	cr_expect(!spawn_env_withheld("MY_GITHUB_MIRROR=x"), "a prefix, not a word");
}

Test(contain, environment_built_for_a_child, .fini = env_reset)
{
	char *environ_[] = { "PATH=/bin", "GITHUB_ENV=/e", "HOME=/h", "GH_TOKEN=t", NULL };
	char *extra[] = { "HOME=/other", "GITHUB_ENV=/mine", "X=1", "X=2", NULL };
	char *clear[] = { SPAWN_ENV_CLEAR, "A=1", NULL };
	char **e = spawn_env_build(environ_, NULL);
	cr_assert(e);
	cr_expect_str_eq(e[1], "GITHUB_ENV=/e", "not withheld unless configured");
	free(e);
	spawn_configure_env(1);
	e = spawn_env_build(environ_, extra);
	cr_assert(e);
	/* what is kept, then --env's, the last of one name winning */
	cr_expect_str_eq(e[0], "PATH=/bin");
	cr_expect_str_eq(e[1], "HOME=/other");
	cr_expect_str_eq(e[2], "GITHUB_ENV=/mine", "--env passes what the user names");
	cr_expect_str_eq(e[3], "X=2");
	cr_expect_null(e[4]);
	free(e);
	e = spawn_env_build(environ_, clear);
	cr_assert(e);
	cr_expect_str_eq(e[0], "A=1");
	cr_expect_null(e[1]);
	free(e);
}

Test(contain, ci_files_are_not_seen_by_a_kernel, .fini = env_reset)
{
	char dir[] = "/tmp/allocgate-contain-XXXXXX", out_env[300], ci_env[300], text[512] = "";
	struct spawn_output out;
	cr_assert(mkdtemp(dir));
	snprintf(out_env, sizeof out_env, "CRASHY_OUT=%s/seen", dir);
	snprintf(ci_env, sizeof ci_env, "%s/github_env", dir);
	setenv("GITHUB_ENV", ci_env, 1);
	setenv("GITHUB_TOKEN", "t", 1);
	spawn_configure_env(1);
	const char *bd = getenv("GATE_BUILD_DIR");
	snprintf(crashy, sizeof crashy, "%s/tests/kernels/crashy", bd ? bd : "build");
	char *argv[] = { crashy, "--variant", "victim", "--params", "small", NULL };
	char *env[] = { "CRASHY_MODE=ci-files", out_env, NULL };
	cr_assert_eq(spawn_run(argv, env, 60, &out), 0);
	spawn_output_free(&out);
	char path[400];
	snprintf(path, sizeof path, "%s/seen", dir);
	FILE *f = fopen(path, "r");
	cr_assert(f, "the kernel wrote no %s", path);
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	cr_expect(strstr(text, "GITHUB_ENV=unset\n"), "%s", text);
	cr_expect(strstr(text, "GITHUB_TOKEN=unset\n"), "%s", text);
	cr_expect(strstr(text, "CRASHY_OUT=set\n"), "--env passed: %s", text);
	cr_expect(access(ci_env, F_OK) != 0, "the kernel wrote the CI's GITHUB_ENV file");
	unlink(path);
	unlink(ci_env);
	rmdir(dir);
}
