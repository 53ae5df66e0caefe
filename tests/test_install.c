/* test_install.c: who runs apt-get (ci/deps.sh, ./gate, ci/test.sh,
 * docs/install.md). ./gate runs in a PATH whose first directory holds a
 * fake root (`id -u` prints 0), a fake apt-get that records its arguments
 * in APT_LOG and fails (an offline machine), a fake ldconfig that knows no
 * library (so --allocator jemalloc wants libjemalloc2) and fake dpkg,
 * ninja and python3 (no package database, nothing to build: build/gate as
 * it is). Each case counts apt-get's calls. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e_fixture.h"

static char bin[300], log_path[300];

/* Writes TMPDIR/bin/NAME, executable, with BODY after the #! line. */
static void fake(const char *name, const char *body)
{
	char path[400];
	snprintf(path, sizeof path, "%s/%s", bin, name);
	FILE *f = fopen(path, "w");
	cr_assert(f, "%s", path);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	cr_assert_eq(chmod(path, 0755), 0);
}

static void setup(void)
{
	e2e_prepare("install");
	snprintf(bin, sizeof bin, "%s/bin", tmpdir);
	snprintf(log_path, sizeof log_path, "%s/apt.log", tmpdir);
	cr_assert_eq(mkdir(bin, 0755), 0);
	fake("id", "[ \"${1:-}\" = -u ] && { echo 0; exit 0; }; exec /usr/bin/id \"$@\"");
	fake("apt-get", "echo \"$*\" >>\"$APT_LOG\"; exit 100");
	fake("ldconfig", "exit 0");
	fake("dpkg", "exit 1");
	fake("ninja", "echo 'ninja: no work to do.'");
	fake("python3", "exit 0");
	fake("valgrind", "exit 0");
}

TestSuite(install, .init = setup, .fini = e2e_cleanup, .timeout = 120);

/* Runs the shell command CMD from the repository root with the fakes
 * first on PATH and EXTRA (an assignment or NULL) in the environment;
 * returns its exit status, output in OUT. */
static int shell(const char *cmd, const char *extra, struct spawn_output *out)
{
	char path_env[4400], log_env[320];
	const char *path = getenv("PATH");
	snprintf(path_env, sizeof path_env, "PATH=%s:%s", bin, path ? path : "/usr/bin:/bin");
	snprintf(log_env, sizeof log_env, "APT_LOG=%s", log_path);
	char *env[] = { path_env, log_env, "ALLOCGATE_NO_INSTALL=", "ALLOCGATE_INSTALL_FAILED=",
			(char *)extra, NULL };
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	cr_assert_eq(spawn_run(argv, env, 100, out), 0);
	cr_assert_eq(out->status, SPAWN_EXITED, "%s", out->err);
	return out->exit_code;
}

/* How many times apt-get ran. */
static int apt_calls(void)
{
	FILE *f = fopen(log_path, "r");
	char line[512];
	int n = 0;
	while (f && fgets(line, sizeof line, f))
		n++;
	if (f)
		fclose(f);
	return n;
}

Test(install, root_runs_apt_get_once_per_run_when_it_fails)
{
	struct spawn_output out;
	/* valgrind's libc6-dbg (no dpkg) and jemalloc are both wanted: one
	 * apt-get update fails, nothing else is tried */
	int code = shell("./gate version --allocator jemalloc", NULL, &out);
	cr_expect_eq(code, 0, "%s", out.err);
	cr_expect(strstr(out.out, "allocgate "), "%s", out.out);
	cr_expect_eq(apt_calls(), 1, "apt-get ran %d times: %s", apt_calls(), out.err);
	spawn_output_free(&out);
}

Test(install, failure_is_remembered_by_the_commands_of_the_run)
{
	struct spawn_output out;
	/* as ci/test.sh: its own attempt, then the suite's ./gate runs */
	int code = shell(". ci/deps.sh; gate_optional_ensure; ./gate version --allocator jemalloc &&"
			 " ./gate version --allocator mimalloc", NULL, &out);
	cr_expect_eq(code, 0, "%s", out.err);
	cr_expect_eq(apt_calls(), 1, "apt-get ran %d times: %s", apt_calls(), out.err);
	spawn_output_free(&out);
}

Test(install, no_install_flag_runs_no_apt_get)
{
	struct spawn_output out;
	int code = shell("./gate --no-install version --allocator jemalloc", NULL, &out);
	cr_expect_eq(code, 0, "--no-install reached build/gate? %s", out.err);
	cr_expect(strstr(out.out, "allocgate "), "%s", out.out);
	cr_expect_eq(apt_calls(), 0, "apt-get ran %d times: %s", apt_calls(), out.err);
	spawn_output_free(&out);
}

Test(install, environment_runs_no_apt_get)
{
	struct spawn_output out;
	int code = shell("./gate version --allocator jemalloc", "ALLOCGATE_NO_INSTALL=1", &out);
	cr_expect_eq(code, 0, "%s", out.err);
	cr_expect_eq(apt_calls(), 0, "apt-get ran %d times: %s", apt_calls(), out.err);
	spawn_output_free(&out);
}

Test(install, missing_build_dependency_is_named_not_installed)
{
	struct spawn_output out;
	fake("pkg-config", "exit 1");   /* no jansson */
	int code = shell("./gate --no-install version", NULL, &out);
	cr_expect_eq(code, 2, "%s", out.err);
	cr_expect(strstr(out.err, "apt-get install libjansson-dev"), "%s", out.err);
	cr_expect_eq(apt_calls(), 0, "apt-get ran %d times: %s", apt_calls(), out.err);
	spawn_output_free(&out);
	code = shell("ci/test.sh --no-install", NULL, &out);
	cr_expect_eq(code, 2, "%s", out.err);
	cr_expect(strstr(out.err, "libjansson-dev"), "%s", out.err);
	cr_expect_eq(apt_calls(), 0, "ci/test.sh ran apt-get %d times: %s", apt_calls(), out.err);
	spawn_output_free(&out);
}

Test(install, optional_test_packages_are_installed_by_root_or_named)
{
	struct spawn_output out;
	fake("pkg-config", "exit 1");   /* no libbpf: the BPF group is wanted */
	int code = shell(". ci/deps.sh; gate_tests_optional_ensure", NULL, &out);
	cr_expect_eq(code, 0, "never fails: %s", out.err);
	cr_expect(strstr(out.err, "installing libbpf-dev"), "%s", out.err);
	cr_expect(strstr(out.err, "failed: the BPF tests skip"), "%s", out.err);
	/* apt-get update failed: no second group tries it again */
	cr_expect_eq(apt_calls(), 1, "apt-get ran %d times: %s", apt_calls(), out.err);
	spawn_output_free(&out);
	code = shell(". ci/deps.sh; gate_tests_optional_ensure", "ALLOCGATE_NO_INSTALL=1", &out);
	cr_expect_eq(code, 0, "%s", out.err);
	cr_expect(strstr(out.err, "the BPF tests skip without libbpf-dev"), "%s", out.err);
	cr_expect(strstr(out.err, "sudo apt-get install libbpf-dev"), "%s", out.err);
	cr_expect_eq(apt_calls(), 1, "apt-get ran again: %s", out.err);
	spawn_output_free(&out);
}
