/* flame_layout.c: stacks merged into a tree of frames with widths
 * (flame_layout.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/flame_layout.h"
#include "core/policy.h"

/* A frame while the tree is built: its children in the order they came. */
struct node {
	struct flame_frame f;
	struct node **kids;
	size_t kid_count, kid_cap;
};

uint64_t flame_stack_value(const struct stack *s, enum flame_measure m)
{
	return m == FLAME_INSTRUCTIONS ? s->instructions : s->calls;
}

static int str_order(const char *a, const char *b)
{
	if (!a || !b)   /* NULL (an unknown place) first */
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

/* The siblings' order: by name (bytes, so "(other stacks)" comes before
 * letters), then role, entry point and place; equal: the same frame. */
static int frame_order(const struct flame_frame *a, const struct flame_frame *b)
{
	int c = strcmp(a->name, b->name);
	if (!c)
		c = (int)a->role - (int)b->role;
	if (!c)
		c = str_order(a->kind, b->kind);
	if (!c)
		c = str_order(a->file, b->file);
	if (!c)
		c = (a->line > b->line) - (a->line < b->line);
	return c;
}

/* PARENT's child KEY (name, kind, role, place), made when missing; NULL
 * on no memory. */
static struct node *child(struct node *parent, const struct flame_frame *key)
{
	for (size_t i = 0; i < parent->kid_count; i++)
		if (!frame_order(&parent->kids[i]->f, key))
			return parent->kids[i];
	if (parent->kid_count == parent->kid_cap) {
		size_t cap = parent->kid_cap ? 2 * parent->kid_cap : 4;
		struct node **grown = realloc(parent->kids, cap * sizeof *grown);
		if (!grown)
			return NULL;
		parent->kids = grown;
		parent->kid_cap = cap;
	}
	struct node *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->f = *key;
	parent->kids[parent->kid_count++] = n;
	return n;
}

/* Adds VALUE to N, on the side AFTER says; an allocator frame of AFTER
 * also sums S's bytes, known only while every stack's were. */
static void count(struct node *n, const struct stack *s, uint64_t value, bool after)
{
	if (!after) {
		n->f.before += value;
		n->f.in_before = true;
		return;
	}
	if (n->f.role == FLAME_ROLE_ALLOCATOR) {
		n->f.bytes_known = (n->f.in_after ? n->f.bytes_known : true) && s->bytes_known;
		n->f.bytes += s->bytes;
	}
	n->f.value += value;
	n->f.in_after = true;
}

/* Adds stack S (of side AFTER or not) along its path from ROOT. */
static int add_stack(struct node *root, const struct stack *s, enum flame_measure m,
		     bool after)
{
	uint64_t value = flame_stack_value(s, m);
	struct flame_frame key;
	struct node *n = root;
	count(n, s, value, after);
	memset(&key, 0, sizeof key);
	if (*s->region) {
		key.name = s->region;
		key.role = FLAME_ROLE_REGION;
		if (!(n = child(n, &key)))
			return -ENOMEM;
		count(n, s, value, after);
	}
	if (s->rest) {
		key.name = FLAME_LABEL_REST;
		key.kind = s->kind;
		key.role = FLAME_ROLE_REST;
		if (!(n = child(n, &key)))
			return -ENOMEM;
		count(n, s, value, after);
		return 0;
	}
	key.role = FLAME_ROLE_DEEPER;
	key.name = FLAME_LABEL_DEEPER;
	if (s->truncated && !(n = child(n, &key)))
		return -ENOMEM;
	if (s->truncated)
		count(n, s, value, after);
	key.role = FLAME_ROLE_FUNCTION;
	for (size_t i = 0; i < s->frame_count; i++) {
		key.name = s->frames[i];
		if (!(n = child(n, &key)))
			return -ENOMEM;
		count(n, s, value, after);
	}
	key.role = FLAME_ROLE_ALLOCATOR;
	key.name = key.kind = s->kind;
	key.file = s->file;
	key.line = s->line;
	if (!(n = child(n, &key)))
		return -ENOMEM;
	count(n, s, value, after);
	return 0;
}

static int kid_cmp(const void *a, const void *b)
{
	return frame_order(&(*(struct node *const *)a)->f, &(*(struct node *const *)b)->f);
}

static size_t subtree_size(const struct node *n)
{
	size_t size = 1;
	for (size_t i = 0; i < n->kid_count; i++)
		size += subtree_size(n->kids[i]);
	return size;
}

/* Appends N (at DEPTH, left edge X, parent PARENT) and its children,
 * sorted, to T. */
static void flatten(struct flame_tree *t, struct node *n, size_t depth, uint64_t x,
		    size_t parent)
{
	size_t self = t->count++;
	struct flame_frame *f = &t->frames[self];
	*f = n->f;
	f->depth = depth;
	f->x = x;
	f->parent = parent;
	if (depth + 1 > t->depth)
		t->depth = depth + 1;
	if (n->kid_count > 1)
		qsort(n->kids, n->kid_count, sizeof *n->kids, kid_cmp);
	for (size_t i = 0; i < n->kid_count; i++) {
		flatten(t, n->kids[i], depth + 1, x, self);
		x += n->kids[i]->f.value;
	}
}

static void node_free(struct node *n)
{
	for (size_t i = 0; i < n->kid_count; i++)
		node_free(n->kids[i]);
	free(n->kids);
	free(n);
}

int flame_layout(struct flame_tree *t, const struct stack *const *after, size_t after_count,
		 const struct stack *const *before, size_t before_count, enum flame_measure m)
{
	int ret = -ENOMEM;
	memset(t, 0, sizeof *t);
	struct node *root = calloc(1, sizeof *root);
	if (!root)
		return -ENOMEM;
	root->f.name = FLAME_LABEL_ALL;
	root->f.role = FLAME_ROLE_ALL;
	for (size_t i = 0; i < after_count; i++)
		if (add_stack(root, after[i], m, true))
			goto out;
	for (size_t i = 0; i < before_count; i++)
		if (add_stack(root, before[i], m, false))
			goto out;
	t->frames = calloc(subtree_size(root), sizeof *t->frames);
	if (!t->frames)
		goto out;
	flatten(t, root, 0, 0, 0);
	ret = 0;
out:
	node_free(root);
	return ret;
}

int flame_frame_change(const struct flame_frame *f, enum flame_measure m)
{
	uint64_t a = f->before, b = f->value;
	uint64_t diff = a > b ? a - b : b - a;
	if (m == FLAME_INSTRUCTIONS && a > 0 && (double)diff <= POLICY_COST_TOLERANCE * (double)a)
		return 0;
	return (b > a) - (b < a);
}

void flame_tree_free(struct flame_tree *t)
{
	free(t->frames);
	memset(t, 0, sizeof *t);
}
