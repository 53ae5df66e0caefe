/* history_dir.c: a history of results, one file per run (history_dir.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>

#include "store/history_dir.h"
#include "store/jsonout.h"

/* The columns of a series, in the order the file writes them. */
#define HISTORY_COLUMNS 9

int history_dir_file_name(const struct history_run *run, char *out, size_t size)
{
	char stamp[32], id[48];
	size_t i;
	if (!result_history_time_valid(run->run_at))
		return -1;
	snprintf(stamp, sizeof stamp, "%s", run->run_at);
	for (i = 0; stamp[i]; i++)   /* ':' is no file name character on Windows */
		stamp[i] = stamp[i] == ':' ? '-' : stamp[i];
	result_history_short(run->commit, id, sizeof id);
	for (i = 0; id[i]; i++)
		if (!isalnum((unsigned char)id[i]) && !strchr("._-", id[i]))
			id[i] = '_';
	int n = snprintf(out, size, "%s-%s.json", stamp, *id ? id : "unknown");
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* Sets *RC to -ENOMEM when V is NULL; returns V. */
static json_t *need(json_t *v, int *rc)
{
	if (!v)
		*rc = -ENOMEM;
	return v;
}

static json_t *cpu_object(const struct history_cpu *cpu, int *rc)
{
	json_t *o = need(json_object(), rc);
	if (!o)
		return NULL;
	if (json_object_set_new(o, "model", need(jsonout_string(cpu->model), rc)) ||
	    json_object_set_new(o, "vendor", need(jsonout_string(cpu->vendor), rc)) ||
	    json_object_set_new(o, "family", need(jsonout_string(cpu->family), rc)) ||
	    json_object_set_new(o, "model_number", need(jsonout_string(cpu->model_number), rc)) ||
	    json_object_set_new(o, "stepping", need(jsonout_string(cpu->stepping), rc)) ||
	    json_object_set_new(o, "count", need(json_integer(cpu->count), rc)))
		*rc = -ENOMEM;
	return o;
}

/* One series as its row: kernel, variant, params, metric, class, unit,
 * median, n, mad (n and mad null but for timing). */
static json_t *series_row(const struct history_value *v, int *rc)
{
	bool timing = v->cls == METRIC_TIMING;
	json_t *row = need(json_array(), rc);
	if (!row)
		return NULL;
	if (json_array_append_new(row, need(jsonout_string(v->kernel), rc)) ||
	    json_array_append_new(row, need(jsonout_string(v->variant), rc)) ||
	    json_array_append_new(row, need(jsonout_string(v->params), rc)) ||
	    json_array_append_new(row, need(jsonout_string(v->metric), rc)) ||
	    json_array_append_new(row, need(json_string(result_class_name(v->cls)), rc)) ||
	    json_array_append_new(row, need(jsonout_string(v->unit), rc)) ||
	    json_array_append_new(row, need(jsonout_number(v->median), rc)) ||
	    json_array_append_new(row, need(timing ? json_integer((json_int_t)v->n) : json_null(),
					    rc)) ||
	    json_array_append_new(row, need(jsonout_number(timing ? v->mad : NAN), rc)))
		*rc = -ENOMEM;
	return row;
}

/* RUN as the file's object (docs/json-format.md), or NULL on no memory. */
static json_t *run_object(const struct history_run *run)
{
	int rc = 0;
	json_t *o = json_object(), *series = json_array();
	if (!o || !series)
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < run->count; i++)
		if (json_array_append_new(series, series_row(&run->values[i], &rc)))
			rc = -ENOMEM;
	if (!rc && (json_object_set_new(o, "schema", json_integer(RESULT_HISTORY_SCHEMA)) ||
		    json_object_set_new(o, "kind", json_string("history")) ||
		    json_object_set_new(o, "commit", jsonout_string(run->commit)) ||
		    json_object_set_new(o, "time", jsonout_string(run->time)) ||
		    json_object_set_new(o, "time_source",
					json_string(run->time_is_commit ? "commit" : "run")) ||
		    json_object_set_new(o, "run_at", jsonout_string(run->run_at)) ||
		    json_object_set_new(o, "platform", jsonout_string(run->platform)) ||
		    json_object_set_new(o, "cpu", cpu_object(&run->cpu, &rc)) ||
		    json_object_set_new(o, "series", series)))
		rc = -ENOMEM;
	else if (!rc)
		series = NULL;   /* owned by O now */
	json_decref(series);
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int history_dir_write(const char *dir, const struct history_run *run, char *path,
		      size_t path_size, char *err, size_t err_size)
{
	char name[256];
	if (history_dir_file_name(run, name, sizeof name)) {
		snprintf(err, err_size, "%s: the run's start \"%s\" is no time "
			 "YYYY-MM-DDTHH:MM:SSZ", dir, run->run_at ? run->run_at : "");
		return -EINVAL;
	}
	int n = snprintf(path, path_size, "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= path_size) {
		snprintf(err, err_size, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	json_t *root = run_object(run);
	if (!root) {
		snprintf(err, err_size, "%s: out of memory", path);
		return -ENOMEM;
	}
	int rc = jsonout_write_file(path, root, err, err_size);
	json_decref(root);
	return rc;
}

/* The reader of one file: its path and the error buffer. */
struct reader {
	const char *path;
	char *err;
	size_t err_size;
};

/* "PATH: WHAT" into the reader's ERR; returns -EINVAL. */
static int bad(const struct reader *rd, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(rd->err, rd->err_size, "%s: ", rd->path);
	if (n >= 0 && (size_t)n < rd->err_size) {
		va_start(ap, fmt);
		vsnprintf(rd->err + n, rd->err_size - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* KEY of OBJ (named WHERE) as an owned string; NULLABLE: null allowed. */
static int text_field(const struct reader *rd, const json_t *obj, const char *where,
		      const char *key, bool nullable, char **out)
{
	const json_t *v = json_object_get(obj, key);
	*out = NULL;
	if (!v)
		return bad(rd, "%s%s: missing", where, key);
	if (nullable && json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return bad(rd, "%s%s: expected a string%s", where, key, nullable ? " or null" : "");
	return (*out = strdup(json_string_value(v))) ? 0 : -ENOMEM;
}

/* A time key: "YYYY-MM-DDTHH:MM:SSZ". */
static int time_field(const struct reader *rd, const json_t *obj, const char *key, char **out)
{
	int rc = text_field(rd, obj, "", key, false, out);
	if (!rc && !result_history_time_valid(*out))
		return bad(rd, "%s: \"%s\" is no time YYYY-MM-DDTHH:MM:SSZ", key, *out);
	return rc;
}

static int read_cpu(const struct reader *rd, const json_t *root, struct history_cpu *cpu)
{
	const json_t *o = json_object_get(root, "cpu"), *count;
	int rc;
	if (!json_is_object(o))
		return bad(rd, "cpu: %s", o ? "expected an object" : "missing");
	if ((rc = text_field(rd, o, "cpu.", "model", true, &cpu->model)) ||
	    (rc = text_field(rd, o, "cpu.", "vendor", true, &cpu->vendor)) ||
	    (rc = text_field(rd, o, "cpu.", "family", true, &cpu->family)) ||
	    (rc = text_field(rd, o, "cpu.", "model_number", true, &cpu->model_number)) ||
	    (rc = text_field(rd, o, "cpu.", "stepping", true, &cpu->stepping)))
		return rc;
	count = json_object_get(o, "count");
	if (!json_is_integer(count) || json_integer_value(count) < 0 ||
	    json_integer_value(count) > 1 << 20)
		return bad(rd, "cpu.count: %s", count ? "expected an integer from 0" : "missing");
	cpu->count = (int)json_integer_value(count);
	return 0;
}

/* Column I of series row ROW (number K) as a string into *OUT (shared). */
static int row_text(const struct reader *rd, const json_t *row, size_t k, size_t i,
		    const char **out)
{
	const json_t *v = json_array_get(row, i);
	if (!json_is_string(v) || !*json_string_value(v))
		return bad(rd, "series[%zu][%zu]: expected a non-empty string", k, i);
	*out = json_string_value(v);
	return 0;
}

/* The numbers of row ROW (number K) into V: median, n, mad. */
static int row_numbers(const struct reader *rd, const json_t *row, size_t k,
		       struct history_value *v)
{
	const json_t *median = json_array_get(row, 6), *n = json_array_get(row, 7),
		     *mad = json_array_get(row, 8);
	bool timing = v->cls == METRIC_TIMING;
	if (!json_is_number(median) || !isfinite(json_number_value(median)))
		return bad(rd, "series[%zu][6]: expected a number (the median)", k);
	v->median = json_number_value(median);
	if (timing ? !json_is_integer(n) || json_integer_value(n) < 0 : !json_is_null(n))
		return bad(rd, "series[%zu][7]: expected %s (the samples)", k,
			   timing ? "an integer from 0" : "null: not a timing series");
	v->n = timing ? (size_t)json_integer_value(n) : 0;
	if (!json_is_null(mad) && (!timing || !json_is_number(mad) ||
				    !(json_number_value(mad) >= 0)))
		return bad(rd, "series[%zu][8]: expected %s (the spread)", k,
			   timing ? "a number from 0 or null" : "null: not a timing series");
	v->mad = json_is_null(mad) ? NAN : json_number_value(mad);
	return 0;
}

static int read_row(const struct reader *rd, const json_t *row, size_t k, struct history_run *out)
{
	struct history_value v;
	const char *cls;
	int rc;
	memset(&v, 0, sizeof v);
	if (!json_is_array(row) || json_array_size(row) != HISTORY_COLUMNS)
		return bad(rd, "series[%zu]: expected an array of %d: kernel, variant, params, "
			   "metric, class, unit, median, n, mad", k, HISTORY_COLUMNS);
	if ((rc = row_text(rd, row, k, 0, (const char **)&v.kernel)) ||
	    (rc = row_text(rd, row, k, 1, (const char **)&v.variant)) ||
	    (rc = row_text(rd, row, k, 2, (const char **)&v.params)) ||
	    (rc = row_text(rd, row, k, 3, (const char **)&v.metric)) ||
	    (rc = row_text(rd, row, k, 4, &cls)) ||
	    (rc = row_text(rd, row, k, 5, (const char **)&v.unit)))
		return rc;
	if (result_class_parse(cls, &v.cls))
		return bad(rd, "series[%zu][4]: \"%s\": expected exact, near or timing", k, cls);
	if ((rc = row_numbers(rd, row, k, &v)))
		return rc;
	return result_history_add_value(out, &v);
}

/* The top-level keys of ROOT into OUT. */
static int read_root(const struct reader *rd, const json_t *root, struct history_run *out)
{
	const json_t *schema = json_object_get(root, "schema"), *kind = json_object_get(root, "kind");
	const json_t *series = json_object_get(root, "series");
	char *source = NULL;
	int rc;
	if (!json_is_object(root))
		return bad(rd, "expected an object");
	if (!json_is_integer(schema) || json_integer_value(schema) != RESULT_HISTORY_SCHEMA)
		return bad(rd, "schema: expected %d (a history file of this version)",
			   RESULT_HISTORY_SCHEMA);
	if (!json_is_string(kind) || strcmp(json_string_value(kind), "history"))
		return bad(rd, "kind: expected \"history\" (not a history file?)");
	if ((rc = text_field(rd, root, "", "commit", false, &out->commit)) ||
	    (rc = time_field(rd, root, "time", &out->time)) ||
	    (rc = text_field(rd, root, "", "time_source", false, &source)) ||
	    (rc = time_field(rd, root, "run_at", &out->run_at)) ||
	    (rc = text_field(rd, root, "", "platform", false, &out->platform)) ||
	    (rc = read_cpu(rd, root, &out->cpu)))
		goto out;
	if (!*out->commit && (rc = bad(rd, "commit: empty")))
		goto out;
	if (strcmp(source, "commit") && strcmp(source, "run") &&
	    (rc = bad(rd, "time_source: \"%s\": expected \"commit\" or \"run\"", source)))
		goto out;
	out->time_is_commit = !strcmp(source, "commit");
	if (!json_is_array(series) && (rc = bad(rd, "series: %s", series ? "expected an array"
									     : "missing")))
		goto out;
	for (size_t k = 0; !rc && k < json_array_size(series); k++)
		rc = read_row(rd, json_array_get(series, k), k, out);
out:
	free(source);
	return rc;
}

int history_dir_load_file(const char *path, struct history_run *out, char *err,
			  size_t err_size)
{
	struct reader rd = { path, err, err_size };
	struct stat st;
	json_error_t jerr;
	memset(out, 0, sizeof *out);
	if (stat(path, &st))
		return errno == ENOENT ? (bad(&rd, "no such file"), -ENOENT)
				       : (bad(&rd, "%s", strerror(errno)), -EINVAL);
	if (st.st_size > HISTORY_DIR_MAX_BYTES) {
		bad(&rd, "larger than the %d MiB a history file may hold; not read",
		    HISTORY_DIR_MAX_BYTES >> 20);
		return -EFBIG;
	}
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return bad(&rd, "line %d, column %d: invalid JSON: %s", jerr.line, jerr.column,
			   jerr.text);
	int rc = (out->file = strdup(path)) ? read_root(&rd, root, out) : -ENOMEM;
	json_decref(root);
	if (rc == -ENOMEM)
		snprintf(err, err_size, "%s: out of memory", path);
	if (rc)
		result_history_run_free(out);
	return rc;
}

/* Whether NAME is a history file's: "*.json", not hidden. */
static bool history_name(const char *name)
{
	size_t n = strlen(name);
	return name[0] != '.' && n > 5 && !strcmp(name + n - 5, ".json");
}

int history_dir_load(const char *dir, struct result_history *out, char *err, size_t err_size)
{
	char path[4096];
	struct dirent *e;
	int rc = 0;
	memset(out, 0, sizeof *out);
	DIR *d = opendir(dir);
	if (!d) {
		rc = -errno;
		snprintf(err, err_size, "%s: %s", dir, strerror(-rc));
		return rc;
	}
	while (!rc && (e = readdir(d))) {
		struct history_run *run;
		if (!history_name(e->d_name))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (!(run = result_history_add_run(out)))
			rc = -ENOMEM;
		else if ((rc = history_dir_load_file(path, run, err, err_size)))
			out->count--;   /* zeroed by the failed load */
	}
	closedir(d);
	if (rc == -ENOMEM)
		snprintf(err, err_size, "%s: out of memory", dir);
	if (rc)
		result_history_free(out);
	else
		result_history_sort(out);
	return rc;
}
