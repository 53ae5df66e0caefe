/* cost_sites.h: allocation sites from the cost pass's call graph
 * (docs/sites.md, "Sites from the cost pass"): the line of code that called
 * malloc, calloc, realloc, free or an aligned allocation, however it got
 * there (a function pointer, a macro, an inlined wrapper, a shared library
 * with debug information), and how often, inside the measured regions.
 *
 * callgrind writes, under each function ("fn=", in the file "fl=", or
 * "fi="/"fe=" for inlined code), every callee ("cfn=") with a "calls="
 * line whose next cost line starts with the caller's line number
 * (--dump-line=yes, its default). Every dump whose label is the probe's
 * adds once, whatever regions it names: a site's calls are the variant's,
 * as the counted build's are.
 *
 * An allocation wrapper (a library's `lib_malloc(n) { return
 * hooks.malloc(n); }`, a hook with a fallback, a free that returns early on
 * NULL, an `xmalloc` that checks the result) is recognised by what it does,
 * not by its size, and seen through to its callers: a function that calls
 * nothing but one allocator entry point (directly or through another
 * wrapper), at most once for each call made of it and for at least half of
 * them (a call on behalf of its caller; a function that grows a buffer now
 * and then is a caller, not a wrapper), and that the probe does not call (a
 * kernel's variant is never a wrapper). Its callers' lines are the sites,
 * credited with their calls of the wrapper, each with the wrapper it went
 * through ("via"). Up to COST_SITES_WRAPPER_DEPTH wrappers deep. */
#ifndef GATE_COST_SITES_H
#define GATE_COST_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "sample/record.h"

/* The most wrappers of wrappers seen through. */
#define COST_SITES_WRAPPER_DEPTH 4

/* An open-addressed hash of indices into one of cost_sites's arrays. */
struct cost_sites_table {
	size_t *slots;               /* SIZE_MAX: free */
	size_t size;
};

enum { COST_SITES_FNS, COST_SITES_FILES, COST_SITES_CALLS, COST_SITES_TABLES };

/* One function of one object. */
struct cost_sites_fn {
	char *object, *name;               /* name without context or recursion */
	int entry;                         /* enum cost_entry, or -1 */
	int forwards;                      /* the entry point it only forwards to (a
					    * wrapper's, found by cost_sites_record), or -1 */
	size_t via_call;                   /* a wrapper's call toward that entry point */
	uint64_t self_ir;                  /* its own instructions */
	uint64_t calls_in;                 /* calls made of it */
	int probe_called;                  /* called by the probe: a kernel's variant */
};

/* CALLS calls of CALLEE from line LINE of file FILE (an index of files)
 * in CALLER (fns indices): one per (caller, callee, file, line), the
 * dumps' edges added up. */
struct cost_sites_call {
	size_t caller, callee, file;
	int line;
	uint64_t calls;
};

/* The call graph of one sample's dumps; start from all zeroes. */
struct cost_sites {
	struct cost_sites_fn *fns;   /* functions, by object and name */
	size_t fn_count, fn_capacity;
	char **files;                /* file names the calls are at */
	size_t file_count, file_capacity;
	struct cost_sites_call *calls;   /* calls, by caller, callee, file and line */
	size_t call_count, call_capacity;
	struct cost_sites_table tables[COST_SITES_TABLES];
};

/* Adds the call graph of TEXT, one dump file (--compress-strings=no
 * --compress-pos=no), when its label is the probe's; a dump of another
 * label adds nothing. Returns 0 or -ENOMEM. */
int cost_sites_add_dump(struct cost_sites *g, const char *text);

/* Finds the forwarding wrappers of G, then appends to REC's sites every
 * line that called an allocator entry point (wrappers seen through), with its calls and 0 bytes (callgrind does not
 * see the arguments). A caller without line information is a site of line
 * 0 and function "-" in its object's file name. Returns 0 or -ENOMEM. */
int cost_sites_record(struct cost_sites *g, struct record *rec);

/* The index of function NAME (NAME_LEN bytes) of OBJECT in G, or SIZE_MAX. */
size_t cost_sites_fn_find(const struct cost_sites *g, const char *object, const char *name,
			  size_t name_len);

/* Whether NAME (to END) is the probe's (perf/probe/: `probe_*`, `gate_*`):
 * what it calls is a kernel's (a variant, a thread's worker). */
int cost_sites_is_probe(const char *name, const char *end);

/* Whether a call at FILE:LINE has line information ("???" or line 0: none). */
int cost_sites_has_line(const char *file, int line);

/* FILE as a path without "." segments and with "dir/.." folded, into OUT
 * (as the sites name their files). */
void cost_sites_normal_path(const char *file, char *out, size_t size);

/* Frees what G holds. */
void cost_sites_free(struct cost_sites *g);

#endif
