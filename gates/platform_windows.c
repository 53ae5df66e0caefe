/* platform_windows.c: platform_context on Windows, from
 * GetNativeSystemInfo, GetSystemInfo, GetActiveProcessorCount, the
 * the registry (CPU name) and GetVersionExA (kernel release).
 *
 * Cross-compiled with mingw-w64 and compile-checked only: the gate itself
 * is not built for Windows yet (no jansson for the cross toolchain).
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "platform.h"

#ifndef GATE_COMPILER
#define GATE_COMPILER "unknown"
#endif
#ifndef GATE_CFLAGS
#define GATE_CFLAGS "unknown"
#endif
#ifndef GATE_VERSION
#define GATE_VERSION "unknown"
#endif

/* Replaces *FIELD by a copy of VALUE; sets *FAILED on no memory. */
static void win_set(char **field, const char *value, int *failed)
{
	free(*field);
	*field = strdup(value);
	if (!*field)
		*failed = 1;
}

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
	LSTATUS rc = RegGetValueA(HKEY_LOCAL_MACHINE,
				  "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0",
				  "ProcessorNameString", RRF_RT_REG_SZ, &type, out, &len);
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

static void win_started_at(struct context *ctx, int *failed)
{
	char buf[32];
	time_t now = time(NULL);
	struct tm *tm = gmtime(&now);
	if (!tm || strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", tm) == 0)
		snprintf(buf, sizeof buf, "unknown");
	win_set(&ctx->started_at, buf, failed);
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
	char text[256], key[128];
	int failed = 0;
	DWORD cores = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);

	GetSystemInfo(&si);
	win_set(&ctx->os, "windows", &failed);
	win_set(&ctx->arch, win_arch(), &failed);
	win_release(text, sizeof text);
	win_set(&ctx->kernel_release, text, &failed);
	win_set(&ctx->libc, win_libc(), &failed);
	win_set(&ctx->libc_version, "unknown", &failed);
	win_cpu_model(text, sizeof text);
	win_set(&ctx->cpu_model, text, &failed);
	ctx->cpu_count = (int)cores;
	ctx->page_size = (long)si.dwPageSize;
	win_set(&ctx->thp, "n/a", &failed);
	win_set(&ctx->aslr, "n/a", &failed);
	win_set(&ctx->compiler, GATE_COMPILER, &failed);
	win_set(&ctx->cflags, GATE_CFLAGS, &failed);
	win_set(&ctx->gate_version, GATE_VERSION, &failed);
	win_started_at(ctx, &failed);
	if (failed || platform_key(ctx->os, ctx->arch, ctx->libc, key, sizeof key) < 0)
		return -ENOMEM;
	win_set(&ctx->platform_key, key, &failed);
	return failed ? -ENOMEM : 0;
}
