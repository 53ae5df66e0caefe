/* platform_darwin.c: platform_context on macOS, from uname(3),
 * sysctlbyname(3) and sysconf(3).
 *
 * Not compiled here (no macOS SDK on the Linux build machine): written
 * against the documented calls and syntax-checked only.
 */
#ifndef _DARWIN_C_SOURCE
#define _DARWIN_C_SOURCE  /* sysctlbyname, gmtime_r under -std=c11 */
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

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
static void darwin_set(char **field, const char *value, int *failed)
{
	free(*field);
	*field = strdup(value);
	if (!*field)
		*failed = 1;
}

/* String sysctl NAME into OUT, or FALLBACK when it has none. */
static void darwin_sysctl(const char *name, const char *fallback, char *out, size_t size)
{
	size_t len = size;
	if (sysctlbyname(name, out, &len, NULL, 0) != 0 || len == 0 || len > size)
		snprintf(out, size, "%s", fallback);
	else
		out[len - 1] = '\0';
}

static void darwin_started_at(struct context *ctx, int *failed)
{
	char buf[32];
	time_t now = time(NULL);
	struct tm tm;
	if (!gmtime_r(&now, &tm) || strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, sizeof buf, "unknown");
	darwin_set(&ctx->started_at, buf, failed);
}

int platform_context(struct context *ctx)
{
	struct utsname uts;
	char text[256], key[128];
	int failed = 0, have_uts = uname(&uts) == 0;
	long n;

	darwin_set(&ctx->os, "macos", &failed);
	darwin_set(&ctx->arch, have_uts ? uts.machine : "unknown", &failed);
	darwin_set(&ctx->kernel_release, have_uts ? uts.release : "unknown", &failed);
	darwin_set(&ctx->libc, "libsystem", &failed);
	darwin_sysctl("kern.osproductversion", "unknown", text, sizeof text);
	darwin_set(&ctx->libc_version, text, &failed);
	darwin_sysctl("machdep.cpu.brand_string", "unknown", text, sizeof text);
	darwin_set(&ctx->cpu_model, text, &failed);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	ctx->cpu_count = n > 0 ? (int)n : 0;
	n = sysconf(_SC_PAGESIZE);
	ctx->page_size = n > 0 ? n : 0;
	darwin_set(&ctx->thp, "unavailable", &failed);
	darwin_set(&ctx->aslr, "on (macOS: always)", &failed);
	darwin_set(&ctx->compiler, GATE_COMPILER, &failed);
	darwin_set(&ctx->cflags, GATE_CFLAGS, &failed);
	darwin_set(&ctx->gate_version, GATE_VERSION, &failed);
	darwin_started_at(ctx, &failed);
	if (failed || platform_key(ctx->os, ctx->arch, ctx->libc, key, sizeof key) < 0)
		return -ENOMEM;
	darwin_set(&ctx->platform_key, key, &failed);
	return failed ? -ENOMEM : 0;
}
