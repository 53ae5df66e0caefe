/* duet_windows.c: duet.h on Windows: the CPUs of the process's affinity
 * mask (GetProcessAffinityMask; one processor group, at most 64), each
 * counted as a core of its own, and duet_run_pair with a Windows thread. */
#include <errno.h>
#include <windows.h>

#include "sample/duet.h"

int duet_cpus_read(struct duet_cpus *out)
{
	DWORD_PTR process, system;
	int cpus[SPAWN_CPUS_MAX];
	long core[SPAWN_CPUS_MAX];
	size_t n = 0;
	out->count = 0;
	if (!GetProcessAffinityMask(GetCurrentProcess(), &process, &system))
		return -EIO;
	for (int c = 0; c < (int)(8 * sizeof process) && n < SPAWN_CPUS_MAX; c++)
		if (process & ((DWORD_PTR)1 << c)) {
			cpus[n] = c;
			core[n++] = -1;
		}
	duet_cpus_order(cpus, core, n, out->cpu);
	out->count = n;
	return 0;
}

struct pair_side {
	void (*fn)(void *);
	void *arg;
	volatile LONG *arrived;
};

static DWORD WINAPI side_main(LPVOID p)
{
	struct pair_side *s = p;
	InterlockedIncrement(s->arrived);
	while (InterlockedCompareExchange(s->arrived, 2, 2) < 2)
		;
	s->fn(s->arg);
	return 0;
}

int duet_run_pair(void (*fn)(void *), void *a, void *b)
{
	volatile LONG arrived = 0;
	struct pair_side sa = { fn, a, &arrived }, sb = { fn, b, &arrived };
	HANDLE t = CreateThread(NULL, 0, side_main, &sa, 0, NULL);
	if (!t)
		return -EAGAIN;
	side_main(&sb);
	WaitForSingleObject(t, INFINITE);
	CloseHandle(t);
	return 0;
}
