/* report_json.c: the --json result file, rendered from the run_result
 * only (no statistic is computed here).
 */
#include <errno.h>
#include <stdio.h>

#include "report/report_json.h"
#include "store/jsonout.h"
#include "store/policy_json.h"
#include "store/reference_json.h"
#include "store/sites_json.h"
#include "store/stacks_json.h"


/* gate ab: claim E on side A ("a") and on B alone ("b_verdict"), added to
 * OBJ when side A was measured; returns nonzero on no memory. */
static int expectation_sides(json_t *obj, const struct expect_result *e)
{
	if (!e->a.measured)
		return 0;
	json_t *a = json_object();
	if (!a)
		return 1;
	int bad = json_object_set_new(a, "verdict", json_string(result_verdict_name(e->a.verdict)));
	bad |= json_object_set_new(a, "rounds", json_integer((json_int_t)e->a.rounds));
	bad |= json_object_set_new(a, "estimate", jsonout_number(e->a.estimate));
	bad |= json_object_set_new(a, "ci_low", jsonout_number(e->a.ci_low));
	bad |= json_object_set_new(a, "ci_high", jsonout_number(e->a.ci_high));
	bad |= json_object_set_new(obj, "a", a);
	bad |= json_object_set_new(obj, "b_verdict", json_string(result_verdict_name(e->b_verdict)));
	return bad;
}

static json_t *expectation(const struct expect_result *e)
{
	json_t *obj = json_object();
	int bad = !obj;

	if (bad)
		return NULL;
	bad |= json_object_set_new(obj, "kernel", jsonout_string(e->kernel));
	bad |= json_object_set_new(obj, "params", jsonout_string(e->params));
	bad |= json_object_set_new(obj, "file", jsonout_string(e->file));
	bad |= json_object_set_new(obj, "line", json_integer(e->line));
	bad |= json_object_set_new(obj, "expr", jsonout_string(e->expr));
	bad |= json_object_set_new(obj, "conditions", jsonout_string(e->conditions));
	bad |= json_object_set_new(obj, "gated", json_boolean(e->gated));
	bad |= json_object_set_new(obj, "rounds", json_integer((json_int_t)e->rounds));
	bad |= json_object_set_new(obj, "ratio", json_boolean(e->ratio));
	bad |= json_object_set_new(obj, "estimate", jsonout_number(e->estimate));
	bad |= json_object_set_new(obj, "lhs", jsonout_number(e->lhs_median));
	bad |= json_object_set_new(obj, "rhs", jsonout_number(e->rhs_median));
	bad |= json_object_set_new(obj, "ci_low", jsonout_number(e->ci_low));
	bad |= json_object_set_new(obj, "ci_high", jsonout_number(e->ci_high));
	bad |= json_object_set_new(obj, "confidence", jsonout_number(e->confidence));
	bad |= json_object_set_new(obj, "verdict", json_string(result_verdict_name(e->verdict)));
	bad |= json_object_set_new(obj, "note", jsonout_string(e->note));
	bad |= expectation_sides(obj, e);
	if (bad) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

static json_t *problem(const struct problem *p)
{
	json_t *obj = json_object();
	int bad = !obj;

	if (bad)
		return NULL;
	bad |= json_object_set_new(obj, "kernel", jsonout_string(p->kernel));
	bad |= json_object_set_new(obj, "variant", jsonout_string(p->variant));
	bad |= json_object_set_new(obj, "params", jsonout_string(p->params));
	bad |= json_object_set_new(obj, "what", jsonout_string(p->what));
	bad |= json_object_set_new(obj, "reason", jsonout_string(p->reason));
	if (bad) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

/* The three arrays of R, in R's order; nonzero on no memory. */
static int put_arrays(json_t *root, const struct run_result *r)
{
	json_t *series = json_array(), *expects = json_array(), *problems = json_array();
	int bad = 0;
	size_t i;

	for (i = 0; series && !bad && i < r->series_count; i++)
		bad = json_array_append_new(series, jsonout_series(&r->series[i], true));
	for (i = 0; expects && !bad && i < r->expect_count; i++)
		bad = json_array_append_new(expects, expectation(&r->expects[i]));
	for (i = 0; problems && !bad && i < r->problem_count; i++)
		bad = json_array_append_new(problems, problem(&r->problems[i]));
	if (bad) {
		json_decref(series);
		json_decref(expects);
		json_decref(problems);
		return -1;
	}
	bad |= json_object_set_new(root, "series", series);
	bad |= json_object_set_new(root, "expectations", expects);
	bad |= json_object_set_new(root, "problems", problems);
	if (r->sites_recorded) {
		bad |= json_object_set_new(root, "sites", sites_json(r));
		bad |= json_object_set_new(root, "site_changes", site_changes_json(r));
	}
	if (r->stacks.recorded)
		bad |= json_object_set_new(root, "stacks", stacks_json(&r->stacks));
	if (r->stacks_before.recorded)
		bad |= json_object_set_new(root, "stacks_before", stacks_json(&r->stacks_before));
	return bad;
}

/* gate ab's sampling (result.h, struct ab_schedule). */
static json_t *schedule_json(const struct ab_schedule *sc)
{
	json_t *o = json_object(), *cpus = json_array();
	int bad = !o || !cpus;
	for (size_t i = 0; !bad && i < sc->cpu_count; i++)
		bad |= json_array_append_new(cpus, json_integer(sc->cpus[i]));
	bad |= json_object_set_new(o, "mode", json_string(sc->mode == AB_MODE_DUET ? "duet"
							   : "interleaved"));
	bad |= json_object_set_new(o, "duet_asked", json_boolean(sc->duet_asked));
	bad |= json_object_set_new(o, "why_not_duet", *sc->why ? json_string(sc->why)
								: json_null());
	if (sc->mode == AB_MODE_DUET) {
		/* set X: positions 0, 2, ...; A on X in rounds 1, 3, ... */
		bad |= json_object_set_new(o, "cpus", cpus);
		cpus = NULL;
		bad |= json_object_set_new(o, "sides", json_string(
			"A on the CPUs at even positions of cpus and B on the odd ones in rounds "
			"1, 3, 5, ...; the other way round in rounds 2, 4, ...; one CPU each, or "
			"as many as the parameter set's threads"));
		bad |= json_object_set_new(o, "pairs", json_integer((json_int_t)sc->pairs));
		bad |= json_object_set_new(o, "alone", json_integer((json_int_t)sc->alone));
		bad |= json_object_set_new(o, "interleaved_groups",
					   json_integer((json_int_t)sc->interleaved_groups));
		bad |= json_object_set_new(o, "start_skew_median_us",
					   jsonout_number(sc->skew_median_us));
		bad |= json_object_set_new(o, "start_skew_max_us", jsonout_number(sc->skew_max_us));
	}
	json_decref(cpus);
	bad |= json_object_set_new(o, "groups_compared", json_integer((json_int_t)sc->groups_compared));
	bad |= json_object_set_new(o, "groups_settled", json_integer((json_int_t)sc->groups_settled));
	bad |= json_object_set_new(o, "rounds_taken", json_integer((json_int_t)sc->rounds_taken));
	bad |= json_object_set_new(o, "rounds_budget", json_integer((json_int_t)sc->rounds_budget));
	bad |= json_object_set_new(o, "samples_taken", json_integer((json_int_t)sc->samples_taken));
	bad |= json_object_set_new(o, "samples_budget",
				   json_integer((json_int_t)sc->samples_budget));
	bad |= json_object_set_new(o, "settle_level", sc->settle_level > 0
						? jsonout_number(sc->settle_level) : json_null());
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int report_json_write(const char *path, const struct run_result *r, char *err, size_t err_size)
{
	json_t *root = json_object();
	int rc, bad = !root;

	if (!bad) {
		bad |= json_object_set_new(root, "schema", json_integer(JSONOUT_SCHEMA));
		bad |= json_object_set_new(root, "platform", jsonout_string(r->ctx.platform_key));
		bad |= json_object_set_new(root, "verdict",
					   json_string(gate_exit_verdict(r->exit_code)));
		bad |= json_object_set_new(root, "exit_code", json_integer(r->exit_code));
		bad |= json_object_set_new(root, "wall_seconds", jsonout_number(r->wall_seconds));
		if (r->sample_failures >= 0)
			bad |= json_object_set_new(root, "sample_failures",
						   json_integer(r->sample_failures));
		bad |= json_object_set_new(root, "context", jsonout_context(&r->ctx));
		if (r->policy.recorded)
			bad |= json_object_set_new(root, "policy", policy_json(&r->policy));
		bad |= json_object_set_new(root, "baseline", jsonout_string(r->baseline_path));
		bad |= json_object_set_new(root, "baseline_note", jsonout_string(r->baseline_note));
		if (r->same_code_kernels)
			bad |= json_object_set_new(root, "same_code_kernels",
						   json_integer((json_int_t)r->same_code_kernels));
		if (r->baseline_written)
			bad |= json_object_set_new(root, "baseline_written",
						   jsonout_string(r->baseline_written));
		bad |= json_object_set_new(root, "comparison", jsonout_string(r->comparison));
		if (r->schedule.mode != AB_MODE_NONE)
			bad |= json_object_set_new(root, "ab_schedule", schedule_json(&r->schedule));
		if (r->reference.part[REFERENCE_CPU].count) {
			bad |= json_object_set_new(root, "reference_state", json_string(
				result_reference_state_name(r->reference.state)));
			bad |= json_object_set_new(root, "reference_shift",
						   jsonout_number(r->reference.shift));
			bad |= json_object_set_new(root, "code_shift",
						   jsonout_number(r->reference.code_shift));
			bad |= json_object_set_new(root, "machine_faster",
						   json_boolean(r->reference.faster));
			if (r->reference.code_shift > 0)
				bad |= json_object_set_new(root, "reference_bound",
							   jsonout_number(r->reference.bound));
			bad |= json_object_set_new(root, "reference",
						   reference_json(&r->reference, true));
		}
		bad |= put_arrays(root, r);
	}
	if (bad) {
		json_decref(root);
		if (err && err_size)
			snprintf(err, err_size, "%s: out of memory", path);
		return -ENOMEM;
	}
	rc = jsonout_write_file(path, root, err, err_size);
	json_decref(root);
	return rc;
}
