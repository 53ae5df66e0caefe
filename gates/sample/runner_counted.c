/* runner_counted.c: the counted pass of a group: one sample per variant
 * from the counted twin (heap_* counts, and proc_* with the interposer
 * preloaded), copied into every round of the batch; what to say when the
 * twin is missing or counts nothing (runner_internal.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sample/allocator.h"
#include "sample/backend.h"
#include "sample/cost_pass.h"
#include "sample/record.h"
#include "sample/counter_keep.h"
#include "sample/runner.h"
#include "sample/runner_internal.h"
#include "sample/spawn.h"
#include "core/group_key.h"


/* ENV (NULL-terminated) with LIB first in the OS's preload variable
 * (allocator_os_preload_var: LD_PRELOAD, DYLD_INSERT_LIBRARIES), before a
 * preloaded allocator, so that its malloc counts and then calls the
 * allocator's; NULL on no memory or without a preload variable. Free with
 * interposed_env_free. */
static const char **interposed_env(const char **env, const char *lib)
{
	const char *var = allocator_os_preload_var();
	size_t n = 0, var_len = var ? strlen(var) : 0;
	if (!var)
		return NULL;
	while (env && env[n])
		n++;
	const char **out = calloc(n + 2, sizeof *out);
	if (!out)
		return NULL;
	const char *old = NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(env[i], var, var_len) && env[i][var_len] == '=')
			old = env[i] + var_len + 1;
		else
			out[k++] = env[i];
	}
	size_t len = var_len + strlen(lib) + (old ? strlen(old) + 1 : 0) + 2;
	char *preload = malloc(len);
	if (!preload) {
		free(out);
		return NULL;
	}
	snprintf(preload, len, "%s=%s%s%s", var, lib, old && *old ? ":" : "", old ? old : "");
	out[k++] = preload;
	out[k] = NULL;
	return out;
}

/* Frees what interposed_env made (the preload entry is the last). */
static void interposed_env_free(const char **env)
{
	if (!env)
		return;
	size_t n = 0;
	while (env[n])
		n++;
	if (n)
		free((char *)env[n - 1]);
	free(env);
}

/* Whether R already has problem WHAT of (KERNEL, any variant, PARAMS). */
static int has_problem(const struct run_result *r, const char *kernel, const char *params,
		       const char *what)
{
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		if (group_key_in(GROUP_KEY(p), GROUP_KEY_OF(kernel, NULL, params)) &&
		    !strcmp(p->what, what))
			return 1;
	}
	return 0;
}

/* How to build a counted twin, for the notes below. */
#define COUNTED_HOW "build it from the same sources with the Cflags of `pkg-config --cflags " \
	"allocgate-counted` (docs/install.md)"

/* The allocation sites of REC (one counted sample of variant V), once per
 * group: every batch's counted sample counts the same calls. */
static void take_sites(const struct kernel_info *k, size_t v, const struct kernel_paramset *p,
		       const struct record *rec, struct run_result *r)
{
	r->sites_recorded = true;
	if (result_has_sites(r, k->name, k->variants[v], p->name))
		return;
	for (size_t i = 0; i < rec->site_count; i++) {
		const struct record_site *st = &rec->sites[i];
		if (!result_add_site(r, k->name, k->variants[v], p->name,
				     kernel_info_source_file(k, st->file), st->function, st->kind, st->line,
				     st->calls, st->bytes))
			return;
	}
	if (rec->sites_dropped) {
		char why[300];
		snprintf(why, sizeof why, "%llu allocation calls were made at sites beyond the "
			 "counted build's table of sites: their sites are not listed (the totals "
			 "count them)", (unsigned long long)rec->sites_dropped);
		result_add_problem(r, k->name, k->variants[v], p->name, "allocation sites", why);
	}
}

/* One sample of variant V from the counted build: its heap_* counts fill
 * every round of this batch (they are exact: the same in every round);
 * its timings are dropped, so the wrappers never touch a timing sample.
 * Adds the sample's allocation calls (heap_calls and proc_*_calls of every
 * region) to *CALLS; returns 1 when a counted sample was taken, else 0. */
static int counted_sample(const struct kernel_info *k, size_t v, const struct kernel_paramset *p,
			  const struct runner_plan *o, struct run_result *r, size_t first_round,
			  double *calls)
{
	struct kernel_info counted = *k;
	struct record rec;
	char path[4096] = "", why[700];
	int n = kernel_info_counted_path(k, path, sizeof path), heap = 0;
	if (n) {
		/* said once per kernel: without it no heap_* count exists, and an
		 * expectation on one would only say "no measurement named" */
		snprintf(why, sizeof why, "no counted build of %s at %s (%s); %s", k->name,
			 *path ? path : "KERNEL_DIR-counted/", strerror(-n), COUNTED_HOW);
		runner_note_once(r, "heap_* (counted build)", why);
		return 0;
	}
	counted.path = path;
	struct runner_plan with_interposer = *o;
	const char **env = NULL;
	if (o->interposer && (env = interposed_env(o->env, o->interposer)))
		with_interposer.env = env;
	int failed = runner_sample_once(&counted, k->variants[v], p, &with_interposer, &rec, why,
				 sizeof why);
	interposed_env_free(env);
	if (failed) {
		result_add_problem(r, k->name, k->variants[v], p->name, "counted sample", why);
		return 0;
	}
	size_t hint = 0;
	for (size_t i = 0; i < rec.metric_count; i++) {
		const char *name = rec.metrics[i].name, *base = strrchr(name, '.');
		if (!result_metric_is_counted(name))
			continue;
		base = base ? base + 1 : name;
		heap |= !strncmp(base, "heap_", 5);
		/* the wrappers' calls, or the interposer's (code not compiled
		 * with the counting include: a prebuilt library) */
		if (!strcmp(base, "heap_calls") ||
		    (!strncmp(base, "proc_", 5) && strstr(base, "_calls")))
			*calls += rec.metrics[i].value;
		for (int round = 0; round < o->rounds; round++)
			runner_put_sample(r, &hint, k, v, p->name, &rec.metrics[i],
					  first_round + (size_t)round);
	}
	take_sites(k, v, p, &rec, r);
	record_free(&rec);
	if (!heap) {
		snprintf(why, sizeof why, "the counted build of %s (%s) reports no heap_* count: it "
			 "was compiled without the counting include; %s", k->name, path, COUNTED_HOW);
		runner_note_once(r, "heap_* (counted build)", why);
	}
	return 1;
}

void runner_counted_pass(const struct runner_side *sides, size_t side_count,
			 const size_t *item_side, const size_t *item_variant, const int *failures,
			 size_t n, size_t first_round)
{
	const struct runner_plan *o = sides[0].o;
	/* held for two samples or more: releasing them costs what one
	 * sample's exit would, so for one or none it saves nothing */
	size_t planned = 0;
	for (size_t i = 0; i < n && planned < 2; i++) {
		char path[4096];
		planned += failures[i] < RUNNER_MAX_FAILURES &&
			   kernel_info_counted_path(sides[item_side[i]].k, path, sizeof path) == 0;
	}
	if (planned >= 2)
		counter_keep_tracepoints_hold();
	for (size_t s = 0; s < side_count; s++) {
		double calls = 0;
		int taken = 0;
		for (size_t i = 0; i < n; i++) {
			const struct runner_side *sd = &sides[item_side[i]];
			if (item_side[i] == s && failures[i] < RUNNER_MAX_FAILURES &&
			    !runner_deadline_passed(o))
				taken += counted_sample(sd->k, item_variant[i], sd->p, sd->o, sd->r,
						     first_round, &calls);
		}
		if (taken && calls == 0) {
			/* every variant counted nothing: the sources that allocate
			 * were not compiled with the counting include (said once per
			 * group, not per batch) */
			char why[800];
			snprintf(why, sizeof why, "the counted build of %s counted no allocation in any "
				 "variant of %s: were the sources that allocate (a library of yours "
				 "too) compiled with the Cflags of `pkg-config --cflags "
				 "allocgate-counted`? (docs/install.md)%s", sides[s].k->name,
				 sides[s].p->name, sides[s].o->interposer ? "" :
				 "; without the interposer (see its unavailable line) allocations "
				 "inside prebuilt libraries are not counted either");
			if (!has_problem(sides[s].r, sides[s].k->name, sides[s].p->name,
					 "counted build"))
				result_add_problem(sides[s].r, sides[s].k->name, NULL, sides[s].p->name,
						   "counted build", why);
		}
	}
	counter_keep_tracepoints_release();
}
