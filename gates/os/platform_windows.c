/* platform_windows.c: platform_context on Windows, from
 * GetNativeSystemInfo, GetSystemInfo, GetActiveProcessorCount, the
 * registry (CPU name, microcode), GetVersionExA (kernel release),
 * GetLogicalProcessorInformationEx (cores, threads, caches) and CPUID
 * (vendor, family, model, stepping, hypervisor: core/cpu_identity.h).
 *
 * Run under wine 8.0 by tests/test_windows_gate.c, which checks the
 * context in gate.exe's JSON; wine reports the CPU and version it emulates.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpu_identity.h"
#include "core/platform.h"
#include "core/platform_os.h"

#define CPU0_KEY "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0"

/* The machine's architecture (not the emulated one under WOW64). */
static const char *win_arch(void)
{
	SYSTEM_INFO si;
	GetNativeSystemInfo(&si);
	switch (si.wProcessorArchitecture) {
	case PROCESSOR_ARCHITECTURE_AMD64:
		return "x86_64";
	case PROCESSOR_ARCHITECTURE_INTEL:
		return "x86";
#ifdef PROCESSOR_ARCHITECTURE_ARM64
	case PROCESSOR_ARCHITECTURE_ARM64:
		return "arm64";
#endif
	case PROCESSOR_ARCHITECTURE_ARM:
		return "arm";
	default:
		return "unknown";
	}
}

/* ProcessorNameString of CPU 0 into OUT, squeezed; "unknown" when absent. */
static void win_cpu_model(char *out, DWORD size)
{
	DWORD len = size, type = 0;
	LSTATUS rc = RegGetValueA(HKEY_LOCAL_MACHINE, CPU0_KEY, "ProcessorNameString",
				  RRF_RT_REG_SZ, &type, out, &len);
	if (rc != ERROR_SUCCESS || len == 0) {
		snprintf(out, size, "unknown");
		return;
	}
	/* Collapse runs of blanks ("Intel(R) Core(TM)   i7") and trim. */
	char *d = out;
	for (const char *s = out; *s; s++)
		if (*s != ' ' || (d > out && d[-1] != ' '))
			*d++ = *s;
	while (d > out && d[-1] == ' ')
		d--;
	*d = '\0';
}

/* The microcode revision of CPU 0: "Update Revision", 8 bytes, the
 * revision in the upper 4 (little-endian); NULL where absent (wine). */
static char *win_microcode(void)
{
	unsigned char rev[8];
	DWORD len = sizeof rev, type = 0;
	char text[24];
	if (RegGetValueA(HKEY_LOCAL_MACHINE, CPU0_KEY, "Update Revision", RRF_RT_REG_BINARY,
			 &type, rev, &len) != ERROR_SUCCESS || len != sizeof rev)
		return NULL;
	unsigned long v = rev[4] | (unsigned long)rev[5] << 8 | (unsigned long)rev[6] << 16 |
			  (unsigned long)rev[7] << 24;
	if (v == 0)
		return NULL;
	snprintf(text, sizeof text, "0x%lx", v);
	return strdup(text);
}

/* Bits set in MASK: the logical processors of one group. */
static int win_bits(KAFFINITY mask)
{
	int n = 0;
	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

/* One cache of CACHE (the first of each level and type, in the order
 * Windows lists them) into CTX's caches, as sysfs would name it. */
static void win_cache(struct context *ctx, const CACHE_RELATIONSHIP *cache, unsigned *seen,
		      int *failed)
{
	const char *type = cache->Type == CacheData ? "Data"
			   : cache->Type == CacheInstruction ? "Instruction" : "Unified";
	unsigned bit = 1u << ((cache->Level & 7) * 3 + (cache->Type & 3));
	char size[32];
	if (*seen & bit)
		return;
	*seen |= bit;
	snprintf(size, sizeof size, "%luK", (unsigned long)(cache->CacheSize / 1024));
	if (cpu_identity_add_cache(&ctx->cpu_caches, cache->Level, type, size) < 0)
		*failed = 1;
}

/* Cores, threads and caches from GetLogicalProcessorInformationEx. */
static void win_topology(struct context *ctx, int *failed)
{
	DWORD len = 0;
	unsigned seen = 0;
	GetLogicalProcessorInformationEx(RelationAll, NULL, &len);
	char *buf = len ? malloc(len) : NULL;
	if (!buf || !GetLogicalProcessorInformationEx(RelationAll, (void *)buf, &len)) {
		free(buf);
		return;
	}
	for (DWORD off = 0; off < len;) {
		SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX *e = (void *)(buf + off);
		if (e->Relationship == RelationProcessorCore) {
			ctx->cpu_cores++;
			for (WORD g = 0; g < e->Processor.GroupCount; g++)
				ctx->cpu_threads += win_bits(e->Processor.GroupMask[g].Mask);
		} else if (e->Relationship == RelationCache) {
			win_cache(ctx, &e->Cache, &seen, failed);
		}
		off += e->Size ? e->Size : len;
	}
	free(buf);
}

/* The Windows version as "major.minor.build" (GetVersionEx lies without a
 * manifest; the kernel32 file version is not worth the code here). */
static void win_release(char *out, size_t size)
{
	OSVERSIONINFOA v;
	memset(&v, 0, sizeof v);
	v.dwOSVersionInfoSize = sizeof v;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	if (!GetVersionExA(&v))
		snprintf(out, size, "unknown");
	else
		snprintf(out, size, "%lu.%lu.%lu", (unsigned long)v.dwMajorVersion,
			 (unsigned long)v.dwMinorVersion, (unsigned long)v.dwBuildNumber);
#pragma GCC diagnostic pop
}

/* The C runtime the gate was linked against (mingw-w64 defines _UCRT). */
static const char *win_libc(void)
{
#ifdef _UCRT
	return "ucrt";
#else
	return "msvcrt";
#endif
}

int platform_context(struct context *ctx)
{
	SYSTEM_INFO si;
	char text[256];
	int failed = 0;
	DWORD cores = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);

	GetSystemInfo(&si);
	platform_set(&ctx->os, "windows", &failed);
	platform_set(&ctx->arch, win_arch(), &failed);
	win_release(text, sizeof text);
	platform_set(&ctx->kernel_release, text, &failed);
	platform_set(&ctx->libc, win_libc(), &failed);
	platform_set(&ctx->libc_version, "unknown", &failed);
	win_cpu_model(text, sizeof text);
	platform_set(&ctx->cpu_model, text, &failed);
	ctx->cpu_count = (int)cores;
	ctx->cpu_microcode = win_microcode();
	win_topology(ctx, &failed);
	if (cpu_identity_cpuid(ctx) < 0)   /* no governor or boost file on Windows */
		failed = 1;
	ctx->page_size = (long)si.dwPageSize;
	platform_set(&ctx->thp, "n/a", &failed);
	platform_set(&ctx->aslr, "n/a", &failed);
	return platform_finish(ctx, failed);
}
