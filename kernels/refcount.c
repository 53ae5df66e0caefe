/* refcount.c: write-up 003, returning a string: strdup/free against reference
 * counting with atomics and with a mutex.
 *
 * Write-up 003_b51e48c7b62bd444, summarised in docs/kernels.md (GLib on Linux, glibc,
 * gcc, a machine running 3.5 threads' worth of CPU; 16 March 2013). T
 * threads each call get_string() and release the result 100,000 times:
 *   strdup_free      get_string() returns strdup("foobar"), released by free();
 *   refcount_atomic  it returns one shared object after an atomic increment,
 *                    released by an atomic decrement;
 *   refcount_mutex   the same count guarded by a mutex.
 * The shared object is made and given its first reference outside the
 * region (the seed's main() did the same) and that reference is dropped
 * after it, so the refcount variants allocate nothing in the region.
 *
 * What the seed found (average seconds of the whole process):
 *   threads   mutex   atomic   strdup
 *   8         0.442   0.199    0.039
 *   5         -       0.117    0.028
 *   2         -       0.018    0.017
 * mutex about 2.2x slower than atomic; atomic 5x (8 threads) and 4x (5
 * threads) slower than strdup/free, "pretty much the same" at 2 threads;
 * valgrind's heap totals for strdup at 8 threads: 800,036 allocs, 800,024
 * frees, 5,608,028 bytes, against 37 allocs and 8,044 bytes for atomic.
 *
 * The heap totals are counted here by the kernel: 7 bytes a strdup of
 * "foobar" (6 characters and the terminator), T x 100,000 allocs and frees,
 * so 800,000 allocs and 5,600,000 bytes at 8 threads: the seed's figures
 * less the 36 allocations (8,028 bytes) the GLib test program made for
 * itself (thread structures, GLib's startup), which valgrind also counted.
 *
 * Where the declared ratios hold, and why (figures: docs/kernels.md):
 *   - the exact totals: everywhere (they are counts of the kernel's calls);
 *   - mutex slower than atomic: everywhere threads contend, since a
 *     contended mutex costs futex system calls and context switches (here
 *     hundreds to thousands a sample) where an atomic increment costs one
 *     contended cache line. Seed 2.2x at 8 threads; here 3.6-3.8x.
 *   - atomic slower than strdup/free at 5 and 8 threads: everywhere a
 *     malloc has a per-thread fast path (glibc's tcache and per-thread
 *     arenas), so strdup/free shares nothing between threads while every
 *     atomic operation moves one cache line between the cores. Seed 4x (5
 *     threads) and 5x (8 threads) with 3.5 cores busy, where an atomic get
 *     and release cost about 900 ns of CPU; here 2.4x and 3.6x on 2 cores
 *     (77 ns against 19 ns for a strdup and free served by tcache). The
 *     factor grows with the threads that run at once, i.e. with the cores,
 *     not with the threads that exist; the bound declared is the part that
 *     holds on 2 cores.
 *   - not declared: the seed's "pretty much the same at 2 threads". Its
 *     2-thread times were its process start-up (17 ms of 18). Without it,
 *     2 threads on 2 cores contend as much as 8 do: atomic/strdup has a
 *     median of 2.8 here, but single rounds range from 0.7 to 4.9 because
 *     with 2 ms of work a thread sometimes finishes before the other
 *     starts, so there is no stable bound to gate either way.
 *
 * Kernel-side exact counts: ops (get/release pairs), allocs, frees and
 * bytes_allocated (what the variant asked of the heap in the region).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <allocgate/probe.h>

/* The seed's string. */
static const char refcount_text[] = "foobar";

/* ---- the shared string, counted two ways ---- */

struct ref_atomic {
	const char *text;
	atomic_uint refs;
};

struct ref_locked {
	const char *text;
	unsigned refs;
	pthread_mutex_t mutex;
};

/* Taking a reference needs no ordering (the holder already has one);
 * dropping the last needs acquire-release so that the freeing thread sees
 * every other holder's last use (the usual pattern, as in Boost and the
 * Linux kernel's refcount_t). On x86-64 both are one lock-prefixed add. */
static struct ref_atomic *atomic_ref(struct ref_atomic *s)
{
	atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
	return s;
}

static void atomic_unref(struct ref_atomic *s)
{
	if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) == 1)
		free(s);
}

static struct ref_locked *locked_ref(struct ref_locked *s)
{
	pthread_mutex_lock(&s->mutex);
	s->refs++;
	pthread_mutex_unlock(&s->mutex);
	return s;
}

static void locked_unref(struct ref_locked *s)
{
	unsigned left;

	pthread_mutex_lock(&s->mutex);
	left = --s->refs;
	pthread_mutex_unlock(&s->mutex);
	if (left == 0) {
		pthread_mutex_destroy(&s->mutex);
		free(s);
	}
}

/* ---- the workers ---- */

enum ref_way { WAY_STRDUP, WAY_ATOMIC, WAY_MUTEX };

/* One thread's work and what it counted. */
struct ref_job {
	enum ref_way way;
	long ops;
	struct ref_atomic *shared_atomic;
	struct ref_locked *shared_locked;
	uint64_t allocs, frees, bytes_allocated;
	int failed;
};

/* What a caller does with the string, as cheaply as it can be done: its
 * address goes to this thread's own volatile sink, so strdup/free cannot be
 * elided and the increment and decrement cannot be merged. gate_consume()
 * is not used here: its sink is one global written by every thread, which
 * from 8 threads per operation would bounce one cache line between the
 * cores (contention of the probe's, not of the variant's) and is a data
 * race besides. */
static _Thread_local const void *volatile ref_sink;

/* The seed's worker loops, one per way. Counts stay in locals until the
 * end: the jobs lie side by side in one array, and per-operation writes to
 * them would share cache lines between threads. */
static void worker_strdup(struct ref_job *job)
{
	uint64_t allocs = 0, frees = 0;

	for (long i = 0; i < job->ops; i++) {
		char *s = strdup(refcount_text);

		if (!s) {
			job->failed = 1;
			break;
		}
		allocs++;
		ref_sink = s;
		free(s);
		frees++;
	}
	job->allocs = allocs;
	job->frees = frees;
	job->bytes_allocated = allocs * sizeof refcount_text;
}

static void worker_atomic(struct ref_job *job)
{
	struct ref_atomic *shared = job->shared_atomic;

	for (long i = 0; i < job->ops; i++) {
		struct ref_atomic *s = atomic_ref(shared);

		ref_sink = s->text;
		atomic_unref(s);
	}
}

static void worker_mutex(struct ref_job *job)
{
	struct ref_locked *shared = job->shared_locked;

	for (long i = 0; i < job->ops; i++) {
		struct ref_locked *s = locked_ref(shared);

		ref_sink = s->text;
		locked_unref(s);
	}
}

static void *ref_worker(void *arg)
{
	struct ref_job *job = arg;

	if (job->way == WAY_STRDUP)
		worker_strdup(job);
	else if (job->way == WAY_ATOMIC)
		worker_atomic(job);
	else
		worker_mutex(job);
	return NULL;
}

/* Failures: a parameter set out of range is a bug of this file and exits
 * 2 (gate_param, gate_param_size); a failure of the run itself, such as an
 * allocation or a thread refused, is gate_fail("WHAT:") of allocgate/probe.h,
 * which prints "NAME: variant V: WHAT: strerror(errno)" and exits 1: the
 * gate reports the sample as failed, never as measured. */

/* Setup, outside the region: the shared string with its first reference
 * (main's), as the seed's main() made it. */
static void shared_setup(struct ref_job *proto)
{
	if (proto->way == WAY_ATOMIC) {
		proto->shared_atomic = malloc(sizeof *proto->shared_atomic);
		if (!proto->shared_atomic)
			gate_fail("malloc:");
		proto->shared_atomic->text = refcount_text;
		atomic_init(&proto->shared_atomic->refs, 1);
	} else if (proto->way == WAY_MUTEX) {
		proto->shared_locked = malloc(sizeof *proto->shared_locked);
		if (!proto->shared_locked)
			gate_fail("malloc:");
		proto->shared_locked->text = refcount_text;
		proto->shared_locked->refs = 1;
		errno = pthread_mutex_init(&proto->shared_locked->mutex, NULL);
		if (errno)
			gate_fail("pthread_mutex_init:");
	}
}

/* After the region: main drops its reference, which frees the string. */
static void shared_release(struct ref_job *proto)
{
	if (proto->way == WAY_ATOMIC)
		atomic_unref(proto->shared_atomic);
	else if (proto->way == WAY_MUTEX)
		locked_unref(proto->shared_locked);
}

/* The measured part: start every thread, wait for all (the seed's process
 * did the same; the region leaves out its start-up and GLib's). */
static void ref_parallel(struct ref_job *jobs, int threads)
{
	errno = gate_parallel_region(NULL, ref_worker, jobs, sizeof *jobs, threads);
	if (errno)
		gate_fail("starting the threads:");
}

static void ref_run(const struct gate_params *params, enum ref_way way)
{
	size_t ops = gate_param_size(params, "ops", 1, 100000000);
	size_t want = gate_param_size(params, "threads", 1, 1024);
	struct ref_job proto = { .way = way, .ops = (long)ops };
	struct ref_job total = { .way = way };
	struct ref_job *jobs;
	int threads;

	/* ops and threads are checked as they are read (gate_param_size: out
	 * of range, the parameter set is named with the key and the range, exit
	 * 2); --threads, a flag of the command line, may still ask for another
	 * number of threads, checked below as the parameter is: 1 to 1024, and
	 * a refusal that names the flag. */
	threads = gate_threads((int)want);
	if (threads < 1 || threads > 1024) {
		fprintf(stderr, "refcount: --threads must be 1..1024\n");
		exit(2);
	}
	jobs = calloc((size_t)threads, sizeof *jobs);
	if (!jobs)
		gate_fail("calloc:");
	shared_setup(&proto);
	for (int t = 0; t < threads; t++)
		jobs[t] = proto;

	ref_parallel(jobs, threads);
	for (int t = 0; t < threads; t++) {
		if (jobs[t].failed)
			gate_fail("strdup:");
		total.allocs += jobs[t].allocs;
		total.frees += jobs[t].frees;
		total.bytes_allocated += jobs[t].bytes_allocated;
	}
	shared_release(&proto);
	free(jobs);

	gate_metric("ops", "count", GATE_EXACT, (uint64_t)ops * (uint64_t)threads);
	gate_metric("allocs", "count", GATE_EXACT, total.allocs);
	gate_metric("frees", "count", GATE_EXACT, total.frees);
	gate_metric("bytes_allocated", "bytes", GATE_EXACT, total.bytes_allocated);
}

static void strdup_free(const struct gate_params *p) { ref_run(p, WAY_STRDUP); }
static void refcount_atomic(const struct gate_params *p) { ref_run(p, WAY_ATOMIC); }
static void refcount_mutex(const struct gate_params *p) { ref_run(p, WAY_MUTEX); }

static const struct gate_variant ref_variants[] = {
	GATE_VARIANT("strdup_free", strdup_free, "get_string() returns strdup(\"foobar\"), the caller free()s it"),
	GATE_VARIANT("refcount_atomic", refcount_atomic, "a shared string, atomic increment and decrement"),
	GATE_VARIANT("refcount_mutex", refcount_mutex, "a shared string, count guarded by a pthread mutex"),
	{ 0 },
};

/* The seed's runs (100,000 get/release pairs a thread) are both the full
 * and the default sets: they take 5-40 ms a sample here, except
 * refcount_mutex at 5 and 8 threads (65-130 ms), and they carry the seed's
 * heap totals. */
static const struct gate_paramset ref_paramsets[] = {
	{ "threads_2", GATE_TIER_DEFAULT | GATE_TIER_FULL, "threads=2 ops=100000" },
	{ "threads_5", GATE_TIER_DEFAULT | GATE_TIER_FULL, "threads=5 ops=100000" },
	{ "threads_8", GATE_TIER_DEFAULT | GATE_TIER_FULL, "threads=8 ops=100000" },
	{ "threads_8_10k", GATE_TIER_QUICK, "threads=8 ops=10000" },
	{ NULL, 0, NULL },
};

static const struct gate_expect ref_expects[] = {
	/* Heap totals: one 7-byte strdup and one free per operation; nothing
	 * for reference counting. */
	GATE_EXPECT("strdup_free.allocs == strdup_free.ops"),
	GATE_EXPECT("strdup_free.frees == strdup_free.allocs"),
	GATE_EXPECT("strdup_free.bytes_allocated == 7 * strdup_free.allocs"),
	GATE_EXPECT("refcount_atomic.allocs + refcount_atomic.frees == 0"),
	GATE_EXPECT("refcount_mutex.allocs + refcount_mutex.frees == 0"),
	/* The counted build (docs/counters.md) sees the same calls from outside. */
	GATE_EXPECT("strdup_free.heap_blocks_allocated == strdup_free.allocs"),
	GATE_EXPECT("strdup_free.heap_bytes_requested == strdup_free.bytes_allocated"),
	GATE_EXPECT("refcount_atomic.heap_calls + refcount_mutex.heap_calls == 0"),
	/* The seed's valgrind totals less its program's own 36 allocations
	 * (8,028 bytes) at 8 threads, 27 at 5 and 18 at 2. */
	GATE_EXPECT_AT("threads_8", "strdup_free.allocs == 800000"),
	GATE_EXPECT_AT("threads_8", "strdup_free.bytes_allocated == 5600000"),
	GATE_EXPECT_AT("threads_5", "strdup_free.allocs == 500000"),
	GATE_EXPECT_AT("threads_2", "strdup_free.allocs == 200000"),
	/* A contended mutex is slower than an atomic count: seed 2.2x; 3.2-3.8x
	 * on an Intel Xeon VM and 2.2-2.8x on an AMD EPYC VM at 100,000
	 * operations per thread. At 10,000 (threads_8_10k, a region of 2-5 ms)
	 * the AMD VM's rounds ran from 1.4x to 2.6x, too close to the margin
	 * for a timing claim: the cost pass carries it there (below). */
	GATE_EXPECT_AT("threads_2,threads_5,threads_8",
		       "refcount_mutex.wall_ns > 1.5 * refcount_atomic.wall_ns"),
	/* in the cost pass: a lock and an unlock against one atomic add, 17x
	 * the instructions at every thread count, whatever the load */
	GATE_EXPECT("refcount_mutex.cost_instructions > 1.5 * refcount_atomic.cost_instructions"),
	/* Under contention the atomic count loses to strdup/free, which shares
	 * nothing between threads: seed 4x (5 threads) and 5x (8) on 4 cores.
	 * On this 2-core VM the medians were 2.4x and 3.6x, but single runs
	 * ranged from 0.66x to 6x (the threads are time-sliced, not contending
	 * in parallel), so the claim is declared where threads run in parallel:
	 * on machines with at least 4 cores, as the seed's. */
	GATE_EXPECT_WHERE("cores>=4", "threads_5,threads_8",
			  "refcount_atomic.wall_ns > 1.5 * strdup_free.wall_ns"),
	/* No leak: every string a worker made it has freed when the threads
	 * are joined (the counted build's live bytes, docs/counters.md). */
	GATE_EXPECT("strdup_free.heap_live_bytes == 0"),
	{ NULL, NULL, NULL, NULL, 0 },
};

GATE_KERNEL("refcount", "Seed 003: strdup/free against atomic and mutex reference counting",
	    ref_variants, ref_paramsets, ref_expects)
