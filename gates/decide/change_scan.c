/* change_scan.c: a history's series and their change points (change_scan.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decide/change_scan.h"
#include "decide/changepoint.h"
#include "decide/stats.h"
#include "core/group_key.h"
#include "core/metric_name.h"
#include "core/policy.h"

bool change_scan_metric_matches(const char *metric, const char *metric_asked)
{
	const char *dot = strrchr(metric, '.');
	return !metric_asked || !strcmp(metric, metric_asked) ||
	       (dot && !strcmp(dot + 1, metric_asked));
}

/* Whether S ends in END. */
static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), e = strlen(end);
	return n >= e && !strcmp(s + n - e, end);
}

int change_scan_method(const char *metric, enum metric_class cls, double min_effect,
		       enum change_method *method, double *tolerance)
{
	if (result_metric_is_scheduling(metric) || result_metric_is_machine_load(metric))
		return -1;
	*method = CHANGE_STEP;
	*tolerance = 0;
	if (metric_is_cost(metric)) {
		if (ends_with(metric, "_misses") || ends_with(metric, "cost_est_cycles"))
			*tolerance = POLICY_COST_MISS_TOLERANCE;
		else if (!ends_with(metric, "_calls"))
			*tolerance = POLICY_COST_TOLERANCE;
		return 0;
	}
	if (cls != METRIC_EXACT) {
		*method = CHANGE_EDIVISIVE;
		*tolerance = min_effect;
	}
	return 0;
}

/* The findings being built: the tracks, a hash of their keys (open
 * addressing, SLOTS entries holding a track's index + 1, 0 empty), and
 * per track the points allocated. */
struct scan {
	struct change_findings *f;
	size_t *slots, slot_count;
	size_t *point_cap;
	size_t track_cap;
};

/* FNV-1a over the series' key, each field ended by a 0 byte. */
static uint64_t key_hash(const char *platform, const struct history_value *v)
{
	const char *fields[5] = { platform, v->kernel, v->variant, v->params, v->metric };
	uint64_t h = 0xcbf29ce484222325ull;
	for (int k = 0; k < 5; k++)
		for (const char *c = fields[k];; c++) {
			h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
			if (!*c)
				break;
		}
	return h;
}

static bool same_key(const struct change_track *t, const char *platform,
		     const struct history_value *v)
{
	return !strcmp(t->platform, platform) &&
	       group_key_same(GROUP_KEY(t), GROUP_KEY(v), GROUP_SCOPE_VARIANT) &&
	       !strcmp(t->metric, v->metric);
}

/* Doubles the hash of S (every track placed again); 0 or -ENOMEM. */
static int rehash(struct scan *s)
{
	size_t count = s->slot_count ? 2 * s->slot_count : 1024;
	size_t *slots = calloc(count, sizeof *slots);
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < s->f->track_count; i++) {
		struct change_track *t = &s->f->tracks[i];
		struct history_value key = { .kernel = (char *)t->kernel, .variant = (char *)t->variant,
					     .params = (char *)t->params, .metric = (char *)t->metric };
		size_t at = (size_t)key_hash(t->platform, &key) & (count - 1);
		while (slots[at])
			at = (at + 1) & (count - 1);
		slots[at] = i + 1;
	}
	free(s->slots);
	s->slots = slots;
	s->slot_count = count;
	return 0;
}

/* A new track for V of PLATFORM, placed in slot AT; NULL on no memory. */
static struct change_track *new_track(struct scan *s, size_t at, const char *platform,
				      const struct history_value *v)
{
	struct change_findings *f = s->f;
	if (f->track_count == s->track_cap) {
		size_t cap = s->track_cap ? 2 * s->track_cap : 64;
		struct change_track *t = realloc(f->tracks, cap * sizeof *t);
		size_t *pc = t ? realloc(s->point_cap, cap * sizeof *pc) : NULL;
		if (t)
			f->tracks = t;
		if (!pc)
			return NULL;
		s->point_cap = pc;
		s->track_cap = cap;
	}
	struct change_track *t = &f->tracks[f->track_count];
	memset(t, 0, sizeof *t);
	t->platform = platform;
	t->kernel = v->kernel;
	t->variant = v->variant;
	t->params = v->params;
	t->metric = v->metric;
	s->point_cap[f->track_count] = 0;
	s->slots[at] = ++f->track_count;
	return t;
}

/* The track of V of PLATFORM, made when new; NULL on no memory. */
static struct change_track *track_of(struct scan *s, const char *platform,
				     const struct history_value *v)
{
	if (2 * (s->f->track_count + 1) > s->slot_count && rehash(s))
		return NULL;
	size_t mask = s->slot_count - 1, at = (size_t)key_hash(platform, v) & mask;
	for (; s->slots[at]; at = (at + 1) & mask) {
		struct change_track *t = &s->f->tracks[s->slots[at] - 1];
		if (same_key(t, platform, v))
			return t;
	}
	return new_track(s, at, platform, v);
}

/* Appends V (its run's commit COMMIT, CPU) to track T (index I) as a raw
 * point, one per run; 0 or -ENOMEM. */
static int add_point(struct scan *s, size_t i, struct change_track *t, size_t commit,
		     const struct history_value *v, const struct history_cpu *cpu)
{
	if (t->count == s->point_cap[i]) {
		size_t cap = t->count ? 2 * t->count : 16;
		size_t *c = realloc(t->commit, cap * sizeof *c);
		if (c)
			t->commit = c;
		double *val = c ? realloc(t->value, cap * sizeof *val) : NULL;
		if (val)
			t->value = val;
		double *sp = val ? realloc(t->spread, cap * sizeof *sp) : NULL;
		if (sp)
			t->spread = sp;
		const struct history_cpu **cp = sp ? realloc(t->cpu, cap * sizeof *cp) : NULL;
		if (!cp)
			return -ENOMEM;
		t->cpu = cp;
		s->point_cap[i] = cap;
	}
	t->commit[t->count] = commit;
	t->value[t->count] = v->median;
	t->spread[t->count] = v->mad;
	t->cpu[t->count] = cpu;
	t->count++;
	t->unit = v->unit;
	t->cls = v->cls;
	return 0;
}

/* The commits of H into F, and each run's commit into RUN_COMMIT: a run
 * joins the commit of an earlier run of the same commit
 * (result_history_same_commit). 0 or -ENOMEM. */
static int group_commits(const struct result_history *h, struct change_findings *f,
			 size_t *run_commit)
{
	f->commits = calloc(h->count ? h->count : 1, sizeof *f->commits);
	if (!f->commits)
		return -ENOMEM;
	for (size_t r = 0; r < h->count; r++) {
		const struct history_run *run = &h->runs[r];
		size_t c = f->commit_count;
		while (c-- > 0 && !result_history_same_commit(f->commits[c].commit, run->commit))
			;
		if (c == (size_t)-1) {
			c = f->commit_count++;
			f->commits[c].commit = run->commit;
			f->commits[c].time = run->time;
			result_history_rev(run->commit, f->commits[c].rev, sizeof f->commits[c].rev);
			result_history_short(run->commit, f->commits[c].short_id,
					     sizeof f->commits[c].short_id);
		}
		f->commits[c].runs++;
		run_commit[r] = c;
	}
	return 0;
}

/* Merges T's consecutive raw points of one commit into one: the median of
 * their medians and of their spreads, the first one's CPU. */
static void merge_commits(struct change_track *t)
{
	size_t out = 0;
	for (size_t a = 0, b; a < t->count; a = b) {
		for (b = a + 1; b < t->count && t->commit[b] == t->commit[a]; b++)
			;
		t->commit[out] = t->commit[a];
		t->value[out] = b - a > 1 ? stats_median(t->value + a, b - a) : t->value[a];
		t->spread[out] = b - a > 1 ? stats_median(t->spread + a, b - a) : t->spread[a];
		t->cpu[out] = t->cpu[a];
		out++;
	}
	t->count = out;
}

/* T's change points by its method (change_scan_method); 0 or -ENOMEM. */
static int find_points(struct change_track *t, const struct change_settings *settings)
{
	struct change_settings s = *settings;
	if (change_scan_method(t->metric, t->cls, s.min_effect, &t->method, &t->tolerance))
		return 0;
	if (t->method == CHANGE_STEP)
		return changepoint_steps(t->value, t->count, t->tolerance, &t->points,
					 &t->point_count);
	return changepoint_edivisive(t->value, t->count, &s, &t->points, &t->point_count);
}

static bool asked(const struct change_scan_options *o, const struct history_value *v)
{
	enum change_method m;
	double tol;
	return group_key_in(GROUP_KEY(v), GROUP_KEY_OF(o->kernel, NULL, NULL)) &&
	       change_scan_metric_matches(v->metric, o->metric) && isfinite(v->median) &&
	       !change_scan_method(v->metric, v->cls, 0, &m, &tol);
}

/* Every run's series that O asks for, as raw points, runs taken commit by
 * commit (ORDER); 0 or -ENOMEM. */
static int collect(struct scan *s, const struct result_history *h, const size_t *order,
		   const size_t *run_commit, const struct change_scan_options *o)
{
	for (size_t k = 0; k < h->count; k++) {
		const struct history_run *run = &h->runs[order[k]];
		for (size_t j = 0; j < run->count; j++) {
			const struct history_value *v = &run->values[j];
			if (!asked(o, v))
				continue;
			struct change_track *t = track_of(s, run->platform, v);
			if (!t || add_point(s, (size_t)(t - s->f->tracks), t, run_commit[order[k]],
					    v, &run->cpu))
				return -ENOMEM;
		}
	}
	return 0;
}

/* The runs' indices in commit order (stable: a commit's runs as sorted). */
static size_t *commit_order(const struct result_history *h, const size_t *run_commit,
			    size_t commits)
{
	size_t *order = malloc((h->count ? h->count : 1) * sizeof *order), k = 0;
	for (size_t c = 0; order && c < commits; c++)
		for (size_t r = 0; r < h->count; r++)
			if (run_commit[r] == c)
				order[k++] = r;
	return order;
}

/* Counts F's changes and distinct platforms. */
static void count_findings(struct change_findings *f)
{
	for (size_t i = 0; i < f->track_count; i++) {
		size_t k = 0;
		f->change_count += f->tracks[i].point_count;
		while (k < i && strcmp(f->tracks[k].platform, f->tracks[i].platform))
			k++;
		f->platform_count += k == i;
	}
}

int change_scan(const struct result_history *h, const struct change_scan_options *o,
		struct change_findings *out)
{
	struct scan s = { .f = out };
	size_t *run_commit = malloc((h->count ? h->count : 1) * sizeof *run_commit), *order = NULL;
	int rc = -ENOMEM;
	memset(out, 0, sizeof *out);
	out->settings = o->settings;
	if (!run_commit || group_commits(h, out, run_commit) ||
	    !(order = commit_order(h, run_commit, out->commit_count)) ||
	    collect(&s, h, order, run_commit, o))
		goto out;
	for (size_t i = 0; i < out->track_count; i++) {
		merge_commits(&out->tracks[i]);
		if (find_points(&out->tracks[i], &o->settings))
			goto out;
	}
	count_findings(out);
	rc = 0;
out:
	free(run_commit);
	free(order);
	free(s.slots);
	free(s.point_cap);
	if (rc)
		change_points_free(out);
	return rc;
}
