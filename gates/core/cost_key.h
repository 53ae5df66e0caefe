/* cost_key.h: what decides the instruction stream of a cost sample, and
 * what does not (docs/cost.md, "The cost key").
 *
 * Under valgrind a program sees valgrind's synthetic CPU: on every AVX2
 * host the same Intel family 6 model 0x3c with the same cache leaves,
 * except for a few feature bits that pass through from the host (RDSEED,
 * RDRAND, F16C: valgrind's VEX/priv/guest_amd64_helpers.c). glibc picks
 * its string-function variants (ifuncs) and its copy thresholds from that
 * CPU. So of the `x86.cpu_features.*` lines that `ld.so
 * --list-diagnostics` prints under valgrind, only these decide what runs:
 * the ISA level (isa_1), the preferred flags, the cache sizes glibc derives
 * its thresholds from and the thresholds themselves. The raw CPUID words,
 * the "active" words (which carry the passed-through bits), family, model
 * and the cache-descriptor lines do not, and differ between hosts whose
 * cost counts are equal (two AMD EPYC hosts differ in RDSEED). What
 * actually ran is named by the ifunc variants in callgrind's dumps
 * (`__memcpy_avx_unaligned_erms`, with libc's debug symbols).
 *
 * Pure text functions: the OS layer runs ld.so and valgrind, the decision
 * layer compares. */
#ifndef GATE_COST_KEY_H
#define GATE_COST_KEY_H

#include <stddef.h>

/* Whether the diagnostics line LINE (LEN bytes, no newline) is one of the
 * key's: isa_1, preferred.*, *_threshold, data_cache_size,
 * shared_cache_size of x86.cpu_features. */
int cost_key_is_key_line(const char *line, size_t len);

/* The lines of DIAG (ld.so --list-diagnostics output) that speak of the
 * CPU and of glibc's version ("x86.cpu_features.*", "version.*"), each
 * ending in '\n', as a new string (the environment and uname lines are
 * left out: they hold the gate's environment). NULL when out of memory. */
char *cost_key_cpu_lines(const char *diag);

/* Summary of the key lines of CPU_LINES into OUT: "fnv1a64:<16 hex>
 * (isa_1 0x7, 24 key lines of 114)", or "unknown (...)" when there is
 * none. */
void cost_key_summary(const char *cpu_lines, char *out, size_t size);

/* Compares the CPU lines A (baseline) and B (this run). The key lines that
 * differ go to KEY_WHY as "NAME VALUE -> VALUE" (the first three, then "and
 * N more"); the other lines that differ are counted in *OUTSIDE and the
 * first two named in OUTSIDE_WHY. Returns how many key lines differ. */
int cost_key_diff_cpu(const char *a, const char *b, char *key_why, size_t key_size,
		      char *outside_why, size_t outside_size, int *outside);

/* Whether the function name NAME (LEN bytes) is one of glibc's x86-64
 * ifunc variants (`__memcpy_avx_unaligned_erms`, `__strlen_sse2`): "__",
 * a function name, and a variant suffix naming an instruction set. */
int cost_key_is_ifunc_variant(const char *name, size_t len);

/* Adds NAME (LEN bytes) to the sorted, comma-separated set *SET (a
 * malloc'd string or NULL), unless it is there. Returns 0 or -ENOMEM. */
int cost_key_set_add(char **set, const char *name, size_t len);

/* Compares two sets of ifunc variants by function: a function that ran one
 * variant in A and another in B is a difference ("memcpy:
 * __memcpy_avx_unaligned_erms -> __memcpy_evex_unaligned_erms", into WHY);
 * a function seen on one side only is not (a run of fewer kernels).
 * Returns how many functions differ. */
int cost_key_diff_ifuncs(const char *a, const char *b, char *why, size_t size);

#endif
