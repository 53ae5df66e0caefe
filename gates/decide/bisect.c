/* bisect.c: the binary search over commits and what "moved" means
 * (bisect.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decide/bisect.h"
#include "core/metric_name.h"

/* The last good commit's index + 1 (0: the good revision itself) and the
 * first bad commit's index after it, into *LO and *HI. */
static void bounds(const struct bisect *b, size_t *lo, size_t *hi)
{
	*lo = 0;
	*hi = b->count ? b->count - 1 : 0;
	for (size_t i = 0; i < b->count; i++)
		if (b->marks[i] == BISECT_GOOD)
			*lo = i + 1;
	for (size_t i = *lo; i < b->count; i++)
		if (b->marks[i] == BISECT_BAD) {
			*hi = i;
			break;
		}
}

long bisect_next(const struct bisect *b)
{
	size_t lo, hi;
	if (!b->count)
		return -1;
	bounds(b, &lo, &hi);
	if (hi <= lo)
		return -1;
	/* lo..hi-1 are candidates; the middle of lo-1 (good) and hi (bad) */
	size_t mid = lo + (hi - lo - 1) / 2;
	for (size_t d = 0; d < hi - lo; d++) {
		if (mid >= d && mid - d >= lo && b->marks[mid - d] == BISECT_UNKNOWN)
			return (long)(mid - d);
		if (mid + d + 1 < hi && b->marks[mid + d + 1] == BISECT_UNKNOWN)
			return (long)(mid + d + 1);
	}
	return -1;
}

bool bisect_culprit(const struct bisect *b, size_t *first, size_t *last)
{
	size_t lo, hi;
	bounds(b, &lo, &hi);
	*first = lo;
	*last = hi;
	return lo == hi;
}

/* Whether METRIC decides a probe: the allocation counts and bytes of both
 * passes (heap_*, proc_*), the cost pass's calls and instructions
 * (cost_*_calls, cost_instructions, cost_E_instructions), the allocator's
 * system calls (sys_*). Page faults, simulated cache misses and the
 * cycles estimated from them move with the address space's layout and
 * the host's pages: near-exact, not evidence of one commit. */
static bool decides(const char *metric)
{
	const char *base = strrchr(metric, '.');
	base = base ? base + 1 : metric;
	size_t len = strlen(base);
	if (result_metric_is_allocation_count(base) || !strncmp(base, "sys_", 4))
		return true;
	return !strncmp(base, "cost_", 5) &&
	       ((len > 6 && !strcmp(base + len - 6, "_calls")) ||
		(len > 13 && !strcmp(base + len - 13, "_instructions")) ||
		!strcmp(base, "cost_instructions"));
}

bool bisect_series_moved(const struct series *s, const struct series *o, double tolerance)
{
	double a = o->median, x = s->median;
	if (s->cls == METRIC_TIMING || !decides(s->metric))
		return false;
	if (isnan(a) != isnan(x))
		return true;
	if (isnan(a))
		return false;
	if (metric_is_cost(s->metric) && a != 0 && strstr(s->metric, "_instructions"))
		return fabs(x / a - 1) > tolerance;
	return x != a;
}

/* Whether series S can decide a probe (not timing, a deciding metric). */
static bool exact(const struct series *s)
{
	return s->cls != METRIC_TIMING && decides(s->metric);
}

size_t bisect_moved_count(const struct run_result *a, const struct run_result *b,
			  double tolerance, bool *keep)
{
	size_t n = 0, hint = 0;
	for (size_t i = 0; i < b->series_count; i++) {
		const struct series *s = &b->series[i];
		if (!exact(s))
			continue;
		const struct series *o = result_find_series_near(a, &hint, s->kernel, s->variant,
								 s->params, s->metric);
		bool moved = !o || bisect_series_moved(s, o, tolerance);
		if (keep)
			keep[i] = moved;
		n += moved;
	}
	for (size_t i = 0; i < a->series_count; i++) {
		const struct series *o = &a->series[i];
		n += exact(o) && !result_find_series(b, o->kernel, o->variant, o->params,
						      o->metric);
	}
	return n;
}

void bisect_outcome_free(struct bisect_outcome *o)
{
	for (size_t i = 0; i < o->probe_count; i++) {
		free(o->probes[i].subject);
		free(o->probes[i].why);
	}
	free(o->probes);
	free(o->first_subject);
	result_free(&o->before);
	result_free(&o->after);
	memset(o, 0, sizeof *o);
}
