/* run_bisect.c: `gate bisect` (run.h): the good and the bad revision
 * measured, the exact series that differ between them, then a binary
 * search over the commits between them (decide/bisect.h), each probe
 * built and measured by run_bisect_measure.c, and the outcome reported
 * (report/report_bisect.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_bisect.h"
#include "core/commit.h"
#include "core/digest.h"
#include "core/group_key.h"
#include "core/message.h"
#include "core/path_os.h"
#include "core/policy.h"
#include "core/worktree_os.h"
#include "decide/bisect.h"
#include "decide/sites.h"
#include "report/report_bisect.h"
#include "store/jsonout.h"

/* The key of what P asks to measure: the same build and measurement of a
 * commit is measured once, by whichever search asks first. */
static void plan_key(const struct bisect_plan *p, const char **kernels, size_t count,
		     bool no_cost, char *out, size_t size)
{
	uint64_t h = DIGEST_FNV1A64_OFFSET;
	const char *parts[] = { p->build, p->kernel_dir, p->tier ? p->tier : "", no_cost ? "-" : "+",
				p->timing ? "timing" : "exact" };
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		h = digest_fnv1a64(h, parts[i], strlen(parts[i]) + 1);
	for (size_t i = 0; i < count; i++)
		h = digest_fnv1a64(h, kernels[i], strlen(kernels[i]) + 1);
	snprintf(out, size, "%016" PRIx64, h);
}

/* The repository, its cache and the gate itself into E. 0, or
 * GATE_EXIT_USAGE after a message. */
static int locate(const struct bisect_plan *p, struct bisect_env *e)
{
	char why[300], common[4000];
	const char *top[] = { "rev-parse", "--show-toplevel", NULL };
	const char *prefix[] = { "rev-parse", "--show-prefix", NULL };
	const char *git_dir[] = { "rev-parse", "--path-format=absolute", "--git-common-dir", NULL };
	memset(e, 0, sizeof *e);
	e->p = p;
	if (bisect_git_line(top, e->top, sizeof e->top, why, sizeof why)) {
		message_error("not in a git repository (%s)", why);
		return GATE_EXIT_USAGE;
	}
	char *text = NULL;   /* the prefix is empty at the top */
	bisect_git(prefix, &text, NULL, 0);
	snprintf(e->prefix, sizeof e->prefix, "%.*s", text ? (int)strcspn(text, "\n") : 0,
		 text ? text : "");
	free(text);
	if (p->cache_dir) {
		snprintf(e->cache, sizeof e->cache, "%s", p->cache_dir);
	} else {
		if (bisect_git_line(git_dir, common, sizeof common, why, sizeof why)) {
			message_error("git rev-parse --git-common-dir: %s", why);
			return GATE_EXIT_USAGE;
		}
		snprintf(e->cache, sizeof e->cache, "%s/allocgate-bisect", common);
	}
	int ret = worktree_os_mkdir(e->cache);
	if (ret) {
		message_error("%s: %s", e->cache, strerror(-ret));
		return GATE_EXIT_USAGE;
	}
	if (path_os_self_executable(e->self, sizeof e->self)) {
		message_error("cannot find the gate's own executable");
		return GATE_EXIT_USAGE;
	}
	e->kernels = p->kernels;
	e->kernel_count = p->kernel_count;
	e->no_cost = p->no_cost;
	plan_key(p, e->kernels, e->kernel_count, e->no_cost, e->key, sizeof e->key);
	return 0;
}

/* REV as a full commit hash into OUT; GATE_EXIT_USAGE after a message. */
static int resolve(const char *rev, const char *what, char *out)
{
	char spec[300], why[300], line[64];
	snprintf(spec, sizeof spec, "%s^{commit}", rev);
	const char *args[] = { "rev-parse", "--verify", "-q", "--end-of-options", spec, NULL };
	if (rev[0] == '-' || bisect_git_line(args, line, sizeof line, why, sizeof why) ||
	    strlen(line) != 40) {
		message_error("--%s %s: not a commit of this repository", what, rev);
		return GATE_EXIT_USAGE;
	}
	memcpy(out, line, 41);
	return 0;
}

/* COMMIT's subject line (core/commit.h), newly allocated; NULL when
 * unknown. */
static char *subject_of(const char *commit)
{
	char line[512];
	return commit_subject(commit, line, sizeof line) ? NULL : strdup(line);
}

/* Adds a probe of COMMIT to O; its index, or -1 on no memory. */
static long add_probe(struct bisect_outcome *o, const char *commit, enum bisect_mark mark,
		      const char *why, bool cached)
{
	struct bisect_probe *p = realloc(o->probes, (o->probe_count + 1) * sizeof *p);
	if (!p)
		return -1;
	o->probes = p;
	p += o->probe_count;
	memset(p, 0, sizeof *p);
	memcpy(p->commit, commit, 41);
	p->subject = subject_of(commit);
	p->mark = mark;
	p->why = why && *why ? strdup(why) : NULL;
	p->cached = cached;
	return (long)o->probe_count++;
}

/* Whether any series of R that KEEP marks in BAD moved against GOOD:
 * the probe is bad. A series R lacks counts as moved. */
static bool moved_like_bad(const struct run_result *good, const struct run_result *bad,
			   const bool *keep, const struct run_result *r, double tolerance)
{
	for (size_t i = 0; i < bad->series_count; i++) {
		if (!keep[i])
			continue;
		const struct series *b = &bad->series[i];
		const struct series *s = result_find_series(r, b->kernel, b->variant, b->params,
							    b->metric);
		const struct series *g = result_find_series(good, b->kernel, b->variant,
							    b->params, b->metric);
		if (!s || (g ? bisect_series_moved(s, g, tolerance) : true))
			return true;
	}
	return false;
}

/* Whether METRIC is one of P's --metric names (NAME* a prefix), or P
 * names none. */
static bool asked_for(const struct bisect_plan *p, const char *metric)
{
	for (size_t i = 0; i < p->metric_count; i++) {
		const char *m = p->metrics[i];
		size_t n = strlen(m);
		if (n && m[n - 1] == '*' ? !strncmp(metric, m, n - 1) : !strcmp(metric, m))
			return true;
	}
	return !p->metric_count;
}

/* Keeps in KEEP only the series of BAD that P's --metric names; how many
 * are left. */
static size_t only_asked(const struct bisect_plan *p, const struct run_result *bad, bool *keep)
{
	size_t n = 0;
	for (size_t i = 0; i < bad->series_count; i++) {
		keep[i] = keep[i] && asked_for(p, bad->series[i].metric);
		n += keep[i];
	}
	return n;
}

/* Measures COMMIT into *R and records the probe in O: 0 (measured), 1
 * (skipped), or a negative errno. */
static int probe(const struct bisect_env *e, struct bisect_outcome *o, const char *commit,
		 struct run_result *r, enum bisect_mark *mark)
{
	char why[1200] = "";
	bool cached = false;
	int ret = bisect_measure(e, commit, r, &cached, why, sizeof why);
	if (ret < 0)
		return ret;
	*mark = ret ? BISECT_SKIP : *mark;
	if (add_probe(o, commit, *mark, why, cached) < 0)
		return -ENOMEM;
	return ret;
}

/* The kernels whose series moved between the ends (KEEP of BAD) become
 * E's: each probe measures only those. The cost pass stays (unless P
 * leaves it out): it names the line whose calls changed at the culprit.
 * 0 or -ENOMEM. */
static int narrow(struct bisect_env *e, const struct run_result *bad, const bool *keep)
{
	const char **names = calloc(bad->series_count + 1, sizeof *names);
	size_t n = 0;
	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < bad->series_count; i++) {
		if (!keep[i])
			continue;
		const struct series *s = &bad->series[i];
		size_t j = 0;
		while (j < n && !group_key_same(GROUP_KEY_OF(names[j], NULL, NULL), GROUP_KEY(s),
						GROUP_SCOPE_KERNEL))
			j++;
		if (j == n)
			names[n++] = s->kernel;
	}
	e->kernels = names;
	e->kernel_count = n;
	e->no_cost = e->p->no_cost;
	plan_key(e->p, names, n, e->no_cost, e->key, sizeof e->key);
	return 0;
}

/* Measures the ends of the range into O's probes: 0, or GATE_EXIT_USAGE
 * after a message (an end that cannot be measured decides nothing). */
static int ends(const struct bisect_env *e, struct bisect_outcome *o, struct run_result *good,
		struct run_result *bad)
{
	const char *which[2] = { "good", "bad" };
	const char *commit[2] = { o->good, o->bad };
	struct run_result *r[2] = { good, bad };
	for (int i = 0; i < 2; i++) {
		enum bisect_mark mark = i ? BISECT_BAD : BISECT_GOOD;
		int ret = probe(e, o, commit[i], r[i], &mark);
		if (ret < 0) {
			message_error("measuring %.12s: %s", commit[i], strerror(-ret));
			return GATE_EXIT_USAGE;
		}
		if (ret) {
			message_error("the %s revision %.12s cannot be measured: %s", which[i],
				      commit[i], o->probes[o->probe_count - 1].why);
			return GATE_EXIT_USAGE;
		}
	}
	return 0;
}

/* The search between the ends over COMMITS (COUNT, the last the bad one,
 * whose result is RES[COUNT - 1]); RES[i] filled for each commit measured.
 * 0, or a negative errno. */
static int search(const struct bisect_env *e, struct bisect_outcome *o, char (*commits)[41],
		  size_t count, struct run_result *res, const struct run_result *good,
		  const bool *keep, enum bisect_mark *marks)
{
	struct bisect b = { marks, count };
	double tolerance = POLICY_COST_TOLERANCE;
	for (long i; (i = bisect_next(&b)) >= 0;) {
		marks[i] = BISECT_GOOD;
		int ret = probe(e, o, commits[i], &res[i], &marks[i]);
		if (ret < 0)
			return ret;
		if (!ret && moved_like_bad(good, &res[count - 1], keep, &res[i], tolerance))
			marks[i] = o->probes[o->probe_count - 1].mark = BISECT_BAD;
		const struct bisect_probe *p = &o->probes[o->probe_count - 1];
		message_note("%.7s %s%s%s", p->commit, p->mark == BISECT_GOOD ? "good"
			     : p->mark == BISECT_BAD ? "bad" : "skipped: ",
			     p->mark == BISECT_SKIP && p->why ? p->why : "",
			     p->cached ? " (measured before)" : "");
	}
	return 0;
}

/* The culprit of the search into O (or the range its skips leave), with
 * its subject; its index, *LAST the range's last. */
static size_t name_culprit(struct bisect_outcome *o, char (*commits)[41],
			   const enum bisect_mark *marks, size_t count, size_t *last)
{
	struct bisect b = { (enum bisect_mark *)marks, count };
	size_t first;
	o->found = bisect_culprit(&b, &first, last);
	memcpy(o->first, commits[first], 41);
	memcpy(o->last, commits[*last], 41);
	o->first_subject = subject_of(o->first);
	return first;
}

/* The outcome of the search into O: the culprit (or the range), the
 * results before and after it, their site changes. 0 or -ENOMEM. */
static int conclude(struct bisect_outcome *o, char (*commits)[41], struct run_result *res,
		    struct run_result *good, const enum bisect_mark *marks, size_t count)
{
	size_t last, first = name_culprit(o, commits, marks, count, &last);
	struct run_result *before = good;
	for (size_t i = first; i-- > 0;)
		if (marks[i] == BISECT_GOOD) {
			before = &res[i];
			break;
		}
	o->before = *before;
	memset(before, 0, sizeof *before);
	o->after = res[last];
	memset(&res[last], 0, sizeof res[last]);
	return sites_compare(&o->after, &o->before);
}

/* --timing's search over COMMITS (COUNT, the last the bad one): the good
 * revision built once and kept, the bad one and each probe timed against
 * it by gate ab; O->after gets gate ab's result of the first bad commit.
 * 0 (O says what was found), GATE_EXIT_USAGE after a message, or a
 * negative errno. */
static int timing_search(const struct bisect_env *e, struct bisect_outcome *o,
			 char (*commits)[41], size_t count, enum bisect_mark *marks)
{
	char dir[4096], kd[8400], why[1200] = "";
	int ret = bisect_worktree_build(e, o->good, dir, sizeof dir, why, sizeof why);
	if (ret) {
		if (ret > 0)
			message_error("the good revision %.12s cannot be built: %s", o->good, why);
		return ret > 0 ? GATE_EXIT_USAGE : ret;
	}
	snprintf(kd, sizeof kd, "%s/%s%s", dir, e->prefix, e->p->kernel_dir);
	if (add_probe(o, o->good, BISECT_GOOD, NULL, false) < 0)
		ret = -ENOMEM;
	struct bisect b = { marks, count };
	for (long i = (long)count - 1; !ret && i >= 0; i = bisect_next(&b)) {
		struct run_result r;
		memset(&r, 0, sizeof r);
		int t = bisect_time(e, kd, commits[i], &r, why, sizeof why);
		if (t < 0) {
			ret = t;
			break;
		}
		marks[i] = t == 2 ? BISECT_BAD : t == 1 ? BISECT_SKIP : BISECT_GOOD;
		if (add_probe(o, commits[i], marks[i], t == 1 ? why : NULL, false) < 0)
			ret = -ENOMEM;
		if (t == 2) {   /* the latest bad one is the first bad so far */
			result_free(&o->after);
			o->after = r;
		} else {
			result_free(&r);
		}
		message_note("%.7s %s", commits[i], t == 2 ? "slower" : t == 1 ? "skipped" : "good");
		if ((size_t)i == count - 1 && t != 2) {   /* the ends: nothing to search */
			if (t == 1) {
				message_error("the bad revision %.12s cannot be timed: %s", o->bad, why);
				ret = GATE_EXIT_USAGE;
			}
			break;
		}
	}
	for (size_t i = 0; i < o->after.series_count; i++)
		o->moved += marks[count - 1] == BISECT_BAD && o->after.series[i].cls == METRIC_TIMING &&
			    o->after.series[i].verdict == VERDICT_FAIL;
	bisect_worktree_remove(e, dir);
	return ret;
}

/* O to stdout, and to JSON_PATH (atomically) when not NULL. 0, or
 * GATE_EXIT_USAGE after a message naming the file that could not be
 * written. */
static int report(const struct bisect_outcome *o, const char *json_path)
{
	char err[600];
	report_bisect_text(stdout, o);
	fflush(stdout);
	if (!json_path)
		return 0;
	json_t *root = report_bisect_json(o);
	int rc = root ? jsonout_write_file(json_path, root, err, sizeof err) : -ENOMEM;
	json_decref(root);
	if (rc) {
		message_error("%s", root ? err : "out of memory");
		return GATE_EXIT_USAGE;
	}
	return 0;
}

/* P's revisions as full hashes into O, and the commits after good up to
 * bad into *COMMITS (*COUNT of them). 0, or GATE_EXIT_USAGE after a
 * message (an unknown revision, good no ancestor of bad, nothing between). */
static int range(const struct bisect_plan *p, struct bisect_outcome *o, char (**commits)[41],
		 size_t *count)
{
	char why[300] = "";
	int ret = resolve(p->good, "good", o->good);
	if (!ret)
		ret = resolve(p->bad, "bad", o->bad);
	if (ret)
		return ret;
	const char *ancestor[] = { "merge-base", "--is-ancestor", o->good, o->bad, NULL };
	if (bisect_git(ancestor, NULL, why, sizeof why)) {
		message_error("--good %s is not an ancestor of --bad %s", p->good, p->bad);
		return GATE_EXIT_USAGE;
	}
	if (bisect_git_commits(o->good, o->bad, commits, count, why, sizeof why) || !*count) {
		message_error("no commit after --good %s up to --bad %s%s%s", p->good, p->bad,
			      *why ? ": " : "", why);
		return GATE_EXIT_USAGE;
	}
	o->commits = *count;
	o->timing = p->timing;
	return 0;
}

/* The search over exact series: the ends measured, what moved between
 * them, the probes, the culprit. 0, GATE_EXIT_USAGE after a message, or a
 * negative errno (-ENOMEM). */
static int exact_search(struct bisect_env *e, struct bisect_outcome *o, char (*commits)[41],
			size_t count, struct run_result *res, enum bisect_mark *marks)
{
	struct run_result good;
	memset(&good, 0, sizeof good);
	bool *keep = NULL;
	int ret = ends(e, o, &good, &res[count - 1]);
	if (!ret && !(keep = calloc(res[count - 1].series_count + 1, sizeof *keep)))
		ret = -ENOMEM;
	if (!ret) {
		o->moved = bisect_moved_count(&good, &res[count - 1], POLICY_COST_TOLERANCE, keep);
		if (e->p->metric_count)
			o->moved = only_asked(e->p, &res[count - 1], keep);
		marks[count - 1] = BISECT_BAD;
	}
	if (!ret && o->moved && !(ret = narrow(e, &res[count - 1], keep)) &&
	    !(ret = search(e, o, commits, count, res, &good, keep, marks)))
		ret = conclude(o, commits, res, &good, marks, count);
	free(keep);
	result_free(&good);
	return ret;
}

int run_bisect(const struct bisect_plan *p)
{
	struct bisect_env e;
	struct bisect_outcome o;
	struct run_result *res = NULL;
	char (*commits)[41] = NULL;
	enum bisect_mark *marks = NULL;
	size_t count = 0;
	message_set_program("gate bisect");
	memset(&o, 0, sizeof o);
	int ret = locate(p, &e);
	if (!ret)
		ret = range(p, &o, &commits, &count);
	if (!ret) {
		res = calloc(count, sizeof *res);
		marks = calloc(count, sizeof *marks);
		ret = !res || !marks ? -ENOMEM
		      : p->timing ? timing_search(&e, &o, commits, count, marks)
				  : exact_search(&e, &o, commits, count, res, marks);
	}
	if (!ret && p->timing && o.moved) {
		size_t last;
		name_culprit(&o, commits, marks, count, &last);
	}
	if (!ret) {
		ret = report(&o, p->json);
		if (!ret)
			ret = o.moved && o.found ? GATE_EXIT_OK : GATE_EXIT_REGRESSION;
	} else if (ret < 0) {
		message_error("%s", strerror(-ret));
		ret = GATE_EXIT_USAGE;
	}
	if (e.kernels != p->kernels)
		free((void *)e.kernels);
	for (size_t i = 0; res && i < count; i++)
		result_free(&res[i]);
	free(res);
	free(marks);
	free(commits);
	bisect_outcome_free(&o);
	return ret;
}
