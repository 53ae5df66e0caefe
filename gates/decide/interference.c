/* interference.c: disturbed timing samples (interference.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/interference.h"
#include "decide/stats.h"
#include "core/group_key.h"

double interference_excess_ns(double wait_ns, double run_ns, double threads, int cores)
{
	double c = cores > 0 ? cores : 1;
	double own = threads > c ? (threads - c) * run_ns / c : 0;
	double excess = wait_ns - own;
	return excess > 0 ? excess : 0;
}

bool interference_too_few(size_t usable, size_t disturbed)
{
	return disturbed > 0 && (usable < 3 || usable < disturbed);
}

bool interference_beyond_reach(size_t usable, size_t disturbed, size_t left)
{
	if (!interference_too_few(usable, disturbed))
		return false;
	return interference_too_few(usable + left, disturbed) ||
	       (usable + disturbed >= 9 && disturbed >= 9 * usable);
}

/* The series of R like S but for METRIC in the same region ("free.wall_ns"
 * -> "free.METRIC"); NULL when there is none. */
static const struct series *sibling(const struct run_result *r, const struct series *s,
				    const char *metric)
{
	char name[256];
	const char *dot = strrchr(s->metric, '.');
	if (dot)
		snprintf(name, sizeof name, "%.*s.%s", (int)(dot - s->metric), s->metric, metric);
	else
		snprintf(name, sizeof name, "%s", metric);
	return result_find_series(r, s->kernel, s->variant, s->params, name);
}

/* Value I of S, NaN when S has none. */
static double at(const struct series *s, size_t i)
{
	return s && i < s->sample_count ? s->samples[i] : NAN;
}

/* The cores the kernels ran on: one when pinned (--pin-cpu). */
static int cores_of(const struct context *ctx)
{
	if (ctx->pinning && strncmp(ctx->pinning, "none", 4))
		return 1;
	return ctx->cpu_count > 0 ? ctx->cpu_count : 1;
}

/* Marks the samples of timing series S of R; by the machine's load too
 * when MACHINE_SHARE. */
static int mark(struct run_result *r, struct series *s, bool machine_share)
{
	const struct series *wait = sibling(r, s, "sched_wait_ns");
	const struct series *wall = sibling(r, s, "wall_ns");
	const struct series *run = sibling(r, s, "task_clock_ns");
	const struct series *threads = result_find_series(r, s->kernel, s->variant, s->params,
							  "threads");
	const struct series *others = result_find_series(r, s->kernel, s->variant, s->params,
							 "others_cpu_permille");
	if (!run)
		run = sibling(r, s, "cpu_ns");
	free(s->disturbed);
	s->disturbed = NULL;
	s->disturbed_len = s->disturbed_count = 0;
	s->disturbed_share = NAN;
	if ((!wait || !wall) && !others)
		return 0;
	if (s->sample_count == 0)
		return 0;
	s->disturbed = calloc(s->sample_count, sizeof *s->disturbed);
	double *shares = calloc(s->sample_count, sizeof *shares);
	if (!s->disturbed || !shares) {
		free(shares);
		return -ENOMEM;
	}
	s->disturbed_len = s->sample_count;
	for (size_t i = 0; i < s->sample_count; i++) {
		double w = at(wall, i), n = at(threads, i), busy = at(others, i) / 1000;
		double excess = interference_excess_ns(at(wait, i), isnan(at(run, i)) ? w : at(run, i),
						       isfinite(n) && n > 1 ? n : 1, cores_of(&r->ctx));
		if (isfinite(w) && w > 0 && excess >= INTERFERENCE_FLOOR_NS &&
		    excess >= INTERFERENCE_SHARE * w) {
			s->disturbed[i] = true;
			shares[s->disturbed_count++] = excess / w;
		} else if (machine_share && busy >= INTERFERENCE_MACHINE_SHARE) {
			s->disturbed[i] = true;
			shares[s->disturbed_count++] = busy;
		}
	}
	if (s->disturbed_count)
		s->disturbed_share = stats_median(shares, s->disturbed_count);
	free(shares);
	return 0;
}

int interference_mark(struct run_result *r)
{
	return interference_mark_as(r, true);
}

int interference_mark_as(struct run_result *r, bool machine_share)
{
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *s = &r->series[i];
		/* times only: a count the kernel reports (its threads' blocking
		 * waits) is no longer for having waited to run */
		if (s->cls == METRIC_TIMING && !strcmp(s->unit, "ns") && mark(r, s, machine_share))
			return -ENOMEM;
	}
	return 0;
}

int interference_mark_group_as(struct run_result *r, const char *kernel, const char *params,
			       bool machine_share)
{
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *s = &r->series[i];
		if (s->cls == METRIC_TIMING && !strcmp(s->unit, "ns") &&
		    group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, NULL, params)) &&
		    mark(r, s, machine_share))
			return -ENOMEM;
	}
	return 0;
}

bool interference_sample_disturbed(const struct series *s, size_t i)
{
	return s->disturbed && i < s->disturbed_len && s->disturbed[i];
}

size_t interference_forget(struct run_result *r)
{
	size_t forgotten = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *s = &r->series[i];
		size_t finite = 0;
		for (size_t k = 0; k < s->sample_count; k++)
			finite += isfinite(s->samples[k]) && !interference_sample_disturbed(s, k);
		if (!s->disturbed_count || finite < 3)
			continue;
		for (size_t k = 0; k < s->sample_count; k++)
			if (interference_sample_disturbed(s, k) && isfinite(s->samples[k])) {
				s->samples[k] = NAN;
				forgotten++;
			}
	}
	return forgotten;
}
