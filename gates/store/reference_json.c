/* reference_json.c: the reference workload in the JSON files (reference_json.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "store/jsonout.h"
#include "store/reference_json.h"

static json_t *part_json(const struct reference *ref, enum reference_part_id id,
			 bool comparison)
{
	const struct reference_part *p = &ref->part[id];
	json_t *o = json_object();
	int bad = !o;
	if (bad)
		return NULL;
	bad |= json_object_set_new(o, "part", json_string(result_reference_part_name(id)));
	bad |= json_object_set_new(o, "version", json_integer(REFERENCE_WORKLOAD_VERSION));
	bad |= json_object_set_new(o, "unit", json_string("ns"));
	bad |= json_object_set_new(o, "median", jsonout_number(p->median));
	if (comparison) {
		bad |= json_object_set_new(o, "baseline_median", jsonout_number(p->baseline_median));
		bad |= json_object_set_new(o, "change", jsonout_number(p->change));
		bad |= json_object_set_new(o, "ci_low", jsonout_number(p->ci_low));
		bad |= json_object_set_new(o, "ci_high", jsonout_number(p->ci_high));
	}
	bad |= json_object_set_new(o, "samples", jsonout_numbers(p->samples, p->count));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *reference_json(const struct reference *ref, bool comparison)
{
	json_t *arr = json_array();
	for (int i = 0; arr && i < REFERENCE_PARTS; i++) {
		if (!ref->part[i].count)
			continue;
		if (json_array_append_new(arr, part_json(ref, (enum reference_part_id)i,
							 comparison))) {
			json_decref(arr);
			arr = NULL;
		}
	}
	return arr;
}

static int fail(char *err, size_t size, const char *fmt, size_t i, const char *what)
{
	snprintf(err, size, fmt, i, what);
	return -1;
}

static double optional_number(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int load_part(const json_t *o, size_t i, struct reference *out, unsigned *seen, char *err,
		     size_t size)
{
	const json_t *name = json_object_get(o, "part"), *samples = json_object_get(o, "samples");
	const json_t *v;
	size_t j;
	int id = -1;
	if (!json_is_object(o))
		return fail(err, size, "reference[%zu]: expected an object%s", i, "");
	for (int k = 0; json_is_string(name) && k < REFERENCE_PARTS; k++)
		if (!strcmp(json_string_value(name), result_reference_part_name(
				    (enum reference_part_id)k)))
			id = k;
	if (id < 0)
		return fail(err, size, "reference[%zu].part: expected %s", i,
			    "\"cpu\", \"memory\" or \"faults\"");
	if (*seen & 1u << id)
		return fail(err, size, "reference[%zu].part: \"%s\" given twice", i,
			    result_reference_part_name((enum reference_part_id)id));
	*seen |= 1u << id;
	const json_t *version = json_object_get(o, "version");
	if (version && (!json_is_integer(version) || json_integer_value(version) < 1))
		return fail(err, size, "reference[%zu].version: expected %s", i,
			    "a positive integer");
	if (!json_is_array(samples) || !json_array_size(samples))
		return fail(err, size, "reference[%zu].samples: expected %s", i,
			    "a non-empty array of nanoseconds");
	json_array_foreach(samples, j, v) {
		double ns = json_is_number(v) ? json_number_value(v) : NAN;
		if (!(ns > 0) || !isfinite(ns))
			return fail(err, size, "reference[%zu].samples: %s", i,
				    "expected positive, finite nanoseconds");
	}
	/* the samples of another pass (version absent: the first) are not this
	 * one's: read as absent */
	if ((version ? json_integer_value(version) : 1) != REFERENCE_WORKLOAD_VERSION)
		return 0;
	json_array_foreach(samples, j, v)
		if (result_reference_append(out, (enum reference_part_id)id, json_number_value(v)))
			return -ENOMEM;
	/* a --json result's comparison: numbers, or NaN (null, absent) */
	struct reference_part *p = &out->part[id];
	p->median = optional_number(o, "median");
	p->baseline_median = optional_number(o, "baseline_median");
	p->change = optional_number(o, "change");
	p->ci_low = optional_number(o, "ci_low");
	p->ci_high = optional_number(o, "ci_high");
	return 0;
}

int reference_state_parse(const char *name, enum reference_state *out)
{
	for (int s = REFERENCE_NOT_COMPARED; s <= REFERENCE_MOVED; s++)
		if (name && !strcmp(name, result_reference_state_name((enum reference_state)s))) {
			*out = (enum reference_state)s;
			return 0;
		}
	return -1;
}

int reference_json_load(const json_t *arr, struct reference *out, char *err,
			size_t err_size)
{
	const json_t *o;
	size_t i;
	unsigned seen = 0;
	if (!arr || json_is_null(arr))
		return 0;
	if (!json_is_array(arr)) {
		snprintf(err, err_size, "reference: expected an array");
		return -1;
	}
	json_array_foreach(arr, i, o) {
		int rc = load_part(o, i, out, &seen, err, err_size);
		if (rc)
			return rc;
	}
	return 0;
}
