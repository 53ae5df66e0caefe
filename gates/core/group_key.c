/* group_key.c: the order and sameness of (kernel, variant, params)
 * (group_key.h). */
#include <string.h>

#include "core/group_key.h"
#include "core/result.h"

/* strcmp, with NULL before every name. */
static int name_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return !b - !a;
	return strcmp(a, b);
}

int group_key_cmp(struct group_key a, struct group_key b)
{
	int c = name_cmp(a.kernel, b.kernel);
	if (!c)
		c = name_cmp(a.variant, b.variant);
	return c ? c : name_cmp(a.params, b.params);
}

bool group_key_same(struct group_key a, struct group_key b, enum group_scope scope)
{
	return !name_cmp(a.kernel, b.kernel) &&
	       (scope == GROUP_SCOPE_KERNEL || !name_cmp(a.params, b.params)) &&
	       (scope != GROUP_SCOPE_VARIANT || !name_cmp(a.variant, b.variant));
}

/* Whether name K is what WANT asks for: anything when WANT is NULL. */
static bool name_in(const char *k, const char *want)
{
	return !want || (k && !strcmp(k, want));
}

bool group_key_in(struct group_key k, struct group_key want)
{
	return name_in(k.kernel, want.kernel) && name_in(k.variant, want.variant) &&
	       name_in(k.params, want.params);
}

bool group_key_first_series(const struct run_result *r, size_t i, enum group_scope scope,
			    group_key_pick pick, const void *arg)
{
	const struct series *s = &r->series[i];
	if (pick && !pick(s, arg))
		return false;
	for (size_t j = 0; j < i; j++)
		if ((!pick || pick(&r->series[j], arg)) &&
		    group_key_same(GROUP_KEY(&r->series[j]), GROUP_KEY(s), scope))
			return false;
	return true;
}
