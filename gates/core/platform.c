/* platform.c: the portable parts of platform.h: the platform key and the
 * software comparison. Facts about the machine come from platform_<os>.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/platform.h"
#include "core/platform_os.h"
#include "core/version.h"

#ifndef GATE_COMPILER
#define GATE_COMPILER "unknown"
#endif
#ifndef GATE_CFLAGS
#define GATE_CFLAGS "unknown"
#endif

/* Appends PART to OUT at *LEN, lower-cased, with every character outside
 * [a-z0-9_] replaced by '_' (so that a key is a safe file name and cannot
 * climb directories). Returns 0 or -ENAMETOOLONG. */
static int key_append(char *out, size_t out_size, size_t *len, const char *part)
{
	const char *p = part && *part ? part : "unknown";

	for (; *p; p++) {
		char c = *p;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			c = '_';
		if (*len + 1 >= out_size)
			return -ENAMETOOLONG;
		out[(*len)++] = c;
	}
	out[*len] = '\0';
	return 0;
}

int platform_key(const char *os, const char *arch, const char *libc,
		 char *out, size_t out_size)
{
	const char *parts[] = { os, arch, libc };
	size_t i, len = 0;

	if (out_size == 0)
		return -ENAMETOOLONG;
	out[0] = '\0';
	for (i = 0; i < 3; i++) {
		if (i > 0) {
			if (len + 1 >= out_size)
				goto too_long;
			out[len++] = '-';
			out[len] = '\0';
		}
		if (key_append(out, out_size, &len, parts[i]) < 0)
			goto too_long;
	}
	return 0;
too_long:
	out[0] = '\0';
	return -ENAMETOOLONG;
}

int platform_key_add_suffix(struct context *ctx, const char *suffix)
{
	char key[512];
	size_t len;
	if (!ctx->platform_key)
		return 0;
	len = (size_t)snprintf(key, sizeof key, "%s-", ctx->platform_key);
	if (len >= sizeof key || key_append(key, sizeof key, &len, suffix) < 0)
		return -ENAMETOOLONG;
	char *copy = strdup(key);
	if (!copy)
		return -ENOMEM;
	free(ctx->platform_key);
	ctx->platform_key = copy;
	return 0;
}

static void diff_field(const char *label, const char *a, const char *b, char *why, size_t size,
		       int *count)
{
	a = a ? a : "";
	b = b ? b : "";
	if (!strcmp(a, b))
		return;
	size_t used = strlen(why);
	snprintf(why + used, size - used, "%s%s \"%s\" -> \"%s\"", *count ? "; " : "", label, a, b);
	(*count)++;
}

int platform_software_diff(const struct context *from, const struct context *to,
			   char *why, size_t why_size)
{
	int count = 0;
	if (why_size)
		why[0] = '\0';
	diff_field("libc", from->libc_version, to->libc_version, why, why_size, &count);
	diff_field("kernel", from->kernel_release, to->kernel_release, why, why_size, &count);
	diff_field("THP", from->thp, to->thp, why, why_size, &count);
	diff_field("ASLR", from->aslr, to->aslr, why, why_size, &count);
	diff_field("GLIBC_TUNABLES", from->tunables, to->tunables, why, why_size, &count);
	diff_field("kernel environment", from->env, to->env, why, why_size, &count);
	diff_field("pinning", from->pinning, to->pinning, why, why_size, &count);
	if (from->best_of)   /* baselines before --best-of have none */
		diff_field("best of", from->best_of, to->best_of, why, why_size, &count);
	diff_field("compiler", from->compiler, to->compiler, why, why_size, &count);
	if (from->cpu_microcode && to->cpu_microcode)   /* firmware: where both say */
		diff_field("CPU microcode", from->cpu_microcode, to->cpu_microcode, why, why_size,
			   &count);
	if (from->seed != to->seed) {
		/* kernels draw their sizes and orders from the seed: counts such
		 * as bytes requested follow it */
		char a[32], b[32];
		snprintf(a, sizeof a, "%lld", from->seed);
		snprintf(b, sizeof b, "%lld", to->seed);
		diff_field("seed (counts drawn from it differ)", a, b, why, why_size, &count);
	}
	return count;
}

void platform_set(char **field, const char *value, int *failed)
{
	free(*field);
	*field = strdup(value);
	if (!*field)
		*failed = 1;
}

int platform_finish(struct context *ctx, int failed)
{
	char buf[128];
	time_t now = time(NULL);
	struct tm *tm = gmtime(&now); /* once, at start-up: no other thread yet */

	platform_set(&ctx->compiler, GATE_COMPILER, &failed);
	platform_set(&ctx->cflags, GATE_CFLAGS, &failed);
	platform_set(&ctx->gate_version, gate_version(), &failed);
	if (!tm || strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", tm) == 0)
		snprintf(buf, sizeof buf, "unknown");
	platform_set(&ctx->started_at, buf, &failed);
	if (failed || platform_key(ctx->os, ctx->arch, ctx->libc, buf, sizeof buf) < 0)
		return -ENOMEM;
	platform_set(&ctx->platform_key, buf, &failed);
	return failed ? -ENOMEM : 0;
}
