/* cost_dump.h: the cost pass's pure parts (docs/cost.md, "How it counts"):
 * valgrind's command line, callgrind's dump files and their labels
 * (cost_regions.h sums the dumps per region into metrics).
 *
 * A cost sample runs the kernel under callgrind with instrumentation off
 * until a region opens; the probe dumps the cost of every interval in
 * which the set of open regions stayed the same, labelled
 * "allocgate/R1/R2..." (perf/probe/probe_region.c). Each dump holds every thread's
 * cost of its interval. A region's cost is the sum of the dumps whose
 * label names it. */
#ifndef GATE_COST_DUMP_H
#define GATE_COST_DUMP_H

#include <stddef.h>
#include <stdint.h>

/* The events of callgrind's cache simulation, in the order of its
 * "events:" line with --cache-sim=yes. */
enum cost_event {
	COST_IR, COST_DR, COST_DW,          /* instructions, data reads, data writes */
	COST_I1MR, COST_D1MR, COST_D1MW,    /* first-level misses */
	COST_ILMR, COST_DLMR, COST_DLMW,    /* last-level misses */
	COST_EVENTS,
};

/* The allocator entry points whose calls the cost pass counts. */
enum cost_entry {
	COST_MALLOC, COST_CALLOC, COST_REALLOC, COST_FREE, COST_ALIGNED,
	COST_ENTRIES,
};

/* What one dump file says. */
struct cost_dump {
	char label[512];                    /* the client request's label, "" if none */
	uint64_t events[COST_EVENTS];       /* the "totals:" line */
	uint64_t calls[COST_ENTRIES];       /* calls of each entry point */
	uint64_t entry_ir[COST_ENTRIES];    /* instructions inside those calls (inclusive) */
};

/* Cache geometry the simulation is given, so that misses do not follow the
 * host: valgrind's amd64 CPU reports these caches to the program (32 KiB
 * 8-way L1, 8 MiB 16-way L3, 64-byte lines; ld.so --list-diagnostics
 * under valgrind), and without them callgrind takes the host's. */
#define COST_I1 "--I1=32768,8,64"
#define COST_D1 "--D1=32768,8,64"
#define COST_LL "--LL=8388608,16,64"

/* The most callers callgrind names of a call of an entry point
 * (--separate-callersN=SYMBOL: the dump's callee becomes
 * "malloc'caller'its_caller'..."), the depth of the call stacks
 * (cost_stacks.h). Callgrind follows calls from the moment a region opens,
 * so a context ends at the function that opened it, and the depth matters
 * only below that: the seed kernels' stacks are 1 or 2 frames deep there
 * (their quick tier), library code deeper, and a recursive
 * descent parser takes a frame per nesting level (recursion shows once,
 * mutual recursion does not). 30 leaves a library room for 15 levels of
 * such recursion and bounds what one entry point's contexts cost
 * callgrind and the dump where a program recurses deeper. */
#define COST_STACK_DEPTH 30

/* Arguments put before a kernel's argv to take a cost sample whose dumps
 * go to OUT_FILE.1, OUT_FILE.2, ...; OUT_ARG is storage for
 * "--callgrind-out-file=OUT_FILE". Fills PREFIX (at least COST_PREFIX_MAX
 * slots) and returns how many it used. */
#define COST_PREFIX_MAX 80
size_t cost_prefix(const char *valgrind, const char *out_file, char *out_arg,
		   size_t out_arg_size, char **prefix);

/* Parses TEXT, one callgrind output file written with
 * --compress-strings=no --compress-pos=no, into D. Returns 0, or -EINVAL
 * with ERR saying what is missing. */
int cost_parse_dump(const char *text, struct cost_dump *d, char *err, size_t err_size);

/* Whether dump label LABEL ("allocgate/R1/R2...", "" standing for the
 * unnamed region) names region REGION ("" for the unnamed one). Returns 1,
 * 0, or -1 when LABEL is not the probe's. */
int cost_label_has(const char *label, const char *region);

/* The regions a label names, in order: calls FN(REGION, ARG) for each. */
void cost_label_regions(const char *label, void (*fn)(const char *region, void *arg),
			void *arg);

/* Estimated cycles from the events E, gungraun's (iai-callgrind's) model:
 * L1 hits + 5 x LL hits + 35 x RAM accesses, where L1 hits are the
 * instruction and data accesses (Ir + Dr + Dw) that did not miss L1. */
uint64_t cost_estimated_cycles(const uint64_t *e);

/* The length of callgrind's function name NAME (up to END) without what
 * follows its first '\'': a context of callers ("malloc'caller'...", whose
 * frames may be versioned: "__libc_start_main@@GLIBC_2.34") or a
 * recursion depth ("grow'2"). Every reader of a name cuts there first. */
size_t cost_name_length(const char *name, const char *end);

/* The entry point's name in metric names: "malloc", "calloc", ... */
const char *cost_entry_name(enum cost_entry e);

/* The entry point whose symbol is NAME (up to END, cut at its context:
 * cost_name_length), or -1. A versioned name ("free@@GLIBC_2.2.5") counts
 * as its base name. The allocators' own names (je_, mi_, tc_, __libc_)
 * count only in a shared library (IN_LIBRARY): a kernel may have a
 * function of that name (thread_cache's tc_free). */
int cost_entry_of(const char *name, const char *end, int in_library);

/* Whether the object path P (to END) is a shared library ("....so",
 * "....so.6"): not the kernel's own executable. */
int cost_object_is_library(const char *p, const char *end);

/* Adds the ifunc variants that TEXT (a dump with uncompressed names) ran,
 * its "fn=" and "cfn=" names of glibc's variants, to the set *SET
 * (core/cost_key.h). Returns 0 or -ENOMEM. */
int cost_dump_ifuncs(const char *text, char **set);

/* The end of the line starting at P in a dump's text: its '\n' or the
 * final NUL. */
const char *cost_dump_line_end(const char *p);

/* P (to END) into OUT of SIZE bytes, cut to fit, NUL-terminated. */
void cost_dump_copy(char *out, size_t size, const char *p, const char *end);

/* The column of Ir on an "events:" line's names P (to END), 1-based among
 * a cost line's numbers after its position; 0 when absent. */
int cost_dump_ir_column(const char *p, const char *end);

#endif
