/* matrix_json.c: `gate matrix --json FILE` (docs/json-format.md, "The
 * matrix file"), rendered from the matrix only. */
#include <errno.h>
#include <stdio.h>

#include "report/matrix_report.h"
#include "store/jsonout.h"

#define MATRIX_SCHEMA 1

static json_t *numbers(const double *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, jsonout_number(v[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *allocator(const struct matrix_allocator *a)
{
	json_t *o = json_object();
	if (o && (json_object_set_new(o, "name", jsonout_string(a->name)) ||
		  json_object_set_new(o, "library", jsonout_string(a->library)) ||
		  json_object_set_new(o, "missing", jsonout_string(a->missing)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *cell(const struct matrix *m, size_t a, const struct matrix_cell *c)
{
	json_t *o = json_object();
	int bad = !o;
	if (bad)
		return NULL;
	bad |= json_object_set_new(o, "allocator", jsonout_string(m->allocators[a].name));
	bad |= json_object_set_new(o, "measured", json_boolean(c->measured));
	bad |= json_object_set_new(o, "declared", json_boolean(c->declared));
	bad |= json_object_set_new(o, "verdict", c->measured
					? json_string(result_verdict_name(c->verdict)) : json_null());
	bad |= json_object_set_new(o, "ratio", json_boolean(c->ratio));
	bad |= json_object_set_new(o, "estimate", jsonout_number(c->estimate));
	bad |= json_object_set_new(o, "ci_low", jsonout_number(c->ci_low));
	bad |= json_object_set_new(o, "ci_high", jsonout_number(c->ci_high));
	bad |= json_object_set_new(o, "rounds", json_integer((json_int_t)c->rounds));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *claim(const struct matrix *m, const struct matrix_claim *c)
{
	json_t *o = json_object(), *cells = json_array(), *counts = json_array();
	int bad = !o || !cells || !counts;
	for (size_t a = 0; !bad && a < m->allocator_count; a++)
		bad |= json_array_append_new(cells, cell(m, a, &c->cells[a]));
	for (size_t k = 0; !bad && k < c->count_count; k++) {
		json_t *n = json_object();
		bad |= !n || json_object_set_new(n, "variant", jsonout_string(c->counts[k].variant)) ||
		       json_object_set_new(n, "metric", jsonout_string(c->counts[k].metric)) ||
		       json_object_set_new(n, "medians", numbers(c->counts[k].medians,
								 m->allocator_count));
		bad |= json_array_append_new(counts, n);
	}
	if (!bad) {
		bad |= json_object_set_new(o, "kernel", jsonout_string(c->kernel));
		bad |= json_object_set_new(o, "params", jsonout_string(c->params));
		bad |= json_object_set_new(o, "file", jsonout_string(c->file));
		bad |= json_object_set_new(o, "line", json_integer(c->line));
		bad |= json_object_set_new(o, "expr", jsonout_string(c->expr));
		bad |= json_object_set_new(o, "conditions", jsonout_string(c->conditions));
		bad |= json_object_set_new(o, "cells", cells);
		bad |= json_object_set_new(o, "counts", counts);
		cells = counts = NULL;
	}
	json_decref(cells);
	json_decref(counts);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *speed(const struct matrix *m, const struct matrix_speed *s)
{
	json_t *o = json_object();
	size_t n = m->allocator_count;
	if (o && (json_object_set_new(o, "kernel", jsonout_string(s->kernel)) ||
		  json_object_set_new(o, "params", jsonout_string(s->params)) ||
		  json_object_set_new(o, "variant", jsonout_string(s->variant)) ||
		  json_object_set_new(o, "median_ns", numbers(s->median_ns, n)) ||
		  json_object_set_new(o, "ratio", numbers(s->ratio, n)) ||
		  json_object_set_new(o, "ci_low", numbers(s->ci_low, n)) ||
		  json_object_set_new(o, "ci_high", numbers(s->ci_high, n)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int matrix_json_write(const char *path, const struct matrix *m, char *err, size_t err_size)
{
	json_t *root = json_object(), *allocators = json_array(), *claims = json_array(),
	       *speeds = json_array(), *problems = json_array();
	int bad = !root || !allocators || !claims || !speeds || !problems;
	for (size_t i = 0; !bad && i < m->allocator_count; i++)
		bad |= json_array_append_new(allocators, allocator(&m->allocators[i]));
	for (size_t i = 0; !bad && i < m->claim_count; i++)
		bad |= json_array_append_new(claims, claim(m, &m->claims[i]));
	for (size_t i = 0; !bad && i < m->speed_count; i++)
		bad |= json_array_append_new(speeds, speed(m, &m->speeds[i]));
	for (size_t i = 0; !bad && i < m->problem_count; i++)
		bad |= json_array_append_new(problems, jsonout_string(m->problems[i]));
	if (!bad) {
		bad |= json_object_set_new(root, "schema", json_integer(MATRIX_SCHEMA));
		bad |= json_object_set_new(root, "kind", json_string("matrix"));
		bad |= json_object_set_new(root, "exit_code", json_integer(m->exit_code));
		bad |= json_object_set_new(root, "wall_seconds", jsonout_number(m->wall_seconds));
		bad |= json_object_set_new(root, "rounds", json_integer((json_int_t)m->rounds));
		bad |= json_object_set_new(root, "sample_failures",
					   json_integer((json_int_t)m->sample_failures));
		bad |= json_object_set_new(root, "context", jsonout_context(&m->ctx));
		bad |= json_object_set_new(root, "allocators", allocators);
		bad |= json_object_set_new(root, "claims", claims);
		bad |= json_object_set_new(root, "speeds", speeds);
		bad |= json_object_set_new(root, "problems", problems);
		allocators = claims = speeds = problems = NULL;
	}
	json_decref(allocators);
	json_decref(claims);
	json_decref(speeds);
	json_decref(problems);
	if (bad) {
		json_decref(root);
		snprintf(err, err_size, "%s: out of memory", path);
		return -ENOMEM;
	}
	int rc = jsonout_write_file(path, root, err, err_size);
	json_decref(root);
	return rc;
}
