/* variant_filter.c: a kernel's variants narrowed to those --variant names
 * (variant_filter.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decide/expr.h"
#include "run/variant_filter.h"

struct ref_scan {
	const struct kernel_info *k;
	const bool *keep;      /* per variant of K */
	const char *dropped;   /* the first declared variant not kept */
};

static int find_dropped(const struct expr_ref *ref, void *arg)
{
	struct ref_scan *scan = arg;
	for (size_t i = 0; i < scan->k->variant_count; i++)
		if (!scan->keep[i] && !strcmp(scan->k->variants[i], ref->variant)) {
			scan->dropped = scan->k->variants[i];
			return 1;
		}
	return 0;
}

/* Marks expectation E of K left out when it names a variant KEEP drops; an
 * expression that does not parse is left to be refused where it is checked. */
static int mark_expect(const struct kernel_info *k, struct kernel_expect *e, const bool *keep)
{
	struct expr x;
	char err[200];
	struct ref_scan scan = { k, keep, NULL };
	if (e->left_out || expr_parse(e->expr, &x, err, sizeof err))
		return 0;
	expr_each_ref(&x, find_dropped, &scan);
	expr_free(&x);
	if (scan.dropped && !(e->left_out = strdup(scan.dropped)))
		return -ENOMEM;
	return 0;
}

static bool named(const char *variant, const char *const *names, size_t count, bool *seen)
{
	bool found = false;
	for (size_t i = 0; i < count; i++)
		if (!strcmp(names[i], variant)) {
			found = true;
			if (seen)
				seen[i] = true;
		}
	return found;
}

int variant_filter_apply(struct kernel_info *k, const char *const *names, size_t count,
			 bool *seen)
{
	if (!count)
		return (int)k->variant_count;
	bool *keep = calloc(k->variant_count + 1, sizeof *keep);
	if (!keep)
		return -ENOMEM;
	for (size_t i = 0; i < k->variant_count; i++)
		keep[i] = named(k->variants[i], names, count, seen);
	for (size_t e = 0; e < k->expect_count; e++)
		if (mark_expect(k, &k->expects[e], keep)) {
			free(keep);
			return -ENOMEM;
		}
	size_t kept = 0;
	for (size_t i = 0; i < k->variant_count; i++) {
		if (!keep[i]) {
			free(k->variants[i]);
			free(k->variant_files[i]);
			continue;
		}
		k->variants[kept] = k->variants[i];
		k->variant_files[kept] = k->variant_files[i];
		k->variant_lines[kept] = k->variant_lines[i];
		kept++;
	}
	k->variant_count = kept;
	free(keep);
	return (int)kept;
}
