/* spawn.h: run one kernel process with a time limit and capture its output.
 *
 * The OS-independent part is spawn.c; the OS part (spawn_run and
 * spawn_os_describe_signal) is one file per OS: spawn_posix.c (fork/exec,
 * poll, SIGKILL), spawn_windows.c (CreateProcess, job object).
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

/* The settings of spawn_configure (for the OS implementations). */
int spawn_pin_cpu(void);
int spawn_no_aslr(void);
int spawn_no_thp(void);

/* OS part: how a process that ended as SPAWN_SIGNALED died, CODE being
 * its spawn_output.signal, into BUF: "killed by signal 11 (Segmentation
 * fault)" on POSIX; "crashed with exception 0xC0000005 (access
 * violation)" on Windows, where CODE holds the NTSTATUS it died of. */
void spawn_os_describe_signal(int code, char *buf, size_t size);

/* Frees the buffers of OUT. */
void spawn_output_free(struct spawn_output *out);

/* One line describing how the process ended, e.g. "killed by signal 11
 * (Segmentation fault)", "timed out after 30.0 s", "exit status 3". */
void spawn_describe(const struct spawn_output *out, char *buf, size_t size);

#endif
