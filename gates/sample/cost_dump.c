/* cost_dump.c: valgrind's command line and callgrind's output format for the
 * cost pass (valgrind manual, "Callgrind Format Specification": "events:"
 * names the columns, "totals:" sums the cost lines; "fn=" starts a
 * function's costs, "cfn=" names a callee and the "calls=" line after it
 * is followed by one cost line, the inclusive cost of those calls). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cost_key.h"
#include "sample/cost_dump.h"

static const char *const cost_event_names[COST_EVENTS] = {
	"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
};

static const char *const cost_entry_names[COST_ENTRIES] = {
	"malloc", "calloc", "realloc", "free", "aligned",
};

#define COST_TEXT_(x) #x
#define COST_TEXT(x) COST_TEXT_(x)

/* Symbol names of each entry point: glibc's public names and the aliases
 * under which valgrind may show them or a preloaded allocator's; each with
 * the options that split its cost by its callers (cost_stacks.h), under
 * its name and its versioned names ("free@@GLIBC_2.2.5", where a library
 * has no debug information: callgrind's patterns take '*'). */
#define COST_SEPARATE "--separate-callers" COST_TEXT(COST_STACK_DEPTH) "="
#define COST_SYMBOL(entry, name) { entry, name, COST_SEPARATE name, COST_SEPARATE name "@*" }
static const struct {
	int entry;
	const char *name, *separate, *separate_versioned;
} cost_symbols[] = {
	COST_SYMBOL(COST_MALLOC, "malloc"), COST_SYMBOL(COST_MALLOC, "__libc_malloc"),
	COST_SYMBOL(COST_MALLOC, "je_malloc"), COST_SYMBOL(COST_MALLOC, "mi_malloc"),
	COST_SYMBOL(COST_MALLOC, "tc_malloc"),
	COST_SYMBOL(COST_CALLOC, "calloc"), COST_SYMBOL(COST_CALLOC, "__libc_calloc"),
	COST_SYMBOL(COST_CALLOC, "je_calloc"), COST_SYMBOL(COST_CALLOC, "mi_calloc"),
	COST_SYMBOL(COST_CALLOC, "tc_calloc"),
	COST_SYMBOL(COST_REALLOC, "realloc"), COST_SYMBOL(COST_REALLOC, "__libc_realloc"),
	COST_SYMBOL(COST_REALLOC, "je_realloc"), COST_SYMBOL(COST_REALLOC, "mi_realloc"),
	COST_SYMBOL(COST_REALLOC, "tc_realloc"),
	COST_SYMBOL(COST_FREE, "free"), COST_SYMBOL(COST_FREE, "__libc_free"),
	COST_SYMBOL(COST_FREE, "cfree"), COST_SYMBOL(COST_FREE, "je_free"),
	COST_SYMBOL(COST_FREE, "mi_free"), COST_SYMBOL(COST_FREE, "tc_free"),
	COST_SYMBOL(COST_ALIGNED, "posix_memalign"), COST_SYMBOL(COST_ALIGNED, "aligned_alloc"),
	COST_SYMBOL(COST_ALIGNED, "memalign"), COST_SYMBOL(COST_ALIGNED, "__libc_memalign"),
	COST_SYMBOL(COST_ALIGNED, "valloc"), COST_SYMBOL(COST_ALIGNED, "pvalloc"),
	COST_SYMBOL(COST_ALIGNED, "mi_posix_memalign"),
};

#define COST_SYMBOLS (sizeof cost_symbols / sizeof *cost_symbols)

const char *cost_entry_name(enum cost_entry e)
{
	return cost_entry_names[e];
}

size_t cost_name_length(const char *name, const char *end)
{
	const char *tick = memchr(name, '\'', (size_t)(end - name));
	return (size_t)((tick ? tick : end) - name);
}

size_t cost_prefix(const char *valgrind, const char *out_file, char *out_arg,
		   size_t out_arg_size, char **prefix)
{
	size_t n = 0;
	snprintf(out_arg, out_arg_size, "--callgrind-out-file=%s", out_file);
	prefix[n++] = (char *)valgrind;
	prefix[n++] = "--tool=callgrind";
	prefix[n++] = "--instr-atstart=no";     /* the probe starts it at a region */
	prefix[n++] = "--cache-sim=yes";
	/* threads take the lock in turn (a ticket lock): with the probe's
	 * start line, a threaded region's count repeats exactly */
	prefix[n++] = "--fair-sched=yes";
	prefix[n++] = COST_I1;
	prefix[n++] = COST_D1;
	prefix[n++] = COST_LL;
	prefix[n++] = "--compress-strings=no";  /* every name in full: no id table */
	prefix[n++] = "--compress-pos=no";
	/* each entry point's cost split by its callers: the call stacks
	 * (cost_stacks.h) */
	for (size_t i = 0; i < COST_SYMBOLS; i++) {
		prefix[n++] = (char *)cost_symbols[i].separate;
		prefix[n++] = (char *)cost_symbols[i].separate_versioned;
	}
	prefix[n++] = out_arg;
	prefix[n++] = "--quiet";
	return n;
}

int cost_entry_of(const char *name, const char *end, int in_library)
{
	end = name + cost_name_length(name, end);   /* before a context or recursion */
	const char *at = memchr(name, '@', (size_t)(end - name));
	size_t len = (size_t)((at ? at : end) - name);
	for (size_t i = 0; i < COST_SYMBOLS; i++) {
		const char *sym = cost_symbols[i].name;
		int prefixed = strchr(sym, '_') != NULL &&
			       strcmp(sym, "posix_memalign") && strcmp(sym, "aligned_alloc");
		if (strlen(sym) == len && !strncmp(sym, name, len) && (!prefixed || in_library))
			return cost_symbols[i].entry;
	}
	return -1;
}

int cost_object_is_library(const char *p, const char *end)
{
	for (const char *q = p; q + 3 <= end; q++)
		if (!strncmp(q, ".so", 3) && (q + 3 == end || q[3] == '.'))
			return 1;
	return 0;
}

const char *cost_dump_line_end(const char *p)
{
	const char *e = strchr(p, '\n');
	return e ? e : p + strlen(p);
}

void cost_dump_copy(char *out, size_t size, const char *p, const char *end)
{
	snprintf(out, size, "%.*s", (int)(end - p), p);
}

int cost_dump_ir_column(const char *p, const char *end)
{
	int col = 1;
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		const char *w = p;
		while (p < end && *p != ' ')
			p++;
		if (p - w == 2 && !strncmp(w, "Ir", 2))
			return col;
		col += p > w;
	}
	return 0;
}

/* Parses up to MAX unsigned numbers from P (to END) into V; returns how many. */
static size_t numbers(const char *p, const char *end, uint64_t *v, size_t max)
{
	size_t n = 0;
	while (p < end && n < max) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end || *p < '0' || *p > '9')
			break;
		char *next;
		errno = 0;
		v[n++] = strtoull(p, &next, 10);
		if (errno)
			return 0;
		p = next;
	}
	return n;
}

/* Maps the columns of the "events:" line (P to END) onto cost_event:
 * COL[i] is the column of event i, -1 when absent. Returns the count. */
static int event_columns(const char *p, const char *end, int *col)
{
	int n = 0;
	for (int e = 0; e < COST_EVENTS; e++)
		col[e] = -1;
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		const char *w = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		if (p == w)
			break;
		for (int e = 0; e < COST_EVENTS; e++)
			if (strlen(cost_event_names[e]) == (size_t)(p - w) &&
			    !strncmp(cost_event_names[e], w, (size_t)(p - w)))
				col[e] = n;
		n++;
	}
	return n;
}

#define COST_MAX_COLUMNS 32

/* Parser state between lines. */
struct cost_parse {
	int col[COST_EVENTS];
	int columns;
	int caller_entry;      /* entry point of the current fn=, -1 if none */
	int callee_entry;      /* of the last cfn= */
	int ob_library;        /* the current ob= is a shared library */
	int cob_library;       /* the callee's object (cob=, else ob=) is one */
	int pending_calls;     /* a calls= line was read: the next cost line is inclusive */
	uint64_t calls;
	int have_events, have_totals;
};

static void cost_line(struct cost_parse *st, struct cost_dump *d, const char *p,
		      const char *end)
{
	uint64_t v[COST_MAX_COLUMNS + 1];
	/* the first number of a cost line is its position (a line number) */
	size_t n = numbers(p, end, v, COST_MAX_COLUMNS + 1);
	if (!st->pending_calls || n < 2)
		return;
	st->pending_calls = 0;
	if (st->callee_entry < 0 || st->caller_entry >= 0 || st->col[COST_IR] < 0)
		return;   /* not an entry point, or called from inside the allocator */
	d->calls[st->callee_entry] += st->calls;
	if ((size_t)st->col[COST_IR] + 1 < n)
		d->entry_ir[st->callee_entry] += v[st->col[COST_IR] + 1];
}

static void cost_totals(struct cost_parse *st, struct cost_dump *d, const char *p,
			const char *end)
{
	uint64_t v[COST_MAX_COLUMNS];
	size_t n = numbers(p, end, v, COST_MAX_COLUMNS);
	for (int e = 0; e < COST_EVENTS; e++)
		d->events[e] = st->col[e] >= 0 && (size_t)st->col[e] < n ? v[st->col[e]] : 0;
	st->have_totals = n > 0;
}

int cost_parse_dump(const char *text, struct cost_dump *d, char *err, size_t err_size)
{
	static const char trigger[] = "desc: Trigger: Client Request: ";
	struct cost_parse st = { .caller_entry = -1, .callee_entry = -1 };
	memset(d, 0, sizeof *d);
	for (const char *p = text; *p; ) {
		const char *end = cost_dump_line_end(p);
		if (!strncmp(p, trigger, sizeof trigger - 1)) {
			size_t len = (size_t)(end - p) - (sizeof trigger - 1);
			snprintf(d->label, sizeof d->label, "%.*s", (int)len, p + sizeof trigger - 1);
		} else if (!strncmp(p, "events:", 7)) {
			st.columns = event_columns(p + 7, end, st.col);
			st.have_events = st.col[COST_IR] >= 0;
		} else if (!strncmp(p, "totals:", 7)) {
			cost_totals(&st, d, p + 7, end);
		} else if (!strncmp(p, "ob=", 3)) {
			st.ob_library = st.cob_library = cost_object_is_library(p + 3, end);
		} else if (!strncmp(p, "cob=", 4)) {
			st.cob_library = cost_object_is_library(p + 4, end);
		} else if (!strncmp(p, "fn=", 3)) {
			st.caller_entry = cost_entry_of(p + 3, end, st.ob_library);
			st.pending_calls = 0;
			st.cob_library = st.ob_library;
		} else if (!strncmp(p, "cfn=", 4)) {
			st.callee_entry = cost_entry_of(p + 4, end, st.cob_library);
			st.cob_library = st.ob_library;   /* cob= names one call's callee */
		} else if (!strncmp(p, "calls=", 6)) {
			uint64_t v[2];
			st.pending_calls = numbers(p + 6, end, v, 2) >= 1;
			st.calls = st.pending_calls ? v[0] : 0;
		} else if ((*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '*') {
			cost_line(&st, d, p, end);
		}
		p = *end ? end + 1 : end;
	}
	if (!st.have_events || !st.have_totals) {
		snprintf(err, err_size, "callgrind output has no %s",
			 !st.have_events ? "\"events:\" line with Ir" : "\"totals:\" line");
		return -EINVAL;
	}
	return 0;
}

int cost_label_has(const char *label, const char *region)
{
	static const char prefix[] = "allocgate";
	if (strncmp(label, prefix, sizeof prefix - 1) || label[sizeof prefix - 1] != '/')
		return -1;
	size_t want = strlen(region);
	for (const char *p = label + sizeof prefix - 1; *p == '/'; ) {
		const char *name = p + 1, *next = strchr(name, '/');
		size_t len = next ? (size_t)(next - name) : strlen(name);
		if (len == want && !strncmp(name, region, len))
			return 1;
		p = name + len;
	}
	return 0;
}

void cost_label_regions(const char *label, void (*fn)(const char *region, void *arg),
			void *arg)
{
	char name[512];
	if (cost_label_has(label, "") < 0)
		return;
	for (const char *p = label + 9; *p == '/'; ) {
		const char *start = p + 1, *next = strchr(start, '/');
		size_t len = next ? (size_t)(next - start) : strlen(start);
		snprintf(name, sizeof name, "%.*s", (int)len, start);
		fn(name, arg);
		p = start + len;
	}
}

uint64_t cost_estimated_cycles(const uint64_t *e)
{
	uint64_t accesses = e[COST_IR] + e[COST_DR] + e[COST_DW];
	uint64_t l1_misses = e[COST_I1MR] + e[COST_D1MR] + e[COST_D1MW];
	uint64_t ram = e[COST_ILMR] + e[COST_DLMR] + e[COST_DLMW];
	uint64_t l1_hits = accesses > l1_misses ? accesses - l1_misses : 0;
	uint64_t ll_hits = l1_misses > ram ? l1_misses - ram : 0;
	return l1_hits + 5 * ll_hits + 35 * ram;
}

int cost_dump_ifuncs(const char *text, char **set)
{
	for (const char *p = text; *p;) {
		const char *end = cost_dump_line_end(p);
		const char *name = !strncmp(p, "fn=", 3) ? p + 3 : !strncmp(p, "cfn=", 4) ? p + 4 : NULL;
		size_t len = name ? cost_name_length(name, end) : 0;
		if (name && cost_key_is_ifunc_variant(name, len) && cost_key_set_add(set, name, len))
			return -ENOMEM;
		p = *end ? end + 1 : end;
	}
	return 0;
}
