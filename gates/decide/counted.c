/* counted.c: whether the counted build saw a group's allocations (counted.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/counted.h"
#include "decide/stats.h"
#include "core/group_key.h"

/* The last part of a metric name (region.heap_calls: heap_calls). */
static const char *base_name(const char *metric)
{
	const char *dot = strrchr(metric, '.');
	return dot ? dot + 1 : metric;
}

/* Allocation calls (not frees: free(NULL) is counted, and a thread's exit
 * frees what glibc allocated for it) of counter family PREFIX. */
static int is_alloc_calls(const char *base, const char *prefix)
{
	static const char *const kinds[] = { "malloc_calls", "calloc_calls", "realloc_calls",
					     "aligned_calls" };
	size_t n = strlen(prefix);
	if (strncmp(base, prefix, n))
		return 0;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(base + n, kinds[i]))
			return 1;
	return 0;
}

static double median_of(const struct series *s)
{
	double m = isfinite(s->median) ? s->median : stats_median(s->samples, s->sample_count);
	return isfinite(m) ? m : 0;
}

enum counted_sight counted_sight(const struct run_result *r, const char *kernel,
				 const char *params, char *why, size_t size)
{
	double heap = 0, proc = 0, cost = 0;
	int has_heap = 0, has_proc = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, NULL, params)))
			continue;
		const char *base = base_name(s->metric);
		if (!strcmp(base, "heap_calls")) {
			has_heap = 1;
			heap += median_of(s);
		} else if (is_alloc_calls(base, "proc_")) {
			has_proc = 1;
			proc += median_of(s);
		} else if (is_alloc_calls(base, "cost_")) {
			cost += median_of(s);
		}
	}
	if (!has_heap || heap > 0 || (proc <= 0 && cost <= 0))
		return COUNTED_SEEN;
	if (has_proc && proc > 0) {
		snprintf(why, size, "not measured: the counted build saw no allocation call of "
			 "%s/%s (heap_calls 0) while the interposer counted %.0f (proc_*_calls)%s: "
			 "the calls were made where the counting include does not reach, through "
			 "function pointers or hooks (a library's malloc hook calls malloc itself, "
			 "not the counted wrapper) or in a library compiled without it; proc_* and "
			 "cost_*_calls count them (docs/counters.md)", kernel, params, proc,
			 cost > 0 ? " and the cost pass saw them too" : "");
		return COUNTED_BLIND_PROC;
	}
	snprintf(why, size, "not measured: the counted build saw no allocation call of %s/%s "
		 "(heap_calls 0) while the cost pass counted %.0f allocation calls (cost_*_calls): "
		 "they were made through function pointers or hooks, or in code compiled without "
		 "the counting include; compile the sources that allocate with `pkg-config "
		 "--cflags allocgate-counted` and call malloc by name, or run with the interposer "
		 "(proc_*; docs/install.md)", kernel, params, cost);
	return COUNTED_BLIND_COST;
}

static void mark_group(struct run_result *r, const char *kernel, const char *params,
		       enum counted_sight sight, const char *why)
{
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *s = &r->series[i];
		if (!group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, NULL, params)) ||
		    strncmp(base_name(s->metric), "heap_", 5))
			continue;
		int fails = sight == COUNTED_BLIND_COST && !strcmp(base_name(s->metric), "heap_calls");
		s->verdict = fails ? VERDICT_ERROR : VERDICT_SKIPPED;
		free(s->note);
		s->note = strdup(why);
	}
	if (sight == COUNTED_BLIND_COST)
		result_add_problem(r, kernel, NULL, params, "counted build", why);
}

void counted_mark(struct run_result *r)
{
	char why[600];
	for (size_t i = 0; i < r->series_count; i++) {
		if (!group_key_first_series(r, i, GROUP_SCOPE_GROUP, NULL, NULL))
			continue;
		const char *kernel = r->series[i].kernel, *params = r->series[i].params;
		enum counted_sight sight = counted_sight(r, kernel, params, why, sizeof why);
		if (sight != COUNTED_SEEN)
			mark_group(r, kernel, params, sight, why);
	}
}
