/* probe.c: the kernel side of the kernel protocol (docs/protocol.md).
 *
 * gate_kernel_main() parses the command line, prints --list, or runs one
 * sample: it opens the counters once (before the variant, outside any
 * region), runs the variant, and only after it returned prints the
 * sample record. gate_region_begin/end only read counters into fixed
 * storage: no allocation, no printing, no system call but the reads.
 *
 * The record lists, region by region in the order first entered, every
 * open counter ("metric [REGION.]NAME ..."), or "unavailable
 * [REGION.]NAME REASON" when that region's reading was garbage (see
 * counter_fault_reason); then the kernel's own metrics (gate_metric);
 * then once per counter this machine cannot give, without a region
 * prefix, "unavailable NAME REASON" (no PMU, not permitted, ...).
 *
 * Mistakes in a kernel file (a missing parameter key, an unbalanced
 * region, a bad metric name) are bugs of that file: the probe names the
 * kernel, variant and culprit on stderr and exits 2, as for a bad flag.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_count_probe.h"
#include "alloc_sites.h"
#include "interpose_read.h"
#include "counters.h"
#include "params.h"
#include "allocgate/probe.h"
#include "probe_internal.h"

/* The cost pass (docs/counters.md, "The cost pass"): the kernel runs under
 * valgrind --tool=callgrind --instr-atstart=no. Callgrind instruments while
 * any region is open, in every thread, and each time the set of open
 * regions changes the probe dumps the cost since the last change under a
 * label naming that set (probe_cost_mark), so that the runner adds every
 * interval to every region that was open during it. Outside valgrind each
 * mark is one RUNNING_ON_VALGRIND request, a few instructions; without the
 * header (configure.py says so) none. */
#if defined(GATE_HAVE_CALLGRIND) && defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define PROBE_COST 1
#endif
#endif

#define PROBE_MAX_REGIONS 16
#define PROBE_MAX_DEPTH 8
#define PROBE_MAX_METRICS 64
#define PROBE_NAME_SIZE 48       /* region or metric name, without prefix */
#define PROBE_UNIT_SIZE 16
#define PROBE_MAX_THREADS 4096
#define PROBE_MAX_BEST_OF 1000

/* A named region (or the unnamed one, name ""), totals over its entries. */
struct probe_region {
	char name[PROBE_NAME_SIZE];
	struct counter_totals totals;     /* this repetition's entries */
	struct counter_totals best;       /* the sample: repetitions folded */
	struct alloc_count_totals heap;   /* counted builds: heap_* counts */
	uint64_t proc[INTERPOSE_IDS];     /* the interposer's proc_* counts */
	unsigned first_repetition;        /* the repetition that entered it first */
};

/* An open region: which one and the counters read at its begin. */
struct probe_frame {
	struct probe_region *region;
	struct counters_snapshot start;
	struct alloc_count_snapshot heap_start;
	uint64_t proc_start[INTERPOSE_IDS];
};

/* A metric the kernel reported with gate_metric. */
struct probe_metric {
	const struct probe_region *region;   /* prefix; NULL for none */
	char name[PROBE_NAME_SIZE];
	char unit[PROBE_UNIT_SIZE];
	enum gate_metric_class cls;
	uint64_t value;                      /* this repetition's */
	uint64_t best;                       /* the sample: repetitions folded */
	bool reported;                       /* in this repetition */
	unsigned first_repetition;
};

static struct {
	const struct gate_kernel *kernel;
	const char *variant;
	struct gate_params params;
	uint64_t seed;
	int threads;                       /* 0: --threads not given */
	unsigned best_of;                  /* repetitions of the variant; 0: not given */
	unsigned repetition;               /* the one running, from 0 */
	bool running;                      /* counters open, variant running */
	int cpu_count_used;                /* the value gate_cpu_count() gave; 0: not asked */
	int threads_used;                  /* most threads of a gate_parallel_region; 0: none */
	struct probe_region regions[PROBE_MAX_REGIONS];
	size_t region_count;
	struct probe_frame stack[PROBE_MAX_DEPTH];
	size_t depth;
	const struct probe_region *last;   /* region that ended last */
	struct probe_metric metrics[PROBE_MAX_METRICS];
	size_t metric_count;
} probe = { .seed = 1 };

static const char *const probe_class_names[] = { "exact", "near", "timing" };

/* Reports a bug of the kernel file and exits 2. */
static void probe_bug(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", probe.kernel ? probe.kernel->name : "kernel");
	if (probe.variant)
		fprintf(stderr, "variant %s: ", probe.variant);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* Whether S is a non-empty run of [A-Za-z0-9_] (lower case only when
 * LOWER) shorter than MAX. */
static bool probe_is_identifier(const char *s, bool lower, size_t max)
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

/* ---- parameters, seed, threads ---- */

long long gate_param(const struct gate_params *params, const char *key)
{
	long long value;
	if (params_find(params, key, &value) < 0)
		probe_bug("parameter set %s has no key '%s' (add it to the set or use "
			  "gate_param_or)", params->name, key);
	return value;
}

long long gate_param_or(const struct gate_params *params, const char *key,
			long long default_value)
{
	long long value;
	return params_find(params, key, &value) == 0 ? value : default_value;
}

const char *gate_params_name(const struct gate_params *params)
{
	return params->name;
}

uint64_t gate_seed(void)
{
	return probe.seed;
}

int gate_threads(int default_value)
{
	return probe.threads > 0 ? probe.threads : default_value;
}

int gate_cpu_count(void)
{
	/* reported as the metric cpu_count: the sample's counts follow the
	 * machine, and the gate compares them only on the same core count */
	probe.cpu_count_used = counters_cpu_count();
	return probe.cpu_count_used;
}

void probe_threads_used(int threads)
{
	if (threads > probe.threads_used)
		probe.threads_used = threads;
}

/* gate_consume: the call is opaque to the kernel's translation unit (the
 * probe is a separate object), so what P points to must exist; the empty
 * asm with a memory clobber tells the compiler here that P escapes. No
 * store: a shared global written from every thread would bounce a cache
 * line between cores and skew threaded kernels (and is a data race). */
void gate_consume(const void *p)
{
#if defined(__GNUC__) || defined(__clang__)
	__asm__ __volatile__("" : : "r"(p) : "memory");
#else
	static _Thread_local const void *volatile sink;
	sink = p;
#endif
}

/* ---- regions ---- */

/* Region markers for the BPF backend (perf/bpf_alloc.bpf.c attaches
 * uprobes to them by name): called when the outermost region opens and
 * after it closed. Exported, never inlined, and with a body the compiler
 * cannot drop, so the symbol exists in every kernel executable. */
__attribute__((noinline)) void gate_region_mark_begin(void);
__attribute__((noinline)) void gate_region_mark_end(void);

__attribute__((noinline)) void gate_region_mark_begin(void)
{
	__asm__ __volatile__("" : : : "memory");
}

__attribute__((noinline)) void gate_region_mark_end(void)
{
	__asm__ __volatile__("" : : : "memory");
}

#ifdef PROBE_COST
/* Copies NAME into LABEL at N; returns the new length. A byte loop, not
 * strcpy: this runs inside a counted interval, and glibc's vector strcpy
 * takes another number of instructions when the strings lie at other
 * addresses (measured: 31 and 29 in two builds of resize), which a change
 * of the probe's data layout would move. */
static size_t probe_cost_append(char *label, size_t n, const char *name)
{
	while (*name)
		label[n++] = *name++;
	return n;
}

/* The label of a cost dump: "allocgate" then "/NAME" for each of the
 * first DEPTH open regions, outermost first (the unnamed region's NAME is
 * empty). Fixed storage: no allocation inside a region. */
static const char *probe_cost_label(size_t depth)
{
	static char label[16 + PROBE_MAX_DEPTH * PROBE_NAME_SIZE];
	size_t n = probe_cost_append(label, 0, "allocgate");
	for (size_t i = 0; i < depth; i++) {
		label[n++] = '/';
		n = probe_cost_append(label, n, probe.stack[i].region->name);
	}
	label[n] = '\0';
	return label;
}
#endif

/* The set of open regions changed from the first DEPTH_BEFORE frames of
 * the stack to the first probe.depth: under the cost pass, dump the cost
 * of the interval that ends (if any region was open during it), then start
 * instrumenting when the first region opened, stop when the last closed.
 * START_INSTRUMENTATION also empties the simulated caches, so every
 * outermost region starts cold: deterministic, and documented. */
static void probe_cost_mark(size_t depth_before)
{
#ifdef PROBE_COST
	if (!RUNNING_ON_VALGRIND)
		return;
	if (depth_before > 0)
		CALLGRIND_DUMP_STATS_AT(probe_cost_label(depth_before));
	if (depth_before == 0) {
		CALLGRIND_START_INSTRUMENTATION;
		CALLGRIND_ZERO_STATS;
	} else if (probe.depth == 0) {
		CALLGRIND_STOP_INSTRUMENTATION;
	}
#else
	(void)depth_before;
#endif
}

/* probe_internal.h. Callgrind's collection state is the calling
 * thread's own: toggling it leaves the other threads counted. */
static void probe_cost_toggle_collect(void)
{
#ifdef PROBE_COST
	if (RUNNING_ON_VALGRIND)
		CALLGRIND_TOGGLE_COLLECT;
#endif
}

void probe_cost_wait_begin(void)
{
	probe_cost_toggle_collect();
}

void probe_cost_wait_end(void)
{
	probe_cost_toggle_collect();
}

int probe_cost_pass_running(void)
{
#ifdef PROBE_COST
	return RUNNING_ON_VALGRIND ? 1 : 0;
#else
	return 0;
#endif
}

/* Region NAME ("" for the unnamed one), added on first use. */
static struct probe_region *probe_region_get(const char *name)
{
	for (size_t i = 0; i < probe.region_count; i++) {
		if (strcmp(probe.regions[i].name, name) == 0)
			return &probe.regions[i];
	}
	if (name[0] && !probe_is_identifier(name, false, PROBE_NAME_SIZE))
		probe_bug("bad region name '%s' (expected [A-Za-z0-9_]+, at most %d "
			  "characters)", name, PROBE_NAME_SIZE - 1);
	if (probe.region_count == PROBE_MAX_REGIONS)
		probe_bug("more than %d regions (region '%s')", PROBE_MAX_REGIONS, name);
	struct probe_region *r = &probe.regions[probe.region_count++];
	memset(r, 0, sizeof *r);
	strcpy(r->name, name);
	r->first_repetition = probe.repetition;
	return r;
}

void gate_region_begin(const char *name)
{
	if (!probe.running)
		probe_bug("gate_region_begin() outside a variant run");
	struct probe_region *r = probe_region_get(name ? name : "");
	for (size_t i = 0; i < probe.depth; i++) {
		if (probe.stack[i].region == r)
			probe_bug("region '%s' begun again before it ended", r->name);
	}
	if (probe.depth == PROBE_MAX_DEPTH)
		probe_bug("regions nested deeper than %d", PROBE_MAX_DEPTH);
	struct probe_frame *f = &probe.stack[probe.depth++];
	f->region = r;
	alloc_count_begin(&f->heap_start);
	interpose_read(f->proc_start);
	if (probe.depth == 1) {
		interpose_counting(1);
		gate_region_mark_begin();
	}
	counters_begin(&f->start);
	probe_cost_mark(probe.depth - 1);
}

void gate_region_end(void)
{
	struct counters_snapshot stop;
	if (probe.depth == 0)
		probe_bug("gate_region_end() without gate_region_begin()");
	probe.depth--;
	probe_cost_mark(probe.depth + 1);
	counters_end(&stop);
	if (probe.depth == 0) {
		gate_region_mark_end();
		interpose_counting(0);
	}
	struct probe_frame *f = &probe.stack[probe.depth];
	counters_add(&f->region->totals, &f->start, &stop);
	alloc_count_end(&f->heap_start, &f->region->heap);
	if (interpose_present()) {
		uint64_t now[INTERPOSE_IDS];
		interpose_read(now);
		for (int i = 0; i < INTERPOSE_IDS; i++)
			f->region->proc[i] += now[i] - f->proc_start[i];
	}
	probe.last = f->region;
}

/* ---- kernel metrics ---- */

/* The region a metric reported now belongs to: the innermost open region,
 * else the one that ended last; NULL when that is the unnamed region or
 * there is none. */
static const struct probe_region *probe_metric_region(void)
{
	const struct probe_region *r =
		probe.depth ? probe.stack[probe.depth - 1].region : probe.last;
	return r && r->name[0] ? r : NULL;
}

static void probe_metric_check(const char *name, const char *unit,
			       enum gate_metric_class cls)
{
	enum counter_id id;
	if (!name || !probe_is_identifier(name, false, PROBE_NAME_SIZE))
		probe_bug("gate_metric: bad name '%s' (expected [A-Za-z0-9_]+, at most "
			  "%d characters)", name ? name : "(null)", PROBE_NAME_SIZE - 1);
	if (counter_lookup(name, &id) == 0 || !strcmp(name, "cpu_count") ||
	    !strcmp(name, "threads"))
		probe_bug("gate_metric: '%s' is a %s the probe reports itself", name,
			  counter_lookup(name, &id) == 0 ? "counter"
			  : name[0] == 'c' ? "metric (gate_cpu_count)"
					   : "metric (gate_parallel_region)");
	if (!unit || !probe_is_identifier(unit, false, PROBE_UNIT_SIZE))
		probe_bug("gate_metric %s: bad unit '%s' (expected [A-Za-z0-9_]+, e.g. "
			  "count, bytes)", name, unit ? unit : "(null)");
	if ((unsigned)cls > GATE_TIMING)
		probe_bug("gate_metric %s: bad class %d", name, (int)cls);
}

void gate_metric(const char *name, const char *unit,
		 enum gate_metric_class cls, uint64_t value)
{
	probe_metric_check(name, unit, cls);
	const struct probe_region *r = probe_metric_region();
	struct probe_metric *m = NULL;
	for (size_t i = 0; i < probe.metric_count && !m; i++) {
		if (probe.metrics[i].region == r && strcmp(probe.metrics[i].name, name) == 0)
			m = &probe.metrics[i];
	}
	if (!m) {
		if (probe.metric_count == PROBE_MAX_METRICS)
			probe_bug("more than %d metrics (metric '%s')", PROBE_MAX_METRICS, name);
		m = &probe.metrics[probe.metric_count++];
		*m = (struct probe_metric){ .region = r, .cls = cls,
					    .first_repetition = probe.repetition };
		strcpy(m->name, name);
		strcpy(m->unit, unit);
	} else if (m->cls != cls || strcmp(m->unit, unit) != 0) {
		probe_bug("gate_metric %s: reported with class %s unit %s, earlier %s %s",
			  name, probe_class_names[cls], unit, probe_class_names[m->cls], m->unit);
	}
	m->value = value > UINT64_MAX - m->value ? UINT64_MAX : m->value + value;
	m->reported = true;
}

/* ---- repetitions (best_of) ---- */

/* Folds repetition probe.repetition into the sample and clears it for the
 * next: the first repetition gives every value; later ones can only lower
 * a timing-class value (the sample is the fastest repetition), must repeat
 * an exact kernel metric, and leave near counts (page faults) as the first
 * one, the fresh process, found them. A region or metric that one
 * repetition has and another lacks, or an exact metric that changes, means
 * the variant is not repeatable: a bug of the kernel file (or of the
 * best_of it was given), named like any other. */
static void probe_fold_repetition(void)
{
	unsigned rep = probe.repetition;
	for (size_t i = 0; i < probe.region_count; i++) {
		struct probe_region *r = &probe.regions[i];
		if (r->first_repetition != 0)
			probe_bug("region '%s' entered in repetition %u but not in the first: "
				  "the variant is not repeatable (best_of)", r->name, rep + 1);
		if (rep > 0 && r->totals.entries == 0)
			probe_bug("region '%s' entered in the first repetition but not in "
				  "repetition %u: the variant is not repeatable (best_of)",
				  r->name, rep + 1);
		for (int c = 0; c < COUNTER_COUNT; c++) {
			bool ok = r->totals.fault[c] == COUNTER_OK;
			if (rep == 0 || (counter_class((enum counter_id)c) == GATE_TIMING && ok &&
					 (r->best.fault[c] != COUNTER_OK ||
					  r->totals.value[c] < r->best.value[c]))) {
				r->best.value[c] = r->totals.value[c];
				r->best.fault[c] = r->totals.fault[c];
			}
		}
		if (rep == 0)
			r->best.entries = r->totals.entries;
		memset(&r->totals, 0, sizeof r->totals);
	}
	for (size_t i = 0; i < probe.metric_count; i++) {
		struct probe_metric *m = &probe.metrics[i];
		if (m->first_repetition != 0)
			probe_bug("metric '%s' reported in repetition %u but not in the first: "
				  "the variant is not repeatable (best_of)", m->name, rep + 1);
		if (!m->reported)
			probe_bug("metric '%s' reported in the first repetition but not in "
				  "repetition %u: the variant is not repeatable (best_of)",
				  m->name, rep + 1);
		if (rep > 0 && m->cls == GATE_EXACT && m->value != m->best)
			probe_bug("exact metric '%s' is %" PRIu64 " in repetition %u and %"
				  PRIu64 " in the first: the variant is not repeatable "
				  "(best_of)", m->name, m->value, rep + 1, m->best);
		if (rep == 0 || (m->cls == GATE_TIMING && m->value < m->best))
			m->best = m->value;
		m->value = 0;
		m->reported = false;
	}
	probe.last = NULL;
}

/* ---- the sample record ---- */

static void probe_print_region(const struct probe_region *r)
{
	const char *dot = r->name[0] ? "." : "";
	for (int i = 0; i < COUNTER_COUNT; i++) {
		enum counter_id id = (enum counter_id)i;
		if (!counters_has(id))
			continue;
		if (r->best.fault[id] != COUNTER_OK)
			printf("unavailable %s%s%s %s\n", r->name, dot, counter_name(id),
			       counter_fault_reason(r->best.fault[id]));
		else
			printf("metric %s%s%s %s %s %" PRIu64 "\n", r->name, dot,
			       counter_name(id), probe_class_names[counter_class(id)],
			       counter_unit(id), r->best.value[id]);
	}
	for (int i = 0; alloc_count_active() && i < ALLOC_COUNT_IDS; i++)
		printf("metric %s%s%s %s %s %" PRIu64 "\n", r->name, dot,
		       alloc_count_name((enum alloc_count_id)i),
		       alloc_count_class((enum alloc_count_id)i),
		       alloc_count_unit((enum alloc_count_id)i), r->heap.value[i]);
	/* every allocation call of the process, libraries included */
	for (int i = 0; interpose_present() && i < INTERPOSE_IDS; i++)
		printf("metric %s%s%s exact %s %" PRIu64 "\n", r->name, dot,
		       interpose_name((enum interpose_id)i), interpose_unit((enum interpose_id)i),
		       r->proc[i]);
}

/* One `site` record (docs/protocol.md, "Allocation sites"): the file is
 * the last field, so it may hold spaces; never a line break. */
static void probe_print_site(const struct alloc_site_view *v, void *arg)
{
	(void)arg;
	if (strpbrk(v->file, "\r\n") || strpbrk(v->function, " \t\r\n"))
		return;
	printf("site %s %d %" PRIu64 " %" PRIu64 " %s %s\n", v->kind, v->line, v->calls, v->bytes,
	       v->function, v->file);
}

/* With the interposer: the calls made inside the regions by each shared
 * library (no source line: docs/protocol.md, `lib-site`). */
static void probe_print_library_sites(void)
{
	static const char *const kinds[INTERPOSE_IDS] = {
		[INTERPOSE_MALLOC] = "malloc", [INTERPOSE_CALLOC] = "calloc",
		[INTERPOSE_REALLOC] = "realloc", [INTERPOSE_FREE] = "free",
		[INTERPOSE_ALIGNED] = "aligned_alloc",
	};
	struct interpose_library libs[INTERPOSE_LIBRARIES];
	uint64_t unattributed;
	size_t n = interpose_libraries(libs, INTERPOSE_LIBRARIES, &unattributed);
	for (size_t i = 0; i < n; i++) {
		if (strpbrk(libs[i].name, "\r\n"))
			continue;
		for (int k = 0; k < INTERPOSE_IDS; k++)
			if (kinds[k] && libs[i].calls[k])
				printf("lib-site %s %" PRIu64 " %" PRIu64 " %s\n", kinds[k],
				       libs[i].calls[k], libs[i].bytes[k], libs[i].name);
	}
	if (unattributed)
		printf("sites-dropped %" PRIu64 "\n", unattributed);
}

static void probe_print_sample(void)
{
	printf("allocgate-sample 1\n");
	for (size_t i = 0; i < probe.region_count; i++)
		probe_print_region(&probe.regions[i]);
	for (size_t i = 0; i < probe.metric_count; i++) {
		const struct probe_metric *m = &probe.metrics[i];
		printf("metric %s%s%s %s %s %" PRIu64 "\n", m->region ? m->region->name : "",
		       m->region ? "." : "", m->name, probe_class_names[m->cls], m->unit,
		       m->best);
	}
	if (probe.cpu_count_used)
		printf("metric cpu_count exact count %d\n", probe.cpu_count_used);
	/* a threaded sample says so: its cost counts move with the threads'
	 * interleaving, and the gate allows for it (gates/decide/compare.c) */
	if (probe.threads_used)
		printf("metric threads exact count %d\n", probe.threads_used);
	/* a counted build: each call site of its sources inside the regions */
	if (alloc_count_active()) {
		alloc_sites_each(probe_print_site, NULL);
		if (alloc_sites_dropped())
			printf("sites-dropped %" PRIu64 "\n", alloc_sites_dropped());
	}
	probe_print_library_sites();
	/* once per counter, not per region: the machine cannot give it */
	for (int i = 0; i < COUNTER_COUNT; i++) {
		const char *why = counters_unavailable((enum counter_id)i);
		if (why)
			printf("unavailable %s %s\n", counter_name((enum counter_id)i), why);
	}
	printf("end\n");
}

/* Runs VARIANT on PARAMS and prints its record. Returns the exit status. */
static int probe_run_sample(const struct gate_variant *variant)
{
	/* Syscall tracepoints only in the counted build's pass (exact counts):
	 * closing a tracepoint event costs the process about 40 ms at exit
	 * (seen on Linux 6.18: six of them made every timed sample 250 ms). */
	uint32_t syscalls = COUNTER_BIT(COUNTER_SYS_MMAP) | COUNTER_BIT(COUNTER_SYS_MUNMAP) |
			    COUNTER_BIT(COUNTER_SYS_BRK) | COUNTER_BIT(COUNTER_SYS_MREMAP) |
			    COUNTER_BIT(COUNTER_SYS_MADVISE) | COUNTER_BIT(COUNTER_SYS_FUTEX);
	/* best_of: --best-of, else the parameter set's best_of key, else 1. The
	 * counted build's pass reports the counts of the first run only. */
	unsigned repetitions = probe.best_of ? probe.best_of
			     : (unsigned)gate_param_or(&probe.params, "best_of", 1);
	if (alloc_count_active() || interpose_present())
		repetitions = 1;
	counters_open(alloc_count_active() ? COUNTER_ALL : COUNTER_ALL & ~syscalls);
	for (probe.repetition = 0; probe.repetition < repetitions; probe.repetition++) {
		probe.running = true;
		variant->run(&probe.params);
		probe.running = false;
		if (probe.depth)
			probe_bug("returned with region '%s' still open",
				  probe.stack[probe.depth - 1].region->name);
		probe_fold_repetition();
	}
	if (probe.region_count == 0)
		fprintf(stderr, "%s: variant %s: measured no region (put "
			"gate_region_begin/gate_region_end around the work)\n",
			probe.kernel->name, variant->name);
	probe_print_sample();
	counters_close();
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: writing the sample record: %s\n", probe.kernel->name,
			strerror(errno));
		return 1;
	}
	return 0;
}

/* ---- the command line ---- */

/* What the command line asked; NULL for a flag not given. */
struct probe_args {
	const char *list, *help, *variant, *params, *seed, *threads, *best_of;
};

static const struct probe_flag {
	const char *name;
	size_t field;          /* offset of its slot in struct probe_args */
	const char *value;     /* name of its value; NULL for a switch */
	const char *help;
} probe_flags[] = {
	{ "--list", offsetof(struct probe_args, list), NULL,
	  "print variants, parameter sets and expectations (allocgate-list 1)" },
	{ "--variant", offsetof(struct probe_args, variant), "V", "variant to run" },
	{ "--params", offsetof(struct probe_args, params), "P", "parameter set to run it on" },
	{ "--seed", offsetof(struct probe_args, seed), "N",
	  "seed of the kernel's random numbers (default 1)" },
	{ "--threads", offsetof(struct probe_args, threads), "N",
	  "threads for threaded variants (default: the kernel's)" },
	{ "--best-of", offsetof(struct probe_args, best_of), "K",
	  "run the variant K times; timing is the fastest (default: best_of)" },
	{ "--help", offsetof(struct probe_args, help), NULL, "print this help" },
};

#define PROBE_FLAG_COUNT (sizeof probe_flags / sizeof probe_flags[0])

static void probe_usage(FILE *out)
{
	const struct gate_kernel *k = probe.kernel;
	fprintf(out, "%s: %s\nusage: %s --list\n       %s --variant V --params P "
		"[--seed N] [--threads N] [--best-of K]\n", k->name, k->summary, k->name, k->name);
	for (size_t i = 0; i < PROBE_FLAG_COUNT; i++)
		fprintf(out, "  %-12s %-2s %s\n", probe_flags[i].name,
			probe_flags[i].value ? probe_flags[i].value : "", probe_flags[i].help);
	fprintf(out, "variants:\n");
	for (const struct gate_variant *v = k->variants; v && v->name; v++)
		fprintf(out, "  %-20s %s\n", v->name, v->description);
	fprintf(out, "parameter sets:\n");
	for (const struct gate_paramset *p = k->paramsets; p && p->name; p++)
		fprintf(out, "  %-20s %s\n", p->name, p->values ? p->values : "");
	counters_open(COUNTER_ALL);
	fprintf(out, "counters: %s\n", counters_backend());
	for (int i = 0; i < COUNTER_COUNT; i++) {
		const char *why = counters_unavailable((enum counter_id)i);
		if (why)
			fprintf(out, "  %-20s unavailable: %s\n", counter_name((enum counter_id)i), why);
	}
	counters_close();
}

static int probe_parse_args(int argc, char **argv, struct probe_args *a)
{
	static const char present[] = "";
	memset(a, 0, sizeof *a);
	for (int i = 1; i < argc; i++) {
		const struct probe_flag *f = NULL;
		for (size_t k = 0; k < PROBE_FLAG_COUNT && !f; k++) {
			if (strcmp(argv[i], probe_flags[k].name) == 0)
				f = &probe_flags[k];
		}
		if (!f) {
			fprintf(stderr, "%s: unknown flag '%s' (try --help)\n",
				probe.kernel->name, argv[i]);
			return -EINVAL;
		}
		const char **slot = (const char **)((char *)a + f->field);
		if (*slot) {
			fprintf(stderr, "%s: %s given twice\n", probe.kernel->name, f->name);
			return -EINVAL;
		}
		if (f->value && i + 1 == argc) {
			fprintf(stderr, "%s: %s needs a value %s\n", probe.kernel->name,
				f->name, f->value);
			return -EINVAL;
		}
		*slot = f->value ? argv[++i] : present;
	}
	return 0;
}

/* Unsigned decimal TEXT no larger than MAX into *OUT; 0 or -EINVAL. */
static int probe_parse_unsigned(const char *text, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (!text[0])
		return -EINVAL;
	for (const char *c = text; *c; c++) {
		unsigned d = (unsigned)(*c - '0');
		if (d > 9 || v > (max - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int probe_parse_numbers(const struct probe_args *a)
{
	uint64_t threads = 0, best_of = 0;
	const char *name = probe.kernel->name;
	if (a->seed && probe_parse_unsigned(a->seed, UINT64_MAX, &probe.seed) < 0) {
		fprintf(stderr, "%s: bad --seed '%s' (expected an unsigned 64-bit decimal "
			"integer)\n", name, a->seed);
		return -EINVAL;
	}
	if (a->threads && (probe_parse_unsigned(a->threads, PROBE_MAX_THREADS, &threads) < 0 ||
			   threads == 0)) {
		fprintf(stderr, "%s: bad --threads '%s' (expected 1 to %d)\n", name,
			a->threads, PROBE_MAX_THREADS);
		return -EINVAL;
	}
	probe.threads = a->threads ? (int)threads : 0;
	if (a->best_of && (probe_parse_unsigned(a->best_of, PROBE_MAX_BEST_OF, &best_of) < 0 ||
			   best_of == 0)) {
		fprintf(stderr, "%s: bad --best-of '%s' (expected 1 to %d)\n", name,
			a->best_of, PROBE_MAX_BEST_OF);
		return -EINVAL;
	}
	probe.best_of = (unsigned)best_of;
	return 0;
}

/* ---- --list: the kernel's tables, checked, then printed ---- */

/* Whether S is non-empty, one line, and (when NO_SPACE) one field. */
static bool probe_is_field(const char *s, bool no_space)
{
	return s && s[0] && !strchr(s, '\n') && !strchr(s, '\r') &&
	       !(no_space && (strchr(s, ' ') || strchr(s, '\t')));
}

static bool probe_is_paramset_name(const char *s)
{
	if (!s || !s[0])
		return false;
	for (; *s; s++) {
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_.-", *s))
			return false;
	}
	return true;
}

static int probe_check_variants(const struct gate_kernel *k)
{
	for (const struct gate_variant *v = k->variants; v && v->name; v++) {
		if (!probe_is_identifier(v->name, true, 64) || !v->run ||
		    !probe_is_field(v->description, false)) {
			fprintf(stderr, "%s: variant '%s': needs a name [a-z0-9_]+, a run "
				"function and a one-line description\n", k->name, v->name);
			return -EINVAL;
		}
		for (const struct gate_variant *w = k->variants; w != v; w++) {
			if (strcmp(w->name, v->name) == 0) {
				fprintf(stderr, "%s: variant '%s' declared twice\n", k->name, v->name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static int probe_check_paramsets(const struct gate_kernel *k)
{
	struct gate_params parsed;
	char err[256];
	for (const struct gate_paramset *p = k->paramsets; p && p->name; p++) {
		if (!probe_is_paramset_name(p->name) || p->tiers == 0 ||
		    (p->tiers & ~(unsigned)(GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL))) {
			fprintf(stderr, "%s: parameter set '%s': needs a name [A-Za-z0-9_.-]+ "
				"and tiers of GATE_TIER_QUICK|DEFAULT|FULL\n", k->name, p->name);
			return -EINVAL;
		}
		if (params_parse(p->values, &parsed, err, sizeof err) < 0) {
			fprintf(stderr, "%s: parameter set '%s': %s\n", k->name, p->name, err);
			return -EINVAL;
		}
		long long best_of = 1;
		if (params_find(&parsed, "best_of", &best_of) == 0 &&
		    (best_of < 1 || best_of > PROBE_MAX_BEST_OF)) {
			fprintf(stderr, "%s: parameter set '%s': best_of=%lld (expected 1 to "
				"%d)\n", k->name, p->name, best_of, PROBE_MAX_BEST_OF);
			return -EINVAL;
		}
		for (const struct gate_paramset *q = k->paramsets; q != p; q++) {
			if (strcmp(q->name, p->name) == 0) {
				fprintf(stderr, "%s: parameter set '%s' declared twice\n", k->name,
					p->name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static int probe_check_expects(const struct gate_kernel *k)
{
	for (const struct gate_expect *e = k->expects; e && e->expr; e++) {
		if (!probe_is_field(e->expr, false) || !probe_is_field(e->file, true) ||
		    e->line <= 0 || (e->conditions && !probe_is_field(e->conditions, true)) ||
		    (e->params && !probe_is_field(e->params, true))) {
			fprintf(stderr, "%s: expectation '%s' at %s:%d: needs a one-line "
				"expression, a file without spaces, a line, and comma lists "
				"without spaces\n", k->name, e->expr, e->file ? e->file : "?",
				e->line);
			return -EINVAL;
		}
	}
	return 0;
}

static int probe_check_kernel(const struct gate_kernel *k)
{
	if (!probe_is_identifier(k->name, false, 64) || !probe_is_field(k->summary, false)) {
		fprintf(stderr, "%s: the kernel needs a name [A-Za-z0-9_]+ and a one-line "
			"summary\n", k->name ? k->name : "kernel");
		return -EINVAL;
	}
	if (probe_check_variants(k) < 0 || probe_check_paramsets(k) < 0 ||
	    probe_check_expects(k) < 0)
		return -EINVAL;
	return 0;
}

static void probe_print_tiers(unsigned tiers)
{
	static const char *const names[] = { "quick", "default", "full" };
	const char *sep = "";
	for (int i = 0; i < 3; i++) {
		if (tiers & (1u << i)) {
			printf("%s%s", sep, names[i]);
			sep = ",";
		}
	}
}

/* Prints --list; the tables were checked by probe_check_kernel. */
static int probe_list(const struct gate_kernel *k)
{
	struct gate_params parsed;
	char err[256], values[PARAMS_MAX * (PARAMS_KEY_SIZE + 24)];

	printf("allocgate-list 1\nkernel %s %s\n", k->name, k->summary);
	if (k->file && !strchr(k->file, ' '))
		printf("source %s %d\n", k->file, k->line);
	for (const struct gate_variant *v = k->variants; v && v->name; v++) {
		printf("variant %s %s\n", v->name, v->description);
		if (v->file && !strchr(v->file, ' '))
			printf("variant-source %s %s %d\n", v->name, v->file, v->line);
	}
	for (const struct gate_paramset *p = k->paramsets; p && p->name; p++) {
		params_parse(p->values, &parsed, err, sizeof err);
		params_format(&parsed, values, sizeof values);
		printf("params %s ", p->name);
		probe_print_tiers(p->tiers);
		printf("%s%s\n", parsed.count ? " " : "", values);
	}
	for (const struct gate_expect *e = k->expects; e && e->expr; e++)
		printf("expect %s %d %s %s %s\n", e->file, e->line,
		       e->conditions ? e->conditions : "*", e->params ? e->params : "*", e->expr);
	printf("end\n");
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* ---- one sample ---- */

static const struct gate_variant *probe_find_variant(const struct gate_kernel *k,
						     const char *name)
{
	for (const struct gate_variant *v = k->variants; v && v->name; v++) {
		if (strcmp(v->name, name) == 0)
			return v;
	}
	fprintf(stderr, "%s: unknown variant '%s' (variants:", k->name, name);
	for (const struct gate_variant *v = k->variants; v && v->name; v++)
		fprintf(stderr, " %s", v->name);
	fprintf(stderr, ")\n");
	return NULL;
}

static const struct gate_paramset *probe_find_paramset(const struct gate_kernel *k,
						       const char *name)
{
	for (const struct gate_paramset *p = k->paramsets; p && p->name; p++) {
		if (strcmp(p->name, name) == 0)
			return p;
	}
	fprintf(stderr, "%s: unknown parameter set '%s' (sets:", k->name, name);
	for (const struct gate_paramset *p = k->paramsets; p && p->name; p++)
		fprintf(stderr, " %s", p->name);
	fprintf(stderr, ")\n");
	return NULL;
}

/* Checks the sample flags and prepares probe.params; returns the variant
 * to run, or NULL after a message. */
static const struct gate_variant *probe_prepare(const struct probe_args *a)
{
	const struct gate_kernel *k = probe.kernel;
	const struct gate_variant *v;
	const struct gate_paramset *p;
	char err[256];

	if (!a->variant || !a->params) {
		fprintf(stderr, "%s: a sample needs --variant V and --params P (try --help)\n",
			k->name);
		return NULL;
	}
	if (probe_parse_numbers(a) < 0 || !(v = probe_find_variant(k, a->variant)) ||
	    !(p = probe_find_paramset(k, a->params)))
		return NULL;
	probe.params.kernel = k->name;
	probe.params.name = p->name;
	if (params_parse(p->values, &probe.params, err, sizeof err) < 0) {
		fprintf(stderr, "%s: parameter set '%s': %s\n", k->name, p->name, err);
		return NULL;
	}
	probe.variant = v->name;
	return v;
}

int gate_kernel_main(const struct gate_kernel *kernel, int argc, char **argv)
{
	struct probe_args args;
	const struct gate_variant *variant;

	probe.kernel = kernel;
	counters_stdout_binary();
	if (probe_check_kernel(kernel) < 0 || probe_parse_args(argc, argv, &args) < 0)
		return 2;
	if (args.help) {
		probe_usage(stdout);
		return 0;
	}
	if (args.list) {
		if (args.variant || args.params || args.seed || args.threads || args.best_of) {
			fprintf(stderr, "%s: --list takes no other flag\n", kernel->name);
			return 2;
		}
		return probe_list(kernel);
	}
	variant = probe_prepare(&args);
	return variant ? probe_run_sample(variant) : 2;
}
