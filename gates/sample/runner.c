/* runner.c: spawns kernel processes and turns their records into series. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sample/runner.h"
#include "sample/backend.h"
#include "sample/cost_pass.h"
#include "sample/record.h"
#include "sample/spawn.h"

/* Last line of a child's stderr, for the report. */
static void stderr_tail(const struct spawn_output *out, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!out->err || !out->err_len)
		return;
	size_t end = out->err_len;
	while (end > 0 && (out->err[end - 1] == '\n' || out->err[end - 1] == '\r'))
		end--;
	size_t start = end;
	while (start > 0 && out->err[start - 1] != '\n')
		start--;
	snprintf(buf, size, ": %.*s", (int)(end - start > 200 ? 200 : end - start),
		 out->err + start);
}

int runner_list_kernel(const char *path, double timeout_seconds, struct kernel_info *info,
		       char *err, size_t err_size)
{
	char *argv[] = { (char *)path, "--list", NULL };
	struct spawn_output out;
	char how[128], tail[256];
	int ret = spawn_run(argv, NULL, timeout_seconds, &out);
	if (ret) {
		snprintf(err, err_size, "%s --list: %s", path, strerror(-ret));
		return -EINVAL;
	}
	if (out.status == SPAWN_EXITED && (!out.out || strncmp(out.out, "allocgate-list ", 15))) {
		/* it ran and said nothing of the protocol: another program that
		 * shares the directory (a script, a test binary), not a kernel */
		snprintf(err, err_size, "%s: not a kernel (its --list printed no 'allocgate-list' "
			 "line); skipped", path);
		ret = RUNNER_NOT_A_KERNEL;
	} else if (out.status != SPAWN_EXITED || out.exit_code != 0) {
		spawn_describe(&out, how, sizeof how);
		stderr_tail(&out, tail, sizeof tail);
		snprintf(err, err_size, "%s --list: %s%s", path, how, tail);
		ret = -EINVAL;
	} else {
		ret = kernel_info_parse(path, out.out, info, err, err_size);
		/* No digest (unreadable executable): no drift history, nothing worse. */
		if (!ret)
			digest_file(path, info->digest, sizeof info->digest);
	}
	spawn_output_free(&out);
	return ret;
}

/* Records run-wide problem WHAT (a refused counter) once per run. */
static void note_once(struct run_result *r, const char *what, const char *reason)
{
	for (size_t i = 0; i < r->problem_count; i++)
		if (!r->problems[i].kernel && !strcmp(r->problems[i].what, what) &&
		    !strcmp(r->problems[i].reason, reason))
			return;
	result_add_problem(r, NULL, NULL, NULL, what, reason);
}

/* Records a refused counter once per run. */
static void note_unavailable(struct run_result *r, const struct record_unavailable *u)
{
	const char *base = strrchr(u->name, '.');
	base = base ? base + 1 : u->name;
	for (size_t i = 0; i < r->problem_count; i++)
		if (!r->problems[i].kernel && !strcmp(r->problems[i].what, base))
			return;
	result_add_problem(r, NULL, NULL, NULL, base, u->reason);
}

/* Appends VALUE as round ROUND of the series, padding skipped rounds. */
static int put_sample(struct run_result *r, const struct kernel_info *k, size_t v,
		      const char *params, const struct record_metric *m, size_t round)
{
	const char *variant = k->variants[v];
	struct series *s = result_find_series(r, k->name, variant, params, m->name);
	if (!s) {
		s = result_add_series(r, k->name, variant, params, m->name, m->unit, m->cls);
		if (!s)
			return -ENOMEM;
		const char *file = kernel_info_variant_source(k, v, &s->line);
		s->file = file ? strdup(file) : NULL;
		s->kernel_digest = k->digest[0] ? strdup(k->digest) : NULL;
	}
	while (s->sample_count < round)
		if (result_series_append(s, NAN))
			return -ENOMEM;
	if (s->sample_count > round)
		return 0;
	return result_series_append(s, (double)m->value);
}

/* A variant that failed once (timed out, crashed, printed garbage) is not
 * sampled again in the run: a hanging allocator must not cost a timeout per
 * round (docs/robustness.md, "Time budget"). */
#define RUNNER_MAX_FAILURES 1

double runner_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Seconds a sample may take: the per-sample timeout, or what is left of
 * the run's deadline when that is less (at least 0.1). */
static double sample_timeout(const struct runner_plan *o, double timeout)
{
	if (o->deadline_at > 0) {
		double left = o->deadline_at - runner_now();
		timeout = left < timeout ? left : timeout;
	}
	return timeout > 0.1 ? timeout : 0.1;
}

static int deadline_passed(const struct runner_plan *o)
{
	return o->deadline_at > 0 && runner_now() >= o->deadline_at;
}

/* Whether a problem of R names (KERNEL, VARIANT, PARAMS)'s failed timed or
 * counted sample ("sample N", "warm-up sample", "counted sample"; not a
 * cost sample, whose failure under valgrind says nothing of a native run). */
static int item_failed(const struct run_result *r, const char *kernel, const char *variant,
		       const char *params)
{
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		if (p->kernel && p->variant && p->params && !strcmp(p->kernel, kernel) &&
		    !strcmp(p->variant, variant) && !strcmp(p->params, params) &&
		    (!strncmp(p->what, "sample", 6) || !strcmp(p->what, "warm-up sample") ||
		     !strcmp(p->what, "counted sample")))
			return 1;
	}
	return 0;
}

/* Counts one more sample of problem (KERNEL, VARIANT, PARAMS, WHAT) not
 * taken: its reason is "N FORMAT" with N counted here. */
static void count_not_taken(struct run_result *r, const char *kernel, const char *variant,
			    const char *params, const char *what, const char *format)
{
	char reason[300];
	for (size_t i = 0; i < r->problem_count; i++) {
		struct problem *p = &r->problems[i];
		if (!p->kernel || strcmp(p->kernel, kernel) || strcmp(p->what, what) ||
		    strcmp(p->params ? p->params : "", params) ||
		    strcmp(p->variant ? p->variant : "", variant ? variant : ""))
			continue;
		unsigned long n = strtoul(p->reason, NULL, 10) + 1;
		snprintf(reason, sizeof reason, "%lu %s", n, format);
		char *copy = strdup(reason);
		if (copy) {
			free(p->reason);
			p->reason = copy;
		}
		return;
	}
	snprintf(reason, sizeof reason, "1 %s", format);
	result_add_problem(r, kernel, variant, params, what, reason);
}

static int sample_once(const struct kernel_info *k, const char *variant,
		       const struct kernel_paramset *p, const struct runner_plan *o,
		       struct record *rec, char *why, size_t why_size)
{
	char seed[32], best_of[16];
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
	char *argv[] = { k->path, "--variant", (char *)variant, "--params", p->name,
			 "--seed", seed, NULL, NULL, NULL };
	/* --best-of K, or 1 under a wrapping backend (bpf, callgrind): its counts
	 * would add up over the repetitions. Not passed otherwise, so that
	 * kernels built before the flag (gate ab's side A) still run. */
	int k_best_of = o->backend ? 1 : o->best_of;
	if (k_best_of > 0 && (o->best_of > 0 || kernel_info_best_of(p) > 1)) {
		snprintf(best_of, sizeof best_of, "%d", k_best_of);
		argv[7] = "--best-of";
		argv[8] = best_of;
	}
	struct spawn_output out;
	struct backend_run b;   /* --backend: the kernel under gate-bpf or valgrind */
	char how[128], tail[256];
	int ret = backend_prepare(&b, o->backend, argv, (char *const *)o->env, why, why_size);
	if (ret)
		return ret;
	ret = spawn_run(b.argv, (char *const *)o->env, sample_timeout(o, o->timeout_seconds), &out);
	if (ret) {
		backend_cleanup(&b);
		snprintf(why, why_size, "runner: %s", strerror(-ret));
		return ret;
	}
	if (out.status != SPAWN_EXITED || out.exit_code != 0) {
		spawn_describe(&out, how, sizeof how);
		stderr_tail(&out, tail, sizeof tail);
		snprintf(why, why_size, "%s%s", how, tail);
		ret = -EIO;
	} else if (out.out_truncated) {
		snprintf(why, why_size, "printed more than %u bytes", SPAWN_OUTPUT_MAX);
		ret = -EIO;
	} else {
		ret = record_parse(out.out, rec, why, why_size);
		if (!ret && (ret = backend_finish(&b, rec, why, why_size)))
			record_free(rec);
	}
	backend_cleanup(&b);
	spawn_output_free(&out);
	return ret;
}

/* The sample's wall time (the first wall_ns metric, any region); NaN if none. */
static double record_wall_ns(const struct record *rec)
{
	for (size_t i = 0; i < rec->metric_count; i++) {
		const char *base = strrchr(rec->metrics[i].name, '.');
		base = base ? base + 1 : rec->metrics[i].name;
		if (!strcmp(base, "wall_ns"))
			return (double)rec->metrics[i].value;
	}
	return NAN;
}

/* Runs one sample and files it (warm-up samples, ROUND < 0, are only
 * timed into *WALL_NS); returns 0 or -1 when the sample failed. */
static int run_sample(const struct kernel_info *k, size_t v, const struct kernel_paramset *p,
		      const struct runner_plan *o, struct run_result *r, long round,
		      size_t first_round, double *wall_ns)
{
	struct record rec;
	char why[512];
	const char *variant = k->variants[v];
	*wall_ns = NAN;
	if (sample_once(k, variant, p, o, &rec, why, sizeof why)) {
		char what[64];
		snprintf(what, sizeof what, round < 0 ? "warm-up sample" : "sample %ld", round + 1);
		result_add_problem(r, k->name, variant, p->name, what, why);
		if (o->verbose)
			fprintf(stderr, "  %s/%s/%s %s: %s\n", k->name, variant, p->name, what, why);
		return -1;
	}
	*wall_ns = record_wall_ns(&rec);
	if (o->verbose && round < 0)
		fprintf(stderr, "  %s/%s/%s warm-up: wall %.0f ns\n", k->name, variant, p->name,
			*wall_ns);
	else if (o->verbose)
		fprintf(stderr, "  %s/%s/%s round %ld: %zu metrics\n", k->name, variant, p->name,
			round + 1, rec.metric_count);
	for (size_t i = 0; i < rec.unavailable_count; i++)
		note_unavailable(r, &rec.unavailable[i]);
	for (size_t i = 0; round >= 0 && i < rec.metric_count; i++)
		put_sample(r, k, v, p->name, &rec.metrics[i], first_round + (size_t)round);
	record_free(&rec);
	return 0;
}

/* Path of the counted build of K (docs/counters.md): the kernel's
 * directory with "-counted" appended, e.g. build/kernels-counted/NAME. */
static int counted_path(const struct kernel_info *k, char *out, size_t size)
{
	const char *slash = strrchr(k->path, '/');
	if (!slash)
		return -ENOENT;
	int n = snprintf(out, size, "%.*s-counted%s", (int)(slash - k->path), k->path, slash);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	FILE *f = fopen(out, "rb");
	if (!f)
		return -errno;
	fclose(f);
	return 0;
}

/* ENV (NULL-terminated) with LIB first in LD_PRELOAD, before a preloaded
 * allocator, so that its malloc counts and then calls the allocator's;
 * NULL on no memory. Free with interposed_env_free. */
static const char **interposed_env(const char **env, const char *lib)
{
	size_t n = 0;
	while (env && env[n])
		n++;
	const char **out = calloc(n + 2, sizeof *out);
	if (!out)
		return NULL;
	const char *old = NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(env[i], "LD_PRELOAD=", 11))
			old = env[i] + 11;
		else
			out[k++] = env[i];
	}
	size_t len = strlen(lib) + (old ? strlen(old) + 1 : 0) + 12;
	char *preload = malloc(len);
	if (!preload) {
		free(out);
		return NULL;
	}
	snprintf(preload, len, "LD_PRELOAD=%s%s%s", lib, old && *old ? ":" : "", old ? old : "");
	out[k++] = preload;
	out[k] = NULL;
	return out;
}

/* Frees what interposed_env made (the LD_PRELOAD entry is the last). */
static void interposed_env_free(const char **env)
{
	if (!env)
		return;
	size_t n = 0;
	while (env[n])
		n++;
	if (n)
		free((char *)env[n - 1]);
	free(env);
}

/* Whether R already has problem WHAT of (KERNEL, any variant, PARAMS). */
static int has_problem(const struct run_result *r, const char *kernel, const char *params,
		       const char *what)
{
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		if (p->kernel && p->params && !strcmp(p->kernel, kernel) &&
		    !strcmp(p->params, params) && !strcmp(p->what, what))
			return 1;
	}
	return 0;
}

/* How to build a counted twin, for the notes below. */
#define COUNTED_HOW "build it from the same sources with the Cflags of `pkg-config --cflags " \
	"allocgate-counted` (docs/install.md)"

/* One sample of variant V from the counted build: its heap_* counts fill
 * every round of this batch (they are exact: the same in every round);
 * its timings are dropped, so the wrappers never touch a timing sample.
 * Adds the sample's allocation calls (heap_calls and proc_*_calls of every
 * region) to *CALLS; returns 1 when a counted sample was taken, else 0. */
static int run_counted(const struct kernel_info *k, size_t v, const struct kernel_paramset *p,
		       const struct runner_plan *o, struct run_result *r, size_t first_round,
		       double *calls)
{
	struct kernel_info counted = *k;
	struct record rec;
	char path[4096] = "", why[700];
	int n = counted_path(k, path, sizeof path), heap = 0;
	if (n) {
		/* said once per kernel: without it no heap_* count exists, and an
		 * expectation on one would only say "no measurement named" */
		snprintf(why, sizeof why, "no counted build of %s at %s (%s); %s", k->name,
			 *path ? path : "KERNEL_DIR-counted/", strerror(-n), COUNTED_HOW);
		note_once(r, "heap_* (counted build)", why);
		return 0;
	}
	counted.path = path;
	struct runner_plan with_interposer = *o;
	const char **env = NULL;
	if (o->interposer && (env = interposed_env(o->env, o->interposer)))
		with_interposer.env = env;
	int failed = sample_once(&counted, k->variants[v], p, &with_interposer, &rec, why,
				 sizeof why);
	interposed_env_free(env);
	if (failed) {
		result_add_problem(r, k->name, k->variants[v], p->name, "counted sample", why);
		return 0;
	}
	for (size_t i = 0; i < rec.metric_count; i++) {
		const char *name = rec.metrics[i].name, *base = strrchr(name, '.');
		if (!result_metric_is_counted(name))
			continue;
		base = base ? base + 1 : name;
		heap |= !strncmp(base, "heap_", 5);
		/* the wrappers' calls, or the interposer's (code not compiled
		 * with the counting include: a prebuilt library) */
		if (!strcmp(base, "heap_calls") ||
		    (!strncmp(base, "proc_", 5) && strstr(base, "_calls")))
			*calls += rec.metrics[i].value;
		for (int round = 0; round < o->rounds; round++)
			put_sample(r, k, v, p->name, &rec.metrics[i], first_round + (size_t)round);
	}
	record_free(&rec);
	if (!heap) {
		snprintf(why, sizeof why, "the counted build of %s (%s) reports no heap_* count: it "
			 "was compiled without the counting include; %s", k->name, path, COUNTED_HOW);
		note_once(r, "heap_* (counted build)", why);
	}
	return 1;
}

/* The cost pass's command line of variant V of K on P (argv has room for
 * 10 entries; SEED and BEST_OF are its storage). */
static void cost_argv(const struct kernel_info *k, size_t v, const struct kernel_paramset *p,
		      const struct runner_plan *o, char **argv, char *seed, size_t seed_size)
{
	size_t n = 0;
	snprintf(seed, seed_size, "%llu", (unsigned long long)o->seed);
	argv[n++] = k->path;
	argv[n++] = "--variant";
	argv[n++] = (char *)k->variants[v];
	argv[n++] = "--params";
	argv[n++] = p->name;
	argv[n++] = "--seed";
	argv[n++] = seed;
	/* one repetition: the dumps would add up over best_of repetitions */
	if (o->best_of > 0 || kernel_info_best_of(p) > 1) {
		argv[n++] = "--best-of";
		argv[n++] = "1";
	}
	argv[n] = NULL;
}

/* The cost pass of one group (cost_pass.h): COST_RUNS samples of every
 * item that did not fail, taken in parallel after the timed rounds; round
 * r of the batch gets the cost of sample r mod COST_RUNS, so the
 * baseline's samples show how much the cost varied. */
static void run_cost(const struct runner_side *sides, const size_t *item_side,
		     const size_t *item_variant, const int *failures, size_t n,
		     size_t first_round)
{
	const struct runner_plan *o = sides[0].o;
	int runs = o->cost_runs > 0 ? o->cost_runs : 1;
	size_t count = 0;
	struct cost_job *jobs = calloc(n * (size_t)runs + 1, sizeof *jobs);
	char **argvs = calloc((n * (size_t)runs + 1) * 10, sizeof *argvs);
	char (*seeds)[32] = calloc(n * (size_t)runs + 1, sizeof *seeds);
	if (!jobs || !argvs || !seeds)
		goto out;
	for (size_t i = 0; i < n; i++)
		for (int rep = 0; failures[i] < RUNNER_MAX_FAILURES && rep < runs; rep++) {
			const struct runner_side *sd = &sides[item_side[i]];
			cost_argv(sd->k, item_variant[i], sd->p, sd->o, argvs + count * 10,
				  seeds[count], sizeof seeds[count]);
			jobs[count].argv = argvs + count * 10;
			jobs[count].env = (char *const *)sd->o->env;
			/* valgrind runs 20-100x slower than the timed samples */
			jobs[count].timeout_seconds = sample_timeout(o, 5 * sd->o->timeout_seconds);
			count++;
		}
	cost_pass_run(jobs, count, 0);
	for (size_t i = 0, j = 0; i < n; i++) {
		if (failures[i] >= RUNNER_MAX_FAILURES)
			continue;
		const struct runner_side *sd = &sides[item_side[i]];
		const struct cost_job *mine = &jobs[j];
		j += (size_t)runs;
		int failed = 0;
		for (int rep = 0; rep < runs && !failed; rep++) {
			failed = mine[rep].ret != 0;
			/* a kernel without the markers (an old build, gate ab's side A):
			 * no cost series, said once, not a failed sample */
			if (mine[rep].ret == -ENODATA)
				note_once(sd->r, "cost pass", mine[rep].why);
			else if (failed)
				result_add_problem(sd->r, sd->k->name, sd->k->variants[item_variant[i]],
						   sd->p->name, "cost sample", mine[rep].why);
		}
		for (int round = 0; !failed && round < o->rounds; round++) {
			const struct record *rec = &mine[round % runs].rec;
			for (size_t m = 0; m < rec->metric_count; m++)
				put_sample(sd->r, sd->k, item_variant[i], sd->p->name, &rec->metrics[m],
					   first_round + (size_t)round);
		}
	}
out:
	for (size_t i = 0; jobs && i < count; i++)
		record_free(&jobs[i].rec);
	free(jobs);
	free(argvs);
	free(seeds);
}


int runner_warmup_stable(const double *prev, const double *cur, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(prev[i] > 0 && cur[i] > 0 &&
		      fabs(cur[i] / prev[i] - 1) <= RUNNER_WARMUP_TOLERANCE))
			return 0;
	return 1;
}

/* Gives every series of side S's group exactly ROUNDS samples from FIRST_ROUND on. */
static void pad_group(const struct runner_side *s, size_t first_round)
{
	struct run_result *r = s->r;
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *x = &r->series[i];
		if (strcmp(x->kernel, s->k->name) || strcmp(x->params, s->p->name))
			continue;
		while (x->sample_count < first_round + (size_t)s->o->rounds)
			if (result_series_append(x, NAN))
				break;
	}
}

int runner_run_sides(const struct runner_side *sides, size_t side_count,
		     struct rng *rng, size_t first_round)
{
	const struct runner_plan *o = sides[0].o;
	size_t n = 0;
	for (size_t s = 0; s < side_count; s++)
		n += sides[s].k->variant_count;
	/* item i: side item_side[i], variant item_variant[i] */
	size_t *order = calloc(n + 1, sizeof *order), *item_side = calloc(n + 1, sizeof(size_t));
	size_t *item_variant = calloc(n + 1, sizeof(size_t));
	int *failures = calloc(n + 1, sizeof *failures), failed = 0;
	double *wall = calloc(n + 1, sizeof *wall), *prev_wall = calloc(n + 1, sizeof *wall);
	if (!order || !item_side || !item_variant || !failures || !wall || !prev_wall) {
		for (size_t s = 0; s < side_count; s++)
			result_add_problem(sides[s].r, sides[s].k->name, NULL, sides[s].p->name,
					   "sample", "runner: out of memory");
		failed = (int)n;
		goto out;
	}
	for (size_t s = 0, i = 0; s < side_count; s++)
		for (size_t v = 0; v < sides[s].k->variant_count; v++, i++) {
			item_side[i] = s;
			item_variant[i] = v;
		}
	/* an item that failed in an earlier batch of the run stays out */
	for (size_t i = 0; i < n; i++) {
		const struct runner_side *sd = &sides[item_side[i]];
		if (item_failed(sd->r, sd->k->name, sd->k->variants[item_variant[i]], sd->p->name))
			failures[i] = RUNNER_MAX_FAILURES;
	}
	int auto_warmup = o->warmup == RUNNER_WARMUP_AUTO, late = 0;
	long warmup = auto_warmup ? RUNNER_WARMUP_MAX : o->warmup;
	for (long round = -warmup; round < o->rounds; round++) {
		for (size_t i = 0; i < n; i++)
			order[i] = i;
		rng_shuffle(rng, order, n);
		for (size_t i = 0; i < n; i++) {
			size_t it = order[i];
			const struct runner_side *sd = &sides[item_side[it]];
			const char *variant = sd->k->variants[item_variant[it]];
			wall[it] = NAN;
			if (failures[it] >= RUNNER_MAX_FAILURES) {
				count_not_taken(sd->r, sd->k->name, variant, sd->p->name,
						"skipped", "later samples not taken: the variant "
						"failed once (above)");
			} else if (deadline_passed(o)) {
				char why[160];
				snprintf(why, sizeof why, "samples not taken: the run reached its "
					 "deadline of %.0f s (--deadline)", o->deadline_seconds);
				count_not_taken(sd->r, sd->k->name, NULL, sd->p->name, "deadline", why);
				failed += !late;
				late = 1;
			} else if (run_sample(sd->k, item_variant[it], sd->p, sd->o, sd->r, round,
					      first_round, &wall[it])) {
				failures[it]++;
				failed++;
			}
		}
		/* --warmup auto: measure once two warm-up rounds in a row agree */
		if (auto_warmup && round < -1 && round > -warmup &&
		    runner_warmup_stable(prev_wall, wall, n))
			round = -1;
		memcpy(prev_wall, wall, n * sizeof *wall);
	}
	for (size_t s = 0; s < side_count; s++) {
		double calls = 0;
		int taken = 0;
		for (size_t i = 0; i < n; i++) {
			const struct runner_side *sd = &sides[item_side[i]];
			if (item_side[i] == s && failures[i] < RUNNER_MAX_FAILURES &&
			    !deadline_passed(o))
				taken += run_counted(sd->k, item_variant[i], sd->p, sd->o, sd->r,
						     first_round, &calls);
		}
		if (taken && calls == 0) {
			/* every variant counted nothing: the sources that allocate
			 * were not compiled with the counting include (said once per
			 * group, not per batch) */
			char why[800];
			snprintf(why, sizeof why, "the counted build of %s counted no allocation in any "
				 "variant of %s: were the sources that allocate (a library of yours "
				 "too) compiled with the Cflags of `pkg-config --cflags "
				 "allocgate-counted`? (docs/install.md)%s", sides[s].k->name,
				 sides[s].p->name, sides[s].o->interposer ? "" :
				 "; without the interposer (see its unavailable line) allocations "
				 "inside prebuilt libraries are not counted either");
			if (!has_problem(sides[s].r, sides[s].k->name, sides[s].p->name,
					 "counted build"))
				result_add_problem(sides[s].r, sides[s].k->name, NULL, sides[s].p->name,
						   "counted build", why);
		}
	}
	if (o->cost && !cost_pass_unavailable() && !deadline_passed(o))
		run_cost(sides, item_side, item_variant, failures, n, first_round);
	for (size_t s = 0; s < side_count; s++)
		pad_group(&sides[s], first_round);
out:
	free(order);
	free(item_side);
	free(item_variant);
	free(failures);
	free(wall);
	free(prev_wall);
	return failed;
}

int runner_run_params(const struct kernel_info *k, const struct kernel_paramset *p,
		      const struct runner_plan *o, struct rng *rng,
		      struct run_result *r, size_t first_round)
{
	struct runner_side side = { k, p, o, r };
	return runner_run_sides(&side, 1, rng, first_round);
}
