/* policy_json.c: the "policy" object (policy_json.h). */
#include "store/policy_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "store/jsonout.h"

enum kind { REAL, INT, BOOL, CORRECTION };

static const struct field {
	const char *name;
	enum kind kind;
	size_t offset;
} fields[] = {
#define F(x, k) { #x, k, offsetof(struct run_policy, x) }
	F(alpha, REAL), { "correction", CORRECTION, offsetof(struct run_policy, fdr) },
	F(min_effect, REAL), F(drift_factor, REAL), F(advisory_tolerance, REAL),
	F(exact_tolerance, REAL), F(near_tolerance, REAL), F(near_floor, REAL),
	F(near_floor_bytes, REAL), F(min_events, REAL), F(cost_tolerance, REAL),
	F(cost_miss_tolerance, REAL), F(cost_miss_floor, REAL), F(cost_thread_slack, REAL),
	F(cost_advisory, REAL), F(rounds, INT), F(runs, INT), F(warmup, INT), F(best_of, INT),
	F(cost, BOOL), F(cost_runs, INT),
#undef F
};

json_t *policy_json(const struct run_policy *p)
{
	json_t *obj = json_object();
	const char *base = (const char *)p;
	for (size_t i = 0; obj && i < sizeof fields / sizeof fields[0]; i++) {
		const void *at = base + fields[i].offset;
		json_t *v;
		switch (fields[i].kind) {
		case REAL: v = jsonout_number(*(const double *)at); break;
		case INT: v = json_integer(*(const int *)at); break;
		case BOOL: v = json_boolean(*(const bool *)at); break;
		default: v = json_string(policy_correction_name(p)); break;
		}
		if (json_object_set_new(obj, fields[i].name, v)) {
			json_decref(obj);
			return NULL;
		}
	}
	char gates[40];
	if (obj && json_object_set_new(obj, "min_effect_whole",
				       jsonout_number(p->min_effect_whole))) {
		json_decref(obj);
		return NULL;
	}
	if (obj && json_object_set_new(obj, "gate", json_string(policy_gates_name(p->gates, gates,
									      sizeof gates)))) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

int policy_json_load(const json_t *obj, struct run_policy *p, char *why, size_t size)
{
	policy_defaults(p);
	if (!json_is_object(obj)) {
		snprintf(why, size, "policy: expected an object");
		return -1;
	}
	char *base = (char *)p;
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const struct field *f = &fields[i];
		const json_t *v = json_object_get(obj, f->name);
		void *at = base + f->offset;
		if (!v) {
			snprintf(why, size, "policy.%s: missing", f->name);
			return -1;
		}
		switch (f->kind) {
		case REAL:
			if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
			    json_number_value(v) < 0) {
				snprintf(why, size, "policy.%s: expected a number >= 0", f->name);
				return -1;
			}
			*(double *)at = json_number_value(v);
			break;
		case INT:
			if (!json_is_integer(v) || json_integer_value(v) < -1 ||
			    json_integer_value(v) > 1000000) {
				snprintf(why, size, "policy.%s: expected an integer from -1 to 1000000",
					 f->name);
				return -1;
			}
			*(int *)at = (int)json_integer_value(v);
			break;
		case BOOL:
			if (!json_is_boolean(v)) {
				snprintf(why, size, "policy.%s: expected true or false", f->name);
				return -1;
			}
			*(bool *)at = json_is_true(v);
			break;
		default:
			if (!json_is_string(v) || policy_correction_parse(json_string_value(v), &p->fdr)) {
				snprintf(why, size, "policy.correction: expected \"holm\" or \"bh\"");
				return -1;
			}
			break;
		}
	}
	/* absent in files written before it: the default */
	const json_t *whole = json_object_get(obj, "min_effect_whole");
	if (whole && (!json_is_number(whole) || !isfinite(json_number_value(whole)) ||
		      json_number_value(whole) < 0)) {
		snprintf(why, size, "policy.min_effect_whole: expected a number >= 0");
		return -1;
	}
	if (whole)
		p->min_effect_whole = json_number_value(whole);
	/* absent in files written before the gate policy: everything gated */
	const json_t *gate = json_object_get(obj, "gate");
	if (gate && (!json_is_string(gate) || policy_gates_parse(json_string_value(gate),
								  &p->gates))) {
		snprintf(why, size, "policy.gate: expected a list of counts, cost, timing");
		return -1;
	}
	p->recorded = true;
	return 0;
}
