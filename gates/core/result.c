/* result.c: the one result structure of a gate run: names, growing
 * arrays, report order and freeing.
 *
 * Arrays carry no capacity field: their capacity follows from their count
 * (0, then 8, 16, 32, ...), so they must grow only through the functions
 * here. A pointer returned by result_add_* stays valid until the next add
 * to the same array.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/group_key.h"
#include "core/result.h"

static const char *const verdict_names[] = {
	[VERDICT_PASS] = "pass",
	[VERDICT_FAIL] = "fail",
	[VERDICT_INCONCLUSIVE] = "inconclusive",
	[VERDICT_IMPROVED] = "improved",
	[VERDICT_FAIL_BOTH] = "fail_both",
	[VERDICT_NEW] = "new",
	[VERDICT_SKIPPED] = "skipped",
	[VERDICT_ERROR] = "error",
};

static const char *const class_names[] = {
	[METRIC_EXACT] = "exact",
	[METRIC_NEAR] = "near",
	[METRIC_TIMING] = "timing",
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

const char *result_verdict_name(enum verdict v)
{
	if ((unsigned)v >= COUNT_OF(verdict_names))
		return "unknown";
	return verdict_names[v];
}

char *result_dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

void result_note_append(char **note, const char *line)
{
	size_t old = *note ? strlen(*note) : 0, len = strlen(line);
	char *n = realloc(*note, old + len + 2);
	if (!n)
		return;
	if (old)
		n[old++] = '\n';
	memcpy(n + old, line, len + 1);
	*note = n;
}

const char *result_class_name(enum metric_class c)
{
	if ((unsigned)c >= COUNT_OF(class_names))
		return "unknown";
	return class_names[c];
}

const char *result_series_verdict_name(enum verdict v)
{
	return v == VERDICT_SKIPPED ? "not compared" : result_verdict_name(v);
}

int result_class_parse(const char *name, enum metric_class *out)
{
	size_t i;

	if (!name)
		return -1;
	for (i = 0; i < COUNT_OF(class_names); i++) {
		if (strcmp(name, class_names[i]) == 0) {
			*out = (enum metric_class)i;
			return 0;
		}
	}
	return -1;
}

/* Copy of S (NULL stays NULL); sets *failed on no memory. */
static char *copy(const char *s, int *failed)
{
	size_t n;
	char *d;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	d = malloc(n);
	if (!d) {
		*failed = 1;
		return NULL;
	}
	return memcpy(d, s, n);
}

/* Makes room for one more element in *ITEMS holding COUNT elements of SIZE
 * bytes; the capacity is implied by COUNT (see the top of this file).
 * Returns 0 or -1 on no memory. */
static int grow(void **items, size_t count, size_t size)
{
	size_t cap;
	void *p;

	if (count != 0 && (count < 8 || (count & (count - 1)) != 0))
		return 0;
	cap = count < 8 ? 8 : count * 2;
	if (cap > (size_t)-1 / size)
		return -1;
	p = realloc(*items, cap * size);
	if (!p)
		return -1;
	*items = p;
	return 0;
}

static void series_free(struct series *s)
{
	free(s->kernel);
	free(s->variant);
	free(s->params);
	free(s->metric);
	free(s->unit);
	free(s->samples);
	free(s->disturbed);
	free(s->note);
	free(s->file);
	free(s->kernel_digest);
	free(s->history);
}

struct series *result_add_series(struct run_result *r, const char *kernel,
				 const char *variant, const char *params,
				 const char *metric, const char *unit,
				 enum metric_class cls)
{
	struct series *s;
	int failed = 0;

	if (grow((void **)&r->series, r->series_count, sizeof(*s)) < 0)
		return NULL;
	s = &r->series[r->series_count];
	memset(s, 0, sizeof(*s));
	s->kernel = copy(kernel, &failed);
	s->variant = copy(variant, &failed);
	s->params = copy(params, &failed);
	s->metric = copy(metric, &failed);
	s->unit = copy(unit, &failed);
	if (failed) {
		series_free(s);
		return NULL;
	}
	s->cls = cls;
	/* Nothing computed yet: no baseline, so "new" until compared. */
	s->median = s->baseline_median = s->change = NAN;
	s->ci_low = s->ci_high = s->p_value = s->confirm_change = NAN;
	s->confirmed = -1;
	s->gated = true;
	s->batches = 1;
	s->drift = s->tolerance = NAN;
	s->verdict = VERDICT_NEW;
	r->series_count++;
	return s;
}

/* strcmp that orders NULL as the empty string. */
static int compare_names(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int series_matches(const struct series *s, const char *kernel,
			  const char *variant, const char *params,
			  const char *metric)
{
	return group_key_same(GROUP_KEY(s), GROUP_KEY_OF(kernel, variant, params),
			      GROUP_SCOPE_VARIANT) &&
	       compare_names(s->metric, metric) == 0;
}

struct series *result_find_series(const struct run_result *r, const char *kernel,
				  const char *variant, const char *params,
				  const char *metric)
{
	size_t i;

	for (i = 0; i < r->series_count; i++) {
		if (series_matches(&r->series[i], kernel, variant, params, metric))
			return &r->series[i];
	}
	return NULL;
}

struct series *result_find_series_near(const struct run_result *r, size_t *hint,
				       const char *kernel, const char *variant,
				       const char *params, const char *metric)
{
	for (size_t i = *hint; i < *hint + 2 && i < r->series_count; i++)
		if (series_matches(&r->series[i], kernel, variant, params, metric)) {
			*hint = i;
			return &r->series[i];
		}
	struct series *s = result_find_series(r, kernel, variant, params, metric);
	if (s)
		*hint = (size_t)(s - r->series);
	return s;
}

int result_series_append(struct series *s, double value)
{
	if (grow((void **)&s->samples, s->sample_count, sizeof(double)) < 0)
		return -1;
	s->samples[s->sample_count++] = value;
	return 0;
}

struct expect_result *result_add_expect(struct run_result *r)
{
	struct expect_result *e;

	if (grow((void **)&r->expects, r->expect_count, sizeof(*e)) < 0)
		return NULL;
	e = &r->expects[r->expect_count++];
	memset(e, 0, sizeof(*e));
	/* "error" until the evaluator says otherwise: never a silent pass. */
	e->estimate = e->ci_low = e->ci_high = e->confidence = NAN;
	e->lhs_median = e->rhs_median = NAN;
	e->verdict = e->b_verdict = e->a.verdict = VERDICT_ERROR;
	e->a.estimate = e->a.ci_low = e->a.ci_high = NAN;
	e->gated = true;
	return e;
}

static void problem_free(struct problem *p)
{
	free(p->kernel);
	free(p->variant);
	free(p->params);
	free(p->what);
	free(p->reason);
}

int result_add_problem(struct run_result *r, const char *kernel,
		       const char *variant, const char *params,
		       const char *what, const char *reason)
{
	struct problem p = { 0 };
	int failed = 0;

	if (grow((void **)&r->problems, r->problem_count, sizeof(p)) < 0)
		return -1;
	p.kernel = copy(kernel, &failed);
	p.variant = copy(variant, &failed);
	p.params = copy(params, &failed);
	p.what = copy(what, &failed);
	p.reason = copy(reason, &failed);
	if (failed) {
		problem_free(&p);
		return -1;
	}
	r->problems[r->problem_count++] = p;
	return 0;
}

static int series_order(const void *pa, const void *pb)
{
	const struct series *a = pa, *b = pb;
	int c = group_key_cmp(GROUP_KEY(a), GROUP_KEY(b));
	return c ? c : compare_names(a->metric, b->metric);
}

void result_sort(struct run_result *r)
{
	if (r->series_count > 1)
		qsort(r->series, r->series_count, sizeof(*r->series), series_order);
	result_sites_sort(r);
	result_stacks_sort(&r->stacks);
	result_stacks_sort(&r->stacks_before);
}

void result_context_free(struct context *c)
{
	char **strings[] = {
		&c->platform_key, &c->os, &c->arch, &c->libc, &c->libc_version,
		&c->kernel_release, &c->cpu_model, &c->thp, &c->compiler,
		&c->cflags, &c->counters, &c->env, &c->tier, &c->commit,
		&c->gate_version, &c->started_at, &c->tunables, &c->aslr, &c->pinning,
		&c->allocator, &c->best_of, &c->cost_tool, &c->cost_cpu,
		&c->cost_diagnostics, &c->cost_libc, &c->cost_tunables, &c->cost_ifuncs,
		&c->cpu_vendor, &c->cpu_family, &c->cpu_model_number, &c->cpu_stepping,
		&c->cpu_microcode, &c->cpu_caches, &c->cpu_governor, &c->cpu_boost,
		&c->cpu_hypervisor,
	};
	size_t i;

	for (i = 0; i < COUNT_OF(strings); i++)
		free(*strings[i]);
	memset(c, 0, sizeof(*c));
}

static void expect_free(struct expect_result *e)
{
	free(e->kernel);
	free(e->params);
	free(e->file);
	free(e->expr);
	free(e->conditions);
	free(e->note);
}

void result_drop_expects(struct run_result *r, size_t keep)
{
	while (r->expect_count > keep)
		expect_free(&r->expects[--r->expect_count]);
}

void result_free(struct run_result *r)
{
	size_t i;

	for (i = 0; i < r->series_count; i++)
		series_free(&r->series[i]);
	for (i = 0; i < r->expect_count; i++)
		expect_free(&r->expects[i]);
	for (i = 0; i < r->problem_count; i++)
		problem_free(&r->problems[i]);
	result_sites_free(r);
	result_stacks_free(&r->stacks);
	result_stacks_free(&r->stacks_before);
	for (i = 0; i < REFERENCE_PARTS; i++)
		free(r->reference.part[i].samples);
	free(r->series);
	free(r->expects);
	free(r->problems);
	free(r->baseline_path);
	free(r->baseline_written);
	free(r->baseline_note);
	free(r->comparison);
	result_context_free(&r->ctx);
	memset(r, 0, sizeof(*r));
}

int result_metric_is_counted(const char *name)
{
	const char *base = strrchr(name, '.');
	base = base ? base + 1 : name;
	/* heap_*: the wrappers; proc_*: the interposer, preloaded into the
	 * counted pass only; sys_*: syscall tracepoints, opened only in the
	 * counted build (their exit costs tens of ms per process) */
	return strncmp(base, "heap_", 5) == 0 || strncmp(base, "proc_", 5) == 0 ||
	       strncmp(base, "sys_", 4) == 0;
}

int result_metric_is_scheduling(const char *name)
{
	const char *base = strrchr(name, '.');
	base = base ? base + 1 : name;
	return !strcmp(base, "ctx_switches") || !strcmp(base, "cpu_migrations") ||
	       !strcmp(base, "sched_wait_ns") || !strcmp(base, "others_cpu_permille");
}

int result_metric_is_machine_load(const char *name)
{
	const char *base = strrchr(name, '.');
	base = base ? base + 1 : name;
	return !strcmp(base, "others_cpu_permille");
}

int result_metric_is_allocation_count(const char *name)
{
	const char *base = strrchr(name, '.');
	base = base ? base + 1 : name;
	return strncmp(base, "heap_", 5) == 0 || strncmp(base, "proc_", 5) == 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double result_timing_shift(const struct run_result *r, size_t *series)
{
	double *v = calloc(r->series_count + 1, sizeof *v), median = NAN;
	size_t n = 0;
	for (size_t i = 0; v && i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (s->cls == METRIC_TIMING && s->has_baseline && isfinite(s->change) &&
		    !result_metric_is_scheduling(s->metric) &&
		    (s->verdict == VERDICT_PASS || s->verdict == VERDICT_FAIL ||
		     s->verdict == VERDICT_IMPROVED || s->verdict == VERDICT_INCONCLUSIVE))
			v[n++] = s->change;
	}
	if (n >= RESULT_SHIFT_MIN_SERIES) {
		qsort(v, n, sizeof *v, by_value);
		median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	*series = n >= RESULT_SHIFT_MIN_SERIES ? n : 0;
	return median;
}

const char *result_reference_part_name(enum reference_part_id id)
{
	static const char *const names[REFERENCE_PARTS] = { "cpu", "memory", "faults" };
	return (unsigned)id < REFERENCE_PARTS ? names[id] : "?";
}

const char *result_reference_state_name(enum reference_state s)
{
	switch (s) {
	case REFERENCE_NO_BASELINE: return "no baseline reference";
	case REFERENCE_UNSURE: return "unsure";
	case REFERENCE_HOLDS: return "holds";
	case REFERENCE_MOVED: return "moved";
	default: return "not compared";
	}
}

void result_reference_parts(const struct reference *ref, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < REFERENCE_PARTS && n < size; i++)
		if (isfinite(ref->part[i].change))
			n += (size_t)snprintf(buf + n, size - n, "%s%s %+.1f%%", n ? ", " : "",
					      result_reference_part_name((enum reference_part_id)i),
					      100 * ref->part[i].change);
}

int result_reference_append(struct reference *ref, enum reference_part_id id, double ns)
{
	struct reference_part *p = &ref->part[id];
	double *grown = realloc(p->samples, (p->count + 1) * sizeof *grown);
	if (!grown)
		return -1;
	p->samples = grown;
	p->samples[p->count++] = ns;
	return 0;
}
