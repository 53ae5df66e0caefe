/* result_stacks.c: the allocation call stacks of a result (core/result.h). */
#include <stdlib.h>
#include <string.h>

#include "core/group_key.h"
#include "core/result.h"

struct stack *result_add_stack(struct stacks *set, const char *kernel, const char *variant,
			       const char *params, const char *kind,
			       const char *const *frames, size_t frame_count)
{
	struct stack *grown = realloc(set->items, (set->count + 1) * sizeof *grown);
	if (!grown)
		return NULL;
	set->items = grown;
	struct stack *s = &set->items[set->count];
	memset(s, 0, sizeof *s);
	s->kernel = strdup(kernel);
	s->variant = strdup(variant);
	s->params = strdup(params);
	s->kind = strdup(kind);
	s->frames = frame_count ? calloc(frame_count, sizeof *s->frames) : NULL;
	int ok = s->kernel && s->variant && s->params && s->kind && (!frame_count || s->frames);
	for (size_t i = 0; ok && i < frame_count; i++) {
		s->frames[i] = strdup(frames[i]);
		ok = s->frames[i] != NULL;
		s->frame_count = i + 1;
	}
	if (!ok) {
		for (size_t i = 0; i < s->frame_count; i++)
			free(s->frames[i]);
		free(s->frames);
		free(s->kernel);
		free(s->variant);
		free(s->params);
		free(s->kind);
		return NULL;
	}
	set->count++;
	return s;
}

int result_stack_order(const struct stack *a, const struct stack *b)
{
	int c = group_key_cmp(GROUP_KEY(a), GROUP_KEY(b));
	if (!c)
		c = strcmp(a->kind, b->kind);
	if (c || a->rest != b->rest)
		return c ? c : a->rest ? 1 : -1;
	for (size_t i = 0; i < a->frame_count && i < b->frame_count; i++)
		if ((c = strcmp(a->frames[i], b->frames[i])))
			return c;
	return a->frame_count < b->frame_count ? -1 : a->frame_count > b->frame_count;
}

static int stack_cmp(const void *a, const void *b)
{
	return result_stack_order(a, b);
}

void result_stacks_sort(struct stacks *set)
{
	if (set->count > 1)
		qsort(set->items, set->count, sizeof *set->items, stack_cmp);
}

void result_stacks_free(struct stacks *set)
{
	for (size_t i = 0; i < set->count; i++) {
		struct stack *s = &set->items[i];
		for (size_t j = 0; j < s->frame_count; j++)
			free(s->frames[j]);
		free(s->frames);
		free(s->kernel);
		free(s->variant);
		free(s->params);
		free(s->kind);
		free(s->file);
	}
	free(set->items);
	memset(set, 0, sizeof *set);
}
