/* cost_stacks.c: allocation call stacks from callgrind's contexts
 * (cost_stacks.h; valgrind manual, callgrind's --separate-callers and
 * "Callgrind Format Specification"). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/cost_dump.h"
#include "sample/cost_stacks.h"

#define FNV_OFFSET 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const unsigned char *)p)[i]) * FNV_PRIME;
	return h;
}

static uint64_t hash_text(uint64_t h, const char *s)
{
	return hash_bytes(h, s, strlen(s) + 1);
}

static uint64_t hash_context(const struct cost_stacks_context *c)
{
	uint64_t h = hash_bytes(hash_text(FNV_OFFSET, c->region), &c->entry, sizeof c->entry);
	h = hash_text(hash_text(hash_text(hash_text(h, c->object), c->caller), c->callers), c->file);
	return hash_bytes(h, &c->line, sizeof c->line);
}

static bool same_context(const struct cost_stacks_context *a, const struct cost_stacks_context *b)
{
	return a->entry == b->entry && a->line == b->line && !strcmp(a->caller, b->caller) &&
	       !strcmp(a->callers, b->callers) && !strcmp(a->file, b->file) &&
	       !strcmp(a->object, b->object) && !strcmp(a->region, b->region);
}

/* Makes room for one more item: the items array and a hash at most half
 * full. 0 or -ENOMEM. */
static int make_room(struct cost_stacks *s)
{
	if (s->count == s->capacity) {
		size_t n = s->capacity ? 2 * s->capacity : 64;
		struct cost_stacks_context *items = realloc(s->items, n * sizeof *items);
		if (!items)
			return -ENOMEM;
		s->items = items;
		s->capacity = n;
	}
	if ((s->count + 1) * 2 <= s->slot_count)
		return 0;
	size_t size = s->slot_count ? 2 * s->slot_count : 256;
	size_t *slots = malloc(size * sizeof *slots);
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < size; i++)
		slots[i] = SIZE_MAX;
	for (size_t i = 0; i < s->count; i++) {
		size_t at = hash_context(&s->items[i]) % size;
		while (slots[at] != SIZE_MAX)
			at = (at + 1) % size;
		slots[at] = i;
	}
	free(s->slots);
	s->slots = slots;
	s->slot_count = size;
	return 0;
}

/* Adds the calls and instructions of KEY (its strings borrowed) to S. */
static int add_context(struct cost_stacks *s, const struct cost_stacks_context *key)
{
	if (make_room(s))
		return -ENOMEM;
	size_t at = hash_context(key) % s->slot_count;
	for (; s->slots[at] != SIZE_MAX; at = (at + 1) % s->slot_count) {
		struct cost_stacks_context *c = &s->items[s->slots[at]];
		if (same_context(c, key)) {
			c->calls += key->calls;
			c->ir += key->ir;
			return 0;
		}
	}
	struct cost_stacks_context *c = &s->items[s->count];
	*c = *key;
	c->region = strdup(key->region);
	c->object = strdup(key->object);
	c->caller = strdup(key->caller);
	c->callers = strdup(key->callers);
	c->file = strdup(key->file);
	if (!c->region || !c->object || !c->caller || !c->callers || !c->file) {
		free(c->region);
		free(c->object);
		free(c->caller);
		free(c->callers);
		free(c->file);
		return -ENOMEM;
	}
	s->slots[at] = s->count++;
	return 0;
}

/* Parser state between lines. */
struct parse {
	char region[512];           /* the dump's label after "allocgate/" */
	char object[4096], callee_object[4096], file[4096], fn_file[4096];
	char caller[4096];          /* the current fn=, without context */
	bool in_allocator;          /* it is an entry point: its calls are the allocator's */
	int entry;                  /* the last cfn='s entry point, -1 none */
	char callers[8192];         /* its context after the first '\'' */
	int ir_column;              /* 1-based among a cost line's numbers after the
				     * position; 0 unknown */
	bool pending;               /* a calls= line was read: the next cost line is its */
	uint64_t calls;
};

/* A cost line P (to END) after a calls= line of an entry point: its
 * position (the caller's line) and Ir. */
static int cost_line(struct cost_stacks *s, struct parse *st, const char *p, const char *end)
{
	uint64_t v[2] = { 0, 0 };
	int n = 0;
	for (char *next; n <= st->ir_column && p < end; p = next) {
		uint64_t x = strtoull(p, &next, 10);
		if (next == p)
			break;
		if (n == 0)
			v[0] = x;
		else if (n == st->ir_column)
			v[1] = x;
		n++;
	}
	bool counts = st->pending && st->entry >= 0 && !st->in_allocator && *st->caller;
	st->pending = false;
	if (!counts || n == 0)
		return 0;
	struct cost_stacks_context key = { st->region, st->entry, st->object, st->caller, st->callers,
					   st->file, v[0] > 0 && v[0] < 1u << 30 ? (int)v[0] : 0,
					   st->calls, v[1] };
	return add_context(s, &key);
}

/* The function line "fn=NAME" (P to END). */
static void caller_line(struct parse *st, const char *p, const char *end)
{
	size_t len = cost_name_length(p, end);
	cost_dump_copy(st->caller, sizeof st->caller, p, p + len);
	st->in_allocator = cost_entry_of(p, end, cost_object_is_library(st->object,
		st->object + strlen(st->object))) >= 0;
	snprintf(st->file, sizeof st->file, "%s", st->fn_file);
	st->pending = false;
}

/* The callee line "cfn=NAME'CONTEXT" (P to END). */
static void callee_line(struct parse *st, const char *p, const char *end)
{
	const char *ob = *st->callee_object ? st->callee_object : st->object;
	size_t len = cost_name_length(p, end);
	st->entry = cost_entry_of(p, end, cost_object_is_library(ob, ob + strlen(ob)));
	cost_dump_copy(st->callers, sizeof st->callers, p + len + (p + len < end), end);
	st->callee_object[0] = '\0';   /* cob= names one call's callee */
}

int cost_stacks_add_dump(struct cost_stacks *s, const char *text)
{
	static const char trigger[] = "desc: Trigger: Client Request: allocgate/";
	struct parse *st = calloc(1, sizeof *st);
	int ret = 0;
	bool probe = false;
	if (!st)
		return -ENOMEM;
	st->entry = -1;
	for (const char *p = text; *p && !ret;) {
		const char *end = cost_dump_line_end(p);
		if (!strncmp(p, trigger, sizeof trigger - 1)) {
			probe = true;
			cost_dump_copy(st->region, sizeof st->region, p + sizeof trigger - 1, end);
		}
		else if (!strncmp(p, "events:", 7))
			st->ir_column = cost_dump_ir_column(p + 7, end);
		else if (!strncmp(p, "ob=", 3))
			cost_dump_copy(st->object, sizeof st->object, p + 3, end);
		else if (!strncmp(p, "cob=", 4))
			cost_dump_copy(st->callee_object, sizeof st->callee_object, p + 4, end);
		else if (!strncmp(p, "fl=", 3)) {
			cost_dump_copy(st->fn_file, sizeof st->fn_file, p + 3, end);
			cost_dump_copy(st->file, sizeof st->file, p + 3, end);
		} else if (!strncmp(p, "fi=", 3) || !strncmp(p, "fe=", 3))
			cost_dump_copy(st->file, sizeof st->file, p + 3, end);
		else if (!strncmp(p, "fn=", 3)) {
			if (!probe)
				break;   /* the header is over: not a dump of the probe */
			caller_line(st, p + 3, end);
		} else if (!strncmp(p, "cfn=", 4))
			callee_line(st, p + 4, end);
		else if (!strncmp(p, "calls=", 6)) {
			st->calls = strtoull(p + 6, NULL, 10);
			st->pending = true;
		} else if ((*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '*')
			ret = cost_line(s, st, p, end);
		p = *end ? end + 1 : end;
	}
	free(st);
	return ret;
}

/* The functions that start a thread, whose callee is the thread's root:
 * glibc's (nptl/pthread_create.c), musl's C11 threads', macOS's. */
static const char *const thread_starts[] = { "start_thread", "start_c11", "_pthread_start" };

static bool is_thread_start(const char *name)
{
	for (size_t i = 0; i < sizeof thread_starts / sizeof *thread_starts; i++)
		if (!strcmp(name, thread_starts[i]))
			return true;
	return false;
}

/* One stack made of a context, before equal ones are added up. */
struct made {
	const char *region;      /* the context's */
	int entry;
	char **frames;           /* root first; one block with the names */
	size_t frame_count;
	char *file;              /* NULL: no line information */
	int line;
	uint64_t calls, ir;
	bool truncated;
};

/* What cost_stacks_record works with. */
struct making {
	const struct cost_sites *g;
	size_t *in_start;        /* calls into function f: in_list[in_start[f]..in_start[f + 1]) */
	size_t *in_list;         /* indices of g->calls, by callee */
	struct made *made;
	size_t count, capacity;
};

/* Indexes G's calls by callee; 0 or -ENOMEM. */
static int index_callers(struct making *m)
{
	const struct cost_sites *g = m->g;
	m->in_start = calloc(g->fn_count + 2, sizeof *m->in_start);
	m->in_list = malloc((g->call_count + 1) * sizeof *m->in_list);
	if (!m->in_start || !m->in_list)
		return -ENOMEM;
	for (size_t i = 0; i < g->call_count; i++)
		m->in_start[g->calls[i].callee + 2]++;
	for (size_t f = 2; f < g->fn_count + 2; f++)
		m->in_start[f] += m->in_start[f - 1];
	for (size_t i = 0; i < g->call_count; i++)
		m->in_list[m->in_start[g->calls[i].callee + 1]++] = i;
	return 0;
}

/* The function named NAME that calls CALLEE in the call graph, or SIZE_MAX. */
static size_t caller_named(const struct making *m, size_t callee, const char *name)
{
	for (size_t k = m->in_start[callee]; k < m->in_start[callee + 1]; k++) {
		size_t caller = m->g->calls[m->in_list[k]].caller;
		if (!strcmp(m->g->fns[caller].name, name))
			return caller;
	}
	return SIZE_MAX;
}

/* The frames of context C, leaf first, into *FRAMES (pointers into *BUF,
 * both malloc'd): its callers without recursion depths ("'2"), the direct
 * caller first. Returns their count, 0 on no memory. */
static size_t split_callers(const struct cost_stacks_context *c, char ***frames, char **buf)
{
	size_t len = strlen(c->callers), n = 0;
	*buf = malloc(strlen(c->caller) + len + 2);
	*frames = malloc((len / 2 + 2) * sizeof **frames);
	if (!*buf || !*frames)
		return 0;
	sprintf(*buf, "%s'%s", c->caller, c->callers);
	for (char *p = *buf, *next; p; p = next) {
		next = strchr(p, '\'');
		if (next)
			*next++ = '\0';
		bool depth = *p && strspn(p, "0123456789") == strlen(p);
		if (*p && !depth && (n != 1 || strcmp(p, (*frames)[0])))
			(*frames)[n++] = p;   /* the context repeats the direct caller */
	}
	return n;
}

/* FRAMES[FIRST..LAST] as one block (pointers, then the names), in their
 * order or, REVERSED, the other way round; NULL on no memory. */
static char **frames_block(char *const *frames, size_t first, size_t last, bool reversed)
{
	size_t bytes = 0, n = last - first + 1;
	for (size_t i = first; i <= last; i++)
		bytes += strlen(frames[i]) + 1;
	char **out = malloc(n * sizeof *out + bytes);
	char *text = out ? (char *)(out + n) : NULL;
	for (size_t i = 0; out && i < n; i++) {
		out[i] = strcpy(text, frames[reversed ? last - i : first + i]);
		text += strlen(text) + 1;
	}
	return out;
}

/* Appends a stack to M; its frames are a frames_block (taken). */
static int add_made(struct making *m, const struct made *one)
{
	if (m->count == m->capacity) {
		size_t n = m->capacity ? 2 * m->capacity : 64;
		struct made *grown = realloc(m->made, n * sizeof *grown);
		if (!grown)
			return -ENOMEM;
		m->made = grown;
		m->capacity = n;
	}
	m->made[m->count++] = *one;
	return 0;
}

/* FILE:LINE as the sites name a call's place, malloc'd into *OUT (NULL
 * without line information); 0 or -ENOMEM. */
static int place_name(const char *file, int line, char **out)
{
	char path[4096];
	*out = NULL;
	if (!cost_sites_has_line(file, line))
		return 0;
	cost_sites_normal_path(file, path, sizeof path);
	*out = strdup(path);
	return *out ? 0 : -ENOMEM;
}

/* PART / WHOLE of TOTAL, rounded down (WHOLE > 0). */
static uint64_t share(uint64_t total, uint64_t part, uint64_t whole)
{
	return (uint64_t)((long double)total * (long double)part / (long double)whole);
}

/* Adds ONE (its frames taken) at every line where function CALLER called
 * CALLEE (the outermost wrapper folded), ONE's calls and instructions
 * shared among them by those calls, the last line taking what rounding
 * left. 0 or -ENOMEM. */
static int add_at_wrapper_calls(struct making *m, struct made *one, size_t caller, size_t callee)
{
	const struct cost_sites *g = m->g;
	uint64_t whole = 0, calls_left = one->calls, ir_left = one->ir;
	size_t last = SIZE_MAX;
	for (size_t k = m->in_start[callee]; k < m->in_start[callee + 1]; k++)
		if (g->calls[m->in_list[k]].caller == caller) {
			whole += g->calls[m->in_list[k]].calls;
			last = k;
		}
	int ret = 0;
	if (last == SIZE_MAX) {   /* no such call: the place is not known */
		if ((ret = add_made(m, one)))
			free(one->frames);
		return ret;
	}
	for (size_t k = m->in_start[callee]; !ret && k <= last; k++) {
		const struct cost_sites_call *c = &g->calls[m->in_list[k]];
		if (c->caller != caller)
			continue;
		struct made at = *one;
		at.line = c->line;
		at.calls = k == last ? calls_left : share(one->calls, c->calls, whole ? whole : 1);
		at.ir = k == last ? ir_left : share(one->ir, c->calls, whole ? whole : 1);
		calls_left -= at.calls;
		ir_left -= at.ir;
		/* the last place takes ONE's frames, the others a copy */
		if (k != last && !(at.frames = frames_block(one->frames, 0, one->frame_count - 1,
							     false)))
			ret = -ENOMEM;
		ret = ret ? ret : place_name(g->files[c->file], c->line, &at.file);
		ret = ret ? ret : add_made(m, &at);
		if (ret && k != last)
			free(at.frames);
		if (ret)
			free(at.file);
		if (!ret && k == last)
			one->frames = NULL;
	}
	free(one->frames);
	return ret;
}

/* The stack of context C (cost_stacks.h): wrappers folded, cut at its
 * root; added to M. 0 or -ENOMEM. */
static int make_stack(struct making *m, const struct cost_stacks_context *c)
{
	const struct cost_sites *g = m->g;
	char **frames = NULL, *buf = NULL;
	size_t k = split_callers(c, &frames, &buf), j = 0;
	size_t at = cost_sites_fn_find(g, c->object, c->caller, strlen(c->caller)), below = SIZE_MAX;
	int ret = k ? 0 : -ENOMEM;
	/* the wrappers nearest the entry point, as the sites see through them */
	while (!ret && j + 1 < k && at != SIZE_MAX && g->fns[at].forwards >= 0) {
		size_t next = caller_named(m, at, frames[j + 1]);
		if (next == SIZE_MAX)
			break;
		below = at;
		at = next;
		j++;
	}
	size_t root = j;
	while (root + 1 < k && !cost_sites_is_probe(frames[root + 1], frames[root + 1] +
						     strlen(frames[root + 1])) &&
	       !is_thread_start(frames[root + 1]))
		root++;
	struct made one = { c->region, c->entry, NULL, root - j + 1, NULL, c->line, c->calls, c->ir,
			    false };
	/* the outermost frame is the root but where callgrind's context was full,
	 * or where it gave none (the caller alone) */
	one.truncated = root + 1 == k && (k >= COST_STACK_DEPTH || !*c->callers);
	if (!ret && !(one.frames = frames_block(frames, j, root, true)))
		ret = -ENOMEM;
	if (!ret && below != SIZE_MAX) {
		ret = add_at_wrapper_calls(m, &one, at, below);
	} else if (!ret) {
		ret = place_name(c->file, c->line, &one.file);
		ret = ret ? ret : add_made(m, &one);
		if (ret) {
			free(one.frames);
			free(one.file);
		}
	}
	free(frames);
	free(buf);
	return ret;
}

/* The order stacks are added up in: region, entry point, frames, file,
 * line. */
static int made_order(const void *pa, const void *pb)
{
	const struct made *a = pa, *b = pb;
	int r = strcmp(a->region, b->region);
	if (r)
		return r;
	if (a->entry != b->entry)
		return a->entry < b->entry ? -1 : 1;
	for (size_t i = 0; i < a->frame_count && i < b->frame_count; i++) {
		int c = strcmp(a->frames[i], b->frames[i]);
		if (c)
			return c;
	}
	if (a->frame_count != b->frame_count)
		return a->frame_count < b->frame_count ? -1 : 1;
	int c = !a->file || !b->file ? (a->file != NULL) - (b->file != NULL) : strcmp(a->file, b->file);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* M's stacks into OUT, equal ones added up. 0 or -ENOMEM. */
static int put_stacks(struct making *m, struct stacks *out)
{
	if (m->count > 1)
		qsort(m->made, m->count, sizeof *m->made, made_order);
	for (size_t i = 0; i < m->count;) {
		struct made sum = m->made[i];
		size_t next = i + 1;
		for (; next < m->count && !made_order(&sum, &m->made[next]); next++) {
			sum.calls += m->made[next].calls;
			sum.ir += m->made[next].ir;
			sum.truncated |= m->made[next].truncated;
		}
		struct stack *st = result_add_stack(out, "", "", "", sum.region,
						    cost_entry_name(sum.entry),
						    (const char *const *)sum.frames, sum.frame_count);
		if (!st || (sum.file && !(st->file = strdup(sum.file))))
			return -ENOMEM;
		st->line = sum.file ? sum.line : 0;
		st->calls = sum.calls;
		st->instructions = sum.ir;
		st->truncated = sum.truncated;
		i = next;
	}
	return 0;
}

int cost_stacks_record(const struct cost_stacks *s, const struct cost_sites *g,
		       struct stacks *out)
{
	struct making m = { .g = g };
	int ret = index_callers(&m);
	for (size_t i = 0; !ret && i < s->count; i++)
		ret = make_stack(&m, &s->items[i]);
	ret = ret ? ret : put_stacks(&m, out);
	for (size_t i = 0; i < m.count; i++) {
		free(m.made[i].frames);
		free(m.made[i].file);
	}
	free(m.made);
	free(m.in_start);
	free(m.in_list);
	out->recorded = true;
	return ret;
}

void cost_stacks_free(struct cost_stacks *s)
{
	for (size_t i = 0; i < s->count; i++) {
		free(s->items[i].region);
		free(s->items[i].object);
		free(s->items[i].caller);
		free(s->items[i].callers);
		free(s->items[i].file);
	}
	free(s->items);
	free(s->slots);
	memset(s, 0, sizeof *s);
}
