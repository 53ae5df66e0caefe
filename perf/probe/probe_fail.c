/* probe_fail.c: the probe's state, and how a kernel fails: a bug of the
 * kernel file (probe_bug, exit 2) or a failure of its run (gate_fail,
 * exit 1), each one line on stderr naming the kernel and variant. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_state.h"

struct probe_state probe = { .seed = 1 };

const char *const probe_class_names[] = { "exact", "near", "timing" };

/* The message's head: "KERNEL: " and, while a variant runs or is chosen,
 * "variant V: " (docs/protocol.md, "Kernel-side rules"). */
static void probe_fail_head(void)
{
	fprintf(stderr, "%s: ", probe.kernel ? probe.kernel->name : "kernel");
	if (probe.variant)
		fprintf(stderr, "variant %s: ", probe.variant);
}

void probe_bug(const char *fmt, ...)
{
	va_list ap;
	probe_fail_head();
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* allocgate/probe.h. errno is read first: the prints may change it. */
void gate_fail(const char *fmt, ...)
{
	int saved = errno;
	size_t n = fmt ? strlen(fmt) : 0;
	va_list ap;
	probe_fail_head();
	va_start(ap, fmt);
	if (fmt)
		vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (n && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(saved));
	fputc('\n', stderr);
	exit(1);
}

/* probe_state.h */
bool probe_is_identifier(const char *s, bool lower, size_t max)
{
	size_t n = 0;
	for (; s[n]; n++) {
		char c = s[n];
		bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
			  (!lower && c >= 'A' && c <= 'Z');
		if (!ok)
			return false;
	}
	return n > 0 && n < max;
}
