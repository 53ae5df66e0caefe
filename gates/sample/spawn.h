/* spawn.h: run one kernel process with a time limit and capture its output.
 *
 * The OS-independent part is spawn.c (the settings, the child's
 * environment, the descriptions); the OS part (spawn_run, spawn_contain,
 * spawn_end_all, spawn_os_describe_signal) is one file per OS:
 * spawn_posix.c (fork/exec, poll, a process group per sample, SIGKILL;
 * on Linux the orphans through spawn_reap.h), spawn_windows.c
 * (CreateProcess, a job object per sample).
 *
 * Containment (docs/robustness.md, "Processes"): no process a kernel
 * started survives its sample. Linux: the gate is a child subreaper, so a
 * process the kernel left behind (its own session included) becomes the
 * gate's child and is killed and reaped when the sample ends. macOS: the
 * sample's process group is killed when it ends; a process that left the
 * group (setsid, setpgid) escapes. Windows: the job object is closed when
 * the sample ends (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, no breakaway).
 */
#ifndef GATE_SPAWN_H
#define GATE_SPAWN_H

#include <stddef.h>

enum spawn_status {
	SPAWN_EXITED,    /* exited; see exit_code */
	SPAWN_SIGNALED,  /* killed by a signal; see signal */
	SPAWN_TIMED_OUT, /* ran past the limit and was killed */
	SPAWN_FAILED,    /* could not be started; see error */
};

struct spawn_output {
	enum spawn_status status;
	int exit_code;
	int signal;
	int error;          /* errno when SPAWN_FAILED */
	unsigned os_error;  /* and the OS's own code where errno is too coarse
			     * (Windows: CreateProcess's GetLastError), else 0 */
	char *out;          /* stdout, NUL-terminated, at most SPAWN_OUTPUT_MAX bytes */
	size_t out_len;
	int out_truncated;  /* stdout was longer than SPAWN_OUTPUT_MAX */
	char *err;          /* stderr, NUL-terminated, at most SPAWN_OUTPUT_MAX bytes */
	size_t err_len;
	double seconds;     /* wall time of the whole process */
};

#define SPAWN_OUTPUT_MAX (1u << 20)

/* As ENV's first entry: the child gets ENV's assignments alone, not this
 * process's environment (the cost pass's fixed environment). */
#define SPAWN_ENV_CLEAR "-"

/* Runs ARGV (argv[0] is a path) with the extra environment assignments
 * ENV ("KEY=VALUE", NULL-terminated, may be NULL; SPAWN_ENV_CLEAR first:
 * those alone), kills it after
 * TIMEOUT_SECONDS, and fills OUT. Returns 0 (whatever the child did) or a
 * negative errno when the runner itself failed (no memory, no pipe). */
int spawn_run(char *const argv[], char *const env[], double timeout_seconds,
	      struct spawn_output *out);

/* Environment control for every later child: pin it to CPU PIN_CPU (-1:
 * no pinning), when NO_ASLR turn address-space randomisation off for it
 * (Linux personality), and when NO_THP transparent huge pages (Linux
 * prctl PR_SET_THP_DISABLE, inherited across exec); ignored elsewhere. So
 * that two runs differ only in what the user changed. */
void spawn_configure(int pin_cpu, int no_aslr, int no_thp);

/* When WITHHOLD, every later child gets this process's environment
 * without the CI's command files and credentials (spawn_env_withheld);
 * otherwise all of it. The gate turns it on; the extra assignments of
 * spawn_run (--env) are always passed. */
void spawn_configure_env(int withhold);

/* Whether the environment entry ENTRY ("NAME=VALUE") is kept from the
 * children when spawn_configure_env is on: NAME starts with GITHUB_,
 * ACTIONS_, RUNNER_ or INPUT_ (GitHub Actions' command files, runtime
 * tokens and action inputs), or contains TOKEN, SECRET, PASSWORD, PASSWD or
 * CREDENTIAL (any CI's credentials: CI_JOB_TOKEN, NPM_TOKEN, ...); letter
 * case ignored. */
int spawn_env_withheld(const char *entry);

/* The environment of a child as execve wants it: this process's ENVIRON
 * less what spawn_env_withheld keeps back (when configured), with ENV's
 * assignments ("KEY=VALUE", NULL-terminated; SPAWN_ENV_CLEAR first: ENV
 * alone) added or replacing the same names. A malloc'ed array whose
 * strings are ENVIRON's and ENV's (free the array only); NULL on no memory. */
char **spawn_env_build(char *const environ_[], char *const env[]);

/* Makes this process the keeper of every later child's descendants
 * (above: the subreaper on Linux). Call once, before any thread starts.
 * Returns 0, or -ENOSYS where the OS has no such thing (macOS: the process
 * group alone). */
int spawn_contain(void);

/* Kills every process a spawn_run of any thread is waiting on, and what
 * they started, and waits until they are gone; a later spawn_run starts
 * nothing (-EINTR). For an interrupted run (core/interrupt.h): call it
 * from the interrupt's thread, never from a signal handler. */
void spawn_end_all(void);

/* The most CPUs spawn_pin_thread takes. */
#define SPAWN_CPUS_MAX 64

/* Every later child that this thread starts runs on the COUNT CPUs of
 * CPUS (at most SPAWN_CPUS_MAX) instead of spawn_configure's pinning;
 * COUNT 0 goes back to it. Per thread: `gate ab --duet` starts its two
 * sides' samples from two threads at once, each on its own CPUs
 * (sample/duet.h). Linux and Windows; ignored on macOS. */
void spawn_pin_thread(const int *cpus, size_t count);

/* The CPUs this thread's children run on (spawn_pin_thread) into *CPUS;
 * how many (0: none set, spawn_pin_cpu applies). */
size_t spawn_thread_cpus(const int **cpus);

/* The settings of spawn_configure (for the OS implementations). */
int spawn_pin_cpu(void);
int spawn_no_aslr(void);
int spawn_no_thp(void);

/* OS part: how a process that ended as SPAWN_SIGNALED died, CODE being
 * its spawn_output.signal, into BUF: "killed by signal 11 (Segmentation
 * fault)" on POSIX; "crashed with exception 0xC0000005 (access
 * violation)" on Windows, where CODE holds the NTSTATUS it died of. */
void spawn_os_describe_signal(int code, char *buf, size_t size);

/* OS part: why a SPAWN_FAILED process could not be started, into BUF:
 * strerror(ERROR) on POSIX; on Windows also OS_ERROR, the system error
 * code ("Windows error 1450: Insufficient system resources exist ..."). */
void spawn_os_describe_start_failure(int error, unsigned os_error, char *buf, size_t size);

/* Frees the buffers of OUT. */
void spawn_output_free(struct spawn_output *out);

/* One line describing how the process ended, e.g. "killed by signal 11
 * (Segmentation fault)", "timed out after 30.0 s", "exit status 3". */
void spawn_describe(const struct spawn_output *out, char *buf, size_t size);

#endif
