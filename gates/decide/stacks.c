/* stacks.c: the bytes, the bound and the other side of the allocation
 * call stacks (stacks.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/group_key.h"
#include "decide/stacks.h"

/* Whether A is a stack of (KERNEL, VARIANT, PARAMS). */
static bool same_variant(const struct stack *a, const char *kernel, const char *variant,
			 const char *params)
{
	return group_key_same(GROUP_KEY(a), GROUP_KEY_OF(kernel, variant, params),
			      GROUP_SCOPE_VARIANT);
}

/* Whether a counted site of KIND is a call of entry point ENTRY
 * (sample/cost_dump.h's names). */
static bool kind_matches(const char *entry, const char *kind)
{
	if (!strcmp(entry, "aligned"))
		return !strcmp(kind, "aligned_alloc") || !strcmp(kind, "posix_memalign");
	return !strcmp(entry, kind);
}

/* Whether stack ST reaches the place of site S. */
static bool reaches(const struct stack *st, const struct site *s)
{
	return !st->rest && st->file && st->line == s->line && !strcmp(st->file, s->file) &&
	       kind_matches(st->kind, s->kind) &&
	       same_variant(st, s->kernel, s->variant, s->params);
}

void stacks_bytes(struct stacks *set, const struct run_result *r)
{
	for (size_t i = 0; i < r->site_count; i++) {
		const struct site *s = &r->sites[i];
		size_t reached = 0, by = 0;
		for (size_t k = 0; !s->cost && reached < 2 && k < set->count; k++)
			if (reaches(&set->items[k], s)) {
				reached++;
				by = k;
			}
		if (reached != 1)
			continue;
		struct stack *st = &set->items[by];
		st->bytes = (st->bytes_known ? st->bytes : 0) + s->bytes;
		st->bytes_known = true;
	}
}

static int by_calls(const void *pa, const void *pb)
{
	const struct stack *a = *(const struct stack *const *)pa;
	const struct stack *b = *(const struct stack *const *)pb;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return result_stack_order(a, b);
}

/* The rest of one entry point of a variant. */
struct rest {
	const char *kind;
	uint64_t calls, instructions;
};

/* Adds the rest stacks of V[0] 's variant and region, REST[0..N), to OUT. */
static int put_rests(struct stacks *out, const struct stack *v, const struct rest *rest, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct stack *s = result_add_stack(out, v->kernel, v->variant, v->params, v->region,
						   rest[i].kind, NULL, 0);
		if (!s)
			return -ENOMEM;
		s->rest = true;
		s->calls = rest[i].calls;
		s->instructions = rest[i].instructions;
	}
	return 0;
}

/* The bound (stacks.h) of one region's stacks of a variant, V[0..N), into
 * OUT. */
static int bound_region(const struct stack *v, size_t n, struct stacks *out)
{
	const struct stack **order = malloc(n * sizeof *order);
	struct rest *rest = calloc(n, sizeof *rest);
	uint64_t total = 0, kept = 0;
	size_t rests = 0;
	bool bounded = false;
	int ret = order && rest ? 0 : -ENOMEM;
	for (size_t i = 0; !ret && i < n; i++) {
		order[i] = &v[i];
		total += v[i].calls;
		bounded |= v[i].rest;
	}
	if (!ret)
		qsort(order, n, sizeof *order, by_calls);
	/* ceil(P% of total) = total - floor((100 - P)% of total) */
	uint64_t enough = total - total * (100 - STACKS_EXPLAINED_PERCENT) / 100;
	for (size_t i = 0; !ret && i < n; i++) {
		const struct stack *s = order[i];
		if (bounded || kept < enough || i < STACKS_KEPT_MIN) {
			kept += s->calls;
			ret = result_add_stack_copy(out, s, NULL) ? 0 : -ENOMEM;
			continue;
		}
		size_t k = 0;
		while (k < rests && strcmp(rest[k].kind, s->kind))
			k++;
		rests += k == rests;
		rest[k].kind = s->kind;
		rest[k].calls += s->calls;
		rest[k].instructions += s->instructions;
	}
	ret = ret ? ret : put_rests(out, v, rest, rests);
	free(order);
	free(rest);
	return ret;
}

int stacks_bound(struct stacks *set)
{
	struct stacks out = { NULL, 0, set->recorded };
	int ret = 0;
	result_stacks_sort(set);
	for (size_t a = 0, b; !ret && a < set->count; a = b) {
		const struct stack *first = &set->items[a];
		for (b = a + 1; b < set->count &&
				same_variant(&set->items[b], first->kernel, first->variant, first->params) &&
				!strcmp(set->items[b].region, first->region);
		     b++)
			;
		ret = bound_region(first, b - a, &out);
	}
	if (ret) {
		result_stacks_free(&out);
		return ret;
	}
	result_stacks_free(set);
	*set = out;
	result_stacks_sort(set);
	return 0;
}

int stacks_settle(struct stacks *set, const struct run_result *r)
{
	stacks_bytes(set, r);
	return stacks_bound(set);
}

static bool has_series(const struct run_result *r, const struct stack *s)
{
	for (size_t i = 0; i < r->series_count; i++)
		if (same_variant(s, r->series[i].kernel, r->series[i].variant, r->series[i].params))
			return true;
	return false;
}

int stacks_take_before(struct run_result *r, const struct stacks *other)
{
	const struct stack *last = NULL;
	bool keep = false;
	result_stacks_free(&r->stacks_before);
	r->stacks_before.recorded = other->recorded;
	for (size_t i = 0; i < other->count; i++) {
		const struct stack *s = &other->items[i];
		if (!last || !same_variant(s, last->kernel, last->variant, last->params))
			keep = has_series(r, s);
		last = s;
		if (keep && !result_add_stack_copy(&r->stacks_before, s, NULL))
			return -ENOMEM;
	}
	return 0;
}
