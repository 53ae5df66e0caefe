/* counters_windows.c: the counter front on Windows.
 *
 *   wall_ns      QueryPerformanceCounter (converted with its frequency)
 *   cpu_ns       GetProcessTimes: user + kernel time of every thread of
 *                the process, live or exited; ticks of the system clock
 *                (15.625 ms by default), so only long regions resolve it
 *   page_faults  GetProcessMemoryInfo PageFaultCount (soft + hard faults
 *                of the whole process)
 *   cycles       QueryProcessCycleTime: cycles charged to every thread of
 *                the process, so threaded kernels are counted whole, as
 *                inherit does on Linux (QueryThreadCycleTime would see
 *                only the thread that opened the region)
 *
 * Windows has no unprivileged instruction or cache-miss counter: those are
 * not offered. Before trusting cycles, page faults and CPU time, counters_open
 * runs known work once (5 ms of busy work touching 64 fresh pages) and asks
 * sanity_reject() about each (perf/counters/sanity.h). Under wine (ntdll exports
 * wine_get_version) cycles and page faults are emulated, not counted by the
 * CPU or a Windows kernel: they are always rejected with the reason, never
 * gated on.
 */
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0601  /* Windows 7: GetActiveProcessorCount */
#endif
#define PSAPI_VERSION 2      /* GetProcessMemoryInfo from kernel32, no psapi.lib */
#include <windows.h>
#include <psapi.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <string.h>

#include "counters/counters.h"
#include "counters/counters_snapshot.h"
#include "counters/sanity.h"

/* Word layout of a snapshot. */
enum { WIN_CPU_NS, WIN_PAGE_FAULTS, WIN_CYCLES, WIN_WORDS };

#define WIN_OFFERED (COUNTER_BIT(COUNTER_WALL_NS) | COUNTER_BIT(COUNTER_CPU_NS) | \
		     COUNTER_BIT(COUNTER_PAGE_FAULTS) | COUNTER_BIT(COUNTER_CYCLES))
#define WIN_WORK_NS 5000000u   /* busy work of the sanity check */
#define WIN_WORK_PAGES 64u     /* fresh pages it touches */

static struct {
	LARGE_INTEGER frequency;
	struct counter_setup setup;
	char reason[COUNTER_COUNT][SANITY_REASON_SIZE];
	char emulator[64];
	uint32_t want;   /* counters asked for by counters_open */
	DWORD error[COUNTER_COUNT];  /* GetLastError of the last failed read */
	bool sane;       /* the sanity check ran */
} win = {
	.setup = { .open = COUNTER_BIT(COUNTER_WALL_NS) },
};

static uint64_t win_now_ns(void)
{
	LARGE_INTEGER now;
	uint64_t c, f;
	if (win.frequency.QuadPart == 0)
		QueryPerformanceFrequency(&win.frequency);  /* never fails since XP */
	QueryPerformanceCounter(&now);
	c = (uint64_t)now.QuadPart;
	f = (uint64_t)win.frequency.QuadPart;
	/* split so that c * 1e9 cannot overflow */
	return c / f * 1000000000u + c % f * 1000000000u / f;
}

static uint64_t win_filetime(FILETIME t)
{
	return ((uint64_t)t.dwHighDateTime << 32 | t.dwLowDateTime) * 100u;
}

/* Marks counter ID failed in S and keeps the error for its reason. */
static void win_failed(struct counters_snapshot *s, enum counter_id id)
{
	s->failed |= COUNTER_BIT(id);
	win.error[id] = GetLastError();
}

/* Reads every Windows counter into S->words; marks S->failed on error. */
static void win_read(struct counters_snapshot *s)
{
	HANDLE self = GetCurrentProcess();
	FILETIME created, exited, kernel, user;
	PROCESS_MEMORY_COUNTERS mem;
	ULONG64 cycles;

	if (GetProcessTimes(self, &created, &exited, &kernel, &user))
		s->words[WIN_CPU_NS] = win_filetime(kernel) + win_filetime(user);
	else
		win_failed(s, COUNTER_CPU_NS);
	if (GetProcessMemoryInfo(self, &mem, sizeof mem))
		s->words[WIN_PAGE_FAULTS] = mem.PageFaultCount;
	else
		win_failed(s, COUNTER_PAGE_FAULTS);
	if (QueryProcessCycleTime(self, &cycles))
		s->words[WIN_CYCLES] = cycles;
	else
		win_failed(s, COUNTER_CYCLES);
}

static void win_decode(const struct counters_snapshot *s, struct counter_raw *raw)
{
	memset(raw, 0, sizeof *raw * COUNTER_COUNT);
	raw[COUNTER_WALL_NS].value = s->wall_ns;
	raw[COUNTER_CPU_NS].value = s->words[WIN_CPU_NS];
	raw[COUNTER_PAGE_FAULTS].value = s->words[WIN_PAGE_FAULTS];
	raw[COUNTER_CYCLES].value = s->words[WIN_CYCLES];
}

static const struct counters_reader reader = { win_read, win_decode, win_now_ns, &win.setup };

void counters_begin(struct counters_snapshot *s)
{
	counters_reader_begin(&reader, s);
}

void counters_end(struct counters_snapshot *s)
{
	counters_reader_end(&reader, s);
}

void counters_add(struct counter_totals *totals,
		  const struct counters_snapshot *begin,
		  const struct counters_snapshot *end)
{
	counters_reader_add(&reader, totals, begin, end);
}

/* "wine VERSION" into win.emulator when ntdll is wine's, else "". */
static void win_detect_emulator(void)
{
	typedef const char *(*version_fn)(void);
	HMODULE ntdll = GetModuleHandleA("ntdll.dll");
	FARPROC found = ntdll ? GetProcAddress(ntdll, "wine_get_version") : NULL;
	version_fn version;

	win.emulator[0] = '\0';
	if (!found)
		return;
	version = (version_fn)(void (*)(void))found;
	snprintf(win.emulator, sizeof win.emulator, "wine %s", version());
}

/* Resolution of GetProcessTimes: the system clock tick, in ns. */
static uint64_t win_cpu_tick_ns(void)
{
	DWORD adjustment, increment;
	BOOL disabled;
	if (GetSystemTimeAdjustment(&adjustment, &increment, &disabled) && increment)
		return (uint64_t)increment * 100u;
	return 15625000u;
}

/* Busy work touching PAGES fresh pages at P (of PAGE bytes each) and
 * spinning until WIN_WORK_NS passed; returns a value to keep. */
static unsigned win_work(volatile char *p, size_t pages, size_t page, uint64_t start)
{
	unsigned x = 1;
	for (size_t i = 0; i < pages; i++)
		p[i * page] = (char)i;
	while (win_now_ns() - start < WIN_WORK_NS) {
		for (int i = 0; i < 1000; i++)
			x = x * 1103515245u + 12345u;
	}
	return x;
}

/* Reads the counters over known work into W. */
static void win_measure_work(struct sanity_work *w)
{
	SYSTEM_INFO si;
	struct counters_snapshot a, b;
	struct counter_raw ra[COUNTER_COUNT], rb[COUNTER_COUNT];
	char *mem;

	GetSystemInfo(&si);
	mem = VirtualAlloc(NULL, (SIZE_T)WIN_WORK_PAGES * si.dwPageSize,
			   MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
	counters_begin(&a);
	w->pages_touched = mem ? WIN_WORK_PAGES : 0;
	gate_consume((const void *)(uintptr_t)win_work(mem, w->pages_touched,
						      si.dwPageSize, a.wall_ns));
	counters_end(&b);
	if (mem)
		VirtualFree(mem, 0, MEM_RELEASE);
	win_decode(&a, ra);
	win_decode(&b, rb);
	w->read = WIN_OFFERED & ~(a.failed | b.failed);
	w->wall_ns = rb[COUNTER_WALL_NS].value - ra[COUNTER_WALL_NS].value;
	w->cpu_ns = rb[COUNTER_CPU_NS].value - ra[COUNTER_CPU_NS].value;
	w->page_faults = rb[COUNTER_PAGE_FAULTS].value - ra[COUNTER_PAGE_FAULTS].value;
	w->cycles = rb[COUNTER_CYCLES].value - ra[COUNTER_CYCLES].value;
	w->cpu_tick_ns = win_cpu_tick_ns();
}

/* Runs the sanity check once per process; returns the rejected counters. */
static uint32_t win_sanity(void)
{
	static uint32_t rejected;
	struct sanity_work w = { 0 };
	if (win.sane)
		return rejected;
	win_detect_emulator();
	win_measure_work(&w);
	w.emulator = win.emulator[0] ? win.emulator : NULL;
	rejected = sanity_reject_all(&w, win.reason);
	for (int i = 0; i < COUNTER_COUNT; i++) {
		if ((WIN_OFFERED & COUNTER_BIT(i)) && !(w.read & COUNTER_BIT(i))) {
			snprintf(win.reason[i], sizeof win.reason[i], "could not be read%s%s "
				 "(Windows error %lu%s)", w.emulator ? " under " : "",
				 w.emulator ? w.emulator : "", (unsigned long)win.error[i],
				 win.error[i] == ERROR_CALL_NOT_IMPLEMENTED ?
				 ": call not implemented" : "");
			rejected |= COUNTER_BIT(i);
		}
	}
	win.sane = true;
	return rejected;
}

int counters_open(uint32_t want)
{
	uint32_t open = (WIN_OFFERED & want) | COUNTER_BIT(COUNTER_WALL_NS);
	open &= ~win_sanity();
	win.want = want;
	counter_setup_init(&win.setup, open, 0);
	counters_reader_calibrate(&reader);
	return 0;
}

bool counters_has(enum counter_id id)
{
	return counters_reader_has(&reader, id);
}

const char *counters_unavailable(enum counter_id id)
{
	if (counters_has(id) || !win.sane || !(win.want & COUNTER_BIT(id)) ||
	    win.reason[id][0] == '\0')
		return NULL;
	return win.reason[id];
}

const char *counters_backend(void)
{
	if (win.emulator[0])
		return "QueryPerformanceCounter + GetProcessTimes (running under wine: "
		       "cycles and page faults are emulated)";
	return "QueryPerformanceCounter + GetProcessTimes + GetProcessMemoryInfo + "
	       "QueryProcessCycleTime";
}

uint64_t counters_now_ns(void)
{
	return win_now_ns();
}

int counters_cpu_count(void)
{
	DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
	return n >= 1 ? (int)n : 1;
}

void counters_close(void)
{
	win.setup.open = 0;
}

void counters_stdout_binary(void)
{
	fflush(stdout);
	_setmode(_fileno(stdout), _O_BINARY);
}
