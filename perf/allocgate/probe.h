/* probe.h: what a kernel links to measure itself.
 *
 * A kernel file declares its variants, parameter sets and expectations in
 * tables and ends with GATE_KERNEL(...), which defines main(). The probe
 * then speaks the kernel protocol (docs/protocol.md):
 *
 *   build/kernels/NAME --list
 *       prints what the kernel has (variants, parameter sets, expectations
 *       with file and line) in the line format and exits 0.
 *   build/kernels/NAME --variant V --params P [--seed N] [--threads N]
 *       runs one sample of variant V on parameter set P and prints one
 *       sample record on stdout; exit 0 on success, 2 on bad arguments.
 *
 * Inside a variant, setup happens outside gate_region_begin()/
 * gate_region_end(); only the work between them is measured. A variant
 * may open several named regions one after the other (seed 001 measures
 * "alloc" and "free" separately); a region entered twice accumulates.
 */
#ifndef GATE_PROBE_H
#define GATE_PROBE_H

#include <stddef.h>
#include <stdint.h>

/* Tiers a parameter set belongs to (bit mask). */
enum {
	GATE_TIER_QUICK = 1,
	GATE_TIER_DEFAULT = 2,
	GATE_TIER_FULL = 4,
};

/* Metric classes, see docs/counters.md "Every counter of a sample". */
enum gate_metric_class {
	GATE_EXACT,  /* counts that do not depend on timing: calls, bytes, moves */
	GATE_NEAR,   /* nearly exact: page faults, retired instructions */
	GATE_TIMING, /* noisy: wall time, task clock, cycles, misses, switches */
};

struct gate_params;

/* One variant: a name (identifier: [a-z0-9_]+), the function that runs
 * one sample, and a one-line description. */
struct gate_variant {
	const char *name;
	void (*run)(const struct gate_params *params);
	const char *description;
	const char *file;   /* where the variant is declared (GATE_VARIANT) */
	int line;
};

/* A variants table entry that records its own file and line, so that a
 * regression of this variant is reported at this line. */
#define GATE_VARIANT(name, run, description) \
	{ (name), (run), (description), __FILE__, __LINE__ }

/* One parameter set: a name ([A-Za-z0-9_.-]+), the tiers it runs in,
 * and its values as "key=integer key=integer ...". */
struct gate_paramset {
	const char *name;
	unsigned tiers;
	const char *values;
};

/* One declared expectation, with the file and line that declared it.
 * conditions: NULL for everywhere, else a comma list of what the claim
 * depends on (docs/kernels.md, "Conditions"): an OS ("linux", "windows",
 * "darwin"; on another OS it is not evaluated), "cores>=N" (skipped on a
 * smaller machine), "allocator=NAME[|NAME]" (glibc, jemalloc, mimalloc,
 * tcmalloc, crt, libmalloc, musl or a preloaded library's name: under
 * another allocator the claim is measured and reported as information,
 * never gated). Terms of one kind are alternatives; kinds must all hold.
 * params: NULL for all parameter sets of the tier, else a comma list of
 * parameter set names. expr: see docs/kernels.md, "Declaring a ratio". */
struct gate_expect {
	const char *conditions;
	const char *params;
	const char *expr;
	const char *file;
	int line;
};

#define GATE_EXPECT(expr) { NULL, NULL, (expr), __FILE__, __LINE__ }
#define GATE_EXPECT_ON(conditions, expr) { (conditions), NULL, (expr), __FILE__, __LINE__ }
#define GATE_EXPECT_AT(params, expr) { NULL, (params), (expr), __FILE__, __LINE__ }
#define GATE_EXPECT_WHERE(conditions, params, expr) \
	{ (conditions), (params), (expr), __FILE__, __LINE__ }
/* A claim about an allocator: GATE_EXPECT_UNDER("glibc", ...) or
 * ("glibc|crt", ...); ALLOCATORS must be a string literal. */
#define GATE_EXPECT_UNDER(allocators, expr) \
	{ "allocator=" allocators, NULL, (expr), __FILE__, __LINE__ }
#define GATE_EXPECT_UNDER_AT(allocators, params, expr) \
	{ "allocator=" allocators, (params), (expr), __FILE__, __LINE__ }

/* A whole kernel; the tables end with a zeroed entry. */
struct gate_kernel {
	const char *name;
	const char *summary;
	const struct gate_variant *variants;
	const struct gate_paramset *paramsets;
	const struct gate_expect *expects;
	const char *file;   /* the kernel's source file, from GATE_KERNEL */
	int line;
};

/* Runs the kernel protocol on argv; returns the process exit status. */
int gate_kernel_main(const struct gate_kernel *kernel, int argc, char **argv);

/* A counted build (perf/allocgate/alloc_count.h, forced include) turns its
 * counting on first thing in main(); a plain build does nothing. */
#ifndef GATE_ALLOC_COUNT_INSTALL
#define GATE_ALLOC_COUNT_INSTALL() ((void)0)
#endif

#define GATE_KERNEL(name, summary, variants, paramsets, expects)          \
	static const struct gate_kernel gate_kernel_def = {                    \
		(name), (summary), (variants), (paramsets), (expects),         \
		__FILE__, __LINE__ };                                          \
	int main(int argc, char **argv)                                        \
	{                                                                      \
		GATE_ALLOC_COUNT_INSTALL();                                    \
		return gate_kernel_main(&gate_kernel_def, argc, argv);         \
	}

/* Value of integer parameter KEY of the current set; a missing key is a
 * bug in the kernel file: prints the kernel, set and key, exits 2. */
long long gate_param(const struct gate_params *params, const char *key);

/* Value of KEY, or DEFAULT_VALUE when the set does not define it. */
long long gate_param_or(const struct gate_params *params, const char *key,
			long long default_value);

/* Value of size parameter KEY (a count, bytes), checked to lie in MIN to
 * MAX; a missing key or a value outside is a bug in the parameter set:
 * prints the kernel, set, key, value and range, exits 2. */
size_t gate_param_size(const struct gate_params *params, const char *key, size_t min,
		       size_t max);

/* Name of the current parameter set. */
const char *gate_params_name(const struct gate_params *params);

/* Seed for the kernel's own random numbers (--seed, default 1). */
uint64_t gate_seed(void);

/* Number of online CPUs of this machine (at least 1). */
int gate_cpu_count(void);

/* Threads the variant should use: --threads N when the runner gave it,
 * else DEFAULT_VALUE. */
int gate_threads(int default_value);

/* Starts measured region NAME ([A-Za-z0-9_]+; NULL or "" for the kernel's
 * only region). Call it from the thread that runs the variant; regions
 * may nest (the outer one then includes the inner one's reads), a region
 * may not be open twice at once. */
void gate_region_begin(const char *name);

/* Ends the region started last. */
void gate_region_end(void);

/* Reports a kernel-side metric of the sample (for example how often
 * realloc moved the block). NAME is an identifier ([A-Za-z0-9_]+, not a
 * counter name such as wall_ns). It is prefixed with "REGION." where
 * REGION is the innermost open region or, when none is open, the region
 * that ended last, provided that region is named. Call it after
 * gate_region_end() so that it costs the region nothing. UNIT names the
 * unit ("count", "bytes"). Reporting the same name twice adds. */
void gate_metric(const char *name, const char *unit,
		 enum gate_metric_class cls, uint64_t value);

/* Runs WORKER(job) on THREADS threads, job i being JOBS + i * JOB_SIZE,
 * inside measured region NAME: thread start and join are in the region
 * (counters inherited by the threads are read after they ended). The
 * threads start together: each waits at a start line until all have
 * arrived. Under the cost pass the waits (the start line, the joins) are
 * not counted, so a region's count repeats exactly run to run. Returns
 * 0, or the error of the thread that could not be started (the ones that
 * started are joined first); -1 when out of memory (perf/probe/probe_threads.c). */
int gate_parallel_region(const char *name, void *(*worker)(void *), void *jobs,
			 size_t job_size, int threads);

/* Keeps the compiler from optimizing away a result the kernel computed. */
void gate_consume(const void *p);

/* How gate_fail is declared: it never returns, and its format is checked
 * like printf's where the compiler can. */
#if defined(__GNUC__) || defined(__clang__)
#define GATE_FAIL_DECL __attribute__((noreturn, format(printf, 1, 2))) void
#else
#define GATE_FAIL_DECL _Noreturn void
#endif

/* The variant's run failed (an allocation refused, a thread not started, a
 * result that is wrong): prints "KERNEL: variant V: MESSAGE" on stderr,
 * MESSAGE formatted from FMT as printf does, followed by a space and
 * strerror(errno) when FMT ends in ':' ("malloc:"), and exits 1, which the
 * gate reads as a failed sample (docs/kernels.md, "Parameters and
 * failures"). A parameter set out of range is gate_param_size's: exit 2. */
GATE_FAIL_DECL gate_fail(const char *fmt, ...);

#endif
