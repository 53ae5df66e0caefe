/* crashy.c: a kernel that misbehaves on request, to test containment.
 * CRASHY_MODE (read by variant "victim" only):
 *   segv     dies of SIGSEGV inside the region
 *   hang     never returns
 *   exit3    exits with status 3
 *   garbage  prints a line that is not the protocol
 *   flood    prints more than the runner accepts
 *   orphan   forks a child that closes its descriptors and sleeps 300 s,
 *            then samples as usual (POSIX)
 *   setsid   the same, the child in a session of its own (setsid(2))
 *   setsid-hang  that child, and the kernel itself never returns
 *   setsid-pipes  setsid's child, keeping the kernel's stdout and stderr
 *            open (Windows: this executable again, hanging, with the
 *            kernel's standard handles inherited)
 *   close-hang   closes its stdout and stderr, then never returns (POSIX)
 *   ci-files writes to the file CRASHY_OUT whether it sees GITHUB_ENV,
 *            GITHUB_STEP_SUMMARY and GITHUB_TOKEN, and appends a line to
 *            each of the first two it sees (what a hostile kernel does)
 * The tests find the children by their environment (a CRASHY_MARKER=...
 * of their own, inherited). Variant "steady" always works, so the rest of
 * the run can be checked.
 */
#include <signal.h>
#include <stdio.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <sys/types.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <allocgate/probe.h>

static void work(const struct gate_params *params)
{
	long long n = gate_param(params, "ops");
	gate_region_begin(NULL);
	for (long long i = 0; i < n; i++) {
		void *p = malloc(48);
		gate_consume(p);
		free(p);
	}
	gate_region_end();
}

/* About 9 MB of protocol-like lines, written a block at a time: wine's C
 * runtime makes one WriteFile per line of printf, 25 s for this under the
 * gate there, against 1 s in blocks. */
static void flood(void)
{
	static char block[1 << 16];
	size_t n = 0;
	for (int i = 0; n + 64 < sizeof block; i++)
		n += (size_t)snprintf(block + n, sizeof block - n, "metric flood timing ns %d\n", i);
	for (int i = 0; i < 140; i++)
		fwrite(block, 1, n, stdout);
}

#ifndef _WIN32
/* A child that outlives the kernel, in a session of its own when
 * NEW_SESSION; its descriptors closed unless KEEP_PIPES (then it holds the
 * kernel's stdout and stderr open after the kernel exits). */
static void leave_child(int new_session, int keep_pipes)
{
	fflush(NULL);
	if (fork() != 0)
		return;
	if (new_session)
		setsid();
	for (int fd = 0; fd < 1024 && !keep_pipes; fd++)
		close(fd);
	sleep(300);
	_exit(0);
}
#endif

#ifdef _WIN32
/* A child that outlives the kernel holding its stdout and stderr: this
 * executable's victim again in mode hang (it prints nothing before its
 * variant returns), the kernel's standard handles inherited. */
static void leave_child_holding_pipes(void)
{
	char self[MAX_PATH], cmd[MAX_PATH + 64];
	STARTUPINFOA si;
	PROCESS_INFORMATION pi;
	DWORD n = GetModuleFileNameA(NULL, self, sizeof self);
	if (n == 0 || n == sizeof self)
		return;
	snprintf(cmd, sizeof cmd, "\"%s\" --variant victim --params small", self);
	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
	si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
	si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
	fflush(NULL);
	SetEnvironmentVariableA("CRASHY_MODE", "hang");
	if (CreateProcessA(self, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
		CloseHandle(pi.hThread);
		CloseHandle(pi.hProcess);
	}
	SetEnvironmentVariableA("CRASHY_MODE", "setsid-pipes");
}
#endif

/* Appends a line to the file named by variable NAME, when set. */
static void append_to(const char *name)
{
	const char *path = getenv(name);
	FILE *f = path ? fopen(path, "a") : NULL;
	if (f) {
		fprintf(f, "CRASHY WAS HERE\n");
		fclose(f);
	}
}

static void ci_files(void)
{
	const char *out = getenv("CRASHY_OUT");
	FILE *f = out ? fopen(out, "w") : NULL;
	if (f) {
		const char *names[] = { "GITHUB_ENV", "GITHUB_STEP_SUMMARY", "GITHUB_TOKEN",
					"CRASHY_OUT" };
		for (size_t i = 0; i < sizeof names / sizeof *names; i++)
			fprintf(f, "%s=%s\n", names[i], getenv(names[i]) ? "set" : "unset");
		fclose(f);
	}
	append_to("GITHUB_ENV");
	append_to("GITHUB_STEP_SUMMARY");
}

static void misbehave(const char *mode)
{
#ifndef _WIN32
	if (!strcmp(mode, "orphan"))
		leave_child(0, 0);
	if (!strcmp(mode, "setsid") || !strcmp(mode, "setsid-hang"))
		leave_child(1, 0);
	if (!strcmp(mode, "setsid-pipes"))
		leave_child(1, 1);
	if (!strcmp(mode, "setsid-hang"))
		for (;;)
			sleep(60);
	if (!strcmp(mode, "close-hang")) {
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		for (;;)
			sleep(60);
	}
#else
	if (!strcmp(mode, "setsid-pipes"))
		leave_child_holding_pipes();
#endif
	if (!strcmp(mode, "ci-files"))
		ci_files();
	if (!strcmp(mode, "segv")) {
#ifdef _WIN32
		/* a real access violation (0xC0000005): the C runtime's raise()
		 * would only exit with status 3 */
		int *volatile nowhere = NULL;
		*nowhere = 1;
#else
		/* the default action, even where a sanitizer installed a handler */
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
#endif
	}
	if (!strcmp(mode, "hang"))
		for (;;)
			sleep(60);  /* pause() is POSIX only */
	if (!strcmp(mode, "exit3"))
		exit(3);
	if (!strcmp(mode, "garbage")) {
		printf("this is not a sample record\n");
		fflush(stdout);
	}
	if (!strcmp(mode, "flood"))
		flood();
}

static void victim(const struct gate_params *params)
{
	const char *mode = getenv("CRASHY_MODE");
	if (mode)
		misbehave(mode);
	work(params);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("steady", work, "malloc/free loop"),
	GATE_VARIANT("victim", victim, "misbehaves as CRASHY_MODE says"),
	{ 0 },
};

static const struct gate_paramset paramsets[] = {
	{ "small", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "ops=20000" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	{ 0 },
};

GATE_KERNEL("crashy", "test kernel: crashes, hangs or prints garbage on request",
	    variants, paramsets, expects)
