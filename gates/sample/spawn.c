/* spawn.c: the OS-independent part of spawn.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/spawn.h"

static int pin_cpu = -1, no_aslr, no_thp;

void spawn_configure(int cpu, int aslr_off, int thp_off)
{
	pin_cpu = cpu;
	no_aslr = aslr_off;
	no_thp = thp_off;
}

int spawn_no_thp(void)
{
	return no_thp;
}

int spawn_pin_cpu(void)
{
	return pin_cpu;
}

int spawn_no_aslr(void)
{
	return no_aslr;
}

void spawn_output_free(struct spawn_output *o)
{
	free(o->out);
	free(o->err);
	o->out = o->err = NULL;
}

#ifdef _WIN32
/* The name of a common NTSTATUS crash code, or "unhandled exception". */
static const char *spawn_exception_name(unsigned code)
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
#endif

void spawn_describe(const struct spawn_output *o, char *buf, size_t size)
{
	switch (o->status) {
	case SPAWN_EXITED:
		snprintf(buf, size, "exit status %d", o->exit_code);
		break;
	case SPAWN_SIGNALED:
#ifdef _WIN32
		/* spawn_windows.c: SIGNAL holds the NTSTATUS the process died of. */
		snprintf(buf, size, "crashed with exception 0x%08X (%s)", (unsigned)o->signal,
			 spawn_exception_name((unsigned)o->signal));
#else
		snprintf(buf, size, "killed by signal %d (%s)", o->signal, strsignal(o->signal));
#endif
		break;
	case SPAWN_TIMED_OUT:
		snprintf(buf, size, "timed out after %.1f s and was killed", o->seconds);
		break;
	case SPAWN_FAILED:
		snprintf(buf, size, "could not be started: %s", strerror(o->error));
		break;
	}
}
