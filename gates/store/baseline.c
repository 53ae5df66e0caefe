/* baseline.c: loading and saving baseline files (format in baseline.h and
 * docs/json-format.md).
 *
 * Loading is strict: a baseline decides whether CI passes, so anything
 * malformed is an error naming the file and the field, never a guess.
 */
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>

#include "store/baseline.h"
#include "store/jsonout.h"
#include "store/policy_json.h"
#include "store/reference_json.h"
#include "store/sites_json.h"
#include "store/stacks_json.h"

struct loader {
	const char *path;
	char *err;
	size_t err_size;
	bool baseline;		/* a baseline: every series must be comparable */
};

/* Sets the error to "PATH: " and the message; returns ERROR (negative). */
static int loader_fail(const struct loader *ld, int error, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!ld->err || !ld->err_size)
		return error;
	n = snprintf(ld->err, ld->err_size, "%s: ", ld->path);
	if (n >= 0 && (size_t)n < ld->err_size) {
		va_start(ap, fmt);
		vsnprintf(ld->err + n, ld->err_size - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return error;
}

#define INVALID(ld, ...) loader_fail(ld, -EINVAL, __VA_ARGS__)
#define NO_MEMORY(ld) loader_fail(ld, -ENOMEM, "out of memory")

static char *copy_string(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	return d ? memcpy(d, s, n) : NULL;
}

/* strcmp that orders NULL as the empty string, as result_sort does. */
static int name_order(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* Orders pointers to series like result_sort. */
static int series_ptr_order(const void *pa, const void *pb)
{
	const struct series *a = *(const struct series *const *)pa;
	const struct series *b = *(const struct series *const *)pb;
	int c;

	if ((c = name_order(a->kernel, b->kernel)) != 0)
		return c;
	if ((c = name_order(a->variant, b->variant)) != 0)
		return c;
	if ((c = name_order(a->params, b->params)) != 0)
		return c;
	return name_order(a->metric, b->metric);
}

/* Pointers to the N series of R in report order; NULL on no memory. */
static const struct series **sorted_series(const struct run_result *r)
{
	const struct series **order = malloc((r->series_count + 1) * sizeof(*order));
	size_t i;

	if (!order)
		return NULL;
	for (i = 0; i < r->series_count; i++)
		order[i] = &r->series[i];
	qsort(order, r->series_count, sizeof(*order), series_ptr_order);
	return order;
}

static int load_schema(const struct loader *ld, const json_t *root)
{
	const json_t *v = json_object_get(root, "schema");
	json_int_t schema;

	if (!v)
		return INVALID(ld, "schema: missing (expected %d)", JSONOUT_SCHEMA);
	if (!json_is_integer(v))
		return INVALID(ld, "schema: expected an integer");
	schema = json_integer_value(v);
	if (schema > JSONOUT_SCHEMA)
		return INVALID(ld, "schema %lld is newer than this gate understands (%d)",
			       (long long)schema, JSONOUT_SCHEMA);
	if (schema < JSONOUT_SCHEMA)
		return INVALID(ld, "schema %lld is not a valid schema (expected %d)",
			       (long long)schema, JSONOUT_SCHEMA);
	return 0;
}

/* Whether S holds a C0 control character or DEL (but a line feed with
 * LINES): the gate writes none into a name or a context field but the
 * lines of context.cost_diagnostics, and one would let a file's text
 * forge lines of a report (a notice built from it spans one line). */
static bool has_control(const char *s, bool lines)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && !(lines && *s == '\n')) || *s == 0x7f)
			return true;
	return false;
}

/* Stores V, an integer, into the context field F at P; 0 or -EINVAL. */
static int load_context_integer(const struct loader *ld, const struct jsonout_field *f,
				const json_t *v, void *p)
{
	json_int_t n;

	if (!json_is_integer(v))
		return INVALID(ld, "context.%s: expected an integer", f->name);
	n = json_integer_value(v);
	if (f->kind == JSONOUT_INT || f->kind == JSONOUT_COUNT) {
		if (n < -2147483647 - 1 || n > 2147483647)
			return INVALID(ld, "context.%s: %lld is out of range", f->name, (long long)n);
		*(int *)p = (int)n;
	} else if (f->kind == JSONOUT_LONG) {
		*(long *)p = (long)n;
	} else {
		*(long long *)p = (long long)n;
	}
	return 0;
}

/* Reads the known fields of the context object; unknown keys are ignored
 * (a newer gate may record more) and missing ones stay NULL or 0. */
static int load_context(const struct loader *ld, const json_t *obj, struct context *c)
{
	char *base = (char *)c;
	size_t i;
	int rc;

	if (!obj || json_is_null(obj))
		return 0;
	if (!json_is_object(obj))
		return INVALID(ld, "context: expected an object");
	for (i = 0; i < jsonout_context_field_count; i++) {
		const struct jsonout_field *f = &jsonout_context_fields[i];
		const json_t *v = json_object_get(obj, f->name);
		void *p = base + f->offset;

		if (!v || json_is_null(v))
			continue;
		if (f->kind != JSONOUT_STRING) {
			if ((rc = load_context_integer(ld, f, v, p)) < 0)
				return rc;
			continue;
		}
		if (!json_is_string(v))
			return INVALID(ld, "context.%s: expected a string", f->name);
		if (has_control(json_string_value(v), !strcmp(f->name, "cost_diagnostics")))
			return INVALID(ld, "context.%s: holds a control character (the gate "
				       "writes none)", f->name);
		if (!(*(char **)p = copy_string(json_string_value(v))))
			return NO_MEMORY(ld);
	}
	return 0;
}

/* The "platform" key: also the context's platform_key when that is absent. */
static int load_platform(const struct loader *ld, const json_t *root, struct context *c)
{
	const json_t *v = json_object_get(root, "platform");

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return INVALID(ld, "platform: expected a string");
	if (!c->platform_key && !(c->platform_key = copy_string(json_string_value(v))))
		return NO_MEMORY(ld);
	if (strcmp(c->platform_key, json_string_value(v)))
		return INVALID(ld, "platform: \"%s\" but context.platform_key is \"%s\"",
			       json_string_value(v), c->platform_key);
	return 0;
}

/* The string field NAME of series I into *OUT (borrowed from OBJ). */
static int series_string(const struct loader *ld, size_t i, const json_t *obj,
			 const char *name, const char **out)
{
	const json_t *v = json_object_get(obj, name);

	if (!v)
		return INVALID(ld, "series[%zu].%s: missing", i, name);
	if (!json_is_string(v))
		return INVALID(ld, "series[%zu].%s: expected a string", i, name);
	if (has_control(json_string_value(v), false))
		return INVALID(ld, "series[%zu].%s: holds a control character", i, name);
	*out = json_string_value(v);
	return 0;
}

/* Appends the samples of series I from ARR to S: null is a failed sample
 * (NaN); anything else must be a finite number >= 0. */
static int load_samples(const struct loader *ld, size_t i, const json_t *arr, struct series *s)
{
	size_t k;
	double x;

	if (!json_is_array(arr))
		return INVALID(ld, "series[%zu].samples: expected an array of numbers", i);
	for (k = 0; k < json_array_size(arr); k++) {
		const json_t *v = json_array_get(arr, k);

		if (json_is_null(v)) {
			x = NAN;
		} else if (json_is_number(v)) {
			x = json_number_value(v);
			if (!isfinite(x))
				return INVALID(ld, "series[%zu].samples[%zu]: not a finite number", i, k);
			if (x < 0)
				return INVALID(ld, "series[%zu].samples[%zu]: negative sample %g", i, k, x);
		} else {
			return INVALID(ld, "series[%zu].samples[%zu]: expected a number or null, "
				       "found %s", i, k, json_is_string(v) ? "a string" :
				       json_is_boolean(v) ? "a boolean" : "an array or object");
		}
		if (result_series_append(s, x) < 0)
			return NO_MEMORY(ld);
	}
	return 0;
}

/* Checks the "median" of series I and returns it through *OUT (NaN for null). */
static int load_median(const struct loader *ld, size_t i, const json_t *obj, double *out)
{
	const json_t *v = json_object_get(obj, "median");

	if (!v)
		return INVALID(ld, "series[%zu].median: missing", i);
	if (json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return INVALID(ld, "series[%zu].median: expected a number or null", i);
	*out = json_number_value(v);
	return 0;
}

/* Optional "batches": a positive integer that divides the sample count. */
static int load_batches(const struct loader *ld, size_t i, const json_t *v,
			struct series *series)
{
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > 1000 ||
	    series->sample_count % (size_t)json_integer_value(v))
		return INVALID(ld, "series[%zu].batches: expected a positive integer that "
			       "divides the number of samples", i);
	series->batches = (size_t)json_integer_value(v);
	return 0;
}

/* Optional "kernel_digest" (a string) and "history" (batch medians of
 * earlier recordings: finite numbers > 0, history.h). */
static int load_history(const struct loader *ld, size_t i, const json_t *obj,
			struct series *series)
{
	const json_t *d = json_object_get(obj, "kernel_digest");
	const json_t *h = json_object_get(obj, "history");
	size_t k;

	if (d && !json_is_null(d)) {
		if (!json_is_string(d))
			return INVALID(ld, "series[%zu].kernel_digest: expected a string", i);
		if (!(series->kernel_digest = copy_string(json_string_value(d))))
			return NO_MEMORY(ld);
	}
	if (!h)
		return 0;
	if (!json_is_array(h) || json_array_size(h) > 1000)
		return INVALID(ld, "series[%zu].history: expected an array of at most 1000 "
			       "numbers", i);
	series->history = calloc(json_array_size(h) + 1, sizeof *series->history);
	if (!series->history)
		return NO_MEMORY(ld);
	for (k = 0; k < json_array_size(h); k++) {
		const json_t *v = json_array_get(h, k);
		double x = json_is_number(v) ? json_number_value(v) : NAN;

		if (!(isfinite(x) && x > 0))
			return INVALID(ld, "series[%zu].history[%zu]: expected a finite number > 0",
				       i, k);
		series->history[series->history_count++] = x;
	}
	return 0;
}

/* A baseline series must give its comparison something to compare: a
 * series with no measured sample has a NaN median, which every test of
 * compare.c passes (NaN > allowed is false), so an edit that empties it
 * would hide any regression as "pass". Its batches (compare_batch_drift)
 * need at least one measured sample each on average: a recording can lose
 * a whole batch of one metric (the scheduler counts of refcount's
 * threads_2 in the committed baseline), never more samples than that. */
static int check_usable(const struct loader *ld, size_t i, const struct series *s)
{
	size_t batches = s->batches ? s->batches : 1, usable = 0;

	for (size_t k = 0; k < s->sample_count; k++)
		usable += !isnan(s->samples[k]);
	if (!usable)
		return INVALID(ld, "series[%zu] (%s %s %s %s): no measured sample (samples empty "
			       "or all null): nothing to compare against", i, s->kernel, s->variant,
			       s->params, s->metric);
	if (usable < batches)
		return INVALID(ld, "series[%zu] (%s %s %s %s): %zu measured sample%s cannot "
			       "support %zu batches", i, s->kernel, s->variant, s->params,
			       s->metric, usable, usable == 1 ? "" : "s", batches);
	return 0;
}

static int load_one_series(const struct loader *ld, size_t i, const json_t *obj,
			   struct run_result *out)
{
	static const char *const names[] = { "kernel", "variant", "params", "metric", "unit", "class" };
	const char *s[6];
	enum metric_class cls;
	struct series *series;
	double median = NAN;
	size_t k;
	int rc;

	if (!json_is_object(obj))
		return INVALID(ld, "series[%zu]: expected an object", i);
	for (k = 0; k < 6; k++) {
		if ((rc = series_string(ld, i, obj, names[k], &s[k])) < 0)
			return rc;
	}
	if (result_class_parse(s[5], &cls) < 0)
		return INVALID(ld, "series[%zu].class: unknown class \"%s\" "
			       "(expected exact, near or timing)", i, s[5]);
	if ((rc = load_median(ld, i, obj, &median)) < 0)
		return rc;
	series = result_add_series(out, s[0], s[1], s[2], s[3], s[4], cls);
	if (!series)
		return NO_MEMORY(ld);
	series->median = median;
	if ((rc = load_samples(ld, i, json_object_get(obj, "samples"), series)) < 0)
		return rc;
	if ((rc = load_batches(ld, i, json_object_get(obj, "batches"), series)) < 0)
		return rc;
	if (ld->baseline && (rc = check_usable(ld, i, series)) < 0)
		return rc;
	return load_history(ld, i, obj, series);
}

/* Rejects two series with the same kernel, variant, params and metric. */
static int check_duplicates(const struct loader *ld, const struct run_result *r)
{
	const struct series **order = sorted_series(r);
	size_t i, a, b;
	int rc = 0;

	if (!order)
		return NO_MEMORY(ld);
	for (i = 1; rc == 0 && i < r->series_count; i++) {
		if (series_ptr_order(&order[i - 1], &order[i]) != 0)
			continue;
		a = (size_t)(order[i - 1] - r->series);
		b = (size_t)(order[i] - r->series);
		rc = INVALID(ld, "series[%zu] duplicates series[%zu] (%s %s %s %s)",
			     a > b ? a : b, a < b ? a : b, order[i]->kernel,
			     order[i]->variant, order[i]->params, order[i]->metric);
	}
	free(order);
	return rc;
}

/* The "policy" object; a file written before it was recorded has none:
 * the defaults, marked not recorded. */
static int load_policy(const struct loader *ld, const json_t *obj, struct run_policy *p)
{
	char why[160];
	if (!obj) {
		policy_defaults(p);
		return 0;
	}
	if (policy_json_load(obj, p, why, sizeof why))
		return INVALID(ld, "%s", why);
	return 0;
}

static int load_root(const struct loader *ld, const json_t *root, struct run_result *out)
{
	const json_t *series;
	size_t i;
	int rc;

	if (!json_is_object(root))
		return INVALID(ld, "expected a JSON object at the top level");
	if ((rc = load_schema(ld, root)) < 0 ||
	    (rc = load_context(ld, json_object_get(root, "context"), &out->ctx)) < 0 ||
	    (rc = load_platform(ld, root, &out->ctx)) < 0 ||
	    (rc = load_policy(ld, json_object_get(root, "policy"), &out->policy)) < 0)
		return rc;
	series = json_object_get(root, "series");
	if (!series)
		return INVALID(ld, "series: missing");
	if (!json_is_array(series))
		return INVALID(ld, "series: expected an array");
	for (i = 0; i < json_array_size(series); i++) {
		if ((rc = load_one_series(ld, i, json_array_get(series, i), out)) < 0)
			return rc;
	}
	char why[400];
	rc = sites_json_load(json_object_get(root, "sites"), out, why, sizeof why);
	if (rc == -ENOMEM)
		return NO_MEMORY(ld);
	if (rc)
		return INVALID(ld, "%s", why);
	rc = stacks_json_load(json_object_get(root, "stacks"), "stacks", &out->stacks, why,
			      sizeof why);
	if (rc == -ENOMEM)
		return NO_MEMORY(ld);
	if (rc)
		return INVALID(ld, "%s", why);
	rc = reference_json_load(json_object_get(root, "reference"), &out->reference, why,
				 sizeof why);
	if (rc == -ENOMEM)
		return NO_MEMORY(ld);
	if (rc)
		return INVALID(ld, "%s", why);
	return check_duplicates(ld, out);
}

/* Reads at most BASELINE_MAX_BYTES of FP into a malloc'd buffer (*BUF,
 * *LEN); a longer file is refused before it is parsed, so that a huge or
 * endless file (a FIFO, /dev/zero) costs a bounded read. */
static int read_bounded(const struct loader *ld, FILE *fp, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *b = malloc(cap), *nb;

	if (!b)
		return NO_MEMORY(ld);
	while ((got = fread(b + n, 1, cap - n, fp)) > 0) {
		n += got;
		if (n > BASELINE_MAX_BYTES) {
			free(b);
			return loader_fail(ld, -EFBIG, "larger than the %d MiB a baseline or result "
					   "file may hold; not read", BASELINE_MAX_BYTES >> 20);
		}
		if (n == cap) {
			cap = cap * 2 > (size_t)BASELINE_MAX_BYTES + 1 ? (size_t)BASELINE_MAX_BYTES + 1
								 : cap * 2;
			if (!(nb = realloc(b, cap))) {
				free(b);
				return NO_MEMORY(ld);
			}
			b = nb;
		}
	}
	if (ferror(fp)) {
		free(b);
		return loader_fail(ld, -EIO, "read error");
	}
	*buf = b;
	*len = n;
	return 0;
}

static int load_text(const struct loader *ld, const char *text, size_t len,
		     struct run_result *out);

static int load_file(const char *path, bool baseline, struct run_result *out, char *err,
		     size_t err_size)
{
	struct loader ld = { path, err, err_size, baseline };
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;
	int rc;

	memset(out, 0, sizeof(*out));
	/* fopen ourselves (not json_load_file) so that a missing file is a
	 * clean -ENOENT rather than a parse error. */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return loader_fail(&ld, -EISDIR, "is a directory, not a baseline file");
	fp = fopen(path, "rb");
	if (!fp) {
		rc = -errno;
		return loader_fail(&ld, rc, "cannot open: %s", strerror(-rc));
	}
	rc = read_bounded(&ld, fp, &text, &len);
	fclose(fp);
	if (rc < 0)
		return rc;
	rc = load_text(&ld, text, len, out);
	free(text);
	return rc;
}

/* Parses TEXT (LEN bytes) as LD's file into OUT (zeroed). */
static int load_text(const struct loader *ld, const char *text, size_t len,
		     struct run_result *out)
{
	json_error_t jerr;
	json_t *root;
	int rc;

	memset(out, 0, sizeof(*out));
	if (len > BASELINE_MAX_BYTES)
		return loader_fail(ld, -EFBIG, "larger than the %d MiB a baseline or result "
				   "file may hold; not read", BASELINE_MAX_BYTES >> 20);
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return INVALID(ld, "line %d, column %d: invalid JSON: %s",
			       jerr.line, jerr.column, jerr.text);
	rc = load_root(ld, root, out);
	json_decref(root);
	if (rc < 0)
		result_free(out);
	return rc;
}

int baseline_load_text(const char *name, const char *text, size_t len, struct run_result *out,
		       char *err, size_t err_size)
{
	struct loader ld = { name, err, err_size, false };

	return load_text(&ld, text, len, out);
}

int baseline_load(const char *path, struct run_result *out, char *err, size_t err_size)
{
	return load_file(path, true, out, err, err_size);
}

int baseline_load_result(const char *path, struct run_result *out, char *err, size_t err_size)
{
	return load_file(path, false, out, err, err_size);
}

/* Whether S is one baseline_load accepts: at least one sample that is
 * not NaN, and at least as many as its batches (check_usable). */
static int has_samples(const struct series *s)
{
	size_t i, usable = 0;

	for (i = 0; i < s->sample_count; i++)
		usable += !isnan(s->samples[i]);
	return usable && usable >= (s->batches ? s->batches : 1);
}

/* The "series" array of R in report order, without the series a load
 * would refuse (all-NaN ones, too few for their batches). */
static json_t *series_array(const struct run_result *r)
{
	const struct series **order = sorted_series(r);
	json_t *arr = order ? json_array() : NULL;
	size_t i;

	for (i = 0; arr && i < r->series_count; i++) {
		if (has_samples(order[i]) &&
		    json_array_append_new(arr, jsonout_series(order[i], false)) != 0) {
			json_decref(arr);
			arr = NULL;
		}
	}
	free(order);
	return arr;
}

int baseline_save(const char *path, const struct run_result *r, char *err, size_t err_size)
{
	struct loader ld = { path, err, err_size, true };
	json_t *root = json_object();
	int rc, bad = !root;

	if (!bad) {
		bad |= json_object_set_new(root, "schema", json_integer(JSONOUT_SCHEMA));
		bad |= json_object_set_new(root, "platform", jsonout_string(r->ctx.platform_key));
		bad |= json_object_set_new(root, "context", jsonout_context(&r->ctx));
		if (r->policy.recorded)
			bad |= json_object_set_new(root, "policy", policy_json(&r->policy));
		bad |= json_object_set_new(root, "series", series_array(r));
		if (r->sites_recorded)
			bad |= json_object_set_new(root, "sites", sites_json(r));
		if (r->stacks.recorded)
			bad |= json_object_set_new(root, "stacks", stacks_json(&r->stacks));
		if (r->reference.part[REFERENCE_CPU].count)
			bad |= json_object_set_new(root, "reference",
						   reference_json(&r->reference, false));
	}
	if (bad) {
		json_decref(root);
		return NO_MEMORY(&ld);
	}
	rc = jsonout_write_file(path, root, err, err_size);
	json_decref(root);
	return rc;
}
