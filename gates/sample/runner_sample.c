/* runner_sample.c: one kernel process: its command line, the spawn under
 * the plan's backend and time limit, its record parsed and filed into the
 * result (runner_internal.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sample/backend.h"
#include "sample/cost_pass.h"
#include "sample/record.h"
#include "sample/runner.h"
#include "sample/runner_internal.h"
#include "sample/spawn.h"

/* Last line of a child's stderr, for the report. */
void runner_stderr_tail(const struct spawn_output *out, char *buf, size_t size)
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

/* Records run-wide problem WHAT (a refused counter) once per run. */
void runner_note_once(struct run_result *r, const char *what, const char *reason)
{
	for (size_t i = 0; i < r->problem_count; i++)
		if (!r->problems[i].kernel && !strcmp(r->problems[i].what, what) &&
		    !strcmp(r->problems[i].reason, reason))
			return;
	result_add_problem(r, NULL, NULL, NULL, what, reason);
}

/* Records a refused counter once per run. */
void runner_note_unavailable(struct run_result *r, const struct record_unavailable *u)
{
	const char *base = strrchr(u->name, '.');
	base = base ? base + 1 : u->name;
	for (size_t i = 0; i < r->problem_count; i++)
		if (!r->problems[i].kernel && !strcmp(r->problems[i].what, base))
			return;
	result_add_problem(r, NULL, NULL, NULL, base, u->reason);
}

int runner_put_sample(struct run_result *r, size_t *hint, const struct kernel_info *k, size_t v,
		      const char *params, const struct record_metric *m, size_t round)
{
	const char *variant = k->variants[v];
	struct series *s = result_find_series_near(r, hint, k->name, variant, params, m->name);
	if (!s) {
		s = result_add_series(r, k->name, variant, params, m->name, m->unit, m->cls);
		if (!s)
			return -ENOMEM;
		*hint = r->series_count - 1;
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

/* Seconds a sample may take: the per-sample timeout, or what is left of
 * the run's deadline when that is less (at least 0.1). */
double runner_sample_timeout(const struct runner_plan *o, double timeout)
{
	if (o->deadline_at > 0) {
		double left = o->deadline_at - runner_now();
		timeout = left < timeout ? left : timeout;
	}
	return timeout > 0.1 ? timeout : 0.1;
}

int runner_deadline_passed(const struct runner_plan *o)
{
	return o->deadline_at > 0 && runner_now() >= o->deadline_at;
}

int runner_sample_once(const struct kernel_info *k, const char *variant,
		       const struct kernel_paramset *p, const struct runner_plan *o,
		       struct record *rec, char *why, size_t why_size)
{
	char seed[32], best_of[16];
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
	char *argv[] = { k->path, "--variant", (char *)variant, "--params", p->name,
			 "--seed", seed, NULL, NULL, NULL };
	/* --best-of K, or 1 under a wrapping backend (bpf): its counts
	 * would add up over the repetitions. Not passed otherwise, so that
	 * kernels built before the flag (gate ab's side A) still run. */
	int k_best_of = o->backend ? 1 : o->best_of;
	if (k_best_of > 0 && (o->best_of > 0 || kernel_info_best_of(p) > 1)) {
		snprintf(best_of, sizeof best_of, "%d", k_best_of);
		argv[7] = "--best-of";
		argv[8] = best_of;
	}
	struct spawn_output out;
	struct backend_run b;   /* --backend: the kernel as is, or under gate-bpf */
	char how[128], tail[256];
	int ret = backend_prepare(&b, o->backend, argv, (char *const *)o->env, why, why_size);
	if (ret)
		return ret;
	ret = spawn_run(b.argv, (char *const *)o->env, runner_sample_timeout(o, o->timeout_seconds), &out);
	if (ret) {
		snprintf(why, why_size, "runner: %s", strerror(-ret));
		return ret;
	}
	if (out.status != SPAWN_EXITED || out.exit_code != 0) {
		spawn_describe(&out, how, sizeof how);
		runner_stderr_tail(&out, tail, sizeof tail);
		snprintf(why, why_size, "%s%s", how, tail);
		ret = -EIO;
	} else if (out.out_truncated) {
		snprintf(why, why_size, "printed more than %u bytes", SPAWN_OUTPUT_MAX);
		ret = -EIO;
	} else {
		ret = record_parse(out.out, rec, why, why_size);
	}
	spawn_output_free(&out);
	return ret;
}

/* The sample's wall time (the first wall_ns metric, any region); NaN if none. */
double runner_record_wall_ns(const struct record *rec)
{
	for (size_t i = 0; i < rec->metric_count; i++) {
		const char *base = strrchr(rec->metrics[i].name, '.');
		base = base ? base + 1 : rec->metrics[i].name;
		if (!strcmp(base, "wall_ns"))
			return (double)rec->metrics[i].value;
	}
	return NAN;
}
