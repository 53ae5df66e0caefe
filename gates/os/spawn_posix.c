/* spawn_posix.c: spawn.h on POSIX: vfork (fork outside Linux), exec, poll
 * both pipes until the child exits, SIGKILL at the deadline. A fork copies
 * the gate's page tables and leaves every page of its heap to fault on its
 * next write, a cost that grows with the run's results (most of the gate's
 * own CPU time at 40 kernels: docs/measurements.md, "At scale"). The child
 * of a vfork shares the gate's memory until its execve: it only makes
 * system calls on its own stack (its errno writes land in the suspended
 * thread's). The child runs in its own process group; when it has exited,
 * before it is reaped (so that its pid, the group's id, cannot be
 * reused meanwhile), the rest of its group is killed, and with
 * spawn_contain on Linux every process it left behind elsewhere
 * (spawn_reap.h). The children being waited on are listed, under a lock
 * (the cost pass spawns from several threads), for that and for
 * spawn_end_all. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sched.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#endif

#include "sample/spawn.h"
#include "sample/spawn_reap.h"

/* The cost pass's threads (at most 64) and the main thread. */
#define LIVE_MAX 128

/* How long the pipes are still read once a sample has ended and what it
 * left behind was killed: enough for what is in them, not for a process
 * that escaped containment and holds them. */
#define SPAWN_DRAIN_SECONDS 1.0

/* The children spawn_run is waiting on, the other threads' included. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t live[LIVE_MAX];
static size_t live_count;
static int contained;   /* spawn_contain made this process a subreaper */
static int ending;      /* spawn_end_all: start nothing more */

extern char **environ;

int spawn_contain(void)
{
	int ret = spawn_reap_subreaper();
	contained = ret == 0;
	return ret;
}

static void live_remove(pid_t pid)
{
	for (size_t i = 0; i < live_count; i++)
		if (live[i] == pid) {
			live[i] = live[--live_count];
			return;
		}
}

void spawn_end_all(void)
{
	pthread_mutex_lock(&live_lock);
	ending = 1;
	for (size_t i = 0; i < live_count; i++) {
		kill(-live[i], SIGKILL);
		kill(live[i], SIGKILL);
	}
	/* gone: exited (not reaped: that is the waiting thread's) */
	for (size_t i = 0; i < live_count; i++) {
		siginfo_t info;
		while (waitid(P_PID, (id_t)live[i], &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
			;
	}
	if (contained)
		spawn_reap_adopted(live, live_count);
	/* the lock stays held: no thread starts or ends a child again */
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct sink {
	char *buf;
	size_t len;
	int truncated;
};

/* Reads what is available on FD into SINK; returns bytes read, 0 at EOF. */
static ssize_t drain(int fd, struct sink *sink)
{
	char chunk[65536];
	ssize_t n = read(fd, chunk, sizeof chunk);
	if (n <= 0)
		return n;
	size_t room = SPAWN_OUTPUT_MAX - sink->len;
	size_t take = (size_t)n < room ? (size_t)n : room;
	if (take < (size_t)n)
		sink->truncated = 1;
	if (take) {
		memcpy(sink->buf + sink->len, chunk, take);
		sink->len += take;
	}
	return n;
}

#ifdef __linux__
/* Whether this process has THP turned off for its children (--no-thp).
 * The flag belongs to the memory, is inherited by a child and kept across
 * execve (prctl(2)); a vfork child shares the gate's memory, so the gate
 * sets it on itself, as spawn_no_thp says, before each child (under
 * live_lock). A refusal is said once on the gate's stderr; the samples
 * still run. */
static int thp_off_now, thp_refused;

static void thp_for_children(void)
{
	int want = spawn_no_thp() != 0;
	if (want == thp_off_now || thp_refused)
		return;
	if (prctl(PR_SET_THP_DISABLE, want, 0, 0, 0) < 0) {
		thp_refused = 1;
		dprintf(STDERR_FILENO, "gate: cannot turn THP %s for the kernels: %s\n",
			want ? "off" : "on", strerror(errno));
		return;
	}
	thp_off_now = want;
}
#endif

/* Pinning (spawn_pin_thread, else spawn_configure) and ASLR for the child,
 * best effort: a failure is reported on the child's stderr and the sample
 * still runs. */
static void child_environment(void)
{
#ifdef __linux__
	const int *cpus;
	size_t count = spawn_thread_cpus(&cpus);   /* the forking thread's (fork keeps it) */
	int one = spawn_pin_cpu();
	if (!count && one >= 0) {
		cpus = &one;
		count = 1;
	}
	if (count) {
		cpu_set_t set;
		CPU_ZERO(&set);
		for (size_t i = 0; i < count; i++)
			if (cpus[i] >= 0 && cpus[i] < CPU_SETSIZE)
				CPU_SET(cpus[i], &set);
		if (sched_setaffinity(0, sizeof set, &set))
			dprintf(STDERR_FILENO, "gate: cannot pin to CPU %d%s: %s\n", cpus[0],
				count > 1 ? " and others" : "", strerror(errno));
	}
	if (spawn_no_aslr() && personality(ADDR_NO_RANDOMIZE) < 0)
		dprintf(STDERR_FILENO, "gate: cannot turn ASLR off: %s\n", strerror(errno));
#endif
}

/* In the child: only system calls and async-signal-safe functions (the
 * parent may have other threads; on Linux the child shares its memory),
 * ENVP built before; never returns. */
static void child_exec(char *const argv[], char *const envp[], int out_fd, int err_fd)
{
	sigset_t none;
	setpgid(0, 0);
	/* the gate blocks the signals its interrupt thread waits for
	 * (interrupt_posix.c); a kernel starts with none blocked */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	child_environment();
	dup2(out_fd, STDOUT_FILENO);
	dup2(err_fd, STDERR_FILENO);
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	execve(argv[0], argv, envp);
	dprintf(STDERR_FILENO, "cannot execute %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Reads what is available on FDS[0..1] into SINKS; an entry at EOF (or
 * error) gets fd -1. Returns how many are still open. */
static int drain_ready(struct pollfd *fds, struct sink **sinks)
{
	int open_count = 0;
	for (int i = 0; i < 2; i++) {
		if (fds[i].fd >= 0 && fds[i].revents) {
			ssize_t n = drain(fds[i].fd, sinks[i]);
			if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
				fds[i].fd = -1;
		}
		open_count += fds[i].fd >= 0;
	}
	return open_count;
}

/* Whether child PID has exited; it is not reaped (WNOWAIT), so that its
 * pid and group id stay its own. ECHILD counts as exited. */
static int has_exited(pid_t pid)
{
	siginfo_t info;
	info.si_pid = 0;
	if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno != EINTR;
	return info.si_pid == pid;
}

/* Reads both pipes into OUT and ERR until child PID exits or DEADLINE;
 * returns 1 when the deadline came first. The sample ends when the
 * kernel exits, not when its pipes close: a process it left behind may
 * hold them (under valgrind, in valgrind's own descriptors above 1024),
 * and one that closed them may go on (crashy's close-hang). The exit is
 * seen on a pidfd, else by polling waitid: 0.1 ms, doubling to 10 ms. */
static int collect_until_exit(int out_fd, int err_fd, pid_t pid, double deadline,
			      struct sink *out, struct sink *err)
{
	int exit_fd = spawn_reap_exit_fd(pid);
	struct pollfd fds[3] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 },
				 { exit_fd, POLLIN, 0 } };
	struct sink *sinks[2] = { out, err };
	double pause_ms = 0.1;
	int timed_out = 0;
	while (!has_exited(pid)) {
		double left_ms = (deadline - now_seconds()) * 1000;
		if (left_ms <= 0) {
			timed_out = 1;
			break;
		}
		double wait_ms = exit_fd >= 0 || left_ms < pause_ms ? left_ms : pause_ms;
		int ready = poll(fds, 3, (int)wait_ms + 1);
		if (ready > 0)
			drain_ready(fds, sinks);
		if (exit_fd < 0 && ready == 0 && pause_ms < 10)
			pause_ms *= 2;
	}
	if (exit_fd >= 0)
		close(exit_fd);
	return timed_out;
}

/* Reads both pipes into OUT and ERR until EOF on both or DEADLINE. */
static void collect_rest(int out_fd, int err_fd, double deadline, struct sink *out,
			 struct sink *err)
{
	struct pollfd fds[2] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };
	struct sink *sinks[2] = { out, err };
	int open_count = 2;
	while (open_count > 0) {
		double left = deadline - now_seconds();
		if (left <= 0)
			return;
		int ready = poll(fds, 2, (int)(left * 1000) + 1);
		if (ready < 0 && errno != EINTR)
			return;
		if (ready > 0)
			open_count = drain_ready(fds, sinks);
	}
}

static void finish(struct spawn_output *o, int status)
{
	if (WIFEXITED(status)) {
		o->status = SPAWN_EXITED;
		o->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		o->status = SPAWN_SIGNALED;
		o->signal = WTERMSIG(status);
	}
}

/* A pipe whose ends no other child inherits: the cost pass spawns from
 * several threads at once, and a write end leaked into another thread's
 * child would keep this one's pipe open until that child exits. */
static int pipe_cloexec(int fds[2])
{
#ifdef __linux__
	return pipe2(fds, O_CLOEXEC);
#else
	if (pipe(fds))
		return -1;
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	return 0;
#endif
}

/* Once child PID has exited (not yet reaped, so that its pid and group id
 * stay its own): kills what is left of its process group and, when
 * contained, every child of this process but the others being waited on
 * (what PID left behind, reparented here). */
static void end_sample(pid_t pid)
{
	pthread_mutex_lock(&live_lock);
	kill(-pid, SIGKILL);
	if (contained)
		spawn_reap_adopted(live, live_count);
	live_remove(pid);
	pthread_mutex_unlock(&live_lock);
}

/* The started child PID, its output read from OUT_FD and ERR_FD into OUT
 * and ERR until it exits, or until DEADLINE, when it and its process
 * group are killed; everything it started ended, then its status and its
 * time since START into O. */
static void collect_child(pid_t pid, int out_fd, int err_fd, double start, double deadline,
			  struct sink *out, struct sink *err, struct spawn_output *o)
{
	int timed_out = collect_until_exit(out_fd, err_fd, pid, deadline, out, err);
	if (timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		siginfo_t info;
		while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
			;
	}
	end_sample(pid);
	/* what is left in the pipes: EOF comes at once, now that every
	 * process that held them is gone, but for one that escaped
	 * containment (macOS: another process group) */
	collect_rest(out_fd, err_fd, now_seconds() + SPAWN_DRAIN_SECONDS, out, err);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	o->seconds = now_seconds() - start;
	finish(o, status);
	if (timed_out)
		o->status = SPAWN_TIMED_OUT;
}

int spawn_run(char *const argv[], char *const env[], double timeout_seconds,
	      struct spawn_output *o)
{
	int out_pipe[2] = { -1, -1 }, err_pipe[2] = { -1, -1 };
	struct sink out = { 0 }, err = { 0 };
	int ret = -ENOMEM;
	char **envp = spawn_env_build(environ, env);
	memset(o, 0, sizeof *o);
	out.buf = malloc(SPAWN_OUTPUT_MAX + 1);
	err.buf = malloc(SPAWN_OUTPUT_MAX + 1);
	if (!out.buf || !err.buf || !envp)
		goto fail;
	if (pipe_cloexec(out_pipe) || pipe_cloexec(err_pipe)) {
		ret = -errno;
		goto fail;
	}
	double start = now_seconds();
	pthread_mutex_lock(&live_lock);
	if (ending || live_count == LIVE_MAX) {
		pthread_mutex_unlock(&live_lock);
		ret = ending ? -EINTR : -EAGAIN;
		goto fail;
	}
#ifdef __linux__
	thp_for_children();
	pid_t pid = vfork();
#else
	pid_t pid = fork();
#endif
	if (pid == 0)
		child_exec(argv, envp, out_pipe[1], err_pipe[1]);
	if (pid > 0) {
		live[live_count++] = pid;
		setpgid(pid, pid);
	}
	pthread_mutex_unlock(&live_lock);
	if (pid < 0) {
		o->status = SPAWN_FAILED;
		o->error = errno;
		ret = 0;
		goto fail;
	}
	close(out_pipe[1]);
	close(err_pipe[1]);
	out_pipe[1] = err_pipe[1] = -1;
	collect_child(pid, out_pipe[0], err_pipe[0], start, start + timeout_seconds, &out, &err, o);
	out.buf[out.len] = '\0';
	err.buf[err.len] = '\0';
	o->out = out.buf;
	o->out_len = out.len;
	o->out_truncated = out.truncated;
	o->err = err.buf;
	o->err_len = err.len;
	out.buf = err.buf = NULL;
	ret = 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (out_pipe[i] >= 0)
			close(out_pipe[i]);
		if (err_pipe[i] >= 0)
			close(err_pipe[i]);
	}
	free(out.buf);
	free(err.buf);
	free(envp);
	return ret;
}

void spawn_os_describe_signal(int code, char *buf, size_t size)
{
	snprintf(buf, size, "killed by signal %d (%s)", code, strsignal(code));
}

void spawn_os_describe_start_failure(int error, unsigned os_error, char *buf, size_t size)
{
	(void)os_error;
	snprintf(buf, size, "%s", strerror(error));
}
