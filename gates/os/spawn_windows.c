/* spawn_windows.c: spawn.h on Windows: CreateProcess (suspended) with
 * stdout and stderr on two pipes, each drained by a thread; the child is
 * put in a job object with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE before it
 * runs, so when it exits, or at the deadline, TerminateJobObject kills
 * everything it started, as the process group does in spawn_posix.c; the
 * sample ends then, whoever still holds its pipes.
 *
 * A process that dies of an exception (exit code an NTSTATUS of error
 * severity, 0xCxxxxxxx, e.g. 0xC0000005 access violation) is
 * reported as SPAWN_SIGNALED with the code in SIGNAL; spawn_describe names
 * it. spawn_no_aslr() is ignored here: ASLR is a property of the image
 * (/DYNAMICBASE) and cannot be turned off per process by the parent.
 *
 * Run under wine 8.0 by tests/test_windows_gate.c (crash, hang, exit
 * status, garbage and flood kernels); not yet on native Windows.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <errno.h>
#include <process.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/message.h"
#include "sample/spawn.h"

/* How long to wait for the reader threads once the job is killed. */
#define DRAIN_GRACE_MS 5000

static double now_seconds(void)
{
	LARGE_INTEGER f, c;
	QueryPerformanceFrequency(&f);
	QueryPerformanceCounter(&c);
	return (double)c.QuadPart / (double)f.QuadPart;
}

struct sink {
	HANDLE pipe;
	char *buf;
	size_t len;
	int truncated;
};

/* Reader thread: drains SINK's pipe until EOF, keeping the first
 * SPAWN_OUTPUT_MAX bytes (the rest is read and dropped, so the child never
 * blocks on a full pipe). */
static unsigned __stdcall drain_thread(void *arg)
{
	struct sink *sink = arg;
	char chunk[65536];
	DWORD n;

	while (ReadFile(sink->pipe, chunk, sizeof chunk, &n, NULL) && n > 0) {
		size_t room = SPAWN_OUTPUT_MAX - sink->len;
		size_t take = n < room ? n : room;
		if (take < n)
			sink->truncated = 1;
		memcpy(sink->buf + sink->len, chunk, take);
		sink->len += take;
	}
	return 0;
}

/* Appends ARG to CMD (at *POS, CMD of SIZE) quoted as CommandLineToArgvW
 * and the MSVCRT startup code parse it back: quotes only when needed,
 * backslashes doubled only before a quote. Returns 0 or -E2BIG. */
static int quote_arg(char *cmd, size_t size, size_t *pos, const char *arg)
{
	size_t p = *pos;
	int plain = *arg && !strpbrk(arg, " \t\n\v\"");
#define PUT(c) do { if (p + 1 >= size) return -E2BIG; cmd[p++] = (c); } while (0)
	if (p)
		PUT(' ');
	if (!plain)
		PUT('"');
	for (const char *s = arg;; s++) {
		size_t slashes = 0;
		while (*s == '\\') {
			s++;
			slashes++;
		}
		/* Before a quote or the closing quote, each backslash doubles. */
		size_t times = !plain && (*s == '"' || !*s) ? 2 * slashes : slashes;
		for (size_t i = 0; i < times; i++)
			PUT('\\');
		if (!*s)
			break;
		if (*s == '"')
			PUT('\\');
		PUT(*s);
	}
	if (!plain)
		PUT('"');
#undef PUT
	cmd[p] = '\0';
	*pos = p;
	return 0;
}

/* The command line for ARGV, malloc'ed; NULL on no memory or too long. */
static char *command_line(char *const argv[])
{
	size_t size = 1, pos = 0;
	for (size_t i = 0; argv[i]; i++)
		size += 2 * strlen(argv[i]) + 3;
	char *cmd = malloc(size);
	if (!cmd)
		return NULL;
	cmd[0] = '\0';
	for (size_t i = 0; argv[i]; i++)
		if (quote_arg(cmd, size, &pos, argv[i]) < 0) {
			free(cmd);
			return NULL;
		}
	return cmd;
}

static int by_key(const void *a, const void *b)
{
	return _stricmp(*(const char *const *)a, *(const char *const *)b);
}

/* The environment block for the child: this process's environment
 * (GetEnvironmentStrings) less what spawn_env_withheld keeps back, with
 * ENV's assignments added or replacing entries of the same key
 * (spawn_env_build), sorted as CreateProcess wants it. NULL when there is
 * nothing to change (inherit), or on no memory (*FAILED set). */
static char *environment_block(char *const env[], int *failed)
{
	char *parent, *block = NULL, **list = NULL, **mine = NULL;
	size_t count = 0, total = 1;
	int withhold = 0;

	*failed = 0;
	parent = GetEnvironmentStringsA();
	for (const char *e = parent; e && *e; e += strlen(e) + 1)
		count++;
	mine = malloc((count + 1) * sizeof *mine);
	count = 0;
	for (char *e = parent; mine && e && *e; e += strlen(e) + 1) {
		mine[count++] = e;
		withhold = withhold || spawn_env_withheld(e);
	}
	if (mine)
		mine[count] = NULL;
	if (mine && !withhold && (!env || !env[0])) {
		free(mine);
		FreeEnvironmentStringsA(parent);
		return NULL;
	}
	/* spawn_env_build drops withheld entries only when configured */
	list = mine ? spawn_env_build(mine, env) : NULL;
	count = 0;
	while (list && list[count])
		count++;
	if (list)
		qsort(list, count, sizeof *list, by_key);
	for (size_t i = 0; list && i < count; i++)
		total += strlen(list[i]) + 1;
	block = list ? malloc(total + 1) : NULL;
	if (block) {
		char *p = block;
		for (size_t i = 0; i < count; i++)
			p += sprintf(p, "%s", list[i]) + 1;
		*p++ = '\0';
		*p = '\0';
	}
	*failed = !block;
	free(list);
	free(mine);
	if (parent)
		FreeEnvironmentStringsA(parent);
	return block;
}

/* The jobs of the samples running now, of every thread, for spawn_end_all. */
#define LIVE_MAX 128
static SRWLOCK live_lock = SRWLOCK_INIT;
static HANDLE live[LIVE_MAX];
static size_t live_count;
static int ending;

/* Lists JOB as running; 0, or -EINTR after spawn_end_all, -EAGAIN when full. */
static int live_add(HANDLE job)
{
	int ret = 0;
	AcquireSRWLockExclusive(&live_lock);
	if (ending || live_count == LIVE_MAX)
		ret = ending ? -EINTR : -EAGAIN;
	else
		live[live_count++] = job;
	ReleaseSRWLockExclusive(&live_lock);
	return ret;
}

static void live_remove(HANDLE job)
{
	AcquireSRWLockExclusive(&live_lock);
	for (size_t i = 0; i < live_count; i++)
		if (live[i] == job) {
			live[i] = live[--live_count];
			break;
		}
	ReleaseSRWLockExclusive(&live_lock);
}

/* The job object is the containment: nothing to set up for the process. */
int spawn_contain(void)
{
	return 0;
}

void spawn_end_all(void)
{
	AcquireSRWLockExclusive(&live_lock);
	ending = 1;
	for (size_t i = 0; i < live_count; i++)
		TerminateJobObject(live[i], 1);
	/* the lock stays held: no thread starts or ends a sample again */
}

/* A job that kills its processes when its last handle closes; NULL on error. */
static HANDLE kill_on_close_job(void)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION info;
	HANDLE job = CreateJobObjectA(NULL, NULL);
	if (!job)
		return NULL;
	memset(&info, 0, sizeof info);
	info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
	if (!SetInformationJobObject(job, JobObjectExtendedLimitInformation, &info, sizeof info)) {
		CloseHandle(job);
		return NULL;
	}
	return job;
}

/* An errno for CODE, the Windows error of a failed CreateProcess. */
static int start_errno(DWORD code)
{
	switch (code) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
		return EACCES;
	case ERROR_BAD_EXE_FORMAT:
		return ENOEXEC;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
		return ENOMEM;
	default:
		return EINVAL;
	}
}

/* Whether a CreateProcess that failed with CODE may start when tried
 * again: every error but the ones about the file itself (missing, not
 * allowed, not an executable), which the next try would meet again. */
static int start_may_succeed_later(DWORD code)
{
	return code != ERROR_FILE_NOT_FOUND && code != ERROR_PATH_NOT_FOUND &&
	       code != ERROR_ACCESS_DENIED && code != ERROR_BAD_EXE_FORMAT;
}

/* How many times a start that may succeed later is tried, and the pause
 * between tries (ms): under wine on a loaded machine one start of a
 * kernel that had started four times before failed (docs/robustness.md). */
#define START_TRIES 3
#define START_RETRY_PAUSE_MS 100

/* Pipes for the child's stdout and stderr: READ[i] for us, WRITE[i]
 * inheritable. Returns 0 or -EMFILE. */
static int make_pipes(HANDLE read[2], HANDLE write[2])
{
	SECURITY_ATTRIBUTES sa = { sizeof sa, NULL, TRUE };
	for (int i = 0; i < 2; i++) {
		if (!CreatePipe(&read[i], &write[i], &sa, 0))
			return -EMFILE;
		SetHandleInformation(read[i], HANDLE_FLAG_INHERIT, 0);
	}
	return 0;
}

/* Pins PROCESS to this thread's CPUs (spawn_pin_thread), else to
 * spawn_pin_cpu() when set; a failure is reported on the gate's stderr
 * and the sample still runs (as on POSIX). */
static void pin_child(HANDLE process)
{
	const int *cpus;
	size_t count = spawn_thread_cpus(&cpus);   /* this thread's, else --pin-cpu */
	int one = spawn_pin_cpu();
	if (!count && one >= 0) {
		cpus = &one;
		count = 1;
	}
	if (!count)
		return;
	DWORD_PTR mask = 0;
	for (size_t i = 0; i < count; i++)
		if (cpus[i] >= 0 && cpus[i] < (int)(8 * sizeof(DWORD_PTR)))
			mask |= (DWORD_PTR)1 << cpus[i];
	if (!mask || !SetProcessAffinityMask(process, mask))
		message_error("cannot pin to CPU %d%s: Windows error %lu", cpus[0],
			count > 1 ? " and others" : "", (unsigned long)GetLastError());
}

/* Starts ARGV suspended with the pipes' write ends as stdout/stderr, puts
 * it in JOB, pins it and lets it run. Returns 0 or an errno (start failed). */
static int start_child(char *const argv[], char *const env[], HANDLE job, HANDLE write[2],
		       PROCESS_INFORMATION *pi, unsigned *os_error)
{
	STARTUPINFOA si;
	SECURITY_ATTRIBUTES sa = { sizeof sa, NULL, TRUE };
	int failed, error = 0;
	char *cmd = command_line(argv), *block = environment_block(env, &failed);
	HANDLE in = CreateFileA("NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa,
				OPEN_EXISTING, 0, NULL);

	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = in;
	si.hStdOutput = write[0];
	si.hStdError = write[1];
	if (!cmd || failed)
		error = ENOMEM;
	for (int try = 1; !error; try++) {
		if (CreateProcessA(argv[0], cmd, NULL, NULL, TRUE,
				   CREATE_SUSPENDED | CREATE_NO_WINDOW, block, NULL, &si, pi))
			break;
		DWORD code = GetLastError();
		if (try < START_TRIES && start_may_succeed_later(code)) {
			Sleep(START_RETRY_PAUSE_MS);
			continue;
		}
		*os_error = (unsigned)code;
		error = start_errno(code);
	}
	if (!error && !AssignProcessToJobObject(job, pi->hProcess)) {
		TerminateProcess(pi->hProcess, 127);
		CloseHandle(pi->hThread);
		CloseHandle(pi->hProcess);
		error = EPERM;
	}
	if (!error) {
		pin_child(pi->hProcess);
		ResumeThread(pi->hThread);
		CloseHandle(pi->hThread);
	}
	if (in != INVALID_HANDLE_VALUE)
		CloseHandle(in);
	free(cmd);
	free(block);
	return error;
}

/* Waits for PROCESS until DEADLINE, then ends what is left in JOB (the
 * sample ends when its kernel exits, not when its pipes close: a process
 * it left behind may hold them) and gives the READERS a grace period.
 * Returns 1 when the deadline came first. */
static int wait_all(HANDLE process, HANDLE readers[2], HANDLE job, double deadline)
{
	double left = deadline - now_seconds();
	DWORD ms = left <= 0 ? 0 : (DWORD)(left * 1000) + 1;
	int timed_out = WaitForSingleObject(process, ms) == WAIT_TIMEOUT;
	TerminateJobObject(job, 1);   /* an exited process keeps its exit code */
	WaitForSingleObject(process, INFINITE);
	if (WaitForMultipleObjects(2, readers, TRUE, DRAIN_GRACE_MS) == WAIT_TIMEOUT) {
		/* A process outside the job holds a pipe: stop reading. */
		CancelSynchronousIo(readers[0]);
		CancelSynchronousIo(readers[1]);
		WaitForMultipleObjects(2, readers, TRUE, INFINITE);
	}
	return timed_out;
}

static void finish(struct spawn_output *o, HANDLE process)
{
	DWORD code = 0;
	GetExitCodeProcess(process, &code);
	/* NTSTATUS errors (0xCxxxxxxx) and MSVC's C++ exception code; exit(-1)
	 * (0xFFFFFFFF) stays an exit status. */
	if ((code & 0xF0000000u) == 0xC0000000u || code == 0xE06D7363u) {
		o->status = SPAWN_SIGNALED;
		o->signal = (int)code;
	} else {
		o->status = SPAWN_EXITED;
		o->exit_code = (int)code;
	}
}

/* Moves the sinks' buffers into O. */
static void hand_over(struct spawn_output *o, struct sink *out, struct sink *err)
{
	out->buf[out->len] = '\0';
	err->buf[err->len] = '\0';
	o->out = out->buf;
	o->out_len = out->len;
	o->out_truncated = out->truncated;
	o->err = err->buf;
	o->err_len = err->len;
	out->buf = err->buf = NULL;
}

/* Starts a thread draining each of the child's pipes RD into OUT and ERR
 * (READERS). Returns 0, or -EAGAIN when one did not start: then the child
 * (JOB) is killed, RD closed and the reader that started waited for. */
static int start_readers(HANDLE rd[2], HANDLE readers[2], HANDLE job, struct sink *out,
			 struct sink *err)
{
	out->pipe = rd[0];
	err->pipe = rd[1];
	readers[0] = (HANDLE)_beginthreadex(NULL, 0, drain_thread, out, 0, NULL);
	readers[1] = (HANDLE)_beginthreadex(NULL, 0, drain_thread, err, 0, NULL);
	if (readers[0] && readers[1])
		return 0;
	/* Without both readers the child could block: kill it. */
	TerminateJobObject(job, 1);
	CloseHandle(rd[0]);
	CloseHandle(rd[1]);
	rd[0] = rd[1] = NULL;
	for (int i = 0; i < 2; i++)
		if (readers[i])
			WaitForSingleObject(readers[i], INFINITE);
	return -EAGAIN;
}

int spawn_run(char *const argv[], char *const env[], double timeout_seconds,
	      struct spawn_output *o)
{
	HANDLE rd[2] = { NULL, NULL }, wr[2] = { NULL, NULL }, readers[2] = { NULL, NULL };
	HANDLE job = NULL;
	PROCESS_INFORMATION pi;
	struct sink out = { 0 }, err = { 0 };
	int ret = -ENOMEM, error;

	memset(o, 0, sizeof *o);
	out.buf = malloc(SPAWN_OUTPUT_MAX + 1);
	err.buf = malloc(SPAWN_OUTPUT_MAX + 1);
	if (!out.buf || !err.buf)
		goto fail;
	ret = make_pipes(rd, wr);
	if (ret < 0)
		goto fail;
	job = kill_on_close_job();
	if (!job) {
		ret = -EPERM;
		goto fail;
	}
	ret = live_add(job);
	if (ret < 0) {
		CloseHandle(job);
		job = NULL;
		goto fail;
	}
	double start = now_seconds();
	error = start_child(argv, env, job, wr, &pi, &o->os_error);
	CloseHandle(wr[0]);
	CloseHandle(wr[1]);
	wr[0] = wr[1] = NULL;
	if (error) {
		o->status = SPAWN_FAILED;
		o->error = error;
		ret = 0;
		goto fail;
	}
	ret = start_readers(rd, readers, job, &out, &err);
	if (ret < 0) {
		CloseHandle(pi.hProcess);
		goto fail;
	}
	int timed_out = wait_all(pi.hProcess, readers, job, start + timeout_seconds);
	o->seconds = now_seconds() - start;
	finish(o, pi.hProcess);
	if (timed_out)
		o->status = SPAWN_TIMED_OUT;
	CloseHandle(pi.hProcess);
	hand_over(o, &out, &err);
	ret = 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (readers[i])
			CloseHandle(readers[i]);
		if (rd[i])
			CloseHandle(rd[i]);
		if (wr[i])
			CloseHandle(wr[i]);
	}
	if (job) {
		live_remove(job);
		CloseHandle(job);  /* KILL_ON_JOB_CLOSE: nothing the kernel started survives */
	}
	free(out.buf);
	free(err.buf);
	return ret;
}

/* The name of a common NTSTATUS crash code, or "unhandled exception". */
static const char *exception_name(unsigned code)
{
	switch (code) {
	case 0xC0000005u: return "access violation";
	case 0xC000001Du: return "illegal instruction";
	case 0xC0000094u: return "integer division by zero";
	case 0xC00000FDu: return "stack overflow";
	case 0xC000013Au: return "interrupted by Ctrl+C";
	case 0xC0000374u: return "heap corruption";
	case 0xC0000409u: return "stack buffer overrun / fail-fast";
	case 0xC0000417u: return "invalid C runtime parameter";
	case 0xE06D7363u: return "uncaught C++ exception";
	default: return "unhandled exception";
	}
}

/* CODE: the NTSTATUS the process died of (finish() above). */
void spawn_os_describe_signal(int code, char *buf, size_t size)
{
	snprintf(buf, size, "crashed with exception 0x%08X (%s)", (unsigned)code,
		 exception_name((unsigned)code));
}

void spawn_os_describe_start_failure(int error, unsigned os_error, char *buf, size_t size)
{
	char text[160] = "";
	if (!os_error) {
		snprintf(buf, size, "%s", strerror(error));
		return;
	}
	/* the messages of CreateProcess's errors name the program as %1 */
	const char *program[] = { "the program" };
	DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_ARGUMENT_ARRAY, NULL,
				 os_error, 0, text, sizeof text, (va_list *)program);
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' ' ||
			 text[n - 1] == '.'))
		text[--n] = '\0';
	if (start_may_succeed_later(os_error))
		snprintf(buf, size, "Windows error %u%s%s (tried %d times, %d ms apart)", os_error,
			 n ? ": " : "", text, START_TRIES, START_RETRY_PAUSE_MS);
	else
		snprintf(buf, size, "Windows error %u%s%s", os_error, n ? ": " : "", text);
}
