/* results_load.c: strict reader of --json result files (results_load.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "store/results_load.h"
#include "store/reference_json.h"
#include "store/sites_json.h"
#include "store/stacks_json.h"
#include "store/baseline.h"

struct rl {
	const char *path;
	char *err;
	size_t err_size;
};

/* Sets ERR to "PATH: FIELD: WHY"; returns -EINVAL. */
static int fail(const struct rl *l, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(l->err, l->err_size, "%s: ", l->path);
	if (n >= 0 && (size_t)n < l->err_size) {
		va_start(ap, fmt);
		vsnprintf(l->err + n, l->err_size - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int results_verdict_parse(const char *name, enum verdict *out)
{
	if (name && !strcmp(name, "not compared")) {   /* a series' word for skipped */
		*out = VERDICT_SKIPPED;
		return 0;
	}
	for (int v = VERDICT_PASS; v <= VERDICT_ERROR; v++)
		if (name && !strcmp(name, result_verdict_name((enum verdict)v))) {
			*out = (enum verdict)v;
			return 0;
		}
	return -1;
}

/* Field KEY of OBJ (named WHERE in messages) as a number: null or missing
 * is NaN. */
static int number(const struct rl *l, const json_t *obj, const char *where, const char *key,
		  double *out)
{
	const json_t *v = json_object_get(obj, key);
	if (!v || json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return fail(l, "%s.%s: expected a number or null", where, key);
	*out = json_number_value(v);
	return 0;
}

/* Field KEY as an integer in [LO, HI]; REQUIRED or else 0 when missing. */
static int integer(const struct rl *l, const json_t *obj, const char *where, const char *key,
		   int required, long long lo, long long hi, long long *out)
{
	const json_t *v = json_object_get(obj, key);
	*out = 0;
	if (!v && !required)
		return 0;
	if (!v)
		return fail(l, "%s.%s: missing", where, key);
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return fail(l, "%s.%s: expected an integer from %lld to %lld", where, key, lo, hi);
	*out = (long long)json_integer_value(v);
	return 0;
}

/* Field KEY as an owned string, NULL for null; REQUIRED: must be a string. */
static int string(const struct rl *l, const json_t *obj, const char *where, const char *key,
		  int required, char **out)
{
	const json_t *v = json_object_get(obj, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return required ? fail(l, "%s.%s: %s", where, key, v ? "expected a string"
									: "missing") : 0;
	if (!json_is_string(v))
		return fail(l, "%s.%s: expected a string or null", where, key);
	*out = strdup(json_string_value(v));
	return *out ? 0 : -ENOMEM;
}

static int verdict(const struct rl *l, const json_t *obj, const char *where, enum verdict *out)
{
	const json_t *v = json_object_get(obj, "verdict");
	if (!v)
		return fail(l, "%s.verdict: missing", where);
	if (!json_is_string(v) || results_verdict_parse(json_string_value(v), out))
		return fail(l, "%s.verdict: expected pass, fail, inconclusive, improved, "
			    "fail_both, new, skipped or error", where);
	return 0;
}

/* The comparison's "test" is static text in a run_result: loaded ones are
 * kept here for the life of the process (a handful of distinct texts). */
static const char *intern(const char *s)
{
	static char *texts[32];
	size_t i;
	for (i = 0; i < 32 && texts[i]; i++)
		if (!strcmp(texts[i], s))
			return texts[i];
	if (i == 32 || !(texts[i] = strdup(s)))
		return "loaded from a result file";
	return texts[i];
}

static int series_fields(const struct rl *l, const json_t *obj, const char *w, struct series *s)
{
	long long line = 0, count = 0;
	const json_t *v;
	int rc;
	if (!json_is_object(obj))
		return fail(l, "%s: expected an object", w);
	if ((rc = number(l, obj, w, "baseline_median", &s->baseline_median)) ||
	    (rc = integer(l, obj, w, "baseline_count", 0, 0, 1LL << 40, &count)) ||
	    (rc = number(l, obj, w, "change", &s->change)) ||
	    (rc = number(l, obj, w, "ci_low", &s->ci_low)) ||
	    (rc = number(l, obj, w, "ci_high", &s->ci_high)) ||
	    (rc = number(l, obj, w, "p_value", &s->p_value)) ||
	    (rc = number(l, obj, w, "drift", &s->drift)) ||
	    (rc = number(l, obj, w, "tolerance", &s->tolerance)) ||
	    (rc = number(l, obj, w, "confirm_change", &s->confirm_change)) ||
	    (rc = integer(l, obj, w, "line", 0, 0, 1 << 30, &line)) ||
	    (rc = string(l, obj, w, "file", 0, &s->file)) ||
	    (rc = string(l, obj, w, "note", 0, &s->note)) ||
	    (rc = verdict(l, obj, w, &s->verdict)))
		return rc;
	s->line = (int)line;
	s->baseline_count = (size_t)count;
	s->has_baseline = json_object_get(obj, "baseline_median") &&
			  !json_is_null(json_object_get(obj, "baseline_median"));
	v = json_object_get(obj, "test");
	if (v && !json_is_null(v) && !json_is_string(v))
		return fail(l, "%s.test: expected a string or null", w);
	s->test = v && json_is_string(v) ? intern(json_string_value(v)) : NULL;
	v = json_object_get(obj, "advisory");   /* absent in results before it */
	if (v && !json_is_boolean(v))
		return fail(l, "%s.advisory: expected true or false", w);
	s->advisory = v && json_is_true(v);
	v = json_object_get(obj, "gated");   /* absent in results before --gate: gated */
	if (v && !json_is_boolean(v))
		return fail(l, "%s.gated: expected true or false", w);
	s->gated = !v || json_is_true(v);
	v = json_object_get(obj, "confirmed");
	if (v && !json_is_null(v) && !json_is_boolean(v))
		return fail(l, "%s.confirmed: expected true, false or null", w);
	s->confirmed = v && json_is_boolean(v) ? json_is_true(v) : -1;
	return 0;
}

/* gate ab's side A of expectation W ("a", "b_verdict"), when present. */
static int expect_sides(const struct rl *l, const json_t *obj, const char *w,
			struct expect_result *e)
{
	const json_t *a = json_object_get(obj, "a"), *b = json_object_get(obj, "b_verdict");
	long long rounds;
	char where[96];
	int rc;
	if (!a && !b)
		return 0;
	snprintf(where, sizeof where, "%s.a", w);
	if (!json_is_object(a))
		return fail(l, "%s: expected an object with b_verdict", where);
	if (!json_is_string(b) || results_verdict_parse(json_string_value(b), &e->b_verdict))
		return fail(l, "%s.b_verdict: expected a verdict with a", w);
	if ((rc = integer(l, a, where, "rounds", 1, 0, 1LL << 40, &rounds)) ||
	    (rc = number(l, a, where, "estimate", &e->a.estimate)) ||
	    (rc = number(l, a, where, "ci_low", &e->a.ci_low)) ||
	    (rc = number(l, a, where, "ci_high", &e->a.ci_high)) ||
	    (rc = verdict(l, a, where, &e->a.verdict)))
		return rc;
	e->a.rounds = (size_t)rounds;
	e->a.measured = true;
	return 0;
}

static int one_expect(const struct rl *l, const json_t *obj, const char *w,
		      struct expect_result *e)
{
	long long line, rounds;
	const json_t *ratio = json_object_get(obj, "ratio"), *gated = json_object_get(obj, "gated");
	int rc;
	if (!json_is_object(obj))
		return fail(l, "%s: expected an object", w);
	if ((rc = string(l, obj, w, "kernel", 1, &e->kernel)) ||
	    (rc = string(l, obj, w, "params", 1, &e->params)) ||
	    (rc = string(l, obj, w, "file", 1, &e->file)) ||
	    (rc = integer(l, obj, w, "line", 1, 0, 1 << 30, &line)) ||
	    (rc = string(l, obj, w, "expr", 1, &e->expr)) ||
	    (rc = integer(l, obj, w, "rounds", 1, 0, 1LL << 40, &rounds)) ||
	    (rc = number(l, obj, w, "estimate", &e->estimate)) ||
	    (rc = number(l, obj, w, "lhs", &e->lhs_median)) ||
	    (rc = number(l, obj, w, "rhs", &e->rhs_median)) ||
	    (rc = number(l, obj, w, "ci_low", &e->ci_low)) ||
	    (rc = number(l, obj, w, "ci_high", &e->ci_high)) ||
	    (rc = number(l, obj, w, "confidence", &e->confidence)) ||
	    (rc = string(l, obj, w, "note", 0, &e->note)) ||
	    (rc = string(l, obj, w, "conditions", 0, &e->conditions)) ||
	    (rc = verdict(l, obj, w, &e->verdict)) || (rc = expect_sides(l, obj, w, e)))
		return rc;
	if (!json_is_boolean(ratio))
		return fail(l, "%s.ratio: expected true or false", w);
	/* absent in files written before conditions named allocators: gated */
	if (gated && !json_is_boolean(gated))
		return fail(l, "%s.gated: expected true or false", w);
	e->gated = !gated || json_is_true(gated);
	e->ratio = json_is_true(ratio);
	e->line = (int)line;
	e->rounds = (size_t)rounds;
	return 0;
}

static int one_problem(const struct rl *l, const json_t *obj, const char *w,
		       struct run_result *out)
{
	char *s[5] = { NULL, NULL, NULL, NULL, NULL };
	static const char *const keys[5] = { "kernel", "variant", "params", "what", "reason" };
	int rc = json_is_object(obj) ? 0 : fail(l, "%s: expected an object", w);
	for (int k = 0; !rc && k < 5; k++)
		rc = string(l, obj, w, keys[k], k >= 3, &s[k]);
	if (!rc && result_add_problem(out, s[0], s[1], s[2], s[3], s[4]))
		rc = -ENOMEM;
	for (int k = 0; k < 5; k++)
		free(s[k]);
	return rc;
}

/* The array KEY of ROOT (required). */
static int array(const struct rl *l, const json_t *root, const char *key, const json_t **out)
{
	*out = json_object_get(root, key);
	if (!*out)
		return fail(l, "%s: missing (not a --json result file?)", key);
	return json_is_array(*out) ? 0 : fail(l, "%s: expected an array", key);
}

static int load_arrays(const struct rl *l, const json_t *root, struct run_result *out)
{
	const json_t *series, *expects, *problems;
	char where[64];
	int rc;
	if ((rc = array(l, root, "series", &series)) || (rc = array(l, root, "expectations", &expects)) ||
	    (rc = array(l, root, "problems", &problems)))
		return rc;
	if (json_array_size(series) != out->series_count)
		return fail(l, "series: %zu entries, %zu read", json_array_size(series),
			    out->series_count);
	for (size_t i = 0; i < out->series_count; i++) {
		snprintf(where, sizeof where, "series[%zu]", i);
		if ((rc = series_fields(l, json_array_get(series, i), where, &out->series[i])))
			return rc;
	}
	for (size_t i = 0; i < json_array_size(expects); i++) {
		struct expect_result *e = result_add_expect(out);
		snprintf(where, sizeof where, "expectations[%zu]", i);
		if (!e)
			return -ENOMEM;
		if ((rc = one_expect(l, json_array_get(expects, i), where, e)))
			return rc;
	}
	for (size_t i = 0; i < json_array_size(problems); i++) {
		snprintf(where, sizeof where, "problems[%zu]", i);
		if ((rc = one_problem(l, json_array_get(problems, i), where, out)))
			return rc;
	}
	char why[400];
	rc = site_changes_json_load(json_object_get(root, "site_changes"), out, why, sizeof why);
	if (!rc)   /* "stacks" is the baseline part's */
		rc = stacks_json_load(json_object_get(root, "stacks_before"), "stacks_before",
				      &out->stacks_before, why, sizeof why);
	if (rc == -ENOMEM)
		return rc;
	return rc ? fail(l, "%s", why) : 0;
}

/* gate ab's "ab_schedule" (report_json.c), when the file has one. */
static int load_schedule(const struct rl *l, const json_t *root, struct ab_schedule *sc)
{
	const json_t *o = json_object_get(root, "ab_schedule");
	const char *w = "ab_schedule";
	char *mode = NULL, *why = NULL;
	long long pairs, alone, groups, compared, settled, taken, budget, samples, samples_budget;
	int rc;
	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o))
		return fail(l, "ab_schedule: expected an object");
	if ((rc = string(l, o, w, "mode", 1, &mode)) ||
	    (rc = string(l, o, w, "why_not_duet", 0, &why)) ||
	    (rc = integer(l, o, w, "pairs", 0, 0, LLONG_MAX, &pairs)) ||
	    (rc = integer(l, o, w, "alone", 0, 0, LLONG_MAX, &alone)) ||
	    (rc = integer(l, o, w, "interleaved_groups", 0, 0, LLONG_MAX, &groups)) ||
	    (rc = number(l, o, w, "start_skew_median_us", &sc->skew_median_us)) ||
	    (rc = number(l, o, w, "start_skew_max_us", &sc->skew_max_us)) ||
	    (rc = integer(l, o, w, "groups_compared", 0, 0, LLONG_MAX, &compared)) ||
	    (rc = integer(l, o, w, "groups_settled", 0, 0, LLONG_MAX, &settled)) ||
	    (rc = integer(l, o, w, "rounds_taken", 0, 0, LLONG_MAX, &taken)) ||
	    (rc = integer(l, o, w, "rounds_budget", 0, 0, LLONG_MAX, &budget)) ||
	    (rc = integer(l, o, w, "samples_taken", 0, 0, LLONG_MAX, &samples)) ||
	    (rc = integer(l, o, w, "samples_budget", 0, 0, LLONG_MAX, &samples_budget)) ||
	    (rc = number(l, o, w, "settle_level", &sc->settle_level)))
		goto out;
	if (!isnan(sc->settle_level) && !(sc->settle_level > 0 && sc->settle_level < 1)) {
		rc = fail(l, "ab_schedule.settle_level: %g, expected a share between 0 and 1",
			  sc->settle_level);
		goto out;
	}
	if (settled > compared || taken > budget || samples > samples_budget) {
		rc = fail(l, "ab_schedule: %lld groups settled of %lld, %lld rounds taken of %lld, "
			  "%lld samples taken of %lld", settled, compared, taken, budget, samples,
			  samples_budget);
		goto out;
	}
	sc->groups_compared = (size_t)compared;
	sc->groups_settled = (size_t)settled;
	sc->rounds_taken = (size_t)taken;
	sc->rounds_budget = (size_t)budget;
	sc->samples_taken = (size_t)samples;
	sc->samples_budget = (size_t)samples_budget;
	if (strcmp(mode, "duet") && strcmp(mode, "interleaved")) {
		rc = fail(l, "ab_schedule.mode: \"%s\", expected \"duet\" or \"interleaved\"",
			  mode);
		goto out;
	}
	sc->mode = strcmp(mode, "duet") ? AB_MODE_INTERLEAVED : AB_MODE_DUET;
	sc->duet_asked = json_is_true(json_object_get(o, "duet_asked"));
	snprintf(sc->why, sizeof sc->why, "%s", why ? why : "");
	sc->pairs = (size_t)pairs;
	sc->alone = (size_t)alone;
	sc->interleaved_groups = (size_t)groups;
	const json_t *cpus = json_object_get(o, "cpus"), *c;
	size_t i;
	json_array_foreach(cpus, i, c) {
		if (!json_is_integer(c) || json_integer_value(c) < 0 || i >= AB_SCHEDULE_CPUS) {
			rc = fail(l, "ab_schedule.cpus[%zu]: expected a CPU number (at most %d "
				  "CPUs)", i, AB_SCHEDULE_CPUS);
			goto out;
		}
		sc->cpus[sc->cpu_count++] = (int)json_integer_value(c);
	}
out:
	free(mode);
	free(why);
	return rc;
}

/* "reference_state", "reference_shift", "code_shift", "reference_bound"
 * and "machine_faster" beside the reference's samples (which
 * baseline_load_result read), when the file has them. */
static int load_reference_state(const struct rl *l, const json_t *root, struct reference *ref)
{
	char *state = NULL;
	double shift, code_shift, bound;
	const json_t *faster = json_object_get(root, "machine_faster");
	int rc;
	if ((rc = string(l, root, "result", "reference_state", 0, &state)) ||
	    (rc = number(l, root, "result", "reference_shift", &shift)) ||
	    (rc = number(l, root, "result", "code_shift", &code_shift)) ||
	    (rc = number(l, root, "result", "reference_bound", &bound)))
		goto out;
	if (faster && !json_is_boolean(faster)) {
		rc = fail(l, "result.machine_faster: expected true or false");
		goto out;
	}
	if (state && reference_state_parse(state, &ref->state))
		rc = fail(l, "reference_state: \"%s\" is none of \"holds\", \"moved\", "
			  "\"unsure\", \"no baseline reference\", \"not compared\"", state);
	ref->shift = isfinite(shift) && shift > 0 ? shift : 0;
	ref->code_shift = isfinite(code_shift) && code_shift > 0 ? code_shift : 0;
	ref->faster = faster && json_is_true(faster);
	for (int i = 0; ref->faster && i < REFERENCE_PARTS; i++)   /* the part that sped up most */
		if (ref->part[i].change < ref->part[ref->faster_part].change)
			ref->faster_part = (enum reference_part_id)i;
	ref->bound = ref->code_shift > 0 && isfinite(bound) && bound >= 1 ? bound : 1;
	for (int i = 0; i < REFERENCE_PARTS; i++)   /* the part that shows the shift */
		if (ref->shift > 0 && ref->part[i].change == ref->shift)
			ref->shift_part = (enum reference_part_id)i;
out:
	free(state);
	return rc;
}

static int load_top(const struct rl *l, const json_t *root, struct run_result *out)
{
	long long code, same, failed;
	char *word = NULL;
	int rc;
	if ((rc = integer(l, root, "result", "exit_code", 1, 0, 255, &code)) ||
	    (rc = string(l, root, "result", "verdict", 1, &word)))
		return rc;
	out->exit_code = (int)code;
	if (strcmp(word, gate_exit_verdict(out->exit_code)))
		rc = fail(l, "verdict: \"%s\" does not match exit_code %d (\"%s\")", word,
			  out->exit_code, gate_exit_verdict(out->exit_code));
	free(word);
	if (rc || (rc = number(l, root, "result", "wall_seconds", &out->wall_seconds)) ||
	    (rc = string(l, root, "result", "baseline", 0, &out->baseline_path)) ||
	    (rc = string(l, root, "result", "baseline_note", 0, &out->baseline_note)) ||
	    (rc = string(l, root, "result", "baseline_written", 0, &out->baseline_written)) ||
	    (rc = string(l, root, "result", "comparison", 0, &out->comparison)) ||
	    (rc = load_schedule(l, root, &out->schedule)) ||
	    (rc = integer(l, root, "result", "same_code_kernels", 0, 0, 1000000, &same)) ||
	    (rc = integer(l, root, "result", "sample_failures", 0, 0, 1000000000, &failed)) ||
	    (rc = load_reference_state(l, root, &out->reference)))
		return rc;
	out->same_code_kernels = (size_t)same;
	/* absent in files written before it was recorded: unknown */
	out->sample_failures = json_object_get(root, "sample_failures") ? (int)failed : -1;
	return load_arrays(l, root, out);
}

int results_load(const char *path, struct run_result *out, char *err, size_t err_size)
{
	struct rl l = { path, err, err_size };
	json_error_t jerr;
	int rc = baseline_load_result(path, out, err, err_size);
	if (rc)
		return rc;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		rc = fail(&l, "line %d: %s", jerr.line, jerr.text);
	else
		rc = load_top(&l, root, out);
	json_decref(root);
	if (rc == -ENOMEM)
		snprintf(err, err_size, "%s: out of memory", path);
	if (rc)
		result_free(out);
	return rc;
}
