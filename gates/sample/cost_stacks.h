/* cost_stacks.h: allocation call stacks from the cost pass's dumps
 * (docs/cost.md, "Allocation call stacks"): for every call of an
 * allocator entry point inside the measured regions, the functions it was
 * made through, from the kernel's code down to the caller.
 *
 * The cost pass runs callgrind with --separate-callersN=SYMBOL for every
 * entry point's symbol (cost_dump.h, COST_STACK_DEPTH): a call's callee is
 * then named with its context, the N nearest callers, leaf first
 * ("malloc'helper'variant"), under "fn=" the direct caller, and its
 * "calls=" line is followed by the cost line of the caller's line and the
 * inclusive events. Every dump whose label is the probe's adds once, as
 * for the sites (cost_sites.h); a call made inside the allocator (realloc
 * calling malloc) is none, as in the cost metrics.
 *
 * What a context becomes (cost_stacks_record):
 * - wrappers folded: the frames nearest the entry point that the sites'
 *   wrapper rule took for wrappers (cost_sites.h) are left out, as the
 *   sites see through them; the stack's FILE:LINE is then where the last
 *   frame kept called the outermost wrapper, the line the site list
 *   shows. Callgrind's context names functions, not lines: where that
 *   frame calls the wrapper from several lines, the calls and instructions
 *   are shared among those lines in proportion to its calls of the wrapper
 *   at each (exact where the frame has one context);
 * - cut at the root, kept as frames[0]: the nearest frame that the probe
 *   calls (`probe_*`, `gate_*`: a kernel's variant, a parallel region's
 *   worker), else the nearest frame called by a thread's start
 *   (glibc's start_thread, musl's start_c11, macOS's _pthread_start): a
 *   thread the kernel started; else the outermost frame of the context,
 *   the function that was running when the region opened (callgrind
 *   follows calls from the moment instrumentation starts, so the variant
 *   that called it is not seen);
 * - truncated when the context is COST_STACK_DEPTH callers long and has
 *   no root, or when callgrind named no context (a symbol the options did
 *   not name): the frames are the callers it named.
 * Frames are function names as callgrind gives them, without recursion
 * depths ("grow'2" is "grow"). A stack's region is its dump's label after
 * "allocgate/": the regions open during the dump's interval ("alloc",
 * "outer/inner", "" the unnamed one), so that the stacks of a region add
 * up to its cost_E_calls and cost_E_instructions (cost_regions.h) without
 * counting an interval twice. Stacks of the same region, frames, entry
 * point, file and line add up. */
#ifndef GATE_COST_STACKS_H
#define GATE_COST_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "sample/cost_sites.h"

/* The calls of one entry point in one context from one line, the dumps'
 * added up. */
struct cost_stacks_context {
	char *region;              /* the dump's open regions (above) */
	int entry;                 /* enum cost_entry */
	char *object;              /* the direct caller's object ("ob=") */
	char *caller;              /* the direct caller ("fn="), without context */
	char *callers;             /* the context: "caller'its_caller'...", "" none */
	char *file;                /* where the call is ("fl=", "fi=", "fe=") */
	int line;                  /* its line, 0 none */
	uint64_t calls, ir;        /* calls, instructions inside them (inclusive) */
};

/* The contexts of one sample's dumps; start from all zeroes. */
struct cost_stacks {
	struct cost_stacks_context *items;
	size_t count, capacity;
	size_t *slots;             /* open-addressed hash of items; SIZE_MAX: free */
	size_t slot_count;
};

/* Adds the entry points' calls of TEXT, one dump file (--compress-strings=no
 * --compress-pos=no), by context, when its label is the probe's; a dump of
 * another label adds nothing. Returns 0 or -ENOMEM. */
int cost_stacks_add_dump(struct cost_stacks *s, const char *text);

/* Appends to OUT the stacks of S (above), kernel, variant and params ""
 * (the runner names them), file as the sites name it (NULL without line
 * information), bytes unknown. G is the call graph of the same dumps,
 * after cost_sites_record found its wrappers. Returns 0 or -ENOMEM. */
int cost_stacks_record(const struct cost_stacks *s, const struct cost_sites *g,
		       struct stacks *out);

/* Frees what S holds. */
void cost_stacks_free(struct cost_stacks *s);

#endif
