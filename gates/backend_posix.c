/* backend_posix.c: the counter backends of backend.h on fork/exec systems. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "callgrind.h"

int backend_known(const char *name)
{
	return !strcmp(name, "perf") || !strcmp(name, "bpf") || !strcmp(name, "callgrind");
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

/* First executable NAME on PATH into OUT. */
static int find_on_path(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH");
	path = path ? path : "/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		snprintf(out, size, "%.*s/%s", (int)len, path, name);
		if (len && access(out, X_OK) == 0)
			return 0;
		path += len + (path[len] == ':');
	}
	return -ENOENT;
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

static size_t callgrind_setup(struct backend_run *b)
{
	const char *tmp = getenv("TMPDIR");
	static unsigned serial;
	snprintf(b->out_file, sizeof b->out_file, "%s/allocgate-callgrind-%ld-%u.out",
		 tmp && *tmp ? tmp : "/tmp", (long)getpid(), serial++);
	snprintf(b->out_arg, sizeof b->out_arg, "--callgrind-out-file=%s", b->out_file);
	b->callgrind = 1;
	return callgrind_prefix(b->tool, b->out_arg, b->argv);
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
	} else if (name && !strcmp(name, "callgrind")) {
		if (find_on_path("valgrind", b->tool, sizeof b->tool)) {
			snprintf(why, why_size, "--backend callgrind: valgrind not found on PATH "
				 "(apt-get install valgrind)");
			return -ENOENT;
		}
		n = callgrind_setup(b);
	}
	for (; kernel_argv[k] && n + 1 < BACKEND_MAX_ARGS; k++)
		b->argv[n++] = kernel_argv[k];
	b->argv[n] = NULL;
	return 0;
}

/* Reads PATH whole into a NUL-terminated buffer; NULL on failure. */
static char *read_whole(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	if (!f)
		return NULL;
	do {
		if (len + 65536 + 1 > cap) {
			char *more = realloc(buf, cap = len + 65536 * 4 + 1);
			if (!more) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = more;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
	} while (got > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* Appends "instructions" = IR to REC. A PMU reading of that name (the
 * probe's own, which under valgrind counts valgrind's translated code)
 * is dropped first: callgrind's count replaces it. */
static int add_instructions(struct record *rec, uint64_t ir)
{
	size_t kept = 0;
	for (size_t i = 0; i < rec->metric_count; i++) {
		const char *base = strrchr(rec->metrics[i].name, '.');
		base = base ? base + 1 : rec->metrics[i].name;
		if (strcmp(base, "instructions") != 0) {
			rec->metrics[kept++] = rec->metrics[i];
		} else {
			free(rec->metrics[i].name);
			free(rec->metrics[i].unit);
		}
	}
	rec->metric_count = kept;
	struct record_metric *m = realloc(rec->metrics, (kept + 1) * sizeof *m);
	if (!m)
		return -ENOMEM;
	rec->metrics = m;
	m[kept] = (struct record_metric){ strdup("instructions"), strdup("count"),
					  METRIC_EXACT, ir };
	rec->metric_count++;
	return m[kept].name && m[kept].unit ? 0 : -ENOMEM;
}

int backend_finish(struct backend_run *b, struct record *rec, char *why, size_t why_size)
{
	uint64_t ir = 0;
	char *text;
	int ret;
	if (!b->callgrind)
		return 0;
	text = read_whole(b->out_file);
	if (!text) {
		snprintf(why, why_size, "callgrind output %s: %s", b->out_file, strerror(errno));
		backend_cleanup(b);
		return -EINVAL;
	}
	ret = callgrind_parse_instructions(text, &ir, why, why_size);
	free(text);
	backend_cleanup(b);
	if (!ret && add_instructions(rec, ir)) {
		snprintf(why, why_size, "runner: out of memory");
		ret = -ENOMEM;
	}
	return ret;
}

void backend_cleanup(struct backend_run *b)
{
	if (b->callgrind && b->out_file[0])
		unlink(b->out_file);
	b->out_file[0] = '\0';
}

int backend_context(struct context *ctx, const char *name)
{
	char key[512];
	if (!name || !strcmp(name, "perf") || !ctx->platform_key)
		return 0;
	snprintf(key, sizeof key, "%s-%s", ctx->platform_key, name);
	char *copy = strdup(key);
	if (!copy)
		return -ENOMEM;
	free(ctx->platform_key);
	ctx->platform_key = copy;
	return 0;
}
