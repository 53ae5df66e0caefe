/* history_json.c: `gate history --json FILE`, the change points file
 * (history_report.h; docs/json-format.md, "The change points file"). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "report/history_report.h"
#include "store/jsonout.h"

/* Sets KEY of O to V (a new reference; NULL: no memory); false on failure. */
static bool put(json_t *o, const char *key, json_t *v)
{
	return v && json_object_set_new(o, key, v) == 0;
}

/* The series of change point IT: its names and how it was scanned. */
static bool series_keys(json_t *o, const struct change_track *t)
{
	return put(o, "platform", jsonout_string(t->platform)) &&
	       put(o, "kernel", jsonout_string(t->kernel)) &&
	       put(o, "variant", jsonout_string(t->variant)) &&
	       put(o, "params", jsonout_string(t->params)) &&
	       put(o, "metric", jsonout_string(t->metric)) &&
	       put(o, "unit", jsonout_string(t->unit)) &&
	       put(o, "class", json_string(result_class_name(t->cls))) &&
	       put(o, "method", json_string(change_points_method_name(t->method))) &&
	       put(o, "tolerance", jsonout_number(t->tolerance));
}

static json_t *item_object(const struct change_findings *fx, const struct history_item *it)
{
	const struct change_commit *c = &fx->commits[it->commit], *prev = &fx->commits[it->previous];
	const struct change_point *p = it->point;
	const struct change_track *t = it->track;
	json_t *o = json_object();
	bool ok = o && series_keys(o, t) && put(o, "commit", jsonout_string(c->commit)) &&
		  put(o, "rev", jsonout_string(c->rev)) &&
		  put(o, "time", jsonout_string(c->time)) &&
		  put(o, "subject", c->subject ? jsonout_string(c->subject) : json_null()) &&
		  put(o, "previous_commit", jsonout_string(prev->commit)) &&
		  put(o, "previous_rev", jsonout_string(prev->rev)) &&
		  put(o, "before", jsonout_number(p->before)) &&
		  put(o, "after", jsonout_number(p->after)) &&
		  put(o, "change", jsonout_number(p->change)) &&
		  put(o, "p_value", jsonout_number(p->p_value)) &&
		  put(o, "commits_between", p->between < 0 ? json_null() : json_integer(p->between)) &&
		  put(o, "cpu_changed", json_boolean(!result_history_cpu_same(t->cpu[p->at - 1],
									       t->cpu[p->at])));
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *settings_object(const struct change_settings *s)
{
	json_t *o = json_object();
	if (o && put(o, "alpha", jsonout_number(s->alpha)) &&
	    put(o, "permutations", json_integer((json_int_t)s->permutations)) &&
	    put(o, "min_segment", json_integer((json_int_t)s->min_segment)) &&
	    put(o, "min_effect", jsonout_number(s->min_effect)) &&
	    put(o, "seed", json_integer((json_int_t)s->seed)))
		return o;
	json_decref(o);
	return NULL;
}

/* The whole file's object, or NULL on no memory. */
static json_t *root_object(const struct change_findings *fx, const char *dir, size_t runs,
			   int exit_code)
{
	struct history_item *items = NULL;
	size_t n = 0;
	json_t *o = json_object(), *points = json_array();
	bool ok = o && points && !history_items(fx, &items, &n);
	for (size_t i = 0; ok && i < n; i++) {
		json_t *item = item_object(fx, &items[i]);
		ok = item && json_array_append_new(points, item) == 0;
	}
	free(items);
	ok = ok && put(o, "schema", json_integer(CHANGE_POINTS_SCHEMA)) &&
	     put(o, "kind", json_string("history_changes")) && put(o, "dir", jsonout_string(dir)) &&
	     put(o, "exit_code", json_integer(exit_code)) &&
	     put(o, "runs", json_integer((json_int_t)runs)) &&
	     put(o, "commits", json_integer((json_int_t)fx->commit_count)) &&
	     put(o, "series", json_integer((json_int_t)fx->track_count)) &&
	     put(o, "settings", settings_object(&fx->settings)) &&
	     json_object_set(o, "change_points", points) == 0;
	json_decref(points);
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int history_json_write(const char *path, const struct change_findings *fx, const char *dir,
		       size_t runs, int exit_code, char *err, size_t err_size)
{
	json_t *root = root_object(fx, dir, runs, exit_code);
	if (!root) {
		snprintf(err, err_size, "%s: out of memory", path);
		return -ENOMEM;
	}
	int rc = jsonout_write_file(path, root, err, err_size);
	json_decref(root);
	return rc;
}
