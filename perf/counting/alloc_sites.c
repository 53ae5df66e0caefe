/* alloc_sites.c: the per call site counts of a counted build
 * (alloc_sites.h).
 *
 * An open-addressing table of ALLOC_SITE_SLOTS slots, keyed by (file,
 * line, kind, function), in static storage. A slot is claimed once by a
 * compare-and-swap of its state (free -> writing -> ready) and never
 * released; its counts are relaxed atomic adds. The same __FILE__ text may
 * come with different pointers (an inline function in a header), so keys
 * compare by pointer first and by text after. Each thread remembers the
 * slots of its recent calls (16, by line and kind), which a loop finds at
 * once. */
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "counting/alloc_sites.h"

enum { SLOT_FREE, SLOT_WRITING, SLOT_READY };

struct alloc_site_slot {
	atomic_int state;
	const char *file, *function;
	int line;
	enum alloc_site_kind kind;
	_Atomic uint64_t calls, bytes;
};

static struct alloc_site_slot alloc_site_table[ALLOC_SITE_SLOTS];
static _Atomic uint64_t alloc_site_dropped;
/* Each thread's recent slots, direct-mapped by line and kind: a loop's
 * malloc and free find theirs without hashing the file name. */
#define ALLOC_SITE_RECENT 16
static _Thread_local struct alloc_site_slot *alloc_site_recent[ALLOC_SITE_RECENT];

static const char *const kind_names[ALLOC_SITE_KINDS] = {
	[ALLOC_SITE_MALLOC] = "malloc",
	[ALLOC_SITE_CALLOC] = "calloc",
	[ALLOC_SITE_REALLOC] = "realloc",
	[ALLOC_SITE_FREE] = "free",
	[ALLOC_SITE_STRDUP] = "strdup",
	[ALLOC_SITE_STRNDUP] = "strndup",
	[ALLOC_SITE_ALIGNED_ALLOC] = "aligned_alloc",
	[ALLOC_SITE_POSIX_MEMALIGN] = "posix_memalign",
};

const char *alloc_site_kind_name(enum alloc_site_kind kind)
{
	return kind < ALLOC_SITE_KINDS ? kind_names[kind] : "?";
}

static int same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int slot_is(const struct alloc_site_slot *s, const char *file, int line,
		   const char *function, enum alloc_site_kind kind)
{
	return s->line == line && s->kind == kind && same_text(s->file, file) &&
	       same_text(s->function, function);
}

/* FNV-1a over the file's text (pointers differ between copies), the line
 * and the kind. */
static size_t slot_hash(const char *file, int line, enum alloc_site_kind kind)
{
	uint64_t h = 1469598103934665603ull;
	for (const unsigned char *p = (const unsigned char *)file; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	h = (h ^ (uint64_t)line) * 1099511628211ull;
	h = (h ^ (uint64_t)kind) * 1099511628211ull;
	return (size_t)(h % ALLOC_SITE_SLOTS);
}

static struct alloc_site_slot *slot_find(const char *file, int line, const char *function,
					 enum alloc_site_kind kind)
{
	size_t start = slot_hash(file, line, kind);
	for (size_t i = 0; i < ALLOC_SITE_SLOTS; i++) {
		struct alloc_site_slot *s = &alloc_site_table[(start + i) % ALLOC_SITE_SLOTS];
		int state = atomic_load_explicit(&s->state, memory_order_acquire);
		if (state == SLOT_FREE) {
			if (atomic_compare_exchange_strong_explicit(&s->state, &state, SLOT_WRITING,
								    memory_order_acq_rel,
								    memory_order_acquire)) {
				s->file = file;
				s->function = function;
				s->line = line;
				s->kind = kind;
				atomic_store_explicit(&s->state, SLOT_READY, memory_order_release);
				return s;
			}
		}
		/* another thread is writing this slot's key: wait for it */
		while (state == SLOT_WRITING)
			state = atomic_load_explicit(&s->state, memory_order_acquire);
		if (slot_is(s, file, line, function, kind))
			return s;
	}
	return NULL;
}

void alloc_site_note(const char *file, int line, const char *function,
		     enum alloc_site_kind kind, uint64_t bytes)
{
	if (!file)
		return;
	size_t r = ((size_t)line * 8 + (size_t)kind) % ALLOC_SITE_RECENT;
	struct alloc_site_slot *s = alloc_site_recent[r];
	if (!s || s->file != file || s->line != line || s->kind != kind ||
	    s->function != function) {
		s = slot_find(file, line, function, kind);
		if (!s) {
			atomic_fetch_add_explicit(&alloc_site_dropped, 1, memory_order_relaxed);
			return;
		}
		alloc_site_recent[r] = s;
	}
	atomic_fetch_add_explicit(&s->calls, 1, memory_order_relaxed);
	if (bytes)
		atomic_fetch_add_explicit(&s->bytes, bytes, memory_order_relaxed);
}

void alloc_sites_each(void (*fn)(const struct alloc_site_view *site, void *arg), void *arg)
{
	for (size_t i = 0; i < ALLOC_SITE_SLOTS; i++) {
		struct alloc_site_slot *s = &alloc_site_table[i];
		if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_READY)
			continue;
		struct alloc_site_view v = {
			s->file, s->function ? s->function : "?", alloc_site_kind_name(s->kind),
			s->line, atomic_load_explicit(&s->calls, memory_order_relaxed),
			atomic_load_explicit(&s->bytes, memory_order_relaxed),
		};
		if (v.calls)
			fn(&v, arg);
	}
}

uint64_t alloc_sites_dropped(void)
{
	return atomic_load_explicit(&alloc_site_dropped, memory_order_relaxed);
}
