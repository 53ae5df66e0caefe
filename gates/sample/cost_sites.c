/* cost_sites.c: allocation sites from callgrind's call graph (cost_sites.h;
 * valgrind manual, "Callgrind Format Specification"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/cost_dump.h"
#include "sample/cost_sites.h"

#define FNV_OFFSET 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

static uint64_t hash_bytes(uint64_t h, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * FNV_PRIME;
	return h;
}

static uint64_t hash_fn(const char *object, const char *name, size_t name_len)
{
	return hash_bytes(hash_bytes(FNV_OFFSET, object, strlen(object) + 1), name, name_len);
}

static uint64_t hash_call(size_t caller, size_t callee, size_t file, int line)
{
	uint64_t k[4] = { caller, callee, file, (uint64_t)line };
	return hash_bytes(FNV_OFFSET, (const char *)k, sizeof k);
}

/* The hash of element I of table T of G. */
static uint64_t hash_of(const struct cost_sites *g, int t, size_t i)
{
	if (t == COST_SITES_FNS)
		return hash_fn(g->fns[i].object, g->fns[i].name, strlen(g->fns[i].name));
	if (t == COST_SITES_FILES)
		return hash_bytes(FNV_OFFSET, g->files[i], strlen(g->files[i]));
	const struct cost_sites_call *c = &g->calls[i];
	return hash_call(c->caller, c->callee, c->file, c->line);
}

/* Makes room in table T (holding COUNT elements) for one more: at most
 * half full. 0 or -ENOMEM. */
static int table_room(struct cost_sites *g, int t, size_t count)
{
	struct cost_sites_table *tb = &g->tables[t];
	if ((count + 1) * 2 <= tb->size)
		return 0;
	size_t size = tb->size ? 2 * tb->size : 1024;
	size_t *slots = malloc(size * sizeof *slots);
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < size; i++)
		slots[i] = SIZE_MAX;
	for (size_t i = 0; i < count; i++) {
		size_t at = hash_of(g, t, i) % size;
		while (slots[at] != SIZE_MAX)
			at = (at + 1) % size;
		slots[at] = i;
	}
	free(tb->slots);
	tb->slots = slots;
	tb->size = size;
	return 0;
}

/* Grows array *A of *CAP elements of SIZE bytes to hold COUNT + 1. */
static int room(void **a, size_t *cap, size_t count, size_t size)
{
	if (count < *cap)
		return 0;
	size_t n = *cap ? 2 * *cap : 256;
	void *p = realloc(*a, n * size);
	if (!p)
		return -ENOMEM;
	*a = p;
	*cap = n;
	return 0;
}

/* The index of function NAME (NAME_LEN bytes, callgrind's recursion
 * suffix "'2" dropped) of OBJECT, added when new; SIZE_MAX on no memory. */
static size_t fn_of(struct cost_sites *g, const char *object, const char *name, size_t name_len)
{
	name_len = cost_name_length(name, name + name_len);
	if (table_room(g, COST_SITES_FNS, g->fn_count) ||
	    room((void **)&g->fns, &g->fn_capacity, g->fn_count, sizeof *g->fns))
		return SIZE_MAX;
	const struct cost_sites_table *tb = &g->tables[COST_SITES_FNS];
	size_t at = hash_fn(object, name, name_len) % tb->size;
	for (; tb->slots[at] != SIZE_MAX; at = (at + 1) % tb->size) {
		const struct cost_sites_fn *fn = &g->fns[tb->slots[at]];
		if (!strcmp(fn->object, object) && !strncmp(fn->name, name, name_len) &&
		    !fn->name[name_len])
			return tb->slots[at];
	}
	struct cost_sites_fn *fn = &g->fns[g->fn_count];
	memset(fn, 0, sizeof *fn);
	fn->object = strdup(object);
	fn->name = malloc(name_len + 1);   /* not strndup: not in every C runtime */
	if (fn->name) {
		memcpy(fn->name, name, name_len);
		fn->name[name_len] = '\0';
	}
	if (!fn->object || !fn->name) {
		free(fn->object);
		free(fn->name);
		return SIZE_MAX;
	}
	fn->forwards = -1;
	fn->via_call = SIZE_MAX;
	fn->entry = cost_entry_of(name, name + name_len,
				  cost_object_is_library(object, object + strlen(object)));
	tb->slots[at] = g->fn_count;
	return g->fn_count++;
}

size_t cost_sites_fn_find(const struct cost_sites *g, const char *object, const char *name,
			  size_t name_len)
{
	const struct cost_sites_table *tb = &g->tables[COST_SITES_FNS];
	if (!tb->size)
		return SIZE_MAX;
	size_t at = hash_fn(object, name, name_len) % tb->size;
	for (; tb->slots[at] != SIZE_MAX; at = (at + 1) % tb->size) {
		const struct cost_sites_fn *fn = &g->fns[tb->slots[at]];
		if (!strcmp(fn->object, object) && !strncmp(fn->name, name, name_len) &&
		    !fn->name[name_len])
			return tb->slots[at];
	}
	return SIZE_MAX;
}

/* The index of file name FILE, added when new; SIZE_MAX on no memory. */
static size_t file_of(struct cost_sites *g, const char *file)
{
	if (table_room(g, COST_SITES_FILES, g->file_count) ||
	    room((void **)&g->files, &g->file_capacity, g->file_count, sizeof *g->files))
		return SIZE_MAX;
	const struct cost_sites_table *tb = &g->tables[COST_SITES_FILES];
	size_t at = hash_bytes(FNV_OFFSET, file, strlen(file)) % tb->size;
	for (; tb->slots[at] != SIZE_MAX; at = (at + 1) % tb->size)
		if (!strcmp(g->files[tb->slots[at]], file))
			return tb->slots[at];
	if (!(g->files[g->file_count] = strdup(file)))
		return SIZE_MAX;
	tb->slots[at] = g->file_count;
	return g->file_count++;
}

static int add_call(struct cost_sites *g, size_t caller, size_t callee, const char *file_name,
		    int line, uint64_t calls)
{
	size_t file = file_of(g, file_name);
	if (file == SIZE_MAX || table_room(g, COST_SITES_CALLS, g->call_count) ||
	    room((void **)&g->calls, &g->call_capacity, g->call_count, sizeof *g->calls))
		return -ENOMEM;
	g->fns[callee].calls_in += calls;
	const struct cost_sites_table *tb = &g->tables[COST_SITES_CALLS];
	size_t at = hash_call(caller, callee, file, line) % tb->size;
	for (; tb->slots[at] != SIZE_MAX; at = (at + 1) % tb->size) {
		struct cost_sites_call *c = &g->calls[tb->slots[at]];
		if (c->caller == caller && c->callee == callee && c->file == file && c->line == line) {
			c->calls += calls;
			return 0;
		}
	}
	g->calls[g->call_count] = (struct cost_sites_call){ caller, callee, file, line, calls };
	tb->slots[at] = g->call_count++;
	return 0;
}

/* Parser state between lines. */
struct cost_sites_parse {
	char object[4096], callee_object[4096], file[4096], fn_file[4096];
	size_t caller, callee;
	int ir_column;          /* 1-based among the numbers of a cost line; 0 if unknown */
	int pending;            /* a calls= line was read: the next cost line is its */
	uint64_t calls;
};

static int cost_line(struct cost_sites *g, struct cost_sites_parse *st, const char *p,
		     const char *end)
{
	uint64_t v[2] = { 0, 0 };
	int n = 0;
	for (char *next; n <= st->ir_column && p < end; p = next) {
		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		uint64_t x = strtoull(p, &next, 10);
		if (next == p)
			break;
		if (n == 0)
			v[0] = x;
		else if (n == st->ir_column)
			v[1] = x;
		n++;
	}
	if (st->caller == SIZE_MAX)
		return 0;
	if (st->pending && st->callee != SIZE_MAX) {
		st->pending = 0;
		return add_call(g, st->caller, st->callee, st->file, (int)v[0], st->calls);
	}
	st->pending = 0;
	g->fns[st->caller].self_ir += v[1];
	return 0;
}

int cost_sites_add_dump(struct cost_sites *g, const char *text)
{
	static const char trigger[] = "desc: Trigger: Client Request: allocgate/";
	struct cost_sites_parse *st = calloc(1, sizeof *st);
	int ret = 0, probe = 0;
	if (!st)
		return -ENOMEM;
	st->caller = st->callee = SIZE_MAX;
	for (const char *p = text; *p && !ret; ) {
		const char *end = cost_dump_line_end(p);
		if (!strncmp(p, trigger, sizeof trigger - 1)) {
			probe = 1;
		} else if (!strncmp(p, "events:", 7)) {
			st->ir_column = cost_dump_ir_column(p + 7, end);
		} else if (!strncmp(p, "ob=", 3)) {
			cost_dump_copy(st->object, sizeof st->object, p + 3, end);
		} else if (!strncmp(p, "cob=", 4)) {
			cost_dump_copy(st->callee_object, sizeof st->callee_object, p + 4, end);
		} else if (!strncmp(p, "fl=", 3)) {
			cost_dump_copy(st->fn_file, sizeof st->fn_file, p + 3, end);
			cost_dump_copy(st->file, sizeof st->file, p + 3, end);
		} else if (!strncmp(p, "fi=", 3) || !strncmp(p, "fe=", 3)) {
			cost_dump_copy(st->file, sizeof st->file, p + 3, end);
		} else if (!strncmp(p, "fn=", 3)) {
			if (!probe)
				break;   /* the header is over: not a dump of the probe */
			snprintf(st->file, sizeof st->file, "%s", st->fn_file);
			st->caller = fn_of(g, st->object, p + 3, (size_t)(end - p - 3));
			st->pending = 0;
			ret = st->caller == SIZE_MAX ? -ENOMEM : 0;
		} else if (!strncmp(p, "cfn=", 4)) {
			const char *ob = *st->callee_object ? st->callee_object : st->object;
			st->callee = fn_of(g, ob, p + 4, (size_t)(end - p - 4));
			st->callee_object[0] = '\0';   /* cob= names one call's callee */
			ret = st->callee == SIZE_MAX ? -ENOMEM : 0;
		} else if (!strncmp(p, "calls=", 6)) {
			st->calls = strtoull(p + 6, NULL, 10);
			st->pending = 1;
		} else if ((*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '*') {
			ret = cost_line(g, st, p, end);
		}
		p = *end ? end + 1 : end;
	}
	free(st);
	return ret;
}

/* The entry point a call of F reaches: F's own, or the one it forwards
 * to; -1 for neither. */
static int reaches(const struct cost_sites_fn *f)
{
	return f->entry >= 0 ? f->entry : f->forwards;
}

/* Whether F is no allocator call at all: the lazy binding of a PLT's first
 * call. */
static int is_binding(const struct cost_sites_fn *f)
{
	return !strncmp(f->name, "_dl_runtime_resolve", 19);
}

int cost_sites_is_probe(const char *name, const char *end)
{
	size_t len = (size_t)(end - name);
	return (len >= 6 && !strncmp(name, "probe_", 6)) || (len >= 5 && !strncmp(name, "gate_", 5));
}

/* Whether F is the probe's, whose calls of a kernel's variant are no
 * forwarding. */
static int is_probe(const struct cost_sites_fn *f)
{
	return cost_sites_is_probe(f->name, f->name + strlen(f->name));
}

/* One pass of the wrapper rule (cost_sites.h) over every function: F
 * forwards to entry point E when every call it makes reaches E (directly
 * or through a function already found forwarding), at most once and at
 * least every other time it was called, and the probe does not call it.
 * Returns whether a function was found forwarding. */
static int find_forwarders(struct cost_sites *g, uint64_t (*reach)[COST_ENTRIES + 1])
{
	int found = 0;
	memset(reach, 0, g->fn_count * sizeof *reach);
	for (size_t i = 0; i < g->call_count; i++) {
		const struct cost_sites_call *c = &g->calls[i];
		struct cost_sites_fn *to = &g->fns[c->callee], *from = &g->fns[c->caller];
		if (is_binding(to))
			continue;
		int e = reaches(to);
		reach[c->caller][e >= 0 ? e : COST_ENTRIES] += c->calls;
		to->probe_called |= is_probe(from);
		if (e >= 0 && (from->via_call == SIZE_MAX || g->calls[from->via_call].calls < c->calls))
			from->via_call = i;
	}
	for (size_t f = 0; f < g->fn_count; f++) {
		struct cost_sites_fn *fn = &g->fns[f];
		if (fn->entry >= 0 || fn->forwards >= 0 || !fn->calls_in || reach[f][COST_ENTRIES] ||
		    fn->probe_called || is_probe(fn))
			continue;
		int e = -1, kinds = 0;
		for (int k = 0; k < COST_ENTRIES; k++)
			if (reach[f][k]) {
				e = k;
				kinds++;
			}
		if (kinds == 1 && reach[f][e] <= fn->calls_in && 2 * reach[f][e] >= fn->calls_in) {
			fn->forwards = e;
			found = 1;
		}
	}
	return found;
}

static const char *const kinds[COST_ENTRIES] = {
	"malloc", "calloc", "realloc", "free", "aligned_alloc",
};

/* Debug information names files as the compiler was given them
 * ("./kernels/k.c" under -fdebug-prefix-map=DIR=., glibc's
 * "./string/../sysdeps/x.c"), the counted build as "kernels/k.c". */
void cost_sites_normal_path(const char *file, char *out, size_t size)
{
	size_t n = 0;
	int absolute = file[0] == '/';
	out[0] = '\0';
	for (const char *p = file; *p && size > 1;) {
		while (*p == '/')
			p++;
		const char *seg = p;
		while (*p && *p != '/')
			p++;
		size_t len = (size_t)(p - seg);
		if (!len || (len == 1 && seg[0] == '.'))
			continue;
		if (len == 2 && seg[0] == '.' && seg[1] == '.' && n > 0) {
			char *last = strrchr(out, '/');
			if (strcmp(last ? last + 1 : out, "..")) {
				n = last ? (size_t)(last - out) : 0;
				out[n] = '\0';
				continue;
			}
		}
		int w = snprintf(out + n, size - n, "%s%.*s", n || absolute ? "/" : "", (int)len, seg);
		n = w < 0 || (size_t)w >= size - n ? size - 1 : n + (size_t)w;
	}
	if (!n)
		snprintf(out, size, "%s", file);
}

int cost_sites_has_line(const char *file, int line)
{
	return *file && strcmp(file, "???") && line > 0;
}

/* The wrapper TO as a site names it: "FILE:LINE NAME" of its call toward
 * the allocator, "NAME" without line information; into OUT. */
static void via_of(const struct cost_sites *g, const struct cost_sites_fn *to, char *out,
		   size_t size)
{
	const struct cost_sites_call *c = to->via_call == SIZE_MAX ? NULL : &g->calls[to->via_call];
	const char *file = c ? g->files[c->file] : "";
	char path[4096];
	if (!c || !cost_sites_has_line(file, c->line)) {
		snprintf(out, size, "%s", to->name);
		return;
	}
	cost_sites_normal_path(file, path, sizeof path);
	snprintf(out, size, "%s:%d %s", path, c->line, to->name);
}

/* Adds CALLS calls of KIND at the place of call C to REC, merged with an
 * equal site; 0 or -ENOMEM. */
static int put_site(const struct cost_sites *g, const struct cost_sites_call *c, int kind,
		    uint64_t calls, struct record *rec)
{
	const struct cost_sites_fn *caller = &g->fns[c->caller], *to = &g->fns[c->callee];
	const char *file = g->files[c->file], *function = caller->name;
	char path[4096], via[4400] = "";
	int line = c->line;
	if (to->forwards >= 0)
		via_of(g, to, via, sizeof via);
	if (!cost_sites_has_line(file, line)) {
		const char *slash = strrchr(caller->object, '/');
		file = slash ? slash + 1 : caller->object;
		function = "-";
		line = 0;
	} else {
		cost_sites_normal_path(file, path, sizeof path);
		file = path;
	}
	for (size_t i = 0; i < rec->site_count; i++) {
		struct record_site *s = &rec->sites[i];
		if (s->line == line && !strcmp(s->kind, kinds[kind]) && !strcmp(s->file, file) &&
		    !strcmp(s->function, function)) {
			s->calls += calls;
			return 0;
		}
	}
	struct record_site *s = realloc(rec->sites, (rec->site_count + 1) * sizeof *s);
	if (!s)
		return -ENOMEM;
	rec->sites = s;
	s += rec->site_count;
	*s = (struct record_site){ strdup(kinds[kind]), strdup(function), strdup(file), line,
				   calls, 0, *via ? strdup(via) : NULL };
	rec->site_count++;
	return s->kind && s->function && s->file && (!*via || s->via) ? 0 : -ENOMEM;
}

int cost_sites_record(struct cost_sites *g, struct record *rec)
{
	uint64_t (*reach)[COST_ENTRIES + 1] = calloc(g->fn_count + 1, sizeof *reach);
	int ret = 0;
	if (!reach)
		return -ENOMEM;
	for (int depth = 0; depth < COST_SITES_WRAPPER_DEPTH && find_forwarders(g, reach); depth++)
		;
	free(reach);
	/* a call that reaches an entry point is a site, but where its caller
	 * is the allocator (realloc calling malloc) or a wrapper (its callers'
	 * calls of it are the sites) */
	for (size_t i = 0; !ret && i < g->call_count; i++) {
		const struct cost_sites_call *c = &g->calls[i];
		const struct cost_sites_fn *from = &g->fns[c->caller];
		int kind = reaches(&g->fns[c->callee]);
		if (kind >= 0 && from->entry < 0 && from->forwards < 0 && c->calls)
			ret = put_site(g, c, kind, c->calls, rec);
	}
	return ret;
}

void cost_sites_free(struct cost_sites *g)
{
	for (size_t i = 0; i < g->fn_count; i++) {
		free(g->fns[i].object);
		free(g->fns[i].name);
	}
	for (size_t i = 0; i < g->file_count; i++)
		free(g->files[i]);
	for (int t = 0; t < COST_SITES_TABLES; t++)
		free(g->tables[t].slots);
	free(g->fns);
	free(g->files);
	free(g->calls);
	memset(g, 0, sizeof *g);
}
