/* run_options.c: what a run was asked to do (run_options.h): the
 * defaults, and the sampling plan, the policy and the deadline made of it. */
#include <stdlib.h>
#include <string.h>

#include "allocgate/probe.h"
#include "run/run_options.h"

void run_options_defaults(struct run_options *o)
{
	memset(o, 0, sizeof *o);
	o->tier = GATE_TIER_DEFAULT;
	o->tier_name = "default";
	o->seed = 1;
	o->rounds = 15;
	o->warmup = 1;
	o->timeout_seconds = 60;
	/* Against a stored baseline memory-heavy regions of a few ms drift by
	 * far more than a code change over minutes (docs/noise.md, "Two kinds
	 * of noise"); smaller timing changes are reported (inconclusive) but
	 * do not fail unless --min-effect says so. */
	o->min_effect = POLICY_MIN_EFFECT;
	o->min_effect_whole = POLICY_MIN_EFFECT_WHOLE;
	o->gates = POLICY_GATE_RUN_DEFAULT;
	o->exact_tolerance = POLICY_EXACT_TOLERANCE;
	o->near_tolerance = POLICY_NEAR_TOLERANCE;
	o->alpha = POLICY_ALPHA;
	o->pin_cpu = -1;
	/* scripts and test suites that run the gate many times turn the cost
	 * pass (seconds per run) off once, in the environment */
	const char *cost = getenv("ALLOCGATE_COST");
	o->cost = !(cost && !strcmp(cost, "0"));
}

void run_options_plan(const struct run_options *o, struct runner_plan *plan)
{
	memset(plan, 0, sizeof *plan);
	plan->env = o->env;
	plan->seed = o->seed;
	plan->rounds = o->rounds;
	plan->warmup = o->warmup;
	plan->best_of = o->best_of;
	plan->backend = o->backend;
	plan->timeout_seconds = o->timeout_seconds;
	plan->deadline_seconds = o->deadline_seconds;
	plan->deadline_at = o->deadline_at;
	plan->cost = o->cost;
	plan->cost_runs = o->cost_runs;
	plan->verbose = o->verbose;
}

void run_options_policy(const struct run_options *o, struct run_policy *p)
{
	policy_defaults(p);
	p->recorded = true;
	p->alpha = o->alpha;
	p->fdr = o->fdr;
	p->min_effect = o->min_effect;
	p->min_effect_whole = o->min_effect_whole;
	p->exact_tolerance = o->exact_tolerance;
	p->near_tolerance = o->near_tolerance;
	p->rounds = o->rounds;
	p->runs = o->runs > 0 ? o->runs : 1;
	p->warmup = o->warmup;
	p->best_of = o->best_of;
	p->cost = o->cost;
	p->gates = o->gates;
	p->cost_runs = o->cost ? (o->cost_runs > 0 ? o->cost_runs : 1) : 0;
}

enum policy_tier run_options_policy_tier(const struct run_options *o)
{
	return o->tier == GATE_TIER_QUICK ? POLICY_TIER_QUICK
	     : o->tier == GATE_TIER_FULL ? POLICY_TIER_FULL : POLICY_TIER_DEFAULT;
}

double run_options_deadline(const struct run_options *o)
{
	if (o->deadline_seconds > 0)
		return o->deadline_seconds;
	double per_batch = o->tier == GATE_TIER_QUICK ? OPTIONS_DEADLINE_QUICK
			   : o->tier == GATE_TIER_FULL ? OPTIONS_DEADLINE_FULL
						       : OPTIONS_DEADLINE_DEFAULT;
	return per_batch * (o->runs > 1 ? o->runs : 1);
}

const char *run_options_env_problem(const char *value)
{
	const char *eq = value ? strchr(value, '=') : NULL;
	if (!eq || eq == value)
		return "expected KEY=VALUE";
	for (const char *c = value; c < eq; c++)
		if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
		      (*c >= '0' && *c <= '9') || *c == '_'))
			return "KEY must be letters, digits and _";
	for (const char *c = eq + 1; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return "VALUE must not hold control characters (newline, tab)";
	return NULL;
}

void run_options_free(struct run_options *o)
{
	free(o->env);
	free(o->kernels);
	o->env = NULL;
	o->kernels = NULL;
}
