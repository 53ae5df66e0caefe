/* test_probe_fail.c: how a kernel fails (perf/probe/probe_fail.c,
 * perf/probe/probe_params.c): gate_param_size's range check and
 * gate_fail, each run in a child process whose stderr and exit status
 * are read back. No kernel is set up, so the message's head is "kernel: ". */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "allocgate/probe.h"
#include "probe/params.h"

/* Removes from ERR the lines a sanitizer adds when a forked child of this
 * threaded test binary exits ("==PID==Running thread ... was not
 * suspended"): not the kernel's message. */
static void drop_sanitizer_lines(char *err)
{
	char *out = err;
	for (const char *line = err; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
		if (strncmp(line, "==", 2)) {
			memmove(out, line, len);
			out += len;
		}
		line += len;
	}
	*out = '\0';
}

/* Runs FN(ARG) in a child with stderr into ERR (ERR_SIZE bytes); returns
 * the child's exit status, or -1 when it did not exit. */
static int run_child(void (*fn)(const char *), const char *arg, char *err, size_t err_size)
{
	int fds[2], status;
	size_t n = 0;
	ssize_t got;
	cr_assert_eq(pipe(fds), 0);
	fflush(NULL);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		fn(arg);
		_exit(0);
	}
	close(fds[1]);
	while (n + 1 < err_size && (got = read(fds[0], err + n, err_size - 1 - n)) > 0)
		n += (size_t)got;
	err[n] = '\0';
	close(fds[0]);
	drop_sanitizer_lines(err);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void read_size(const char *values)
{
	struct gate_params p = { .kernel = "k", .name = "quick" };
	char err[128];
	cr_assert_eq(params_parse(values, &p, err, sizeof err), 0, "%s", err);
	printf("%zu\n", gate_param_size(&p, "n", 1, 10));
}

static void fail_errno(const char *fmt)
{
	errno = ENOMEM;
	gate_fail(fmt, 0);
}

Test(gate_param_size, returns_a_value_in_range)
{
	struct gate_params p = { .kernel = "k", .name = "quick" };
	char err[128];
	cr_assert_eq(params_parse("n=10 m=1", &p, err, sizeof err), 0);
	cr_expect_eq(gate_param_size(&p, "n", 1, 10), 10);
	cr_expect_eq(gate_param_size(&p, "m", 1, 10), 1);
}

Test(gate_param_size, out_of_range_names_the_set_key_and_range_and_exits_2)
{
	char err[256];
	cr_expect_eq(run_child(read_size, "n=0", err, sizeof err), 2);
	cr_expect_str_eq(err, "kernel: parameter set quick: n=0 is out of range "
			 "(expected 1 to 10)\n");
	cr_expect_eq(run_child(read_size, "n=11", err, sizeof err), 2);
	cr_expect_str_eq(err, "kernel: parameter set quick: n=11 is out of range "
			 "(expected 1 to 10)\n");
	cr_expect_eq(run_child(read_size, "n=-1", err, sizeof err), 2);
	cr_expect_str_eq(err, "kernel: parameter set quick: n=-1 is out of range "
			 "(expected 1 to 10)\n");
}

Test(gate_param_size, a_missing_key_exits_2)
{
	char err[256];
	cr_expect_eq(run_child(read_size, "m=1", err, sizeof err), 2);
	cr_expect(strstr(err, "parameter set quick has no key 'n'") != NULL, "%s", err);
}

Test(gate_fail, formats_the_reason_and_exits_1)
{
	char err[256];
	cr_expect_eq(run_child(fail_errno, "element %d is wrong", err, sizeof err), 1);
	cr_expect_str_eq(err, "kernel: element 0 is wrong\n");
}

Test(gate_fail, a_format_ending_in_a_colon_adds_strerror)
{
	char err[256];
	char want[128];
	snprintf(want, sizeof want, "kernel: malloc: %s\n", strerror(ENOMEM));
	cr_expect_eq(run_child(fail_errno, "malloc:", err, sizeof err), 1);
	cr_expect_str_eq(err, want);
}
