/* counters_linux.c: the counter front on Linux, over perf_event_open.
 *
 * Events (man perf_event_open), all with inherit = 1 so that threads the
 * kernel creates after counters_open() are counted, and all counting from
 * the moment they are opened: a region is the difference of two reads.
 *
 *   software group, always:   task-clock (ns), page-faults,
 *                             context-switches, cpu-migrations,
 *                             minor-faults, major-faults
 *   hardware group, with PMU: cycles, instructions, cache-misses,
 *                             branch-misses (user + kernel, no hypervisor)
 *   tracepoint group, root:   raw_syscalls:sys_enter, one event per call
 *                             of mmap, munmap, brk, mremap, madvise, futex
 *                             (the allocator's system calls), each with the
 *                             filter "id == N" (syscall_tracepoints.h)
 *
 * Each group is read with one read(2) of PERF_FORMAT_GROUP |
 * PERF_FORMAT_ID | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING. The two
 * groups are kept apart on purpose: a hardware group is scheduled on the
 * PMU all or nothing and multiplexed with other users, and the clocks
 * must not share that fate (a group the PMU cannot fit would never count,
 * time_running 0). Kernels before group reads of inherited events were
 * allowed answer EINVAL to the open or the read: then every event is
 * opened and read on its own (still inherit = 1). When no event opens at
 * all (perf_event_paranoid, seccomp, no CONFIG_PERF_EVENTS) the POSIX
 * backend counts instead (counters_posix.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "counters/counters.h"
#include "counters/sched_wait.h"
#include "counters/syscall_tracepoints.h"

enum linux_mode { LINUX_GROUPS, LINUX_SINGLE, LINUX_POSIX };
enum { LINUX_SOFTWARE, LINUX_HARDWARE, LINUX_TRACE, LINUX_GROUP_COUNT };

#define LINUX_MAX_EVENTS 16
/* SYSCALL_TRACEPOINT as perf names it (subsystem:event) */
#define LINUX_TRACEPOINT_SHOWN "raw_syscalls:sys_enter"
#define LINUX_REASON_SIZE 192
#define LINUX_GROUP_WORDS(n) (3 + 2 * (n))  /* nr, enabled, running, {value, id} */
#define LINUX_SINGLE_WORDS 3                /* value, enabled, running */

static const struct linux_event_def {
	enum counter_id counter;
	uint32_t type;
	uint64_t config;
	int group;
	long syscall;             /* LINUX_TRACE: the call an event of SYSCALL_TRACEPOINT
				   * counts (its filter); the config is read from tracefs */
} linux_defs[LINUX_MAX_EVENTS] = {
	{ COUNTER_TASK_CLOCK_NS, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, LINUX_SOFTWARE, 0 },
	{ COUNTER_PAGE_FAULTS, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, LINUX_SOFTWARE, 0 },
	{ COUNTER_CTX_SWITCHES, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, LINUX_SOFTWARE, 0 },
	{ COUNTER_CPU_MIGRATIONS, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, LINUX_SOFTWARE, 0 },
	{ COUNTER_CYCLES, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, LINUX_HARDWARE, 0 },
	{ COUNTER_INSTRUCTIONS, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, LINUX_HARDWARE, 0 },
	{ COUNTER_CACHE_MISSES, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, LINUX_HARDWARE, 0 },
	{ COUNTER_BRANCH_MISSES, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, LINUX_HARDWARE, 0 },
	{ COUNTER_MINOR_FAULTS, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, LINUX_SOFTWARE, 0 },
	{ COUNTER_MAJOR_FAULTS, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, LINUX_SOFTWARE, 0 },
	/* the allocator's system calls (docs/counters.md): tracepoints, root only */
#define LINUX_TRACE_DEF(counter, nr) { counter, PERF_TYPE_TRACEPOINT, 0, LINUX_TRACE, nr },
	SYSCALL_TRACEPOINTS(LINUX_TRACE_DEF)
#undef LINUX_TRACE_DEF
};

struct linux_event {
	int fd;
	uint64_t id;     /* PERF_EVENT_IOC_ID, matches the group read */
	const struct linux_event_def *def;
};

struct linux_group {
	int leader;      /* fd read for the whole group; -1 when empty */
	size_t size;     /* events in the group */
	size_t offset;   /* first snapshot word of its read */
	uint32_t mask;   /* its counters */
};

static struct {
	enum linux_mode mode;
	struct linux_event events[LINUX_MAX_EVENTS];
	size_t event_count;
	struct linux_group groups[LINUX_GROUP_COUNT];
	int error[COUNTER_COUNT];                   /* errno of a failed open */
	bool filter_refused[COUNTER_COUNT];         /* error is the filter's */
	char reason[COUNTER_COUNT][LINUX_REASON_SIZE];
	struct counter_setup setup;
} lx = {
	/* before counters_open: no fd to read, wall_ns alone */
	.mode = LINUX_POSIX,
	.groups = { { .leader = -1 }, { .leader = -1 }, { .leader = -1 } },
	.setup = { .open = COUNTER_BIT(COUNTER_WALL_NS) },
};

static uint32_t linux_perf_mask(void)
{
	uint32_t mask = 0;
	for (size_t i = 0; i < LINUX_MAX_EVENTS; i++)
		mask |= COUNTER_BIT(linux_defs[i].counter);
	return mask;
}

/* Id of SYSCALL_TRACEPOINT from tracefs into *ID, read once a process (every
 * syscall counter is an event of it). As root, mounts tracefs on
 * /sys/kernel/tracing once when it is not (a fresh virtual machine or
 * container); 0, or -1 with errno ENOENT (EACCES when tracefs is there
 * but not readable: not root). */
static int linux_tracepoint_id(uint64_t *id)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	static bool looked;
	static int error;
	static uint64_t found;
	char path[160];
	unsigned long long v;
	int denied = 0;
	for (int attempt = 0; !looked && attempt < 2; attempt++) {
		for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
			snprintf(path, sizeof path, "%s/events/%s/id", roots[i], SYSCALL_TRACEPOINT);
			FILE *f = fopen(path, "r");
			denied |= !f && errno == EACCES;
			int ok = f && fscanf(f, "%llu", &v) == 1;
			if (f)
				fclose(f);
			if (ok) {
				found = v;
				looked = true;
				break;
			}
		}
		if (looked || attempt || geteuid() != 0)
			break;
		mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
	}
	if (!looked) {
		looked = true;
		error = denied ? EACCES : ENOENT;
	}
	*id = found;
	errno = error;
	return error ? -1 : 0;
}

static int linux_perf_event_open(const struct linux_event_def *def, bool grouped,
				 int group_fd)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = def->type;
	attr.config = def->config;
	if (def->group == LINUX_TRACE) {
		uint64_t id;
		if (linux_tracepoint_id(&id) < 0)
			return -1;   /* ENOENT or EACCES: explained by linux_explain_all */
		attr.config = id;
	}
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (grouped)
		attr.read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	attr.inherit = 1;
	attr.exclude_hv = def->type == PERF_TYPE_HARDWARE;
	/* A group leader starts disabled and is enabled once the group is
	 * complete (linux_enable_groups): seen on Linux 6.18, a sibling of another
	 * PMU (page-faults under task-clock) attached to a running leader
	 * does not count until the task is next scheduled in. */
	attr.disabled = grouped && group_fd < 0;
	/* pid 0: this process; cpu -1: on any CPU */
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, group_fd,
			    PERF_FLAG_FD_CLOEXEC);
}

/* Narrows tracepoint event FD to system call number NR ("id == NR"):
 * 0, or -1 with errno from PERF_EVENT_IOC_SET_FILTER. */
static int linux_filter_syscall(int fd, long nr)
{
	char filter[32];
	snprintf(filter, sizeof filter, "id == %ld", nr);
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter);
}

static void linux_close_all(void)
{
	for (size_t i = 0; i < lx.event_count; i++)
		close(lx.events[i].fd);
	lx.event_count = 0;
	for (int g = 0; g < LINUX_GROUP_COUNT; g++)
		lx.groups[g] = (struct linux_group){ .leader = -1 };
}

/* Closes group G and forgets its events. */
static void linux_drop_group(int g)
{
	size_t kept = 0;
	for (size_t e = 0; e < lx.event_count; e++) {
		if (lx.events[e].def->group == g)
			close(lx.events[e].fd);
		else
			lx.events[kept++] = lx.events[e];
	}
	lx.event_count = kept;
	lx.groups[g] = (struct linux_group){ .leader = -1 };
}

/* Records an opened event FD of DEF; in group mode the first of a group
 * leads it. */
static void linux_add_event(const struct linux_event_def *def, int fd, bool grouped)
{
	struct linux_event *e = &lx.events[lx.event_count++];
	struct linux_group *g = &lx.groups[def->group];
	e->fd = fd;
	e->def = def;
	e->id = 0;
	if (grouped && ioctl(fd, PERF_EVENT_IOC_ID, &e->id) != 0)
		e->id = UINT64_MAX;
	if (g->leader < 0)
		g->leader = fd;
	g->size++;
	g->mask |= COUNTER_BIT(def->counter);
}

/* Opens every wanted event. Returns 0, or -EINVAL when grouped and a
 * software event refused the group + inherit combination. */
static int linux_open_events(uint32_t want, bool grouped)
{
	linux_close_all();
	for (size_t i = 0; i < LINUX_MAX_EVENTS; i++) {
		const struct linux_event_def *def = &linux_defs[i];
		if (!(want & COUNTER_BIT(def->counter)))
			continue;
		int group_fd = grouped ? lx.groups[def->group].leader : -1;
		int fd = linux_perf_event_open(def, grouped, group_fd);
		if (fd < 0 && grouped && errno == EINVAL && def->type == PERF_TYPE_SOFTWARE) {
			linux_close_all();
			return -EINVAL;
		}
		lx.error[def->counter] = fd < 0 ? errno : 0;
		lx.filter_refused[def->counter] = fd >= 0 && def->group == LINUX_TRACE &&
						  linux_filter_syscall(fd, def->syscall) != 0;
		if (lx.filter_refused[def->counter]) {
			lx.error[def->counter] = errno;
			close(fd);
			fd = -1;
		}
		if (fd >= 0)
			linux_add_event(def, fd, grouped);
	}
	return 0;
}

/* Starts every group leader opened disabled, whole group at once.
 * A group that cannot start is closed and explained per counter. */
static void linux_enable_groups(void)
{
	for (int g = 0; g < LINUX_GROUP_COUNT; g++) {
		struct linux_group *grp = &lx.groups[g];
		if (grp->leader >= 0 &&
		    ioctl(grp->leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0) {
			int err = errno;
			for (size_t e = 0; e < lx.event_count; e++) {
				if (lx.events[e].def->group == g)
					lx.error[lx.events[e].def->counter] = err;
			}
			linux_drop_group(g);
		}
	}
}

/* Reads each group once, as a region will. Returns 0, or -EINVAL when the
 * kernel refuses group reads of inherited events. Other read errors close
 * nothing: the counters are reported as failed reads per region. */
static int linux_test_read(void)
{
	uint64_t words[LINUX_GROUP_WORDS(LINUX_MAX_EVENTS)];
	for (int g = 0; g < LINUX_GROUP_COUNT; g++) {
		const struct linux_group *grp = &lx.groups[g];
		if (grp->leader < 0)
			continue;
		if (read(grp->leader, words, sizeof words) < 0 && errno == EINVAL)
			return -EINVAL;
	}
	return 0;
}

static void linux_layout(void)
{
	size_t offset = 0;
	for (int g = 0; g < LINUX_GROUP_COUNT; g++) {
		lx.groups[g].offset = offset;
		if (lx.groups[g].leader >= 0)
			offset += LINUX_GROUP_WORDS(lx.groups[g].size);
	}
}

/* perf_event_paranoid as text ("?" when unreadable) into OUT. */
static void linux_paranoid(char *out, size_t size)
{
	int level;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	snprintf(out, size, "?");
	if (f) {
		if (fscanf(f, "%d", &level) == 1)
			snprintf(out, size, "%d", level);
		fclose(f);
	}
}

static void linux_explain_denied(char *out, size_t size)
{
	char paranoid[16];
	linux_paranoid(paranoid, sizeof paranoid);
	if (geteuid() == 0)
		snprintf(out, size, "not permitted even as root (perf_event_paranoid=%s; "
			 "a seccomp or container policy refuses perf_event_open)", paranoid);
	else /* user + kernel counting needs paranoid <= 1 (man perf_event_open) */
		snprintf(out, size, "not permitted (perf_event_paranoid=%s; run as root "
			 "or sysctl kernel.perf_event_paranoid=1)", paranoid);
}

/* Writes the reason for counter ID that failed to open with ERR; ANY_HW
 * tells whether some hardware event opened (then the PMU exists). */
static void linux_explain(enum counter_id id, int err, bool hardware, bool any_hw)
{
	char *out = lx.reason[id];
	size_t size = sizeof lx.reason[id];
	const char *what = strerror(err);

	switch (err) {
	case ENOENT: case ENODEV: case EOPNOTSUPP:
		snprintf(out, size, "%s (perf_event_open: %s)",
			 !hardware ? "not supported by this kernel" :
			 any_hw ? "not supported by this PMU" : "no hardware PMU", what);
		break;
	case EACCES: case EPERM:
		linux_explain_denied(out, size);
		break;
	case ENOSYS:
		snprintf(out, size, "perf_event_open not available (kernel without "
			 "CONFIG_PERF_EVENTS: %s)", what);
		break;
	case EMFILE: case ENFILE:
		snprintf(out, size, "too many open files (perf_event_open: %s)", what);
		break;
	default:
		snprintf(out, size, "perf_event_open: %s", what);
		break;
	}
}

static void linux_explain_all(uint32_t want)
{
	bool any_hw = lx.groups[LINUX_HARDWARE].size > 0;
	for (size_t i = 0; i < LINUX_MAX_EVENTS; i++) {
		const struct linux_event_def *def = &linux_defs[i];
		if (!(want & COUNTER_BIT(def->counter)) || !lx.error[def->counter])
			continue;
		if (def->group == LINUX_TRACE && lx.filter_refused[def->counter])
			snprintf(lx.reason[def->counter], sizeof lx.reason[def->counter],
				 "the tracepoint " LINUX_TRACEPOINT_SHOWN " refused a filter by "
				 "call number (PERF_EVENT_IOC_SET_FILTER: %s)",
				 strerror(lx.error[def->counter]));
		else if (def->group == LINUX_TRACE && lx.error[def->counter] == ENOENT)
			snprintf(lx.reason[def->counter], sizeof lx.reason[def->counter],
				 "no tracepoint " LINUX_TRACEPOINT_SHOWN " (tracefs not mounted on "
				 "/sys/kernel/tracing, or a kernel without "
				 "CONFIG_FTRACE_SYSCALLS)");
		else if (def->group == LINUX_TRACE && lx.error[def->counter] == EACCES)
			snprintf(lx.reason[def->counter], sizeof lx.reason[def->counter],
				 "no tracepoint " LINUX_TRACEPOINT_SHOWN " (tracefs is readable by "
				 "root only; run as root)");
		else
			linux_explain(def->counter, lx.error[def->counter],
				      def->type == PERF_TYPE_HARDWARE, any_hw);
	}
}

static enum linux_mode linux_choose_mode(uint32_t want)
{
	if (!(want & linux_perf_mask()))
		return LINUX_POSIX;
	if (linux_open_events(want, true) == 0) {
		linux_enable_groups();
		if (linux_test_read() == 0)
			return LINUX_GROUPS;
	}
	linux_close_all();
	linux_open_events(want, false);
	return LINUX_SINGLE;
}

/* The snapshot word of the run-queue wait (sched_wait.h): past every
 * perf layout (at most 48 words). */
#define LINUX_SCHED_WAIT_WORD (COUNTERS_SNAPSHOT_WORDS - 1)

static uint32_t linux_decode_groups(const struct counters_snapshot *s,
				    struct counter_raw *raw)
{
	uint32_t failed = 0;
	for (int g = 0; g < LINUX_GROUP_COUNT; g++) {
		const struct linux_group *grp = &lx.groups[g];
		const uint64_t *w = s->words + grp->offset;
		if (grp->leader < 0)
			continue;
		if (w[0] != grp->size) {
			failed |= grp->mask;
			continue;
		}
		for (size_t k = 0; k < grp->size; k++) {
			for (size_t e = 0; e < lx.event_count; e++) {
				if (lx.events[e].def->group != g || lx.events[e].id != w[4 + 2 * k])
					continue;
				raw[lx.events[e].def->counter] = (struct counter_raw){
					w[3 + 2 * k], w[1], w[2] };
			}
		}
	}
	return failed;
}

static void linux_decode_single(const struct counters_snapshot *s,
				struct counter_raw *raw)
{
	for (size_t e = 0; e < lx.event_count; e++) {
		const uint64_t *w = s->words + LINUX_SINGLE_WORDS * e;
		raw[lx.events[e].def->counter] = (struct counter_raw){ w[0], w[1], w[2] };
	}
}

/* Decodes snapshot S into RAW (COUNTER_COUNT entries); returns the
 * counters whose data is inconsistent. */
static uint32_t linux_decode(const struct counters_snapshot *s, struct counter_raw *raw)
{
	uint32_t failed = 0;
	memset(raw, 0, sizeof *raw * COUNTER_COUNT);
	raw[COUNTER_WALL_NS].value = s->wall_ns;
	if (lx.mode == LINUX_POSIX)
		posix_counters_decode(s, raw);
	else if (lx.mode == LINUX_GROUPS)
		failed = linux_decode_groups(s, raw);
	else
		linux_decode_single(s, raw);
	raw[COUNTER_SCHED_WAIT_NS].value = s->words[LINUX_SCHED_WAIT_WORD];
	return failed;
}

static void linux_read(struct counters_snapshot *s)
{
	if ((lx.setup.open & COUNTER_BIT(COUNTER_SCHED_WAIT_NS)) &&
	    sched_wait_read(&s->words[LINUX_SCHED_WAIT_WORD]))
		s->failed |= COUNTER_BIT(COUNTER_SCHED_WAIT_NS);
	if (lx.mode == LINUX_POSIX) {
		posix_counters_read(s);
	} else if (lx.mode == LINUX_GROUPS) {
		for (int g = 0; g < LINUX_GROUP_COUNT; g++) {
			const struct linux_group *grp = &lx.groups[g];
			size_t bytes = sizeof(uint64_t) * LINUX_GROUP_WORDS(grp->size);
			if (grp->leader >= 0 &&
			    read(grp->leader, s->words + grp->offset, bytes) != (ssize_t)bytes)
				s->failed |= grp->mask;
		}
	} else {
		for (size_t e = 0; e < lx.event_count; e++) {
			size_t bytes = sizeof(uint64_t) * LINUX_SINGLE_WORDS;
			if (read(lx.events[e].fd, s->words + LINUX_SINGLE_WORDS * e, bytes) !=
			    (ssize_t)bytes)
				s->failed |= COUNTER_BIT(lx.events[e].def->counter);
		}
	}
}

void counters_begin(struct counters_snapshot *s)
{
	s->failed = 0;
	linux_read(s);
	s->wall_ns = posix_counters_now_ns();
}

void counters_end(struct counters_snapshot *s)
{
	s->wall_ns = posix_counters_now_ns();
	s->failed = 0;
	linux_read(s);
}

void counters_add(struct counter_totals *totals,
		  const struct counters_snapshot *begin,
		  const struct counters_snapshot *end)
{
	struct counter_raw b[COUNTER_COUNT], e[COUNTER_COUNT];
	uint32_t failed = begin->failed | end->failed;
	failed |= linux_decode(begin, b);
	failed |= linux_decode(end, e);
	counter_totals_add(totals, &lx.setup, b, e, failed);
}

/* Minimum of COUNTERS_CALIBRATION_ROUNDS empty regions, per counter. */
static void linux_calibrate(void)
{
	struct counters_snapshot a, b;
	struct counter_raw ra[COUNTER_COUNT], rb[COUNTER_COUNT];
	for (int i = 0; i < COUNTERS_CALIBRATION_ROUNDS; i++) {
		counters_begin(&a);
		counters_end(&b);
		uint32_t failed = a.failed | b.failed;
		failed |= linux_decode(&a, ra);
		failed |= linux_decode(&b, rb);
		counter_setup_overhead(&lx.setup, ra, rb, failed);
	}
	counter_setup_finish(&lx.setup);
}

int counters_open(uint32_t want)
{
	uint32_t open = COUNTER_BIT(COUNTER_WALL_NS), scaled = 0;
	linux_close_all();
	memset(lx.error, 0, sizeof lx.error);
	memset(lx.reason, 0, sizeof lx.reason);
	lx.mode = linux_choose_mode(want);
	if (lx.event_count == 0) {
		linux_close_all();
		lx.mode = LINUX_POSIX;
	}
	linux_explain_all(want);
	if (lx.mode == LINUX_POSIX) {
		open |= posix_counters_offered() & want;
	} else {
		linux_layout();
		for (size_t e = 0; e < lx.event_count; e++)
			scaled |= COUNTER_BIT(lx.events[e].def->counter);
		open |= scaled;
	}
	if (want & COUNTER_BIT(COUNTER_SCHED_WAIT_NS)) {
		int err = sched_wait_open();
		if (err == 0)
			open |= COUNTER_BIT(COUNTER_SCHED_WAIT_NS);
		else
			snprintf(lx.reason[COUNTER_SCHED_WAIT_NS], LINUX_REASON_SIZE,
				 "/proc/thread-self/schedstat: %s", strerror(-err));
	}
	counter_setup_init(&lx.setup, open & (want | COUNTER_BIT(COUNTER_WALL_NS)), scaled);
	linux_calibrate();
	return 0;
}

bool counters_has(enum counter_id id)
{
	return (lx.setup.open & COUNTER_BIT(id)) != 0;
}

const char *counters_unavailable(enum counter_id id)
{
	if (counters_has(id) || lx.reason[id][0] == '\0')
		return NULL;
	return lx.reason[id];
}

const char *counters_backend(void)
{
	switch (lx.mode) {
	case LINUX_GROUPS:
		return "perf_event_open, one group read per event kind (inherit)";
	case LINUX_SINGLE:
		return "perf_event_open, events read one by one (inherit; this kernel "
		       "refuses group reads of inherited events)";
	case LINUX_POSIX:
		break;
	}
	return "clock_gettime + getrusage (perf_event_open gave no counter)";
}

uint64_t counters_now_ns(void)
{
	return posix_counters_now_ns();
}

int counters_cpu_count(void)
{
	return posix_counters_cpu_count();
}

void counters_close(void)
{
	linux_close_all();
	sched_wait_close();
	lx.setup.open = 0;
}
