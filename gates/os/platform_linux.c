/* platform_linux.c: platform_context on Linux, from uname(2), sysconf(3),
 * /proc/cpuinfo and /sys/kernel/mm/transparent_hugepage/enabled.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "core/platform.h"
#include "core/platform_os.h"

#define THP_PATH "/sys/kernel/mm/transparent_hugepage/enabled"

/* Replaces *FIELD by VALUE (taken, may be NULL), or FALLBACK when NULL. */
static void set_taken(char **field, char *value, const char *fallback, int *failed)
{
	if (!value) {
		platform_set(field, fallback, failed);
		return;
	}
	free(*field);
	*field = value;
}

/* Copy of S with leading and trailing white space removed and inner runs
 * collapsed to one space ("Intel(R)  Xeon(R) ..." has doubled spaces on
 * some kernels); NULL on no memory. */
static char *squeeze(const char *s)
{
	char *out = malloc(strlen(s) + 1), *d = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			if (d != out && d[-1] != ' ')
				*d++ = ' ';
		} else {
			*d++ = *s;
		}
	}
	if (d != out && d[-1] == ' ')
		d--;
	*d = '\0';
	return out;
}

/* The value of a /proc/cpuinfo line "KEY<tabs>: VALUE" when LINE has KEY;
 * NULL otherwise. Points into LINE. */
static const char *cpuinfo_value(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) != 0)
		return NULL;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != ':')
		return NULL;
	return line + 1;
}

/* Remembers the first value of KEY in *SLOT. */
static void cpuinfo_keep(const char *line, const char *key, char **slot)
{
	const char *v = *slot ? NULL : cpuinfo_value(line, key);

	if (v)
		*slot = squeeze(v);
}

/* The CPU model from /proc/cpuinfo: "model name" (x86, some arm), else
 * "Hardware" (32-bit arm boards), else "CPU implementer"/"CPU part" (arm64,
 * which names no model); NULL when none is there. */
static char *cpu_model(void)
{
	char *line = NULL, *model = NULL, *hardware = NULL, *impl = NULL, *part = NULL;
	size_t cap = 0;
	FILE *fp = fopen("/proc/cpuinfo", "r");

	if (!fp)
		return NULL;
	while (!model && getline(&line, &cap, fp) > 0) {
		cpuinfo_keep(line, "model name", &model);
		cpuinfo_keep(line, "Hardware", &hardware);
		cpuinfo_keep(line, "CPU implementer", &impl);
		cpuinfo_keep(line, "CPU part", &part);
	}
	free(line);
	fclose(fp);
	if (!model && hardware) {
		model = hardware;
		hardware = NULL;
	}
	if (!model && part && asprintf(&model, "implementer %s part %s",
				       impl ? impl : "unknown", part) < 0)
		model = NULL;
	free(hardware);
	free(impl);
	free(part);
	return model;
}

/* The bracketed choice of THP_PATH ("always [madvise] never" gives
 * "madvise"); NULL when the kernel has no THP or the file is unreadable. */
/* Address-space randomisation: 0 off, 1 stack/mmap, 2 also brk (proc(5)). */
static char *aslr_mode(void)
{
	char buf[16] = "";
	FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "r");
	if (!f)
		return NULL;
	int ok = fgets(buf, sizeof buf, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok && *buf ? strdup(buf) : NULL;
}

static char *thp_mode(void)
{
	char buf[256], *open_, *close_;
	FILE *fp = fopen(THP_PATH, "r");

	if (!fp)
		return NULL;
	if (!fgets(buf, sizeof(buf), fp))
		buf[0] = '\0';
	fclose(fp);
	open_ = strchr(buf, '[');
	close_ = open_ ? strchr(open_, ']') : NULL;
	if (!close_)
		return NULL;
	*close_ = '\0';
	return strdup(open_ + 1);
}

static void set_libc(struct context *ctx, int *failed)
{
#ifdef __GLIBC__
	platform_set(&ctx->libc, "glibc", failed);
	platform_set(&ctx->libc_version, gnu_get_libc_version(), failed);
#else
	/* musl has no version call; its version shows in `ldd --version`. */
	platform_set(&ctx->libc, "musl", failed);
	platform_set(&ctx->libc_version, "unknown", failed);
#endif
}

int platform_context(struct context *ctx)
{
	struct utsname uts;
	int failed = 0, have_uts = uname(&uts) == 0;
	long n;

	platform_set(&ctx->os, "linux", &failed);
	platform_set(&ctx->arch, have_uts ? uts.machine : "unknown", &failed);
	platform_set(&ctx->kernel_release, have_uts ? uts.release : "unknown", &failed);
	set_libc(ctx, &failed);
	set_taken(&ctx->cpu_model, cpu_model(), "unknown", &failed);
	/* Online CPUs, as the scheduler may use them; a cpuset may allow fewer. */
	n = sysconf(_SC_NPROCESSORS_ONLN);
	ctx->cpu_count = n > 0 ? (int)n : 0;
	n = sysconf(_SC_PAGESIZE);
	ctx->page_size = n > 0 ? n : 0;
	set_taken(&ctx->thp, thp_mode(), "unavailable", &failed);
	set_taken(&ctx->aslr, aslr_mode(), "unavailable", &failed);
	return platform_finish(ctx, failed);
}
