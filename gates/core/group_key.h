/* group_key.h: the names of what a run measures, (kernel, variant,
 * params), and the one way they are ordered and compared. A group
 * (docs/architecture.md, "Words that mean one thing here") is one (kernel,
 * parameter set); a variant is one of its variants. Series, sites, stacks,
 * problems, claims and diff rows are all keyed by these names: whoever
 * orders them or asks whether two are the same asks here, so that the
 * decisions and every renderer agree on what one group is. */
#ifndef GATE_GROUP_KEY_H
#define GATE_GROUP_KEY_H

#include <stdbool.h>
#include <stddef.h>

struct run_result;
struct series;

struct group_key {
	const char *kernel;
	const char *variant;      /* NULL: none (a group's key, a kernel's) */
	const char *params;       /* NULL: none (a kernel's key) */
};

/* The key of X: anything with members kernel, variant and params (a
 * series, a site, a stack, a problem, a diff row). */
#define GROUP_KEY(x) ((struct group_key){ (x)->kernel, (x)->variant, (x)->params })

/* The key (KERNEL, VARIANT, PARAMS), NULL where it names none. */
#define GROUP_KEY_OF(kernel, variant, params) \
	((struct group_key){ (kernel), (variant), (params) })

/* How much of their keys two things share: the kernel, the group (kernel
 * and params), or the variant (all three names). */
enum group_scope { GROUP_SCOPE_KERNEL, GROUP_SCOPE_GROUP, GROUP_SCOPE_VARIANT };

/* The order of keys: by kernel, then variant, then params, each by strcmp
 * (a NULL name before every other); negative, 0 or positive. */
int group_key_cmp(struct group_key a, struct group_key b);

/* Whether A and B are the same within SCOPE: each name SCOPE covers equal
 * in both, or NULL in both. */
bool group_key_same(struct group_key a, struct group_key b, enum group_scope scope);

/* Whether K lies within WANT: every name WANT gives is K's; a NULL name of
 * WANT matches any (GROUP_KEY_OF(kernel, NULL, NULL): every key of that
 * kernel), a NULL name of K none but that. */
bool group_key_in(struct group_key k, struct group_key want);

/* Which series a renderer looks at (NULL: every one); ARG is the caller's. */
typedef bool (*group_key_pick)(const struct series *s, const void *arg);

/* Whether series I of R is taken by PICK and no series before it that PICK
 * takes is the same as it within SCOPE: the first of its kernel, group or
 * variant, under which a renderer writes their one chart or paragraph. */
bool group_key_first_series(const struct run_result *r, size_t i, enum group_scope scope,
			    group_key_pick pick, const void *arg);

#endif
