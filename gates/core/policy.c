/* policy.c: the defaults of a run policy and comparing two (policy.h). */
#include "core/policy.h"

#include <stdio.h>
#include <string.h>

void policy_defaults(struct run_policy *p)
{
	memset(p, 0, sizeof *p);
	p->alpha = POLICY_ALPHA;
	p->min_effect = POLICY_MIN_EFFECT;
	p->min_effect_whole = POLICY_MIN_EFFECT_WHOLE;
	p->drift_factor = POLICY_DRIFT_FACTOR;
	p->advisory_tolerance = POLICY_ADVISORY_TOLERANCE;
	p->exact_tolerance = POLICY_EXACT_TOLERANCE;
	p->near_tolerance = POLICY_NEAR_TOLERANCE;
	p->near_floor = POLICY_NEAR_FLOOR;
	p->near_floor_bytes = POLICY_NEAR_FLOOR_BYTES;
	p->min_events = POLICY_MIN_EVENTS;
	p->cost_tolerance = POLICY_COST_TOLERANCE;
	p->cost_miss_tolerance = POLICY_COST_MISS_TOLERANCE;
	p->cost_miss_floor = POLICY_COST_MISS_FLOOR;
	p->cost_thread_slack = POLICY_COST_THREAD_SLACK;
	p->cost_advisory = POLICY_COST_ADVISORY;
	p->cost = true;
	p->gates = POLICY_GATE_ALL;
}

static const struct {
	const char *name;
	unsigned bits;
} gate_words[] = {
	{ "counts", POLICY_GATE_COUNTS },
	{ "cost", POLICY_GATE_COST },
	{ "timing", POLICY_GATE_TIMING },
	{ "deterministic", POLICY_GATE_DETERMINISTIC },
	{ "all", POLICY_GATE_ALL },
};

int policy_gates_parse(const char *text, unsigned *gates)
{
	unsigned bits = 0;
	const char *p = text;
	while (p && *p) {
		size_t n = strcspn(p, ",");
		size_t i = 0;
		for (; i < sizeof gate_words / sizeof gate_words[0]; i++)
			if (strlen(gate_words[i].name) == n && !strncmp(p, gate_words[i].name, n))
				break;
		if (i == sizeof gate_words / sizeof gate_words[0])
			return -1;
		bits |= gate_words[i].bits;
		p += n;
		if (*p == ',' && !*++p)
			return -1;
	}
	if (!bits)
		return -1;
	*gates = bits;
	return 0;
}

const char *policy_gates_name(unsigned gates, char *buf, size_t size)
{
	size_t used = 0;
	if (size)
		*buf = 0;
	for (size_t i = 0; i < 3; i++)
		if (gates & gate_words[i].bits)
			used += (size_t)snprintf(buf + (used < size ? used : size),
						 used < size ? size - used : 0, "%s%s",
						 used ? "," : "", gate_words[i].name);
	if (!used)
		snprintf(buf, size, "none");
	return buf;
}

const char *policy_correction_name(const struct run_policy *p)
{
	return p->fdr ? "bh" : "holm";
}

int policy_correction_parse(const char *name, bool *fdr)
{
	if (!strcmp(name, "holm") || !strcmp(name, "bh")) {
		*fdr = !strcmp(name, "bh");
		return 0;
	}
	return -1;
}

bool policy_same_decisions(const struct run_policy *a, const struct run_policy *b, char *what,
			   size_t size)
{
	static const struct {
		const char *name;
		size_t offset;
	} fields[] = {
#define F(x) { #x, offsetof(struct run_policy, x) }
		F(alpha), F(min_effect), F(min_effect_whole), F(drift_factor), F(advisory_tolerance),
		F(exact_tolerance), F(near_tolerance), F(near_floor), F(near_floor_bytes),
		F(min_events), F(cost_tolerance), F(cost_miss_tolerance), F(cost_miss_floor),
		F(cost_thread_slack), F(cost_advisory),
#undef F
	};
	if (a->fdr != b->fdr) {
		if (what)
			snprintf(what, size, "correction %s vs %s", policy_correction_name(a),
				 policy_correction_name(b));
		return false;
	}
	if (a->cost != b->cost) {
		if (what)
			snprintf(what, size, "cost pass %s vs %s", a->cost ? "on" : "off",
				 b->cost ? "on" : "off");
		return false;
	}
	if (a->gates != b->gates) {
		char x[40], y[40];
		if (what)
			snprintf(what, size, "gate %s vs %s", policy_gates_name(a->gates, x, sizeof x),
				 policy_gates_name(b->gates, y, sizeof y));
		return false;
	}
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		double x, y;
		memcpy(&x, (const char *)a + fields[i].offset, sizeof x);
		memcpy(&y, (const char *)b + fields[i].offset, sizeof y);
		if (x != y) {
			if (what)
				snprintf(what, size, "%s %g vs %g", fields[i].name, x, y);
			return false;
		}
	}
	return true;
}

int policy_ab_rounds(enum policy_tier tier)
{
	return tier == POLICY_TIER_DEFAULT ? POLICY_AB_ROUNDS : POLICY_AB_ROUNDS_OTHER_TIERS;
}

bool policy_merge_next(struct run_policy *merged, const struct run_policy *first,
		       const struct run_policy *next, char *what, size_t size)
{
	if (!next->recorded || !merged->recorded) {
		merged->recorded = false;
		return true;
	}
	return policy_same_decisions(first, next, what, size);
}

int policy_runs(int runs, bool update_baseline)
{
	return runs > 0 ? runs : update_baseline ? POLICY_BASELINE_RUNS : 1;
}

int policy_cost_runs(int cost_runs, int runs, bool update_baseline)
{
	if (!update_baseline || cost_runs > 0 || runs < 1)
		return cost_runs;
	return (POLICY_BASELINE_COST_SAMPLES + runs - 1) / runs;
}
