/* flame_files.c: every flame graph of a result into a directory, one file
 * per variant, measure and kind of graph (flame_svg.h, flame_svg_write_dir). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/flame_svg.h"
#include "store/atomic_file.h"
#include "core/group_key.h"

/* One variant's stacks on each side: a range of the sorted arrays. */
struct flame_variant {
	const char *kernel, *variant, *params;
	const struct stack *const *after, *const *before;
	size_t after_count, before_count;
};

/* The file names written so far (their common part, without the measure). */
struct flame_names {
	char **items;
	size_t count;
};

static int stack_ptr_cmp(const void *a, const void *b)
{
	return result_stack_order(*(const struct stack *const *)a,
				  *(const struct stack *const *)b);
}

/* SET's stacks as a sorted array of pointers (NULL when none); 0 or -ENOMEM. */
static int sorted(const struct stacks *set, const struct stack ***out)
{
	*out = NULL;
	if (!set->count)
		return 0;
	*out = malloc(set->count * sizeof **out);
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < set->count; i++)
		(*out)[i] = &set->items[i];
	qsort(*out, set->count, sizeof **out, stack_ptr_cmp);
	return 0;
}

/* How many stacks from S[I] on (of N) are of S[I]'s variant. */
static size_t run_length(const struct stack *const *s, size_t i, size_t n)
{
	size_t j = i + 1;
	while (j < n && group_key_same(GROUP_KEY(s[j]), GROUP_KEY(s[i]), GROUP_SCOPE_VARIANT))
		j++;
	return j - i;
}

/* PART into BUF at *N: [A-Za-z0-9_-] kept, any other byte '_', at most
 * FLAME_SVG_NAME_PART bytes, "_" for an empty part. */
static void name_part(const char *part, char *buf, size_t *n)
{
	size_t kept = 0;
	for (const char *p = part; *p && kept < FLAME_SVG_NAME_PART; p++, kept++) {
		char c = *p;
		int plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '_' || c == '-';
		buf[(*n)++] = plain ? c : '_';
	}
	if (!kept)
		buf[(*n)++] = '_';
	buf[*n] = '\0';
}

/* Whether A and B are the same file name to a file system that ignores
 * the case of ASCII letters. */
static int same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a >= 'A' && *a <= 'Z' ? *a + 32 : *a;
		char y = *b >= 'A' && *b <= 'Z' ? *b + 32 : *b;
		if (x != y)
			return 0;
	}
	return *a == *b;
}

/* "<kernel>.<variant>.<params>" of V, "-2"... when taken, into BUF (at
 * least 3 * FLAME_SVG_NAME_PART + 32 bytes), remembered in NAMES. */
static int base_name(const struct flame_variant *v, struct flame_names *names, char *buf)
{
	size_t n = 0;
	name_part(v->kernel, buf, &n);
	buf[n++] = '.';
	name_part(v->variant, buf, &n);
	buf[n++] = '.';
	name_part(v->params, buf, &n);
	for (unsigned k = 2;; k++) {
		size_t i = 0;
		while (i < names->count && !same_name(names->items[i], buf))
			i++;
		if (i == names->count)
			break;
		snprintf(buf + n, 16, "-%u", k);
	}
	char **grown = realloc(names->items, (names->count + 1) * sizeof *grown);
	if (!grown)
		return -ENOMEM;
	names->items = grown;
	if (!(names->items[names->count] = strdup(buf)))
		return -ENOMEM;
	names->count++;
	return 0;
}

/* Writes the graph ASK of V to PATH atomically; 0 or a negative errno
 * with ERR. */
static int write_graph(const char *path, const struct flame_variant *v, bool before_recorded,
		       const struct flame_ask *ask, char *err, size_t err_size)
{
	struct atomic_file af;
	int rc = atomic_file_open(&af, path, err, err_size);
	if (rc)
		return rc;
	rc = flame_svg_print_stacks(af.fp, v->after, v->after_count, v->before,
				    v->before_count, before_recorded, ask);
	if (rc || ferror(af.fp)) {
		atomic_file_abort(&af);
		snprintf(err, err_size, "%s: %s", path, rc ? strerror(-rc) : "write error");
		return rc ? rc : -EIO;
	}
	return atomic_file_commit(&af, err, err_size);
}

/* Writes V's graphs into DIR: each measure's of B when B has stacks, and
 * with BEFORE_RECORDED each one's differential. Returns how many, or a
 * negative errno with ERR. */
static int write_variant(const char *dir, const struct flame_variant *v, bool before_recorded,
			 struct flame_names *names, char *err, size_t err_size)
{
	static const struct { enum flame_measure m; const char *word; } measures[] = {
		{ FLAME_CALLS, "calls" }, { FLAME_INSTRUCTIONS, "instructions" },
	};
	char base[3 * FLAME_SVG_NAME_PART + 32], path[4096];
	int count = 0, rc = base_name(v, names, base);
	if (rc) {
		snprintf(err, err_size, "%s: out of memory", dir);
		return rc;
	}
	for (size_t i = 0; i < sizeof measures / sizeof measures[0]; i++) {
		struct flame_ask ask = { .kernel = v->kernel, .variant = v->variant,
					 .params = v->params, .measure = measures[i].m,
					 .id_prefix = "" };
		for (int diff = 0; diff <= (int)before_recorded; diff++) {
			if (!diff && !v->after_count)
				continue;
			ask.differential = diff;
			snprintf(path, sizeof path, "%s/%s.%s%s.svg", dir, base, measures[i].word,
				 diff ? ".diff" : "");
			if ((rc = write_graph(path, v, before_recorded, &ask, err, err_size)))
				return rc;
			count++;
		}
		if (!before_recorded)
			continue;
		/* the stacks that changed alone, when some did */
		ask.differential = ask.changed_only = true;
		snprintf(path, sizeof path, "%s/%s.%s.changed.svg", dir, base, measures[i].word);
		rc = write_graph(path, v, before_recorded, &ask, err, err_size);
		if (rc == -ENOENT)
			err[0] = '\0';
		else if (rc)
			return rc;
		else
			count++;
		ask.changed_only = false;
	}
	return count;
}

/* Walks the variants of the sorted arrays A (B's, the graphs' widths) and
 * B4 (A's) together, writing each one's graphs. */
static int write_all(const char *dir, const struct stack *const *a, size_t a_count,
		     const struct stack *const *b4, size_t b4_count, bool before_recorded,
		     char *err, size_t err_size)
{
	struct flame_names names = { NULL, 0 };
	size_t i = 0, j = 0;
	int count = 0, rc = 0;
	while (i < a_count || j < b4_count) {
		int c = i == a_count ? 1 : j == b4_count ? -1
			: group_key_cmp(GROUP_KEY(a[i]), GROUP_KEY(b4[j]));
		const struct stack *s = c <= 0 ? a[i] : b4[j];
		struct flame_variant v = { s->kernel, s->variant, s->params, a ? a + i : NULL,
					   b4 ? b4 + j : NULL, 0, 0 };
		v.after_count = c <= 0 ? run_length(a, i, a_count) : 0;
		v.before_count = c >= 0 ? run_length(b4, j, b4_count) : 0;
		i += v.after_count;
		j += v.before_count;
		if ((rc = write_variant(dir, &v, before_recorded, &names, err, err_size)) < 0)
			break;
		count += rc;
	}
	for (size_t k = 0; k < names.count; k++)
		free(names.items[k]);
	free(names.items);
	return rc < 0 ? rc : count;
}

int flame_svg_write_dir(const char *dir, const struct run_result *r, char *err,
			size_t err_size)
{
	const struct stack **after = NULL, **before = NULL;
	bool before_recorded = r->stacks_before.recorded;
	if (!r->stacks.recorded)   /* not "every stack gone": not taken */
		return 0;
	int rc = sorted(&r->stacks, &after);
	if (!rc && before_recorded)
		rc = sorted(&r->stacks_before, &before);
	if (rc)
		snprintf(err, err_size, "%s: out of memory", dir);
	else
		rc = write_all(dir, after, r->stacks.count, before,
			       before_recorded ? r->stacks_before.count : 0, before_recorded, err,
			       err_size);
	free(after);
	free(before);
	return rc;
}
