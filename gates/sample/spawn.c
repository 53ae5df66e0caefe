/* spawn.c: the OS-independent part of spawn.h. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/spawn.h"

static int pin_cpu = -1, no_aslr, no_thp, withhold_env;
/* spawn_pin_thread's CPUs, one set per thread */
static _Thread_local int thread_cpus[SPAWN_CPUS_MAX];
static _Thread_local size_t thread_cpu_count;

/* The names spawn_env_withheld keeps from the kernels (spawn.h, and
 * docs/protocol.md, "The kernel's environment"). */
static const char *const withheld_prefixes[] = { "GITHUB_", "ACTIONS_", "RUNNER_", "INPUT_" };
static const char *const withheld_words[] = { "TOKEN", "SECRET", "PASSWORD", "PASSWD",
					      "CREDENTIAL" };

void spawn_configure(int cpu, int aslr_off, int thp_off)
{
	pin_cpu = cpu;
	no_aslr = aslr_off;
	no_thp = thp_off;
}

void spawn_configure_env(int withhold)
{
	withhold_env = withhold;
}

/* NAME (LEN bytes) upper-cased into OUT (at most OUT_SIZE - 1 bytes kept). */
static void upper_name(const char *name, size_t len, char *out, size_t out_size)
{
	size_t n = len < out_size - 1 ? len : out_size - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = (char)toupper((unsigned char)name[i]);
	out[n] = '\0';
}

int spawn_env_withheld(const char *entry)
{
	char name[256];
	upper_name(entry, strcspn(entry, "="), name, sizeof name);
	for (size_t i = 0; i < sizeof withheld_prefixes / sizeof *withheld_prefixes; i++)
		if (!strncmp(name, withheld_prefixes[i], strlen(withheld_prefixes[i])))
			return 1;
	for (size_t i = 0; i < sizeof withheld_words / sizeof *withheld_words; i++)
		if (strstr(name, withheld_words[i]))
			return 1;
	return 0;
}

/* Whether the entries A and B ("NAME=...") name the same variable. */
static int same_name(const char *a, const char *b)
{
	size_t n = strcspn(a, "=");
	return n == strcspn(b, "=") && !strncmp(a, b, n);
}

char **spawn_env_build(char *const environ_[], char *const env[])
{
	size_t have = 0, extra = 0, k = 0;
	int clear = env && env[0] && !strcmp(env[0], SPAWN_ENV_CLEAR);
	env += clear;
	while (!clear && environ_ && environ_[have])
		have++;
	while (env && env[extra])
		extra++;
	char **out = malloc((have + extra + 1) * sizeof *out);
	if (!out)
		return NULL;
	for (size_t i = 0; i < have; i++) {
		int replaced = 0;
		for (size_t j = 0; j < extra && !replaced; j++)
			replaced = same_name(environ_[i], env[j]);
		if (!replaced && !(withhold_env && spawn_env_withheld(environ_[i])))
			out[k++] = environ_[i];
	}
	for (size_t j = 0; j < extra; j++) {
		int later = 0;   /* the last of two assignments of one name wins */
		for (size_t l = j + 1; l < extra && !later; l++)
			later = same_name(env[j], env[l]);
		if (!later)
			out[k++] = env[j];
	}
	out[k] = NULL;
	return out;
}

int spawn_no_thp(void)
{
	return no_thp;
}

void spawn_pin_thread(const int *cpus, size_t count)
{
	if (count > SPAWN_CPUS_MAX)
		count = SPAWN_CPUS_MAX;
	for (size_t i = 0; i < count; i++)
		thread_cpus[i] = cpus[i];
	thread_cpu_count = count;
}

size_t spawn_thread_cpus(const int **cpus)
{
	*cpus = thread_cpus;
	return thread_cpu_count;
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
	{
		char why[256];
		spawn_os_describe_start_failure(o->error, o->os_error, why, sizeof why);
		snprintf(buf, size, "could not be started: %s", why);
		break;
	}
	}
}
