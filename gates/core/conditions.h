/* conditions.h: where a declared expectation applies. An expectation's
 * CONDITIONS (the `expect` line's fourth field, docs/protocol.md; NULL for
 * none) is a comma list of terms:
 *
 *   linux, windows, darwin      the operating system (one must match)
 *   cores>=N                    a machine with at least N online CPUs
 *   allocator=NAME[|NAME...]    the malloc the kernels ran with: glibc,
 *                               jemalloc, mimalloc, tcmalloc, crt (the
 *                               Windows C runtime's heap: msvcrt or ucrt),
 *                               libmalloc (macOS), musl, or a preloaded
 *                               library by the name --allocator PATH is
 *                               keyed by (its file name up to the first '.')
 *
 * Terms of one kind are alternatives, kinds must all hold. What a claim
 * depends on decides what happens where it does not hold: on another OS it
 * is not evaluated at all; on a machine with fewer cores it is skipped
 * (the seed's claim needs threads that run in parallel); under another
 * allocator it is measured and reported as information, never gated
 * (docs/kernels.md, "Conditions"). */
#ifndef GATE_CONDITIONS_H
#define GATE_CONDITIONS_H

#include <stddef.h>

enum condition_outcome {
	CONDITION_APPLIES,         /* evaluated and gated */
	CONDITION_OTHER_OS,        /* declared for another OS: not evaluated */
	CONDITION_UNMET,           /* a machine condition fails: skipped, WHY says which */
	CONDITION_OTHER_ALLOCATOR, /* measured as information; WHY says what it is declared for */
};

/* What a run is: its OS (platform.h's names), its allocator (the
 * context's allocator: "glibc", "jemalloc", "msvcrt", ...) and its CPUs. */
struct condition_target {
	const char *os;
	const char *allocator;
	int cores;
};

/* Whether CONDITIONS is well formed: 0, or -1 with ERR naming the term
 * and what the terms may be. NULL is well formed. */
int conditions_check(const char *conditions, char *err, size_t err_size);

/* Where CONDITIONS (well formed; NULL: everywhere) leaves target T. WHY,
 * if not NULL, says why for CONDITION_UNMET and names the allocators it is
 * declared for ("glibc", "glibc|crt") for CONDITION_OTHER_ALLOCATOR. */
enum condition_outcome conditions_evaluate(const char *conditions,
					   const struct condition_target *t, char *why,
					   size_t why_size);

/* The allocators CONDITIONS (well formed; NULL: none) declares, in BUF:
 * their names joined by '|' in the order declared ("glibc|crt"), "" when
 * it names none. Shared by conditions_evaluate's WHY and the renderers'
 * "declared for ...". */
void conditions_allocators(const char *conditions, char *buf, size_t size);

/* Whether allocator NAME of a condition names ALLOCATOR (a context's
 * allocator): equal, or an alias: crt for msvcrt and ucrt, libmalloc for
 * macOS's libsystem. */
int conditions_allocator_is(const char *name, size_t name_len, const char *allocator);

#endif
