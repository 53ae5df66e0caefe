/* platform_darwin.c: platform_context on macOS, from uname(3),
 * sysctlbyname(3) (the CPU's identity: machdep.cpu.* on Intel, hw.* on
 * both) and sysconf(3).
 *
 * Not compiled here (no macOS SDK on the Linux build machine): written
 * against the documented calls and syntax-checked only.
 */
#ifndef _DARWIN_C_SOURCE
#define _DARWIN_C_SOURCE  /* sysctlbyname under -std=c11 */
#endif

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/cpu_identity.h"
#include "core/platform.h"
#include "core/platform_os.h"

/* String sysctl NAME into OUT, or FALLBACK when it cannot be read. */
static void darwin_sysctl(const char *name, const char *fallback, char *out, size_t size)
{
	size_t len = size;
	if (sysctlbyname(name, out, &len, NULL, 0) != 0 || len == 0 || len > size)
		snprintf(out, size, "%s", fallback);
	else
		out[len - 1] = '\0';
}

/* Integer sysctl NAME (4 or 8 bytes wide), or -1 when it cannot be read. */
static long long darwin_sysctl_int(const char *name)
{
	union { int32_t i32; int64_t i64; } v;
	size_t len = sizeof v;
	if (sysctlbyname(name, &v, &len, NULL, 0) != 0)
		return -1;
	return len == sizeof v.i32 ? v.i32 : len == sizeof v.i64 ? v.i64 : -1;
}

/* *FIELD = printf(FORMAT, sysctl NAME) when it can be read. */
static void darwin_keep(char **field, const char *name, const char *format, int *failed)
{
	long long v = darwin_sysctl_int(name);
	char text[32];
	if (v < 0 || *field)
		return;
	snprintf(text, sizeof text, format, v);
	platform_set(field, text, failed);
}

/* The cache sysctl NAME (bytes) as LEVEL/TYPE into CTX's caches. */
static void darwin_cache(struct context *ctx, const char *name, int level, const char *type,
			 int *failed)
{
	long long bytes = darwin_sysctl_int(name);
	char size[32];
	if (bytes <= 0)
		return;
	snprintf(size, sizeof size, "%lldK", bytes / 1024);
	if (cpu_identity_add_cache(&ctx->cpu_caches, level, type, size) < 0)
		*failed = 1;
}

/* Vendor, family, model, stepping, microcode (Intel: machdep.cpu.*; Apple
 * silicon: hw.cpufamily), cores, threads, caches, and whether a hypervisor
 * runs it (kern.hv_vmm_present). macOS has no governor or boost file. */
static void darwin_identity(struct context *ctx, int *failed)
{
	char text[64];
	long long n;

	darwin_sysctl("machdep.cpu.vendor", "", text, sizeof text);
	if (*text)
		platform_set(&ctx->cpu_vendor, text, failed);
	darwin_keep(&ctx->cpu_family, "machdep.cpu.family", "0x%02llx", failed);
	darwin_keep(&ctx->cpu_family, "hw.cpufamily", "0x%08llx", failed);
	darwin_keep(&ctx->cpu_model_number, "machdep.cpu.model", "0x%02llx", failed);
	darwin_keep(&ctx->cpu_stepping, "machdep.cpu.stepping", "%lld", failed);
	darwin_keep(&ctx->cpu_microcode, "machdep.cpu.microcode_version", "0x%llx", failed);
	n = darwin_sysctl_int("hw.physicalcpu");
	ctx->cpu_cores = n > 0 ? (int)n : 0;
	n = darwin_sysctl_int("hw.logicalcpu");
	ctx->cpu_threads = n > 0 ? (int)n : 0;
	darwin_cache(ctx, "hw.l1dcachesize", 1, "Data", failed);
	darwin_cache(ctx, "hw.l1icachesize", 1, "Instruction", failed);
	darwin_cache(ctx, "hw.l2cachesize", 2, "Unified", failed);
	darwin_cache(ctx, "hw.l3cachesize", 3, "Unified", failed);
	n = darwin_sysctl_int("kern.hv_vmm_present");
	if (n == 0)
		platform_set(&ctx->cpu_hypervisor, "none", failed);
	if (cpu_identity_cpuid(ctx) < 0)   /* Intel Macs: the hypervisor's name */
		*failed = 1;
	if (n == 1 && !ctx->cpu_hypervisor)
		platform_set(&ctx->cpu_hypervisor, "unnamed", failed);
}

int platform_context(struct context *ctx)
{
	struct utsname uts;
	char text[256];
	int failed = 0, have_uts = uname(&uts) == 0;
	long n;

	platform_set(&ctx->os, "macos", &failed);
	platform_set(&ctx->arch, have_uts ? uts.machine : "unknown", &failed);
	platform_set(&ctx->kernel_release, have_uts ? uts.release : "unknown", &failed);
	platform_set(&ctx->libc, "libsystem", &failed);
	darwin_sysctl("kern.osproductversion", "unknown", text, sizeof text);
	platform_set(&ctx->libc_version, text, &failed);
	darwin_sysctl("machdep.cpu.brand_string", "unknown", text, sizeof text);
	platform_set(&ctx->cpu_model, text, &failed);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	ctx->cpu_count = n > 0 ? (int)n : 0;
	darwin_identity(ctx, &failed);
	n = sysconf(_SC_PAGESIZE);
	ctx->page_size = n > 0 ? n : 0;
	platform_set(&ctx->thp, "unavailable", &failed);
	platform_set(&ctx->aslr, "on (macOS: always)", &failed);
	return platform_finish(ctx, failed);
}
