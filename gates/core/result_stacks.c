/* result_stacks.c: the allocation call stacks of a result (core/result.h). */
#include <stdlib.h>
#include <string.h>

#include "core/group_key.h"
#include "core/result.h"

struct stack *result_add_stack(struct stacks *set, const char *kernel, const char *variant,
			       const char *params, const char *region, const char *kind,
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
	s->region = strdup(region);
	s->kind = strdup(kind);
	s->frames = frame_count ? calloc(frame_count, sizeof *s->frames) : NULL;
	int ok = s->kernel && s->variant && s->params && s->region && s->kind &&
		 (!frame_count || s->frames);
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
		free(s->region);
		free(s->kind);
		return NULL;
	}
	set->count++;
	return s;
}

/* Frees what stack S owns. */
static void release(struct stack *s)
{
	for (size_t j = 0; j < s->frame_count; j++)
		free(s->frames[j]);
	free(s->frames);
	free(s->kernel);
	free(s->variant);
	free(s->params);
	free(s->region);
	free(s->kind);
	free(s->file);
}

struct stack *result_add_stack_copy(struct stacks *set, const struct stack *s,
				    const char *kernel)
{
	struct stack *c = result_add_stack(set, kernel ? kernel : s->kernel, s->variant, s->params,
					   s->region, s->kind, (const char *const *)s->frames,
					   s->frame_count);
	if (!c)
		return NULL;
	if (s->file && !(c->file = strdup(s->file))) {
		release(c);
		set->count--;
		return NULL;
	}
	c->line = s->line;
	c->calls = s->calls;
	c->bytes = s->bytes;
	c->bytes_known = s->bytes_known;
	c->instructions = s->instructions;
	c->truncated = s->truncated;
	c->rest = s->rest;
	return c;
}

int result_stack_order(const struct stack *a, const struct stack *b)
{
	int c = group_key_cmp(GROUP_KEY(a), GROUP_KEY(b));
	if (!c)
		c = strcmp(a->region, b->region);
	if (!c)
		c = strcmp(a->kind, b->kind);
	if (c || a->rest != b->rest)
		return c ? c : a->rest ? 1 : -1;
	for (size_t i = 0; i < a->frame_count && i < b->frame_count; i++)
		if ((c = strcmp(a->frames[i], b->frames[i])))
			return c;
	if (a->frame_count != b->frame_count)
		return a->frame_count < b->frame_count ? -1 : 1;
	/* the same frames at two lines (a function calling from both) */
	if (!a->file || !b->file)
		c = (a->file != NULL) - (b->file != NULL);
	else
		c = strcmp(a->file, b->file);
	return c ? c : (a->line > b->line) - (a->line < b->line);
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
	for (size_t i = 0; i < set->count; i++)
		release(&set->items[i]);
	free(set->items);
	memset(set, 0, sizeof *set);
}
