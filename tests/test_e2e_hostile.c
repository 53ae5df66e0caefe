/* test_e2e_hostile.c: build/gate against kernels that try to outlive
 * their samples or write the CI's files (tests/kernels/crashy.c's hostile
 * modes), and against a signal while a kernel hangs: no process of the
 * kernel is left a second later, the exit status is 128 + the signal
 * (gates/cli/main.c, README "Exit status"), no temporary file is left, and
 * the kernel never sees GITHUB_ENV or GITHUB_STEP_SUMMARY. The processes
 * are found by a marker of the test's own in their environment. Linux. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "e2e_fixture.h"
#include "hostile_fixture.h"

static void setup(void)
{
	e2e_prepare("hostile");
	if (access("/proc/self/environ", R_OK))
		e2e_skip("no /proc: the kernels cannot be found by their marker");
}

TestSuite(e2e_hostile, .init = setup, .fini = e2e_cleanup, .timeout = 240);

/* Starts `build/gate run` on crashy's victim in MODE with MARKER, its
 * stdout and stderr into TMPDIR/out and TMPDIR/err; returns its pid. */
/* In a forked child before it runs the gate: a signal ignored by whoever
 * started the suite (nohup ignores SIGHUP; a non-interactive shell's
 * background job SIGINT) stays ignored by the gate (core/interrupt.h), so
 * the gate under test starts with the default dispositions. */
static void default_signals(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

static pid_t start_gate(const char *mode, const char *marker)
{
	char mode_env[64], out_path[300], err_path[300];
	snprintf(mode_env, sizeof mode_env, "CRASHY_MODE=%s", mode);
	snprintf(out_path, sizeof out_path, "%s/out", tmpdir);
	snprintf(err_path, sizeof err_path, "%s/err", tmpdir);
	char *argv[] = { gate_path, "run", "--kernel-dir", kernel_dir, "--baseline-dir", tmpdir,
			 "--no-color", "--kernel", "crashy", "--quick", "--timeout", "20",
			 "--env", mode_env, "--env", (char *)marker, NULL };
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		default_signals();
		int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(out, STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* Waits up to SECONDS for PID; its wait status, or -1 (then it is killed). */
static int wait_for(pid_t pid, int seconds)
{
	int status;
	for (int i = 0; i < seconds * 20; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(50 * 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/* The text of TMPDIR/NAME into BUF. */
static void slurp(const char *name, char *buf, size_t size)
{
	char path[300];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* How many files of TMPDIR are an atomic writer's temporary ones. */
static int temporary_files(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)) != NULL)
		n += strstr(e->d_name, ".tmp.") != NULL;
	if (d)
		closedir(d);
	return n;
}

ParameterizedTestParameters(e2e_hostile, signal_ends_a_hanging_kernel)
{
	static int signals[] = { SIGINT, SIGTERM, SIGHUP };
	return cr_make_param_array(int, signals, sizeof signals / sizeof *signals);
}

ParameterizedTest(int *sig, e2e_hostile, signal_ends_a_hanging_kernel)
{
	char marker[128], err[4096];
	hostile_marker("signal", marker, sizeof marker);
	pid_t gate = start_gate("setsid-hang", marker);
	/* the hanging kernel and its child in a session of its own */
	int seen = 0;
	for (int i = 0; i < 1200 && seen < 2; i++) {
		usleep(50 * 1000);
		seen = hostile_count(marker);
	}
	if (seen < 2) {
		wait_for(gate, 0);
		hostile_kill_all(marker);
		slurp("err", err, sizeof err);
		cr_assert_fail("the kernel never started (%d processes): %s", seen, err);
	}
	kill(gate, *sig);
	int status = wait_for(gate, 10);
	int left = hostile_count_after_a_second(marker);
	hostile_kill_all(marker);
	slurp("err", err, sizeof err);
	cr_assert_neq(status, -1, "the gate did not end within 10 s of %s", strsignal(*sig));
	cr_expect(WIFEXITED(status), "the gate died of a signal: %d", status);
	cr_expect_eq(WEXITSTATUS(status), 128 + *sig, "exit %d: %s", WEXITSTATUS(status), err);
	cr_expect(strstr(err, "interrupted by SIG"), "%s", err);
	cr_expect_eq(left, 0, "%d processes of the kernel outlived the gate", left);
	cr_expect_eq(temporary_files(), 0, "a temporary file was left in %s", tmpdir);
}

/* crashy's modes, by index (a parameter is copied into the test's own
 * process, where a pointer to a string need not point at it) */
static const char *const left_behind_modes[] = { "setsid", "setsid-pipes" };

ParameterizedTestParameters(e2e_hostile, children_left_behind_end_with_their_samples)
{
	static int modes[] = { 0, 1 };
	return cr_make_param_array(int, modes, sizeof modes / sizeof *modes);
}

/* Each sample, the cost pass's under valgrind too, ends when its kernel
 * exits: a child left behind, holding the pipes or not (under valgrind it
 * holds valgrind's own descriptors above 1024 even after closing 0-1023),
 * is killed then, and no sample waits for its time limit. */
ParameterizedTest(int *index, e2e_hostile, children_left_behind_end_with_their_samples)
{
	const char *mode = left_behind_modes[*index];
	char marker[128], err[4096], out[65536];
	hostile_marker(mode, marker, sizeof marker);
	int status = wait_for(start_gate(mode, marker), 200);
	int left = hostile_count_after_a_second(marker);
	hostile_kill_all(marker);
	slurp("err", err, sizeof err);
	slurp("out", out, sizeof out);
	cr_assert_neq(status, -1, "the gate did not end: %s", err);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) != 4, "status %d: %s", status, err);
	cr_expect_eq(left, 0, "%d processes of the kernels outlived the gate", left);
	cr_expect(!strstr(out, "timed out") && !strstr(err, "timed out"),
		  "a sample waited for its time limit: %s%s", out, err);
}

Test(e2e_hostile, kernel_does_not_see_the_ci_files)
{
	char summary[300], github_env[300], seen_env[300], out_env[320], text[65536];
	snprintf(summary, sizeof summary, "%s/summary.md", tmpdir);
	snprintf(github_env, sizeof github_env, "%s/github_env", tmpdir);
	snprintf(seen_env, sizeof seen_env, "%s/seen", tmpdir);
	snprintf(out_env, sizeof out_env, "CRASHY_OUT=%s", seen_env);
	char summary_env[320], github_env_env[320];
	snprintf(summary_env, sizeof summary_env, "GITHUB_STEP_SUMMARY=%s", summary);
	snprintf(github_env_env, sizeof github_env_env, "GITHUB_ENV=%s", github_env);
	char *env[] = { summary_env, github_env_env, "GITHUB_TOKEN=secret", NULL };
	char *argv[E2E_ARGV_MAX] = { gate_path, "run", "--kernel-dir", kernel_dir,
				     "--baseline-dir", tmpdir, "--no-color", "--kernel", "crashy",
				     "--quick", "--env", "CRASHY_MODE=ci-files", "--env", out_env };
	struct spawn_output out;
	cr_assert_eq(spawn_run(argv, env, 200, &out), 0);
	cr_expect_eq(out.status, SPAWN_EXITED, "%s", out.err);
	slurp("seen", text, sizeof text);
	cr_expect(strstr(text, "GITHUB_ENV=unset\n"), "the kernel saw: %s", text);
	cr_expect(strstr(text, "GITHUB_STEP_SUMMARY=unset\n"), "the kernel saw: %s", text);
	cr_expect(strstr(text, "GITHUB_TOKEN=unset\n"), "the kernel saw: %s", text);
	cr_expect(strstr(text, "CRASHY_OUT=set\n"), "--env did not reach it: %s", text);
	slurp("summary.md", text, sizeof text);
	cr_expect(!strstr(text, "CRASHY WAS HERE"), "the kernel wrote the summary: %s", text);
	cr_expect(access(github_env, F_OK) != 0, "the kernel wrote GITHUB_ENV's file");
	spawn_output_free(&out);
}

/* Whether a process with MARKER runs valgrind (its tool's comm is
 * "callgrind-amd64" and the like). */
static int valgrind_running(const char *marker)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;
	while (d && !found && (e = readdir(d)) != NULL) {
		char path[300], comm[64] = "";
		if (e->d_name[0] < '1' || e->d_name[0] > '9' || !hostile_has_marker(e->d_name, marker))
			continue;
		snprintf(path, sizeof path, "/proc/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");
		if (f && fgets(comm, sizeof comm, f))
			found = !strncmp(comm, "callgrind", 9) || !strncmp(comm, "valgrind", 8);
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

Test(e2e_hostile, signal_during_the_cost_pass_ends_valgrind_and_its_files)
{
	char marker[128], tmp_env[320], cost_tmp[300];
	hostile_marker("cost", marker, sizeof marker);
	snprintf(cost_tmp, sizeof cost_tmp, "%s/tmp", tmpdir);
	cr_assert_eq(mkdir(cost_tmp, 0700), 0);
	snprintf(tmp_env, sizeof tmp_env, "TMPDIR=%s", cost_tmp);
	char *argv[] = { gate_path, "run", "--kernel-dir", kernel_dir, "--baseline-dir", tmpdir,
			 "--no-color", "--kernel", "toy", "--quick", "--cost", "--env", marker, NULL };
	pid_t gate = fork();
	cr_assert(gate >= 0);
	if (gate == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		putenv(tmp_env);
		unsetenv("ALLOCGATE_COST");
		default_signals();
		execv(argv[0], argv);
		_exit(127);
	}
	int seen = 0;
	for (int i = 0; i < 1200 && !seen && waitpid(gate, NULL, WNOHANG) == 0; i++) {
		usleep(50 * 1000);
		seen = valgrind_running(marker);
	}
	if (!seen) {
		wait_for(gate, 0);
		e2e_skip("no cost pass ran (no valgrind, or the run ended first)");
	}
	kill(gate, SIGINT);
	int status = wait_for(gate, 10);
	int left = hostile_count_after_a_second(marker);
	hostile_kill_all(marker);
	cr_assert_neq(status, -1, "the gate did not end within 10 s of SIGINT");
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 130, "status %d", status);
	cr_expect_eq(left, 0, "%d processes (valgrind) outlived the gate", left);
	DIR *d = opendir(cost_tmp);
	struct dirent *e;
	int dirs = 0;
	while (d && (e = readdir(d)) != NULL)
		dirs += !strncmp(e->d_name, "allocgate-cost-", 15);
	if (d)
		closedir(d);
	cr_expect_eq(dirs, 0, "the cost pass left %d temporary directories in %s", dirs, cost_tmp);
}
