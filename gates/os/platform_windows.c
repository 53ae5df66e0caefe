/* platform_windows.c: platform_context on Windows, from
 * GetNativeSystemInfo, GetSystemInfo, GetActiveProcessorCount, the
 * the registry (CPU name) and GetVersionExA (kernel release).
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

#include "core/platform.h"
#include "core/platform_os.h"

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
	ctx->page_size = (long)si.dwPageSize;
	platform_set(&ctx->thp, "n/a", &failed);
	platform_set(&ctx->aslr, "n/a", &failed);
	return platform_finish(ctx, failed);
}
