/* baseline_notes.c: what the report says about the baseline file
 * (baseline_notes.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/baseline_notes.h"
#include "core/commit.h"
#include "decide/diff.h"
#include "report/format.h"
#include "store/baseline.h"

char *baseline_notes_leniency(const struct run_result *base)
{
	const struct context *c = &base->ctx;
	char line[400];
	int policy = !base->policy.recorded, context = !c->os && !c->cpu_model && !c->started_at;

	if (!policy && !context)
		return NULL;
	snprintf(line, sizeof line, "the baseline file records no %s%s%s (written by an older "
		 "version): accepted, %s%s%s; rerun with --update-baseline", policy ? "policy" : "",
		 policy && context ? " and no " : "", context ? "context" : "",
		 policy ? "this run's policy decides" : "", policy && context ? ", " : "",
		 context ? "its machine unknown, so timing is not compared" : "");
	return strdup(line);
}

/* The file PATH, at most BASELINE_MAX_BYTES, into a malloc'd *TEXT. */
static int read_file(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap), *grown;

	if (!f || !buf)
		goto fail;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n > BASELINE_MAX_BYTES)
			goto fail;
		if (n == cap) {
			if (!(grown = realloc(buf, cap *= 2)))
				goto fail;
			buf = grown;
		}
	}
	fclose(f);
	*text = buf;
	*len = n;
	return 0;
fail:
	if (f)
		fclose(f);
	free(buf);
	return -1;
}

/* Every series' stored median NaN, so that diff_compute takes the median
 * of the samples: what compare.c compares against, whatever "median" says. */
static void forget_medians(struct run_result *r)
{
	for (size_t i = 0; i < r->series_count; i++)
		r->series[i].median = NAN;
}

/* "k/v/p metric 1 ms -> 1.2 ms (+20.0%)" of ROW into BUF. */
static void describe(const struct diff_row *row, char *buf, size_t size)
{
	char a[32], b[32];

	format_value(row->a, row->unit, a, sizeof a);
	format_value(row->b, row->unit, b, sizeof b);
	snprintf(buf, size, "%s/%s/%s %s %s -> %s (%+.1f%%)", row->kernel, row->variant,
		 row->params, row->metric, a, b, 100 * row->change);
}

/* Whether ROW is a series of both versions whose median moved. */
static int moved_row(const struct diff_row *row)
{
	return row->in_a && row->in_b && !isnan(row->a) && !isnan(row->b) && row->a != row->b;
}

/* The note of D, the moves from OLD to the file (REV, WHY) into *NOTE. */
static void note_moves(const struct diff *d, const char *rev, const char *why, char **note)
{
	size_t moved = 0, added = 0, removed = 0, shown[BASELINE_NOTES_DETAILS], nshown = 0;
	const struct diff_row *largest = NULL;
	char line[1400], what[600] = "no series' median moved";

	for (size_t i = 0; i < d->count; i++) {
		const struct diff_row *row = &d->rows[i];
		added += row->in_b && !row->in_a;
		removed += row->in_a && !row->in_b;
		if (!moved_row(row))
			continue;
		moved++;
		if (!largest || fabs(row->change) > fabs(largest->change) ||
		    isnan(largest->change))
			largest = row;
	}
	if (largest) {
		char desc[500];
		describe(largest, desc, sizeof desc);
		snprintf(what, sizeof what, "%zu series' median%s moved (the most: %s)", moved,
			 moved == 1 ? "" : "s", desc);
	}
	snprintf(line, sizeof line, "the baseline file differs from its version at %.12s (%s): "
		 "%s, %zu added, %zu removed; this run compares against the changed file, so "
		 "`gate ab` (both sides measured in the same rounds) is the gate for a change",
		 rev, why, what, added, removed);
	result_note_append(note, line);
	/* the details: the largest moves after the first, by |change| */
	while (nshown < BASELINE_NOTES_DETAILS && nshown + 1 < moved) {
		const struct diff_row *next = NULL;
		size_t at = 0;
		for (size_t i = 0; i < d->count; i++) {
			const struct diff_row *row = &d->rows[i];
			int taken = row == largest;
			for (size_t k = 0; k < nshown; k++)
				taken |= shown[k] == i;
			if (taken || !moved_row(row))
				continue;
			if (!next || fabs(row->change) > fabs(next->change))
				next = row, at = i;
		}
		if (!next)
			break;
		shown[nshown++] = at;
		describe(next, line, sizeof line);
		char detail[1500];
		snprintf(detail, sizeof detail, "  also moved: %s", line);
		result_note_append(note, detail);
	}
	if (moved > nshown + 1) {
		snprintf(line, sizeof line, "  and %zu more (`gate diff` of the two versions "
			 "lists them)", moved - nshown - 1);
		result_note_append(note, line);
	}
}

char *baseline_notes_change(const char *path)
{
	char rev[128], why[400], err[512];
	char *old = NULL, *now = NULL, *note = NULL;
	size_t old_len, now_len;
	struct run_result a, b;
	struct diff d;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&d, 0, sizeof d);
	if (commit_base_revision(path, BASELINE_MAX_BYTES, rev, sizeof rev, why, sizeof why) ||
	    commit_file_at(rev, path, BASELINE_MAX_BYTES, &old, &old_len) ||
	    read_file(path, &now, &now_len))
		goto out;
	if (old_len == now_len && !memcmp(old, now, old_len))
		goto out;
	if (baseline_load_text(rev, old, old_len, &a, err, sizeof err) ||
	    baseline_load_text(path, now, now_len, &b, err, sizeof err))
		goto out;
	forget_medians(&a);
	forget_medians(&b);
	if (diff_compute(&a, &b, &d) == 0)
		note_moves(&d, rev, why, &note);
out:
	diff_free(&d);
	result_free(&a);
	result_free(&b);
	free(old);
	free(now);
	return note;
}
