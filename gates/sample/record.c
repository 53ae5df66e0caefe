/* record.c: parses one sample record (docs/protocol.md) strictly. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/record.h"
#include "core/lines.h"

static int has_metric(const struct record *r, const char *name)
{
	for (size_t i = 0; i < r->metric_count; i++)
		if (!strcmp(r->metrics[i].name, name))
			return 1;
	for (size_t i = 0; i < r->unavailable_count; i++)
		if (!strcmp(r->unavailable[i].name, name))
			return 1;
	return 0;
}

static const char *add_metric(struct record *r, char *rest)
{
	char *name = lines_field(&rest), *cls = lines_field(&rest);
	char *unit = lines_field(&rest), *value = lines_field(&rest);
	enum metric_class c;
	unsigned long long v;
	if (!lines_is_ident(name, 1) || !cls || result_class_parse(cls, &c))
		return "expected 'metric NAME exact|near|timing UNIT VALUE'";
	if (!lines_is_ident(unit, 0) || lines_parse_u64(value, &v) || *rest)
		return "expected 'metric NAME CLASS UNIT VALUE' with an unsigned integer VALUE";
	if (has_metric(r, name))
		return "metric reported twice";
	struct record_metric *m = realloc(r->metrics, (r->metric_count + 1) * sizeof *m);
	if (!m)
		return "out of memory";
	r->metrics = m;
	m += r->metric_count++;
	m->name = strdup(name);
	m->unit = strdup(unit);
	m->cls = c;
	m->value = v;
	return m->name && m->unit ? NULL : "out of memory";
}

static const char *add_unavailable(struct record *r, char *rest)
{
	char *name = lines_field(&rest);
	if (!lines_is_ident(name, 1) || !*rest)
		return "expected 'unavailable NAME REASON'";
	if (has_metric(r, name))
		return "metric reported twice";
	struct record_unavailable *u =
		realloc(r->unavailable, (r->unavailable_count + 1) * sizeof *u);
	if (!u)
		return "out of memory";
	r->unavailable = u;
	u += r->unavailable_count++;
	u->name = strdup(name);
	u->reason = strdup(rest);
	return u->name && u->reason ? NULL : "out of memory";
}

/* Appends a site (strings copied); NULL, or why not. */
static const char *append_site(struct record *r, const char *kind, const char *function,
			       const char *file, int line, uint64_t calls, uint64_t bytes)
{
	struct record_site *st = realloc(r->sites, (r->site_count + 1) * sizeof *st);
	if (!st)
		return "out of memory";
	r->sites = st;
	st += r->site_count++;
	st->kind = strdup(kind);
	st->function = strdup(function);
	st->file = strdup(file);
	st->line = line;
	st->calls = calls;
	st->bytes = bytes;
	st->via = NULL;
	return st->kind && st->function && st->file ? NULL : "out of memory";
}

/* site KIND LINE CALLS BYTES FUNCTION FILE (the file is the rest). */
static const char *add_site(struct record *r, char *rest)
{
	char *kind = lines_field(&rest), *line = lines_field(&rest);
	char *calls = lines_field(&rest), *bytes = lines_field(&rest);
	char *function = lines_field(&rest);
	unsigned long long n, c, b;
	if (!result_site_kind_known(kind) || lines_parse_u64(line, &n) || n == 0 || n > 10000000 ||
	    lines_parse_u64(calls, &c) || lines_parse_u64(bytes, &b) || !function || !*function ||
	    !*rest)
		return "expected 'site KIND LINE CALLS BYTES FUNCTION FILE' (KIND malloc, calloc, "
		       "realloc, free, strdup, strndup, aligned_alloc or posix_memalign)";
	for (size_t i = 0; i < r->site_count; i++) {
		const struct record_site *o = &r->sites[i];
		if (o->line == (int)n && !strcmp(o->kind, kind) && !strcmp(o->function, function) &&
		    !strcmp(o->file, rest))
			return "site reported twice";
	}
	return append_site(r, kind, function, rest, (int)n, c, b);
}

/* lib-site KIND CALLS BYTES LIBRARY: calls made by a shared library (the
 * interposer's), kept as a site of line 0 and function "-" in LIBRARY. */
static const char *add_library_site(struct record *r, char *rest)
{
	char *kind = lines_field(&rest), *calls = lines_field(&rest), *bytes = lines_field(&rest);
	unsigned long long c, b;
	if (!result_site_kind_known(kind) || lines_parse_u64(calls, &c) ||
	    lines_parse_u64(bytes, &b) || !*rest || strchr(rest, ' '))
		return "expected 'lib-site KIND CALLS BYTES LIBRARY'";
	for (size_t i = 0; i < r->site_count; i++)
		if (!r->sites[i].line && !strcmp(r->sites[i].kind, kind) &&
		    !strcmp(r->sites[i].file, rest))
			return "site reported twice";
	return append_site(r, kind, "-", rest, 0, c, b);
}

static const char *add_dropped(struct record *r, char *rest)
{
	char *value = lines_field(&rest);
	unsigned long long v;
	if (lines_parse_u64(value, &v) || *rest)
		return "expected 'sites-dropped CALLS'";
	r->sites_dropped += v;   /* the counted build's and the interposer's */
	return NULL;
}

int record_parse(const char *text, struct record *r, char *err, size_t err_size)
{
	memset(r, 0, sizeof *r);
	char *copy = strdup(text), *cursor = copy, *line;
	const char *why = NULL;
	int lineno = 1, ended = 0;
	if (!copy) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	line = lines_next(&cursor);
	if (!line || strcmp(line, "allocgate-sample 1"))
		why = "expected 'allocgate-sample 1'";
	while (!why && !ended && (line = lines_next(&cursor))) {
		lineno++;
		size_t len = strlen(line);
		int trailing_space = len && line[len - 1] == ' ';
		char *rest = line, *key = lines_field(&rest);
		if (trailing_space)
			why = "trailing space";
		else if (key && !strcmp(key, "metric"))
			why = add_metric(r, rest);
		else if (key && !strcmp(key, "unavailable"))
			why = add_unavailable(r, rest);
		else if (key && !strcmp(key, "site"))
			why = add_site(r, rest);
		else if (key && !strcmp(key, "lib-site"))
			why = add_library_site(r, rest);
		else if (key && !strcmp(key, "sites-dropped"))
			why = add_dropped(r, rest);
		else if (key && !strcmp(key, "end") && !*rest)
			ended = 1;
		else
			why = "unknown line";
	}
	if (!why && !ended)
		why = "no 'end' line (truncated record)";
	else if (!why && *cursor)
		why = "output after 'end'";
	else if (!why && !r->metric_count)
		why = "no metric in the record";
	free(copy);
	if (why) {
		snprintf(err, err_size, "sample record line %d: %s", lineno, why);
		record_free(r);
		return -EINVAL;
	}
	return 0;
}

void record_free(struct record *r)
{
	for (size_t i = 0; i < r->metric_count; i++) {
		free(r->metrics[i].name);
		free(r->metrics[i].unit);
	}
	for (size_t i = 0; i < r->unavailable_count; i++) {
		free(r->unavailable[i].name);
		free(r->unavailable[i].reason);
	}
	for (size_t i = 0; i < r->site_count; i++) {
		free(r->sites[i].kind);
		free(r->sites[i].function);
		free(r->sites[i].file);
		free(r->sites[i].via);
	}
	free(r->metrics);
	free(r->unavailable);
	free(r->sites);
	memset(r, 0, sizeof *r);
}
