/* run_history.c: `gate history add` and `gate history` (run.h): a result
 * kept in the history directory (store/history_dir.h), and the change
 * points of the history (decide/change_scan.h) with what git says of
 * their commits, rendered (report/history_report.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "core/commit.h"
#include "core/message.h"
#include "decide/change_scan.h"
#include "decide/changepoint.h"
#include "decide/result_summary.h"
#include "report/history_report.h"
#include "store/baseline.h"
#include "store/history_dir.h"

int run_history_add(const struct history_plan *p)
{
	struct run_result r;
	struct history_run run;
	char err[1024], path[4096], time[32], rev[96], id[16];
	const char *missing;
	int ret = GATE_EXIT_USAGE;
	memset(&run, 0, sizeof run);
	if (baseline_load_result(p->add, &r, err, sizeof err)) {
		message_error("%s", err);
		return GATE_EXIT_USAGE;
	}
	/* the commit's own time orders the history; the run's start when git
	 * does not know the commit here */
	result_history_rev(r.ctx.commit, rev, sizeof rev);
	int dated = r.ctx.commit && commit_time_utc(rev, time, sizeof time) == 0;
	int rc = result_summary_history(&r, dated ? time : NULL, &run, &missing);
	if (rc == -EINVAL) {
		message_error("%s: %s: missing: a history is kept by the commit each run measured "
			      "(ALLOCGATE_COMMIT, GITHUB_SHA or git describe)", p->add, missing);
		goto out;
	}
	if (rc) {
		message_error("out of memory");
		goto out;
	}
	if (history_dir_write(p->dir, &run, path, sizeof path, err, sizeof err)) {
		message_error("%s", err);
		goto out;
	}
	result_history_short(run.commit, id, sizeof id);
	printf("gate history: wrote %s: %zu series of commit %s (%s time %s)\n", path, run.count,
	       id, run.time_is_commit ? "commit" : "run", run.time);
	ret = GATE_EXIT_OK;
out:
	result_history_run_free(&run);
	result_free(&r);
	return ret;
}

/* Commit C's subject from git, asked once. */
static void ask_subject(struct change_commit *c)
{
	char subject[512];
	if (c->asked)
		return;
	c->asked = true;
	if (commit_subject(c->rev, subject, sizeof subject) == 0)
		c->subject = strdup(subject);   /* NULL on no memory: unknown */
}

/* The commits between PREV and CUR that the history lacks (rev-list A..B
 * counts B itself), asked once per pair (PAIRS: the pairs asked, COUNT of
 * them, room for as many as F has change points); -1 when git cannot say. */
static long ask_between(const struct change_findings *f, size_t prev, size_t cur,
			long (*pairs)[3], size_t *count)
{
	long total = 0;
	for (size_t i = 0; i < *count; i++)
		if (pairs[i][0] == (long)prev && pairs[i][1] == (long)cur)
			return pairs[i][2];
	int known = commit_count_range(f->commits[prev].rev, f->commits[cur].rev, &total) == 0;
	long n = known && total > 0 ? total - 1 : -1;
	pairs[*count][0] = (long)prev;
	pairs[*count][1] = (long)cur;
	pairs[(*count)++][2] = n;
	return n;
}

/* What the git checkout of the current directory says of F's change
 * points: the subjects of their commits and of the commits before, and
 * the commits between the two that the history lacks. Silent where there
 * is no checkout or no such commit. */
static void ask_git(struct change_findings *f)
{
	long (*pairs)[3] = malloc((f->change_count ? f->change_count : 1) * sizeof *pairs);
	size_t count = 0;
	if (!pairs)
		return;   /* no memory: nothing known, as without git */
	for (size_t i = 0; i < f->track_count; i++)
		for (size_t j = 0; j < f->tracks[i].point_count; j++) {
			struct change_track *t = &f->tracks[i];
			struct change_point *cp = &t->points[j];
			size_t prev = t->commit[cp->at - 1], cur = t->commit[cp->at];
			ask_subject(&f->commits[prev]);
			ask_subject(&f->commits[cur]);
			cp->between = ask_between(f, prev, cur, pairs, &count);
		}
	free(pairs);
}

/* Loads P's directory into H; GATE_EXIT_OK or GATE_EXIT_USAGE after a
 * message. */
static int load(const struct history_plan *p, struct result_history *h)
{
	char err[1024];
	int rc = history_dir_load(p->dir, h, err, sizeof err);
	if (rc == -ENOENT || rc == -ENOTDIR)
		message_error("--dir %s: no such directory", p->dir);
	else if (rc)
		message_error("%s", err);
	return rc ? GATE_EXIT_USAGE : GATE_EXIT_OK;
}

/* The files P asks for, with EXIT_CODE (made 2 when one is not written). */
static int write_files(const struct history_plan *p, const struct change_findings *f,
		       size_t runs, int exit_code)
{
	char err[1024];
	if (p->svg && history_svg_write(p->svg, f, p->kernel || p->metric, err, sizeof err)) {
		message_error("--svg: %s", err);
		exit_code = GATE_EXIT_USAGE;
	}
	if (p->json && history_json_write(p->json, f, p->dir, runs, exit_code, err, sizeof err)) {
		message_error("--json: %s", err);
		exit_code = GATE_EXIT_USAGE;
	}
	return exit_code;
}

int run_history(const struct history_plan *p)
{
	struct result_history h;
	struct change_findings f;
	struct change_scan_options o = { .kernel = p->kernel, .metric = p->metric };
	int ret = load(p, &h);
	if (ret)
		return ret;
	memset(&f, 0, sizeof f);
	changepoint_defaults(&o.settings);
	if (!isnan(p->min_effect))
		o.settings.min_effect = p->min_effect;
	if (change_scan(&h, &o, &f)) {
		message_error("out of memory");
		ret = GATE_EXIT_USAGE;
		goto out;
	}
	if (h.count && !f.track_count && (p->kernel || p->metric)) {
		message_error("no series of%s%s%s%s in %s", p->kernel ? " kernel " : "",
			      p->kernel ? p->kernel : "", p->metric ? " metric " : "",
			      p->metric ? p->metric : "", p->dir);
		ret = GATE_EXIT_USAGE;
		goto out;
	}
	ask_git(&f);
	ret = write_files(p, &f, h.count, f.change_count ? GATE_EXIT_REGRESSION : GATE_EXIT_OK);
	history_text_print(stdout, &f, p->dir, h.count);
out:
	change_points_free(&f);
	result_history_free(&h);
	return ret;
}
