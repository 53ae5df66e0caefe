/* cost_env.c: the environment of a cost sample (cost_pass.h): the user's
 * assignments with glibc's CPU tunables pinned in front of their own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/cost_pass.h"
#include "sample/spawn.h"

#define TUNABLES_NAME "GLIBC_TUNABLES="

void cost_pass_env(char *const *env, char **out, size_t n, char *tunables, size_t tunables_size)
{
	const char *user = getenv("GLIBC_TUNABLES");
	size_t k = 0;
	/* a fixed environment: what lies on the client's stack decides where
	 * its stack buffers fall in the simulated cache (measured:
	 * docs/measurements.md#the-cost-key-what-the-pins-change) */
	out[k++] = SPAWN_ENV_CLEAR;
	/* every symbol bound at start-up, outside the regions: a lazy binding
	 * inside one costs a lookup whose string compares follow the
	 * executable's whole symbol table, which differs between two builds of
	 * a kernel (measured: docs/measurements.md#the-cost-key-what-the-pins-change) */
	out[k++] = "LD_BIND_NOW=1";
	for (size_t i = 0; env && env[i]; i++) {
		if (!strncmp(env[i], TUNABLES_NAME, strlen(TUNABLES_NAME)))
			user = env[i] + strlen(TUNABLES_NAME);
		else if (k + 2 < n)
			out[k++] = env[i];
	}
	/* glibc reads the assignments in order: the user's come last and win */
	snprintf(tunables, tunables_size, "%s%s%s%s", TUNABLES_NAME, COST_TUNABLES,
		 user && *user ? ":" : "", user ? user : "");
	out[k++] = tunables;
	out[k] = NULL;
}
