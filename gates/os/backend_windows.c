/* backend_windows.c: backend.h on Windows. Only the default backend
 * ("perf": the kernel runs as is, its probe reads the clocks) exists here;
 * bpf needs Linux, so it is refused with a message saying so. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sample/backend.h"

int backend_known(const char *name)
{
	return !strcmp(name, "perf") || !strcmp(name, "bpf");
}

int backend_prepare(struct backend_run *b, const char *name, char *const *kernel_argv,
		    char *const *env, char *why, size_t why_size)
{
	size_t n = 0;
	(void)env;
	memset(b, 0, sizeof *b);
	if (name && strcmp(name, "perf")) {
		snprintf(why, why_size, "--backend %s: not supported on Windows (only perf)", name);
		return -ENOTSUP;
	}
	for (; kernel_argv[n] && n + 1 < BACKEND_MAX_ARGS; n++)
		b->argv[n] = kernel_argv[n];
	b->argv[n] = NULL;
	return 0;
}

int backend_context(struct context *ctx, const char *name)
{
	/* Only perf exists here, and it keeps the platform key as it is. */
	(void)ctx;
	(void)name;
	return 0;
}
