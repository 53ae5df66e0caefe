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

void spawn_describe(const struct spawn_output *o, char *buf, size_t size)
{
	switch (o->status) {
	case SPAWN_EXITED:
		snprintf(buf, size, "exit status %d", o->exit_code);
		break;
	case SPAWN_SIGNALED:
		spawn_os_describe_signal(o->signal, buf, size);
		break;
	case SPAWN_TIMED_OUT:
		snprintf(buf, size, "timed out after %.1f s and was killed", o->seconds);
		break;
	case SPAWN_FAILED:
		snprintf(buf, size, "could not be started: %s", strerror(o->error));
		break;
	}
}
