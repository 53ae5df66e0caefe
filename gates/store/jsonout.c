/* jsonout.c: shared pieces of the JSON files the gate writes: strings,
 * numbers, the context and series objects, and the one-element-per-line
 * layout that keeps diffs of committed baselines readable.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/jsonout.h"
#include "core/utf8.h"
#include "store/atomic_file.h"

/* 17 significant digits print every double so that it reads back exactly. */
#define JSONOUT_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

#define FIELD(name, kind) { #name, kind, offsetof(struct context, name) }

const struct jsonout_field jsonout_context_fields[] = {
	FIELD(platform_key, JSONOUT_STRING),
	FIELD(os, JSONOUT_STRING),
	FIELD(arch, JSONOUT_STRING),
	FIELD(libc, JSONOUT_STRING),
	FIELD(libc_version, JSONOUT_STRING),
	FIELD(kernel_release, JSONOUT_STRING),
	FIELD(cpu_model, JSONOUT_STRING),
	FIELD(cpu_count, JSONOUT_INT),
	FIELD(cpu_vendor, JSONOUT_STRING),
	FIELD(cpu_family, JSONOUT_STRING),
	FIELD(cpu_model_number, JSONOUT_STRING),
	FIELD(cpu_stepping, JSONOUT_STRING),
	FIELD(cpu_microcode, JSONOUT_STRING),
	FIELD(cpu_caches, JSONOUT_STRING),
	FIELD(cpu_cores, JSONOUT_COUNT),
	FIELD(cpu_threads, JSONOUT_COUNT),
	FIELD(cpu_governor, JSONOUT_STRING),
	FIELD(cpu_boost, JSONOUT_STRING),
	FIELD(cpu_hypervisor, JSONOUT_STRING),
	FIELD(page_size, JSONOUT_LONG),
	FIELD(thp, JSONOUT_STRING),
	FIELD(compiler, JSONOUT_STRING),
	FIELD(cflags, JSONOUT_STRING),
	FIELD(counters, JSONOUT_STRING),
	FIELD(env, JSONOUT_STRING),
	FIELD(tier, JSONOUT_STRING),
	FIELD(commit, JSONOUT_STRING),
	FIELD(gate_version, JSONOUT_STRING),
	FIELD(seed, JSONOUT_LLONG),
	FIELD(started_at, JSONOUT_STRING),
	FIELD(tunables, JSONOUT_STRING),
	FIELD(aslr, JSONOUT_STRING),
	FIELD(pinning, JSONOUT_STRING),
	FIELD(allocator, JSONOUT_STRING),
	FIELD(best_of, JSONOUT_STRING),
	FIELD(cost_tool, JSONOUT_STRING),
	FIELD(cost_cpu, JSONOUT_STRING),
	FIELD(cost_libc, JSONOUT_STRING),
	FIELD(cost_tunables, JSONOUT_STRING),
	FIELD(cost_ifuncs, JSONOUT_STRING),
	FIELD(cost_diagnostics, JSONOUT_STRING),
};
const size_t jsonout_context_field_count =
	sizeof(jsonout_context_fields) / sizeof(jsonout_context_fields[0]);

json_t *jsonout_string(const char *s)
{
	json_t *j;
	char *valid;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	/* Not UTF-8 (a kernel's stray output, a locale's CPU name): each
	 * byte that starts no well-formed sequence becomes U+FFFD, rather
	 * than a file nobody can read. */
	valid = utf8_valid_dup(s);
	if (!valid)
		return NULL;
	j = json_string(valid);
	free(valid);
	return j;
}

json_t *jsonout_number(double v)
{
	/* 2^53: every integer up to it is exact in a double. */
	if (!isfinite(v))
		return json_null();
	if (v == floor(v) && fabs(v) <= 9007199254740992.0)
		return json_integer((json_int_t)v);
	return json_real(v);
}

json_t *jsonout_context(const struct context *c)
{
	const char *base = (const char *)c;
	json_t *obj = json_object();
	size_t i;
	int bad = !obj;

	for (i = 0; !bad && i < jsonout_context_field_count; i++) {
		const struct jsonout_field *f = &jsonout_context_fields[i];
		const void *p = base + f->offset;
		json_t *v;

		switch (f->kind) {
		case JSONOUT_STRING: v = jsonout_string(*(char *const *)p); break;
		case JSONOUT_INT: v = json_integer(*(const int *)p); break;
		case JSONOUT_COUNT:
			v = *(const int *)p > 0 ? json_integer(*(const int *)p) : json_null();
			break;
		case JSONOUT_LONG: v = json_integer(*(const long *)p); break;
		default: v = json_integer(*(const long long *)p); break;
		}
		bad = json_object_set_new(obj, f->name, v) != 0;
	}
	if (bad) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

json_t *jsonout_numbers(const double *v, size_t n)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; arr && i < n; i++) {
		if (json_array_append_new(arr, jsonout_number(v[i])) != 0) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* Adds the comparison fields of S to OBJ; nonzero on no memory. */
static int put_comparison(json_t *obj, const struct series *s)
{
	int bad = 0;

	bad |= json_object_set_new(obj, "sample_count", json_integer((json_int_t)s->sample_count));
	bad |= json_object_set_new(obj, "median", jsonout_number(s->median));
	bad |= json_object_set_new(obj, "baseline_median",
				   s->has_baseline ? jsonout_number(s->baseline_median) : json_null());
	bad |= json_object_set_new(obj, "baseline_count",
				   json_integer((json_int_t)s->baseline_count));
	bad |= json_object_set_new(obj, "change", jsonout_number(s->change));
	bad |= json_object_set_new(obj, "ci_low", jsonout_number(s->ci_low));
	bad |= json_object_set_new(obj, "ci_high", jsonout_number(s->ci_high));
	bad |= json_object_set_new(obj, "p_value", jsonout_number(s->p_value));
	bad |= json_object_set_new(obj, "file", jsonout_string(s->file));
	bad |= json_object_set_new(obj, "line", json_integer(s->line));
	bad |= json_object_set_new(obj, "drift", jsonout_number(s->drift));
	bad |= json_object_set_new(obj, "tolerance", jsonout_number(s->tolerance));
	bad |= json_object_set_new(obj, "advisory", json_boolean(s->advisory));
	bad |= json_object_set_new(obj, "gated", json_boolean(s->gated));
	bad |= json_object_set_new(obj, "test", jsonout_string(s->test));
	bad |= json_object_set_new(obj, "confirmed",
				   s->confirmed < 0 ? json_null() : json_boolean(s->confirmed));
	bad |= json_object_set_new(obj, "confirm_change", jsonout_number(s->confirm_change));
	bad |= json_object_set_new(obj, "verdict", json_string(result_series_verdict_name(s->verdict)));
	bad |= json_object_set_new(obj, "note", jsonout_string(s->note));
	return bad;
}

json_t *jsonout_series(const struct series *s, bool comparison)
{
	json_t *obj = json_object();
	int bad = !obj;

	if (bad)
		return NULL;
	bad |= json_object_set_new(obj, "kernel", jsonout_string(s->kernel));
	bad |= json_object_set_new(obj, "variant", jsonout_string(s->variant));
	bad |= json_object_set_new(obj, "params", jsonout_string(s->params));
	bad |= json_object_set_new(obj, "metric", jsonout_string(s->metric));
	bad |= json_object_set_new(obj, "unit", jsonout_string(s->unit));
	bad |= json_object_set_new(obj, "class", json_string(result_class_name(s->cls)));
	if (comparison)
		bad |= put_comparison(obj, s);
	else
		bad |= json_object_set_new(obj, "median", jsonout_number(s->median));
	if (s->batches > 1)
		bad |= json_object_set_new(obj, "batches", json_integer((json_int_t)s->batches));
	if (s->kernel_digest)
		bad |= json_object_set_new(obj, "kernel_digest", json_string(s->kernel_digest));
	if (s->history_count)
		bad |= json_object_set_new(obj, "history", jsonout_numbers(s->history,
									 s->history_count));
	/* Samples last: the one long field ends the line. */
	bad |= json_object_set_new(obj, "samples", jsonout_numbers(s->samples, s->sample_count));
	if (bad) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

/* Writes V dumped with FLAGS; after each newline of the dump, INDENT. */
static int dump_with(FILE *fp, const json_t *v, size_t flags, const char *indent)
{
	char *text = json_dumps(v, flags | JSON_ENCODE_ANY);
	const char *p;

	if (!text)
		return -ENOMEM;
	for (p = text; *p; p++) {
		fputc(*p, fp);
		if (*p == '\n')
			fputs(indent, fp);
	}
	free(text);
	return 0;
}

/* An array with one compact element per line, closing bracket indented. */
static int dump_array(FILE *fp, const json_t *arr)
{
	size_t i, n = json_array_size(arr);
	int rc = 0;

	if (n == 0) {
		fputs("[]", fp);
		return 0;
	}
	fputs("[\n", fp);
	for (i = 0; rc == 0 && i < n; i++) {
		fputs("    ", fp);
		rc = dump_with(fp, json_array_get(arr, i), JSONOUT_FLAGS | JSON_COMPACT, "");
		fputs(i + 1 < n ? ",\n" : "\n", fp);
	}
	fputs("  ]", fp);
	return rc;
}

int jsonout_dump(FILE *fp, const json_t *root)
{
	/* jansson's iterators take a non-const object; nothing is changed. */
	json_t *obj = (json_t *)root;
	const char *key;
	json_t *value;
	size_t left = json_object_size(obj);
	int rc = 0;

	fputs("{\n", fp);
	json_object_foreach(obj, key, value) {
		json_t *name = json_string(key);

		if (!name)
			return -ENOMEM;
		fputs("  ", fp);
		rc = dump_with(fp, name, JSONOUT_FLAGS, "");
		json_decref(name);
		fputs(": ", fp);
		if (rc == 0 && json_is_array(value))
			rc = dump_array(fp, value);
		else if (rc == 0)
			rc = dump_with(fp, value, JSONOUT_FLAGS | JSON_INDENT(2), "  ");
		if (rc < 0)
			return rc;
		fputs(--left ? ",\n" : "\n", fp);
	}
	fputs("}\n", fp);
	return 0;
}

int jsonout_write_file(const char *path, const json_t *root, char *err, size_t err_size)
{
	struct atomic_file af;
	int rc;

	rc = atomic_file_open(&af, path, err, err_size);
	if (rc < 0)
		return rc;
	rc = jsonout_dump(af.fp, root);
	if (rc < 0) {
		if (err && err_size)
			snprintf(err, err_size, "%s: out of memory while writing", path);
		atomic_file_abort(&af);
		return rc;
	}
	return atomic_file_commit(&af, err, err_size);
}
