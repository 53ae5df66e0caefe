/* update.c: writes the new baseline and says what changed. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/group_key.h"
#include "run/update.h"
#include "core/message.h"
#include "core/metric_name.h"
#include "decide/comparable.h"
#include "decide/exit_decide.h"
#include "decide/history.h"
#include "decide/interference.h"
#include "store/atomic_file.h"
#include "store/baseline.h"
#include "store/file_lock.h"

static void print_changes(const struct run_result *r, size_t kept)
{
	size_t fresh = 0, moved = 0, shown = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		int is_new = !s->has_baseline;
		int is_moved = s->has_baseline && (s->verdict == VERDICT_FAIL ||
						   s->verdict == VERDICT_IMPROVED);
		fresh += is_new;
		moved += is_moved;
		if (!(is_new || is_moved) || shown++ >= 25)
			continue;
		/* a value nothing measured reads "none", never "nan" */
		char was[32] = "none", now[32] = "none";
		if (isfinite(s->baseline_median))
			snprintf(was, sizeof was, "%.6g", s->baseline_median);
		if (isfinite(s->median))
			snprintf(now, sizeof now, "%.6g", s->median);
		if (is_new)
			printf("  %-8s %s/%s/%s %s: %s %s\n", "new", s->kernel, s->variant, s->params,
			       s->metric, now, s->unit);
		else
			printf("  %-8s %s/%s/%s %s: %s -> %s %s\n", "changed", s->kernel, s->variant,
			       s->params, s->metric, was, now, s->unit);
	}
	if (shown > 25)
		printf("  ... and %zu more\n", shown - 25);
	printf("gate: baseline: %zu series written (%zu new, %zu changed beyond tolerance, "
	       "%zu kept from the old baseline)\n", r->series_count + kept, fresh, moved, kept);
}

/* Why the drift history of timing series was started afresh, and how often. */
struct history_summary {
	size_t carried, longest, restarted;
	const char *reasons[HISTORY_REASONS];
	size_t counts[HISTORY_REASONS];
};

/* WHY: one of history_refusal's texts (HISTORY_REASONS kinds for timing series). */
static void count_reason(struct history_summary *h, const char *why)
{
	size_t i = 0;
	while (i < HISTORY_REASONS && h->reasons[i] && strcmp(h->reasons[i], why))
		i++;
	h->restarted++;
	if (i == HISTORY_REASONS)
		return;
	h->reasons[i] = why;
	h->counts[i]++;
}

/* Gives the first COUNT series of MERGED (this run's timing series) the
 * drift history of their predecessor in OLD unless history_refusal, by
 * AGAINST_OLD (what of MERGED's context compares with OLD's, decided by
 * the run; NULL: decided here, once). The arrays are MERGED's own
 * (released by release_own). 0 or -ENOMEM. */
static int carry_history(struct run_result *merged, size_t count, const struct run_result *old,
			 const struct comparability *against_old, struct history_summary *h)
{
	struct comparability decided;
	const struct comparability *c = against_old;
	if (old && !c) {
		comparable_decide(&old->ctx, &merged->ctx, &decided);
		c = &decided;
	}
	for (size_t i = 0; old && i < count; i++) {
		struct series *s = &merged->series[i];
		const struct series *o = result_find_series(old, s->kernel, s->variant, s->params,
							    s->metric);
		s->history = NULL;
		s->history_count = 0;
		if (!o || s->cls != METRIC_TIMING)
			continue;
		const char *why = history_refusal(s, o, c);
		if (why) {
			count_reason(h, why);
			continue;
		}
		if (history_carry(o, &s->history, &s->history_count))
			return -ENOMEM;
		h->carried++;
		h->longest = s->history_count > h->longest ? s->history_count : h->longest;
	}
	return 0;
}

static void print_history(const struct history_summary *h)
{
	if (!h->carried && !h->restarted)
		return;
	printf("gate: baseline: drift history: ");
	if (h->carried)
		printf("%zu timing series keep the batch medians of earlier recordings (up to %zu "
		       "each)%s", h->carried, h->longest, h->restarted ? "; " : "");
	if (h->restarted) {
		printf("%zu start afresh (", h->restarted);
		for (size_t i = 0; i < HISTORY_REASONS && h->reasons[i]; i++)
			printf("%s%s: %zu", i ? ", " : "", h->reasons[i], h->counts[i]);
		printf(")");
	}
	printf("\n");
}

/* Gives the first COUNT series of MERGED (this run's) copies of their
 * samples of their own, and leaves the disturbed ones out of those
 * (interference_forget: a baseline records the machine's quiet speed,
 * while the run's reports show every sample). Returns how many were left
 * out, or -ENOMEM. */
static long forget_disturbed(struct run_result *merged, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		struct series *s = &merged->series[i];
		double *copy = calloc(s->sample_count + 1, sizeof *copy);
		if (!copy) {
			for (size_t j = i; j < count; j++)
				merged->series[j].samples = NULL;
			return -ENOMEM;
		}
		if (s->sample_count)
			memcpy(copy, s->samples, s->sample_count * sizeof *copy);
		s->samples = copy;
	}
	struct run_result own = *merged;
	own.series_count = count;   /* not the old baseline's series it borrows */
	return (long)interference_forget(&own);
}

/* Releases what forget_disturbed and carry_history gave the first COUNT
 * series of MERGED. */
static void release_own(struct run_result *merged, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		free(merged->series[i].samples);
		free(merged->series[i].history);
	}
}

/* Whether R took a cost sample of (KERNEL, VARIANT, PARAMS): it has a
 * cost series of it. */
static bool has_cost_of(const struct run_result *r, const char *kernel, const char *variant,
			const char *params)
{
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (metric_is_cost(s->metric) &&
		    group_key_same(GROUP_KEY(s), GROUP_KEY_OF(kernel, variant, params),
				   GROUP_SCOPE_VARIANT))
			return true;
	}
	return false;
}

/* The call stacks of MERGED: R's, and OLD's of the variants R took no cost
 * sample of (another tier's, or --no-cost), borrowed like the sites.
 * 0 or -ENOMEM. */
static int merge_stacks(struct run_result *merged, const struct run_result *r,
			const struct run_result *old)
{
	size_t n = r->stacks.count + (old ? old->stacks.count : 0);
	struct stacks *set = &merged->stacks;
	set->items = calloc(n + 1, sizeof *set->items);
	if (!set->items)
		return -ENOMEM;
	if (r->stacks.count)
		memcpy(set->items, r->stacks.items, r->stacks.count * sizeof *set->items);
	set->count = r->stacks.count;
	const struct stack *last = NULL;
	bool keep = false;
	for (size_t i = 0; old && i < old->stacks.count; i++) {
		const struct stack *st = &old->stacks.items[i];
		/* a variant's stacks lie together (result_stack_order): ask once */
		if (!last || !group_key_same(GROUP_KEY(st), GROUP_KEY(last), GROUP_SCOPE_VARIANT))
			keep = !has_cost_of(r, st->kernel, st->variant, st->params);
		last = st;
		if (keep)
			set->items[set->count++] = *st;
	}
	set->recorded = r->stacks.recorded || (old && old->stacks.recorded);
	return 0;
}

/* Merges R with OLD (compared as AGAINST_OLD says, or NULL) and writes
 * PATH; the caller holds PATH's lock. */
static int write_merged(const struct run_result *r, const struct run_result *old,
			const struct comparability *against_old, const char *path)
{
	struct run_result merged = *r;
	size_t kept = 0;
	merged.series = calloc(r->series_count + (old ? old->series_count : 0) + 1,
			       sizeof *merged.series);
	if (!merged.series) {
		message_error("baseline not updated: out of memory");
		return GATE_EXIT_USAGE;
	}
	memcpy(merged.series, r->series, r->series_count * sizeof *r->series);
	for (size_t i = 0; old && i < old->series_count; i++) {
		const struct series *s = &old->series[i];
		if (!result_find_series(r, s->kernel, s->variant, s->params, s->metric))
			merged.series[r->series_count + kept++] = *s;
	}
	merged.series_count = r->series_count + kept;
	/* the sites of the groups this run counted, and the old baseline's of
	 * the others (another tier's), borrowed like the series */
	merged.sites = calloc(r->site_count + (old ? old->site_count : 0) + 1, sizeof *merged.sites);
	if (!merged.sites) {
		free(merged.series);
		message_error("baseline not updated: out of memory");
		return GATE_EXIT_USAGE;
	}
	if (r->site_count)   /* memcpy from NULL is undefined even for 0 bytes */
		memcpy(merged.sites, r->sites, r->site_count * sizeof *r->sites);
	merged.site_count = r->site_count;
	for (size_t i = 0; old && i < old->site_count; i++) {
		const struct site *st = &old->sites[i];
		if (!result_find_series(r, st->kernel, st->variant, st->params, "heap_calls"))
			merged.sites[merged.site_count++] = *st;
	}
	merged.sites_recorded = r->sites_recorded || (old && old->sites_recorded);
	if (merge_stacks(&merged, r, old)) {
		free(merged.series);
		free(merged.sites);
		message_error("baseline not updated: out of memory");
		return GATE_EXIT_USAGE;
	}
	struct history_summary h = { 0 };
	char err[1024];
	long forgotten = forget_disturbed(&merged, r->series_count);
	int ret = forgotten < 0 ? -ENOMEM
		  : carry_history(&merged, r->series_count, old, against_old, &h);
	if (ret)
		snprintf(err, sizeof err, "out of memory");
	else
		ret = baseline_save(path, &merged, err, sizeof err);
	release_own(&merged, r->series_count);
	free(merged.series);
	free(merged.sites);
	free(merged.stacks.items);
	if (ret) {
		message_error("baseline not updated: %s", err);
		return GATE_EXIT_USAGE;
	}
	if (forgotten > 0)
		printf("gate: %ld disturbed timing samples left out of the baseline "
		       "(docs/counters.md, \"Interference\")\n", forgotten);
	printf("gate: wrote %s\n", path);
	print_changes(r, kept);
	print_history(&h);
	return GATE_EXIT_OK;
}

/* Reloads PATH under the lock: another updater may have replaced it since
 * this run loaded it, and its series must be kept, not overwritten. Returns
 * 0 with *FRESH set (NULL when there is no file) and *REPLACED (it is not
 * OLD as loaded), or GATE_EXIT_USAGE. */
static int reload(const char *path, const struct run_result *old, struct run_result *buf,
		  const struct run_result **fresh, bool *replaced)
{
	char err[1024];
	int ret = baseline_load(path, buf, err, sizeof err);
	*fresh = ret == 0 ? buf : NULL;
	*replaced = old != NULL;
	if (ret == -ENOENT)
		return GATE_EXIT_OK;
	if (ret) {
		message_error("baseline not updated: %s", err);
		return GATE_EXIT_USAGE;
	}
	*replaced = !old || old->series_count != buf->series_count ||
		    (old->ctx.started_at && buf->ctx.started_at &&
		     strcmp(old->ctx.started_at, buf->ctx.started_at));
	if (*replaced)
		message_note("%s was replaced during this run; merging with its "
			"new contents", path);
	return GATE_EXIT_OK;
}

enum gate_exit update_baseline_wait(const struct run_result *r, const struct run_result *old,
				    const struct comparability *against_old, const char *path,
				    int sample_failures, int wait_ms)
{
	struct file_lock lock;
	struct run_result buf;
	const struct run_result *fresh;
	bool replaced;
	char err[1024];

	if (!exit_decide_may_update(sample_failures)) {
		message_error("baseline not updated: %d sample(s) failed in this run "
			"(see the problems above); %s is unchanged", sample_failures, path);
		return GATE_EXIT_UNCHECKED;
	}
	if (file_lock_acquire(&lock, path, wait_ms, err, sizeof err)) {
		message_error("baseline not updated: %s", err);
		return GATE_EXIT_USAGE;
	}
	/* Under the lock no other writer runs: a temporary file is a killed one's. */
	atomic_file_remove_stale(path);
	int ret = reload(path, old, &buf, &fresh, &replaced);
	if (ret == 0)
		ret = write_merged(r, fresh, replaced ? NULL : against_old, path);
	if (fresh)
		result_free(&buf);
	file_lock_release(&lock);
	return ret;
}

enum gate_exit update_baseline(const struct run_result *r, const struct run_result *old,
			       const struct comparability *against_old, const char *path,
			       int sample_failures)
{
	return update_baseline_wait(r, old, against_old, path, sample_failures,
				    UPDATE_LOCK_WAIT_MS);
}

static int listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
		if ((p == list || p[-1] == ',' || p[-1] == ' ') && (p[len] == ',' || !p[len]))
			return 1;
	return 0;
}

static void append(char *buf, size_t size, const char *name)
{
	if (listed(buf, name) || strlen(buf) + strlen(name) + 2 >= size)
		return;
	if (*buf && buf[strlen(buf) - 1] != ' ')
		strcat(buf, ",");
	strcat(buf, name);
}

void update_counters_note(struct run_result *r)
{
	char have[1024] = "", lack[1024] = "";
	for (size_t i = 0; i < r->series_count; i++) {
		if (r->series[i].cls == METRIC_EXACT)
			continue; /* the kernel's own counts, not the probe's counters */
		const char *m = strrchr(r->series[i].metric, '.');
		append(have, sizeof have, m ? m + 1 : r->series[i].metric);
	}
	for (size_t i = 0; i < r->problem_count; i++)
		if (!r->problems[i].kernel)
			append(lack, sizeof lack, r->problems[i].what);
	char note[2100];
	snprintf(note, sizeof note, "available: %s; unavailable: %s", *have ? have : "none",
		 *lack ? lack : "none");
	free(r->ctx.counters);
	r->ctx.counters = strdup(note);
}
