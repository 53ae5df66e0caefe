/* jw.c: the JSON writer (jw.h). Every allocation goes through the hooks
 * below, by way of the three forwarding wrappers jw_malloc, jw_realloc and
 * jw_dealloc: a counted build of the kernel cannot see them (the compile-time
 * macros stop at the library's boundary), the cost pass's call graph can.
 *
 * The print buffer grows by doubling; built with -DJW_GROWTH_STEP=N it
 * grows by N bytes at a time instead, the regression this example gates. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jw.h"

struct jw_hooks {
	void *(*malloc_fn)(size_t);
	void *(*realloc_fn)(void *, size_t);
	void (*free_fn)(void *);
};

static struct jw_hooks hooks = { malloc, realloc, free };

void jw_set_alloc_funcs(void *(*malloc_fn)(size_t), void *(*realloc_fn)(void *, size_t),
			void (*free_fn)(void *))
{
	hooks.malloc_fn = malloc_fn ? malloc_fn : malloc;
	hooks.realloc_fn = realloc_fn ? realloc_fn : realloc;
	hooks.free_fn = free_fn ? free_fn : free;
}

/* The forwarding wrappers: each only calls its hook. noinline: a wrapper
 * the compiler folded into its callers would need no seeing through. */
__attribute__((noinline)) static void *jw_malloc(size_t n)
{
	return hooks.malloc_fn(n);
}

__attribute__((noinline)) static void *jw_realloc(void *p, size_t n)
{
	return hooks.realloc_fn(p, n);
}

__attribute__((noinline)) static void jw_dealloc(void *p)
{
	hooks.free_fn(p);
}

void jw_free(void *p)
{
	jw_dealloc(p);
}

struct jw_item {
	char *string;       /* NULL for an integer */
	long long number;
};

struct jw_array {
	struct jw_item *items;
	size_t count, capacity;
};

struct jw_array *jw_array_new(void)
{
	struct jw_array *a = jw_malloc(sizeof *a);
	if (a)
		memset(a, 0, sizeof *a);
	return a;
}

static struct jw_item *jw_array_push(struct jw_array *a)
{
	if (a->count == a->capacity) {
		size_t cap = a->capacity ? 2 * a->capacity : 8;
		struct jw_item *items = jw_realloc(a->items, cap * sizeof *items);
		if (!items)
			return NULL;
		a->items = items;
		a->capacity = cap;
	}
	return &a->items[a->count++];
}

int jw_array_add_int(struct jw_array *a, long long v)
{
	struct jw_item *it = jw_array_push(a);
	if (!it)
		return -1;
	it->string = NULL;
	it->number = v;
	return 0;
}

int jw_array_add_string(struct jw_array *a, const char *s)
{
	size_t len = strlen(s);
	char *copy = jw_malloc(len + 1);
	if (!copy)
		return -1;
	memcpy(copy, s, len + 1);
	struct jw_item *it = jw_array_push(a);
	if (!it) {
		jw_dealloc(copy);
		return -1;
	}
	it->string = copy;
	it->number = 0;
	return 0;
}

/* The print buffer: text so far and its capacity. */
struct jw_out {
	char *text;
	size_t len, capacity;
};

/* Room for N more bytes and the final NUL; 0 or -1. */
static int ensure(struct jw_out *o, size_t n)
{
	if (o->len + n + 1 <= o->capacity)
		return 0;
	size_t cap = o->capacity ? o->capacity : 64;
	while (o->len + n + 1 > cap)
#ifdef JW_GROWTH_STEP
		cap += JW_GROWTH_STEP;
#else
		cap *= 2;
#endif
	char *text = jw_realloc(o->text, cap);
	if (!text)
		return -1;
	o->text = text;
	o->capacity = cap;
	return 0;
}

static int put(struct jw_out *o, const char *s, size_t n)
{
	if (ensure(o, n))
		return -1;
	memcpy(o->text + o->len, s, n);
	o->len += n;
	o->text[o->len] = '\0';
	return 0;
}

static int put_item(struct jw_out *o, const struct jw_item *it)
{
	char num[32];
	if (!it->string)
		return put(o, num, (size_t)snprintf(num, sizeof num, "%lld", it->number));
	if (put(o, "\"", 1))
		return -1;
	for (const char *c = it->string; *c; c++) {
		const char *esc = *c == '"' ? "\\\"" : *c == '\\' ? "\\\\" : NULL;
		if (esc ? put(o, esc, 2) : put(o, c, 1))
			return -1;
	}
	return put(o, "\"", 1);
}

char *jw_print(const struct jw_array *a)
{
	struct jw_out o = { 0 };
	int bad = put(&o, "[", 1);
	for (size_t i = 0; !bad && i < a->count; i++)
		bad = (i && put(&o, ",", 1)) || put_item(&o, &a->items[i]);
	bad = bad || put(&o, "]", 1);
	if (bad) {
		jw_dealloc(o.text);
		return NULL;
	}
	return o.text;
}

void jw_array_free(struct jw_array *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->count; i++)
		jw_dealloc(a->items[i].string);
	jw_dealloc(a->items);
	jw_dealloc(a);
}
