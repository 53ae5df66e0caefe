/* runner.c: spawns kernel processes and turns their records into series. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "record.h"
#include "runner.h"
#include "spawn.h"

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
	if (out.status != SPAWN_EXITED || out.exit_code != 0) {
		spawn_describe(&out, how, sizeof how);
		stderr_tail(&out, tail, sizeof tail);
		snprintf(err, err_size, "%s --list: %s%s", path, how, tail);
		ret = -EINVAL;
	} else {
		ret = kernel_info_parse(path, out.out, info, err, err_size);
	}
	spawn_output_free(&out);
	return ret;
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
		const char *file = kernel_variant_source(k, v, &s->line);
		s->file = file ? strdup(file) : NULL;
	}
	while (s->sample_count < round)
		if (series_append(s, NAN))
			return -ENOMEM;
	if (s->sample_count > round)
		return 0;
	return series_append(s, (double)m->value);
}

static int sample_once(const struct kernel_info *k, const char *variant,
		       const struct kernel_paramset *p, const struct run_options *o,
		       struct record *rec, char *why, size_t why_size)
{
	char seed[32];
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
	char *argv[] = { k->path, "--variant", (char *)variant, "--params", p->name,
			 "--seed", seed, NULL };
	struct spawn_output out;
	struct backend_run b;   /* --backend: the kernel under gate-bpf or valgrind */
	char how[128], tail[256];
	int ret = backend_prepare(&b, o->backend, argv, (char *const *)o->env, why, why_size);
	if (ret)
		return ret;
	ret = spawn_run(b.argv, (char *const *)o->env, o->timeout_seconds, &out);
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

/* Runs one sample and files it; returns 0 or -1 when the sample failed. */
static int run_sample(const struct kernel_info *k, size_t v, const struct kernel_paramset *p,
		      const struct run_options *o, struct run_result *r, long round,
		      size_t first_round)
{
	struct record rec;
	char why[512];
	const char *variant = k->variants[v];
	if (sample_once(k, variant, p, o, &rec, why, sizeof why)) {
		char what[64];
		snprintf(what, sizeof what, round < 0 ? "warm-up sample" : "sample %ld", round + 1);
		result_add_problem(r, k->name, variant, p->name, what, why);
		if (o->verbose)
			fprintf(stderr, "  %s/%s/%s %s: %s\n", k->name, variant, p->name, what, why);
		return -1;
	}
	if (o->verbose)
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

/* Whether metric NAME ([REGION.]heap_...) is an allocation count. */
static int is_counted_metric(const char *name)
{
	const char *base = strrchr(name, '.');
	base = base ? base + 1 : name;
	/* heap_*: the wrappers; sys_*: syscall tracepoints, opened only in
	 * the counted build (their exit costs tens of ms per process) */
	return strncmp(base, "heap_", 5) == 0 || strncmp(base, "sys_", 4) == 0;
}

/* One sample of variant V from the counted build: its heap_* counts fill
 * every round of this batch (they are exact: the same in every round);
 * its timings are dropped, so the wrappers never touch a timing sample. */
static void run_counted(const struct kernel_info *k, size_t v, const struct kernel_paramset *p,
			const struct run_options *o, struct run_result *r, size_t first_round)
{
	struct kernel_info counted = *k;
	struct record rec;
	char path[4096], why[512];
	if (counted_path(k, path, sizeof path))
		return;   /* no counted build (e.g. a kernel dir given by hand) */
	counted.path = path;
	if (sample_once(&counted, k->variants[v], p, o, &rec, why, sizeof why)) {
		result_add_problem(r, k->name, k->variants[v], p->name, "counted sample", why);
		return;
	}
	for (size_t i = 0; i < rec.metric_count; i++) {
		if (!is_counted_metric(rec.metrics[i].name))
			continue;
		for (int round = 0; round < o->rounds; round++)
			put_sample(r, k, v, p->name, &rec.metrics[i], first_round + (size_t)round);
	}
	record_free(&rec);
}

/* A variant that failed this often is not run again in this batch: a
 * crashing or hanging kernel must not cost the whole time budget. */
#define RUNNER_MAX_FAILURES 2

int runner_run_params(const struct kernel_info *k, const struct kernel_paramset *p,
		      const struct run_options *o, struct stats_rng *rng,
		      struct run_result *r, size_t first_round)
{
	size_t n = k->variant_count;
	size_t *order = calloc(n, sizeof *order);
	int *failures = calloc(n, sizeof *failures);
	int failed = 0;
	if (!order || !failures) {
		free(order);
		free(failures);
		result_add_problem(r, k->name, NULL, p->name, "sample", "runner: out of memory");
		return (int)n;
	}
	for (long round = -o->warmup; round < o->rounds; round++) {
		for (size_t i = 0; i < n; i++)
			order[i] = i;
		stats_shuffle(rng, order, n);
		for (size_t i = 0; i < n; i++) {
			size_t v = order[i];
			if (failures[v] >= RUNNER_MAX_FAILURES)
				continue;
			if (run_sample(k, v, p, o, r, round, first_round)) {
				failures[v]++;
				failed++;
			}
		}
	}
	for (size_t v = 0; v < n; v++)
		if (failures[v] < RUNNER_MAX_FAILURES)
			run_counted(k, v, p, o, r, first_round);
	/* Every series of this group gets exactly o->rounds samples. */
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *s = &r->series[i];
		if (strcmp(s->kernel, k->name) || strcmp(s->params, p->name))
			continue;
		while (s->sample_count < first_round + (size_t)o->rounds)
			if (series_append(s, NAN))
				break;
	}
	free(order);
	free(failures);
	return failed;
}
