/* platform_darwin.c: platform_context on macOS, from uname(3),
 * sysctlbyname(3) and sysconf(3).
 *
 * Not compiled here (no macOS SDK on the Linux build machine): written
 * against the documented calls and syntax-checked only.
 */
#ifndef _DARWIN_C_SOURCE
#define _DARWIN_C_SOURCE  /* sysctlbyname under -std=c11 */
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysctl.h>
#include <sys/utsname.h>
#include <unistd.h>

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
	n = sysconf(_SC_PAGESIZE);
	ctx->page_size = n > 0 ? n : 0;
	platform_set(&ctx->thp, "unavailable", &failed);
	platform_set(&ctx->aslr, "on (macOS: always)", &failed);
	return platform_finish(ctx, failed);
}
