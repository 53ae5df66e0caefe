/* test_counter_keep_linux.c: gates/os/counter_keep_linux.c: the gate holds one
 * disabled software event of each kind the probes open, once a process,
 * and no child sees them. Counted from /proc/self/fd; nothing is timed. */
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

/* How many of the probe's syscall tracepoints (its own list) tracefs
 * names here: the gate must hold each of them. */
static int tracepoints_named(void)
{
#define TRACEPOINT_NAME(counter, name) name,
	static const char *const names[] = { SYSCALL_TRACEPOINTS(TRACEPOINT_NAME) };
#undef TRACEPOINT_NAME
	int n = 0;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char path[160];
		snprintf(path, sizeof path, "/sys/kernel/tracing/events/syscalls/%s/id", names[i]);
		FILE *f = fopen(path, "r");
		if (!f) {
			snprintf(path, sizeof path, "/sys/kernel/debug/tracing/events/syscalls/%s/id",
				 names[i]);
			f = fopen(path, "r");
		}
		n += f != NULL;
		if (f)
			fclose(f);
	}
	return n;
}

Test(counter_keep, holds_each_tracepoint_for_a_pass_and_releases_them_all)
{
	int named = tracepoints_named();
	if (!named || geteuid() != 0)
		cr_skip_test("tracefs names no syscall tracepoint here, or not root: the gate "
			     "holds none, and the counted probes count no sys_* either");
	int before = perf_fds();
	int held = counter_keep_tracepoints_hold();
	cr_expect_eq(held, named, "held %d of the %d tracepoints tracefs names", held, named);
	cr_expect_eq(perf_fds(), before + held);
	/* a child of spawn_run: close-on-exec, not inherited */
	char *argv[] = { "/bin/ls", "-l", "/proc/self/fd/", NULL };
	struct spawn_output o;
	cr_assert_eq(spawn_run(argv, NULL, 30, &o), 0);
	cr_expect_null(strstr(o.out, "perf_event"), "the child holds a perf event:\n%s", o.out);
	spawn_output_free(&o);
	counter_keep_tracepoints_release();
	cr_expect_eq(perf_fds(), before, "every held tracepoint closed");
	cr_expect_eq(counter_keep_tracepoints_hold(), held, "held again for the next pass");
	counter_keep_tracepoints_release();
	cr_expect_eq(perf_fds(), before);
}
