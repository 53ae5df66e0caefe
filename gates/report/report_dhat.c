/* report_dhat.c: the call stacks as DHAT's file (report_dhat.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/report_dhat.h"
#include "core/group_key.h"
#include "report/format.h"
#include "store/atomic_file.h"
#include "store/jsonout.h"

/* The frame table: the strings in order, and each one's index by name. */
struct frame_table {
	json_t *list;    /* array of strings, [0] "[root]" */
	json_t *index;   /* object: string -> integer */
};

/* Appends to FS the index of frame TEXT in T, adding it when new (as
 * jsonout_string writes it: bytes that are not UTF-8 replaced); 0 or
 * -ENOMEM. */
static int frame(struct frame_table *t, json_t *fs, const char *text)
{
	json_t *name = jsonout_string(text);
	const char *key = name ? json_string_value(name) : NULL;
	json_t *at = key ? json_object_get(t->index, key) : NULL;
	json_int_t i = at ? json_integer_value(at) : (json_int_t)json_array_size(t->list);
	int rc = key ? 0 : -ENOMEM;
	if (!rc && !at && (json_object_set_new(t->index, key, json_integer(i)) ||
			   json_array_append(t->list, name)))
		rc = -ENOMEM;
	json_decref(name);
	if (!rc && json_array_append_new(fs, json_integer(i)))
		rc = -ENOMEM;
	return rc;
}

/* The innermost frame of S: its entry point and where it was called. */
static void leaf_text(const struct stack *s, char *buf, size_t size)
{
	char place[1024];
	if (s->rest) {
		snprintf(buf, size, "(other stacks) of %s", s->kind);
	} else if (!s->file) {
		snprintf(buf, size, "%s at an unknown line", s->kind);
	} else {
		format_site_place(s->file, s->line, place, sizeof place);
		snprintf(buf, size, "%s at %s", s->kind, place);
	}
}

/* The frames of S, innermost first (report_dhat.h), into FS. */
static int frames_of(struct frame_table *t, json_t *fs, const struct stack *s)
{
	char text[2048];
	leaf_text(s, text, sizeof text);
	int rc = frame(t, fs, text);
	for (size_t i = s->frame_count; !rc && i > 0; i--)
		rc = frame(t, fs, s->frames[i - 1]);
	if (!rc && s->truncated)
		rc = frame(t, fs, "(deeper)");
	if (!rc && *s->region) {
		snprintf(text, sizeof text, "region %s", s->region);
		rc = frame(t, fs, text);
	}
	if (!rc) {
		snprintf(text, sizeof text, "%s/%s/%s", s->kernel, s->variant, s->params);
		rc = frame(t, fs, text);
	}
	return rc;
}

/* One program point of S, appended to PPS. */
static int point(struct frame_table *t, json_t *pps, const struct stack *s)
{
	json_t *pp = json_object(), *fs = json_array();
	int rc = pp && fs ? 0 : -ENOMEM;
	rc = rc ? rc : frames_of(t, fs, s);
	if (!rc && (json_object_set_new(pp, "tb", json_integer((json_int_t)s->instructions)) ||
		    json_object_set_new(pp, "tbk", json_integer((json_int_t)s->calls)) ||
		    json_object_set(pp, "fs", fs) || json_array_append(pps, pp)))
		rc = -ENOMEM;
	json_decref(fs);
	json_decref(pp);
	return rc;
}

/* Whether series M of a variant is the instructions of a region its
 * stacks' calls were made in at the top level: "cost_instructions" of the
 * unnamed region, or "R.cost_instructions" where a stack of the variant has
 * R as its outermost region (an inner region's are in its outer one's). */
static bool top_region_instructions(const struct series *m, const struct stacks *set)
{
	static const char tail[] = "cost_instructions";
	size_t len = strlen(m->metric), tail_len = sizeof tail - 1;
	if (len < tail_len || strcmp(m->metric + len - tail_len, tail))
		return false;
	size_t region = len == tail_len ? 0 : len - tail_len - 1;
	if (region && m->metric[region] != '.')
		return false;
	for (size_t i = 0; i < set->count; i++) {
		const struct stack *s = &set->items[i];
		if (!group_key_same(GROUP_KEY(s), GROUP_KEY(m), GROUP_SCOPE_VARIANT))
			continue;
		size_t outer = strcspn(s->region, "/");
		if (outer == region && !strncmp(s->region, m->metric, region))
			return true;
	}
	return false;
}

/* The instructions of the regions R's stacks were taken in (the series'
 * medians; the cost pass's are exact), 0 where it has none. */
static uint64_t region_instructions(const struct run_result *r)
{
	uint64_t total = 0;
	for (size_t i = 0; i < r->series_count; i++)
		if (top_region_instructions(&r->series[i], &r->stacks) && r->series[i].median > 0)
			total += (uint64_t)r->series[i].median;
	return total;
}

/* The command line the viewer shows: what the file is of. */
static void command_text(const struct run_result *r, char *buf, size_t size)
{
	const char *commit = r->ctx.commit ? r->ctx.commit : "unknown";
	if (!r->stacks.recorded)
		snprintf(buf, size, "allocgate (commit %s): no call stacks recorded, the cost pass "
			 "did not run", commit);
	else
		snprintf(buf, size, "allocgate (commit %s): allocator calls by call stack, from "
			 "callgrind; total: instructions inside the allocator", commit);
}

/* The whole file's object, or NULL on no memory. */
static json_t *dhat_json(const struct run_result *r)
{
	struct frame_table t = { json_array(), json_object() };
	json_t *root = json_object(), *pps = json_array();
	char cmd[1200];
	uint64_t total = 0;
	int rc = root && pps && t.list && t.index ? 0 : -ENOMEM;
	if (!rc && json_array_append_new(t.list, json_string("[root]")))
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < r->stacks.count; i++) {
		const struct stack *s = &r->stacks.items[i];
		if (!s->calls && !s->instructions)
			continue;
		total += s->instructions;
		rc = point(&t, pps, s);
	}
	command_text(r, cmd, sizeof cmd);
	/* the viewer's rates are per million of "te": the instructions of the
	 * measured regions where known, else those inside the allocator */
	uint64_t regions = region_instructions(r);
	if (!rc && (json_object_set_new(root, "dhatFileVersion",
					json_integer(REPORT_DHAT_FILE_VERSION)) ||
		    json_object_set_new(root, "mode", json_string("allocgate-stacks")) ||
		    json_object_set_new(root, "verb", json_string("Called")) ||
		    json_object_set_new(root, "bklt", json_false()) ||
		    json_object_set_new(root, "bkacc", json_false()) ||
		    json_object_set_new(root, "bu", json_string("instruction")) ||
		    json_object_set_new(root, "bsu", json_string("instructions")) ||
		    json_object_set_new(root, "bksu", json_string("calls")) ||
		    json_object_set_new(root, "tu", json_string(regions ? "instrs"
								       : "allocator instrs")) ||
		    json_object_set_new(root, "Mtu", json_string(regions ? "Minstr"
									: "M allocator instrs")) ||
		    json_object_set_new(root, "cmd", jsonout_string(cmd)) ||
		    json_object_set_new(root, "pid", json_integer(0)) ||
		    json_object_set_new(root, "te", json_integer((json_int_t)(regions ? regions
										 : total))) ||
		    json_object_set(root, "pps", pps) || json_object_set(root, "ftbl", t.list)))
		rc = -ENOMEM;
	json_decref(pps);
	json_decref(t.list);
	json_decref(t.index);
	if (rc) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int report_dhat_write(const char *path, const struct run_result *r, char *err,
		      size_t err_size)
{
	json_t *root = dhat_json(r);
	if (!root) {
		snprintf(err, err_size, "%s: out of memory", path);
		return -ENOMEM;
	}
	struct atomic_file af;
	int rc = atomic_file_open(&af, path, err, err_size);
	if (!rc) {
		if (json_dumpf(root, af.fp, JSON_COMPACT) || fputc('\n', af.fp) == EOF ||
		    ferror(af.fp)) {
			atomic_file_abort(&af);
			snprintf(err, err_size, "%s: write error", path);
			rc = -EIO;
		} else {
			rc = atomic_file_commit(&af, err, err_size);
		}
	}
	json_decref(root);
	return rc;
}
