/* kernel_info.c: parses a kernel's `--list` output (docs/protocol.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/kernel_info.h"
#include "core/path_os.h"
#include "allocgate/probe.h"
#include "core/lines.h"
#include "core/conditions.h"

unsigned kernel_info_tier_bit(const char *name)
{
	if (!strcmp(name, "quick"))
		return GATE_TIER_QUICK;
	if (!strcmp(name, "default"))
		return GATE_TIER_DEFAULT;
	if (!strcmp(name, "full"))
		return GATE_TIER_FULL;
	return 0;
}

int kernel_info_list_has(const char *list, const char *name)
{
	if (!list)
		return 1;
	size_t len = strlen(name);
	for (const char *p = list; *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n == len && !strncmp(p, name, n))
			return 1;
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

static int parse_tiers(char *text, unsigned *out)
{
	*out = 0;
	char *save = NULL;
	for (char *t = strtok_r(text, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		unsigned bit = kernel_info_tier_bit(t);
		if (!bit)
			return -1;
		*out |= bit;
	}
	return *out ? 0 : -1;
}

static void *grow(void *array, size_t count, size_t size)
{
	return realloc(array, (count + 1) * size);
}

static int add_variant(struct kernel_info *k, char *rest)
{
	char *name = lines_field(&rest);
	if (!lines_is_ident(name, 0))
		return -1;
	char **v = grow(k->variants, k->variant_count, sizeof *v);
	if (v)
		k->variants = v;
	char **f = grow(k->variant_files, k->variant_count, sizeof *f);
	if (f)
		k->variant_files = f;
	int *l = grow(k->variant_lines, k->variant_count, sizeof *l);
	if (l)
		k->variant_lines = l;
	if (!v || !f || !l)
		return -1;
	f[k->variant_count] = NULL;
	l[k->variant_count] = 0;
	v[k->variant_count] = strdup(name);
	return v[k->variant_count++] ? 0 : -1;
}

/* "FILE LINE" into *FILE and *LINE; 0 or -1. */
static int parse_location(char *rest, char **file, int *line)
{
	char *f = lines_field(&rest), *l = lines_field(&rest);
	unsigned long long n;
	if (!f || !*f || lines_parse_u64(l, &n) || n > 10000000 || *rest)
		return -1;
	*file = strdup(f);
	*line = (int)n;
	return *file ? 0 : -1;
}

static int add_source(struct kernel_info *k, char *rest)
{
	return k->file ? -1 : parse_location(rest, &k->file, &k->line);
}

/* "variant-source NAME FILE LINE" for a variant listed before. */
static int add_variant_source(struct kernel_info *k, char *rest)
{
	char *name = lines_field(&rest);
	for (size_t i = 0; name && i < k->variant_count; i++)
		if (!strcmp(k->variants[i], name) && !k->variant_files[i])
			return parse_location(rest, &k->variant_files[i], &k->variant_lines[i]);
	return -1;
}

const char *kernel_info_variant_source(const struct kernel_info *k, size_t v, int *line)
{
	if (v < k->variant_count && k->variant_files[v]) {
		*line = k->variant_lines[v];
		return k->variant_files[v];
	}
	*line = k->line;
	return k->file;
}

static int add_paramset(struct kernel_info *k, char *rest)
{
	char *name = lines_field(&rest), *tiers = lines_field(&rest);
	unsigned bits;
	if (!name || !*name || !tiers || parse_tiers(tiers, &bits))
		return -1;
	for (const char *c = name; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", *c))
			return -1;
	struct kernel_paramset *p = grow(k->paramsets, k->paramset_count, sizeof *p);
	if (!p)
		return -1;
	k->paramsets = p;
	p += k->paramset_count;
	p->name = strdup(name);
	p->tiers = bits;
	p->values = strdup(rest);
	k->paramset_count++;
	return p->name && p->values ? 0 : -1;
}

static char *star_is_null(const char *s)
{
	return strcmp(s, "*") ? strdup(s) : NULL;
}

static int add_expect(struct kernel_info *k, char *rest, char *why, size_t why_size)
{
	char *file = lines_field(&rest), *line = lines_field(&rest);
	char *conditions = lines_field(&rest), *params = lines_field(&rest);
	unsigned long long n;
	if (!file || !*file || lines_parse_u64(line, &n) || n > 1000000 || !conditions ||
	    !*conditions || !params || !*params || !*rest)
		return -1;
	if (strcmp(conditions, "*") && conditions_check(conditions, why, why_size))
		return -1;
	struct kernel_expect *e = grow(k->expects, k->expect_count, sizeof *e);
	if (!e)
		return -1;
	k->expects = e;
	e += k->expect_count++;
	memset(e, 0, sizeof *e);
	e->file = strdup(file);
	e->line = (int)n;
	e->conditions = star_is_null(conditions);
	e->params = star_is_null(params);
	e->expr = strdup(rest);
	return e->file && e->expr ? 0 : -1;
}

static int parse_line(struct kernel_info *k, char *line, int *ended, char *why, size_t why_size)
{
	char *rest = line, *key = lines_field(&rest);
	if (!key)
		return -1;
	if (!strcmp(key, "kernel") && !k->name) {
		char *name = lines_field(&rest);
		if (!lines_is_ident(name, 0))
			return -1;
		k->name = strdup(name);
		k->summary = strdup(rest);
		return k->name && k->summary ? 0 : -1;
	}
	if (!strcmp(key, "variant"))
		return add_variant(k, rest);
	if (!strcmp(key, "variant-source"))
		return add_variant_source(k, rest);
	if (!strcmp(key, "source"))
		return add_source(k, rest);
	if (!strcmp(key, "params"))
		return add_paramset(k, rest);
	if (!strcmp(key, "expect"))
		return add_expect(k, rest, why, why_size);
	if (!strcmp(key, "end") && !*rest) {
		*ended = 1;
		return 0;
	}
	return -1;
}

long kernel_info_param(const struct kernel_paramset *p, const char *key, long otherwise)
{
	/* VALUES is "key=integer" separated by single spaces (checked when
	 * parsed) */
	size_t n = strlen(key);
	for (const char *v = p->values; v && *v;) {
		if (!strncmp(v, key, n) && v[n] == '=')
			return strtol(v + n + 1, NULL, 10);
		v = strchr(v, ' ');
		v = v ? v + 1 : NULL;
	}
	return otherwise;
}

long kernel_info_best_of(const struct kernel_paramset *p)
{
	return kernel_info_param(p, "best_of", 1);   /* the probe checked it is 1..1000 */
}

int kernel_info_parse(const char *path, const char *text, struct kernel_info *k,
		      char *err, size_t err_size)
{
	memset(k, 0, sizeof *k);
	char *copy = strdup(text), *cursor = copy, *line;
	int lineno = 0, ended = 0, ret = -EINVAL;
	k->path = strdup(path);
	if (!copy || !k->path) {
		snprintf(err, err_size, "%s --list: out of memory", path);
		goto out;
	}
	line = lines_next(&cursor);
	lineno++;
	if (!line || strcmp(line, "allocgate-list 1")) {
		snprintf(err, err_size, "%s --list: line 1: expected 'allocgate-list 1'", path);
		goto out;
	}
	while (!ended && (line = lines_next(&cursor))) {
		lineno++;
		char shown[80], why[200] = "";
		snprintf(shown, sizeof shown, "%s", line);
		if (parse_line(k, line, &ended, why, sizeof why)) {
			snprintf(err, err_size, "%s --list: line %d: cannot parse '%s'%s%s", path, lineno,
				 shown, *why ? ": " : "", why);
			goto out;
		}
	}
	if (!ended || *cursor) {
		snprintf(err, err_size, "%s --list: %s", path,
			 ended ? "output after 'end'" : "no 'end' line (truncated output)");
		goto out;
	}
	if (!k->name || !k->variant_count || !k->paramset_count) {
		snprintf(err, err_size, "%s --list: no kernel name, variant or parameter set", path);
		goto out;
	}
	ret = 0;
out:
	free(copy);
	if (ret)
		kernel_info_free(k);
	return ret;
}

/* Whether ROOT/NAME (ROOT_LEN bytes of ROOT) is a file that can be read. */
static int in_root(const char *root, size_t root_len, const char *name)
{
	char path[4096];
	int n = snprintf(path, sizeof path, "%.*s/%s", (int)root_len, root, name);
	FILE *f = n > 0 && (size_t)n < sizeof path ? fopen(path, "rb") : NULL;
	if (f)
		fclose(f);
	return f != NULL;
}

/* The relative name FILE as a file of the root (ROOT_LEN bytes of ROOT):
 * FILE when it lies there; else FILE without its leading segments that are
 * "." , ".." or a directory of the root, as long as what is left is a file
 * there (a build directory joined to a name that was relative to the
 * source root: "build/src/x.c" under -ffile-prefix-map; Meson's
 * "../src/x.c"); else FILE, "./" in front dropped. */
static const char *root_tail(const char *root, size_t root_len, const char *file)
{
	char seg[4096];
	while (file[0] == '.' && (file[1] == '/' || file[1] == '\\') && file[2])
		file += 2;
	for (const char *p = file; *p;) {
		while (p[0] == '.' && (p[1] == '/' || p[1] == '\\') && p[2])
			p += 2;
		if (in_root(root, root_len, p))
			return p;
		const char *sep = strpbrk(p, "/\\");
		if (!sep || (size_t)(sep - p) >= sizeof seg)
			break;
		snprintf(seg, sizeof seg, "%.*s", (int)(sep - p), p);
		if (strcmp(seg, ".") && strcmp(seg, "..") && !in_root(root, root_len, seg))
			break;   /* not a directory of the root: a file outside it */
		p = sep + 1;
	}
	return file;
}

const char *kernel_info_source_file(const struct kernel_info *k, const char *file)
{
	size_t n = k->source_root ? strlen(k->source_root) : 0;
	if (n && k->source_root[n - 1] == '/')
		n--;   /* the root "/" */
	if (file && n && path_os_same_prefix(file, k->source_root, n) &&
	    (file[n] == '/' || file[n] == '\\') && file[n + 1])
		return root_tail(k->source_root, n, file + n + 1);
	if (file && n && *file && file[0] != '/' && file[0] != '\\' && !strchr(file, ':'))
		return root_tail(k->source_root, n, file);
	return file;
}

/* Replaces *FILE by its name relative to K's source root. */
static void relativize(const struct kernel_info *k, char **file)
{
	const char *rel = kernel_info_source_file(k, *file);
	if (*file && rel != *file)
		memmove(*file, rel, strlen(rel) + 1);
}

int kernel_info_set_source_root(struct kernel_info *k, const char *root)
{
	free(k->source_root);
	if (!(k->source_root = strdup(root)))
		return -ENOMEM;
	relativize(k, &k->file);
	for (size_t i = 0; i < k->variant_count; i++)
		relativize(k, &k->variant_files[i]);
	for (size_t i = 0; i < k->expect_count; i++)
		relativize(k, &k->expects[i].file);
	return 0;
}

int kernel_info_counted_path(const struct kernel_info *k, char *out, size_t size)
{
	const char *slash = strrchr(k->path, '/');
	if (!slash)
		return -ENOENT;
	int n = snprintf(out, size, "%.*s-counted%s", (int)(slash - k->path), k->path, slash);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	FILE *f = fopen(out, "rb");
	if (!f)
		return -errno;
	fclose(f);
	return 0;
}

void kernel_info_free(struct kernel_info *k)
{
	for (size_t i = 0; i < k->variant_count; i++) {
		free(k->variants[i]);
		free(k->variant_files[i]);
	}
	free(k->variant_files);
	free(k->variant_lines);
	free(k->file);
	for (size_t i = 0; i < k->paramset_count; i++) {
		free(k->paramsets[i].name);
		free(k->paramsets[i].values);
	}
	for (size_t i = 0; i < k->expect_count; i++) {
		free(k->expects[i].file);
		free(k->expects[i].conditions);
		free(k->expects[i].params);
		free(k->expects[i].expr);
		free(k->expects[i].left_out);
	}
	free(k->variants);
	free(k->paramsets);
	free(k->expects);
	free(k->path);
	free(k->name);
	free(k->summary);
	free(k->source_root);
	memset(k, 0, sizeof *k);
}
