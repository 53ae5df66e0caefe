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

#include "core/cpu_identity.h"
#include "core/platform.h"
#include "core/platform_os.h"

#define THP_PATH "/sys/kernel/mm/transparent_hugepage/enabled"
#define CPU_SYSFS "/sys/devices/system/cpu"

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

/* The whole of PATH (a /proc or /sys file, whose size stat(2) does not
 * tell), NUL-terminated; NULL when unreadable or on no memory. */
static char *read_text(const char *path)
{
	FILE *fp = fopen(path, "r");
	size_t len = 0, cap = 8192;
	char *text = fp ? malloc(cap) : NULL;

	while (text) {
		len += fread(text + len, 1, cap - len - 1, fp);
		if (len + 1 < cap)
			break;
		char *grown = realloc(text, cap *= 2);
		if (!grown)
			free(text);
		text = grown;
	}
	if (fp)
		fclose(fp);
	if (text)
		text[len] = '\0';
	return text;
}

/* The first line of PATH, without its newline; NULL when unreadable or
 * empty. */
static char *read_line(const char *path)
{
	char *text = read_text(path);
	if (text)
		text[strcspn(text, "\n")] = '\0';
	if (text && !*text) {
		free(text);
		text = NULL;
	}
	return text;
}

/* CPU 0's caches from sysfs (cache/indexN/{level,type,size}), as
 * "L1d 48K, L1i 32K, L2 1024K, L3 32768K"; NULL where sysfs has none. */
static char *cpu_caches(int *failed)
{
	char *caches = NULL, path[128];

	for (int i = 0; i < 16; i++) {
		snprintf(path, sizeof path, CPU_SYSFS "/cpu0/cache/index%d/level", i);
		char *level = read_line(path);
		snprintf(path, sizeof path, CPU_SYSFS "/cpu0/cache/index%d/type", i);
		char *type = read_line(path);
		snprintf(path, sizeof path, CPU_SYSFS "/cpu0/cache/index%d/size", i);
		char *size = read_line(path);
		if (level && type && size &&
		    cpu_identity_add_cache(&caches, atoi(level), type, size) < 0)
			*failed = 1;
		free(level);
		free(type);
		free(size);
	}
	return caches;
}

/* Turbo/boost: cpufreq's global boost file (acpi-cpufreq, amd-pstate),
 * else intel_pstate's no_turbo; NULL where neither is (a virtual machine). */
static char *cpu_boost(void)
{
	char *v = read_line(CPU_SYSFS "/cpufreq/boost");
	const char *word = NULL;

	if (v)
		word = !strcmp(v, "1") ? "on" : "off";
	else if ((v = read_line(CPU_SYSFS "/intel_pstate/no_turbo")))
		word = !strcmp(v, "1") ? "off" : "on";
	free(v);
	return word ? strdup(word) : NULL;
}

/* The CPU's identity: /proc/cpuinfo, sysfs, then CPUID for what they did
 * not say (the hypervisor's name: the "hypervisor" flag names none). */
static void set_identity(struct context *ctx, int *failed)
{
	char **fields[] = { &ctx->cpu_vendor, &ctx->cpu_family, &ctx->cpu_model_number,
			    &ctx->cpu_stepping, &ctx->cpu_microcode, &ctx->cpu_caches,
			    &ctx->cpu_governor, &ctx->cpu_boost, &ctx->cpu_hypervisor };
	char *text = read_text("/proc/cpuinfo");
	int flag = -1;

	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		free(*fields[i]);
		*fields[i] = NULL;
	}
	ctx->cpu_cores = ctx->cpu_threads = 0;
	if (text && cpu_identity_parse_cpuinfo(text, ctx, &flag) < 0)
		*failed = 1;
	free(text);
	ctx->cpu_caches = cpu_caches(failed);
	ctx->cpu_governor = read_line(CPU_SYSFS "/cpu0/cpufreq/scaling_governor");
	ctx->cpu_boost = cpu_boost();
	/* Xen names itself here; KVM, Hyper-V and VMware through CPUID */
	ctx->cpu_hypervisor = read_line("/sys/hypervisor/type");
	if (!ctx->cpu_hypervisor && flag == 0)
		platform_set(&ctx->cpu_hypervisor, "none", failed);
	if (cpu_identity_cpuid(ctx) < 0)
		*failed = 1;
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
	set_identity(ctx, &failed);
	n = sysconf(_SC_PAGESIZE);
	ctx->page_size = n > 0 ? n : 0;
	set_taken(&ctx->thp, thp_mode(), "unavailable", &failed);
	set_taken(&ctx->aslr, aslr_mode(), "unavailable", &failed);
	return platform_finish(ctx, failed);
}
