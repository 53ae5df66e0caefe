/* test_counter_keep_linux.c: gates/os/counter_keep_linux.c: the gate holds one
 * disabled software event of each kind the probes open, once a process,
 * and no child sees them; around a counted pass, the one tracepoint the
 * probes' syscall counters are events of. Counted from /proc/self/fd;
 * nothing is timed. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters/syscall_tracepoints.h"
#include "sample/counter_keep.h"
#include "sample/spawn.h"

/* Descriptors of this process that are perf events. */
static int perf_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	cr_assert(d, "no /proc/self/fd");
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		char path[300], target[256];
		snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
		ssize_t len = readlink(path, target, sizeof target - 1);
		if (len > 0) {
			target[len] = '\0';
			n += strstr(target, "perf_event") != NULL;
		}
	}
	closedir(d);
	return n;
}

/* Whether this process may open a software event at all. */
static int software_events_allowed(void)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof attr;
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.disabled = 1;
	long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return 0;
	close((int)fd);
	return 1;
}

Test(counter_keep, holds_each_kind_once_and_no_child_sees_them)
{
	if (!software_events_allowed())
		cr_skip_test("perf_event_open refuses software events here (perf_event_paranoid "
			     "or a seccomp filter): the gate holds none, as documented");
	int before = perf_fds();
	int held = counter_keep_open();
	cr_expect_eq(held, 5, "held %d of the 5 software kinds", held);
	cr_expect_eq(perf_fds(), before + held);
	cr_expect_eq(counter_keep_open(), held, "a second call opens nothing more");
	cr_expect_eq(perf_fds(), before + held);
	/* a child of spawn_run: close-on-exec, not inherited */
	char *argv[] = { "/bin/ls", "-l", "/proc/self/fd/", NULL };
	struct spawn_output o;
	cr_assert_eq(spawn_run(argv, NULL, 30, &o), 0);
	cr_assert(o.status == SPAWN_EXITED && o.exit_code == 0, "ls: %s", o.err);
	cr_expect_null(strstr(o.out, "perf_event"), "the child holds a perf event:\n%s", o.out);
	spawn_output_free(&o);
}

/* Whether tracefs names the probe's syscall tracepoint here. */
static int tracepoint_named(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	for (size_t i = 0; i < sizeof roots / sizeof *roots; i++) {
		char path[160];
		snprintf(path, sizeof path, "%s/events/%s/id", roots[i], SYSCALL_TRACEPOINT);
		FILE *f = fopen(path, "r");
		if (f) {
			fclose(f);
			return 1;
		}
	}
	return 0;
}

Test(counter_keep, holds_the_probes_syscall_tracepoint)
{
	/* the layers keep the gate from including the probe's header: the
	 * names are checked here, where both are seen */
	cr_expect_str_eq(COUNTER_KEEP_TRACEPOINT, SYSCALL_TRACEPOINT);
}

Test(counter_keep, holds_the_tracepoint_for_a_pass_and_releases_it)
{
	if (!tracepoint_named() || geteuid() != 0)
		cr_skip_test("tracefs names no " SYSCALL_TRACEPOINT " here, or not root: the gate "
			     "holds none, and the counted probes count no sys_* either");
	int before = perf_fds();
	cr_expect_eq(counter_keep_tracepoints_hold(), 1);
	cr_expect_eq(perf_fds(), before + 1);
	cr_expect_eq(counter_keep_tracepoints_hold(), 1, "a second hold opens nothing more");
	cr_expect_eq(perf_fds(), before + 1);
	/* a child of spawn_run: close-on-exec, not inherited */
	char *argv[] = { "/bin/ls", "-l", "/proc/self/fd/", NULL };
	struct spawn_output o;
	cr_assert_eq(spawn_run(argv, NULL, 30, &o), 0);
	cr_expect_null(strstr(o.out, "perf_event"), "the child holds a perf event:\n%s", o.out);
	spawn_output_free(&o);
	counter_keep_tracepoints_release();
	cr_expect_eq(perf_fds(), before, "the held tracepoint closed");
	cr_expect_eq(counter_keep_tracepoints_hold(), 1, "held again for the next pass");
	counter_keep_tracepoints_release();
	cr_expect_eq(perf_fds(), before);
}
