/* record.h: one sample record of a kernel (docs/protocol.md), parsed
 * strictly: anything unexpected makes the whole record invalid. */
#ifndef GATE_RECORD_H
#define GATE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include "core/result.h"

struct record_metric {
	char *name, *unit;
	enum metric_class cls;
	uint64_t value;
};

struct record_unavailable {
	char *name, *reason;
};

/* One allocation call site of a counted build (docs/protocol.md,
 * "Allocation sites"), or a shared library's calls seen by the interposer
 * (`lib-site`: LINE 0, FUNCTION "-", FILE the library's name). */
struct record_site {
	char *kind, *function, *file;
	int line;
	uint64_t calls, bytes;
	char *via;        /* the allocation wrapper the calls went through, "FILE:LINE
			   * FUNCTION" (sample/cost_sites.h); NULL: called directly */
};

struct record {
	struct record_metric *metrics;
	size_t metric_count;
	struct record_unavailable *unavailable;
	size_t unavailable_count;
	struct record_site *sites;
	size_t site_count;
	uint64_t sites_dropped;    /* calls at sites the kernel's table had no room for */
};


/* Parses TEXT (a kernel's whole stdout) into OUT. Returns 0, or -EINVAL
 * with ERR saying which line is wrong and why. */
int record_parse(const char *text, struct record *out, char *err, size_t err_size);

/* Frees what OUT owns. */
void record_free(struct record *rec);

#endif
