/* backend_posix.c: the counter backends of backend.h on fork/exec systems. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sample/backend.h"
#include "core/platform.h"

int backend_known(const char *name)
{
	return !strcmp(name, "perf") || !strcmp(name, "bpf");
}

/* build/gate-bpf: next to the running gate binary. */
static int gate_bpf_path(char *out, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", out, size - 16);
	char *slash;
	if (n <= 0)
		return -ENOENT;
	out[n] = '\0';
	slash = strrchr(out, '/');
	if (!slash)
		return -ENOENT;
	strcpy(slash + 1, "gate-bpf");
	return access(out, X_OK) ? -errno : 0;
}

/* gate-bpf [--lib L]... -- ; L from the LD_PRELOAD of ENV. */
static size_t bpf_prefix(struct backend_run *b, char *const *env)
{
	size_t n = 0, used = 0;
	b->argv[n++] = b->tool;
	for (size_t i = 0; env && env[i]; i++) {
		if (strncmp(env[i], "LD_PRELOAD=", 11))
			continue;
		for (const char *p = env[i] + 11; *p && n < BACKEND_MAX_ARGS / 2;) {
			size_t len = strcspn(p, ": ");
			if (len && used + len + 1 < sizeof b->libs) {
				memcpy(b->libs + used, p, len);
				b->libs[used + len] = '\0';
				b->argv[n++] = "--lib";
				b->argv[n++] = b->libs + used;
				used += len + 1;
			}
			p += len + (p[len] != '\0');
		}
	}
	b->argv[n++] = "--";
	return n;
}

int backend_prepare(struct backend_run *b, const char *name, char *const *kernel_argv,
		    char *const *env, char *why, size_t why_size)
{
	size_t n = 0, k = 0;
	memset(b, 0, sizeof *b);
	if (name && !strcmp(name, "bpf")) {
		if (gate_bpf_path(b->tool, sizeof b->tool)) {
			snprintf(why, why_size, "--backend bpf: no gate-bpf next to the gate binary "
				 "(configure.py said why: bpf off)");
			return -ENOENT;
		}
		n = bpf_prefix(b, env);
	}
	for (; kernel_argv[k] && n + 1 < BACKEND_MAX_ARGS; k++)
		b->argv[n++] = kernel_argv[k];
	b->argv[n] = NULL;
	return 0;
}

int backend_context(struct context *ctx, const char *name)
{
	if (!name || !strcmp(name, "perf"))
		return 0;
	return platform_key_add_suffix(ctx, name);
}
