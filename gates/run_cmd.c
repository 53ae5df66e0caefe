/* run_cmd.c: `gate run`: load the baseline, take the samples, check the
 * expectations, compare, report, and maybe store the new baseline. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "allocator.h"
#include "backend.h"
#include "atomic_file.h"
#include "baseline.h"
#include "commands.h"
#include "compare.h"
#include "confirm.h"
#include "discover.h"
#include "expect_eval.h"
#include "platform.h"
#include "report_json.h"
#include "report_outputs.h"
#include "report_term.h"
#include "runner.h"
#include "shard.h"
#include "spawn.h"
#include "update.h"

struct run_state {
	struct run_options o;
	struct run_result r;
	struct run_result base;
	int have_base;
	char baseline_path[4096];
	char kernel_dir[4096];
	char default_baseline_dir[4096];
	struct kernel_info *kernels;
	size_t kernel_count;
	int sample_failures;
};

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *join_env(const struct run_options *o)
{
	size_t len = 1;
	for (size_t i = 0; i < o->env_count; i++)
		len += strlen(o->env[i]) + 1;
	char *s = calloc(len, 1);
	for (size_t i = 0; s && i < o->env_count; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, o->env[i]);
	}
	return s;
}

/* Loads this platform's baseline; returns 0, or 2 (bad input). */
static int load_baseline(struct run_state *st)
{
	const char *dir = st->o.baseline_dir;
	char err[1024];
	snprintf(st->baseline_path, sizeof st->baseline_path, "%s/%s.json", dir,
		 st->r.ctx.platform_key);
	if (st->o.update_baseline && atomic_file_check(st->baseline_path, err, sizeof err)) {
		fprintf(stderr, "gate: --update-baseline: %s; nothing was run\n", err);
		return 2;
	}
	int ret = baseline_load(st->baseline_path, &st->base, err, sizeof err);
	if (ret == -ENOENT) {
		if (st->o.require_baseline) {
			fprintf(stderr, "gate: no baseline for platform %s: %s does not exist "
				"(--require-baseline); create it with ./gate --update-baseline\n",
				st->r.ctx.platform_key, st->baseline_path);
			return 2;
		}
		return 0;
	}
	if (ret) {
		fprintf(stderr, "gate: malformed baseline: %s\n", err);
		return 2;
	}
	if (st->base.ctx.platform_key && strcmp(st->base.ctx.platform_key, st->r.ctx.platform_key)) {
		fprintf(stderr, "gate: baseline %s: platform: \"%s\", not this machine's \"%s\" "
			"(a file of another platform?); nothing was run\n", st->baseline_path,
			st->base.ctx.platform_key, st->r.ctx.platform_key);
		return 2;
	}
	st->have_base = 1;
	st->r.baseline_path = strdup(st->baseline_path);
	return 0;
}

static int wanted(const struct run_options *o, const char *name)
{
	if (!o->kernel_count)
		return 1;
	for (size_t i = 0; i < o->kernel_count; i++)
		if (!strcmp(o->kernels[i], name))
			return 1;
	return 0;
}

/* Checks that every --kernel names a kernel; returns 0 or 2. */
static int check_kernel_names(const struct run_options *o, char **paths)
{
	char name[256], known[2048] = "";
	for (size_t i = 0; paths && paths[i]; i++) {
		discover_kernel_name(paths[i], name, sizeof name);
		if (strlen(known) + strlen(name) + 3 < sizeof known)
			strcat(strcat(known, *known ? ", " : ""), name);
	}
	for (size_t k = 0; k < o->kernel_count; k++) {
		int found = 0;
		for (size_t i = 0; paths && paths[i] && !found; i++) {
			discover_kernel_name(paths[i], name, sizeof name);
			found = !strcmp(name, o->kernels[k]);
		}
		if (!found) {
			fprintf(stderr, "gate: unknown kernel '%s' (known: %s)\n", o->kernels[k],
				*known ? known : "none");
			return 2;
		}
	}
	return 0;
}

/* Asks every selected kernel what it has; returns 0 or 2. */
static int list_kernels(struct run_state *st)
{
	char **paths = NULL, name[256], err[1024];
	int n = discover_kernels(st->kernel_dir, &paths);
	if (n < 0) {
		fprintf(stderr, "gate: kernel directory %s: %s (build with ./gate, or pass "
			"--kernel-dir)\n", st->kernel_dir, strerror(-n));
		return 2;
	}
	int ret = check_kernel_names(&st->o, paths);
	st->kernels = calloc((size_t)n + 1, sizeof *st->kernels);
	for (int i = 0; !ret && st->kernels && i < n; i++) {
		discover_kernel_name(paths[i], name, sizeof name);
		if (!wanted(&st->o, name))
			continue;
		if (runner_list_kernel(paths[i], st->o.timeout_seconds,
				       &st->kernels[st->kernel_count], err, sizeof err)) {
			result_add_problem(&st->r, name, NULL, NULL, "kernel", err);
			st->sample_failures++;
			continue;
		}
		st->kernel_count++;
	}
	discover_free(paths);
	return ret;
}

static size_t count_groups(const struct run_state *st)
{
	size_t n = 0;
	for (size_t k = 0; k < st->kernel_count; k++)
		for (size_t p = 0; p < st->kernels[k].paramset_count; p++)
			n += !!(st->kernels[k].paramsets[p].tiers & st->o.tier);
	return n;
}

/* Batch-major: every (kernel, params) once per batch, so that the batches
 * of one group are minutes apart and their spread shows the machine's drift. */
static void take_samples(struct run_state *st)
{
	struct stats_rng rng;
	stats_rng_seed(&rng, st->o.seed);
	size_t total = count_groups(st) * (size_t)st->o.runs, done = 0;
	for (int b = 0; b < st->o.runs; b++) {
		for (size_t k = 0; k < st->kernel_count; k++) {
			const struct kernel_info *ki = &st->kernels[k];
			for (size_t p = 0; p < ki->paramset_count; p++) {
				if (!(ki->paramsets[p].tiers & st->o.tier))
					continue;
				fprintf(stderr, "gate: [%zu/%zu] %s %s\n", ++done, total, ki->name,
					ki->paramsets[p].name);
				st->sample_failures += runner_run_params(
					ki, &ki->paramsets[p], &st->o, &rng, &st->r,
					(size_t)b * (size_t)st->o.rounds);
			}
		}
	}
	for (size_t i = 0; i < st->r.series_count; i++)
		st->r.series[i].batches = (size_t)st->o.runs;
}

static void check_expectations(struct run_state *st)
{
	for (size_t k = 0; k < st->kernel_count; k++) {
		const struct kernel_info *ki = &st->kernels[k];
		for (size_t e = 0; e < ki->expect_count; e++) {
			const struct kernel_expect *ex = &ki->expects[e];
			char why[160] = "";
			int applies = kernel_platform_applies(ex->platforms, st->r.ctx.os,
							      st->r.ctx.cpu_count, why, sizeof why);
			if (!applies)
				continue;
			for (size_t p = 0; p < ki->paramset_count; p++) {
				const struct kernel_paramset *ps = &ki->paramsets[p];
				if (!(ps->tiers & st->o.tier) || !kernel_list_has(ex->params, ps->name))
					continue;
				if (applies > 0)
					expect_evaluate(ki, ex, ps->name, 0.95, &st->r);
				else
					expect_skip(ki, ex, ps->name, why, &st->r);
			}
		}
	}
}

static int has_finite_sample(const struct run_result *r)
{
	for (size_t i = 0; i < r->series_count; i++)
		for (size_t j = 0; j < r->series[i].sample_count; j++)
			if (isfinite(r->series[i].samples[j]))
				return 1;
	return 0;
}

static int exit_code(const struct run_state *st)
{
	const struct run_result *r = &st->r;
	for (size_t i = 0; i < r->series_count; i++)
		if (r->series[i].verdict == VERDICT_FAIL)
			return 1;
	for (size_t i = 0; i < r->expect_count; i++)
		if (r->expects[i].verdict == VERDICT_FAIL)
			return 1;
	if (!has_finite_sample(r))
		return st->sample_failures ? 4 : 3;
	for (size_t i = 0; i < r->expect_count; i++)
		if (r->expects[i].verdict == VERDICT_ERROR)
			return 4;
	return st->sample_failures ? 4 : 0;
}

static void compare(struct run_state *st)
{
	int same = 1;
	char why[512] = "";
	if (st->have_base) {
		same = platform_same_hardware(&st->base.ctx, &st->r.ctx, why, sizeof why);
		if (!same) {
			char note[700];
			snprintf(note, sizeof note, "hardware changed since the baseline (%s): timing "
				 "not compared; run ./gate --update-baseline", why);
			st->r.baseline_note = strdup(note);
		}
	}
	if (st->have_base && platform_software_diff(&st->base.ctx, &st->r.ctx, why, sizeof why)) {
		/* not a verdict: what a person should know when reading one */
		char note[1200];
		snprintf(note, sizeof note, "%s%ssoftware differs from the baseline's: %s",
			 st->r.baseline_note ? st->r.baseline_note : "",
			 st->r.baseline_note ? "\n" : "", why);
		free(st->r.baseline_note);
		st->r.baseline_note = strdup(note);
	}
	compare_run(&st->r, st->have_base ? &st->base : NULL, &st->o, same);
	if (st->have_base && same)
		st->sample_failures += confirm_regressions(st->kernels, st->kernel_count, &st->o,
							   &st->r, &st->base);
}

/* The environment control in force: pinning, ASLR, malloc tunables. */
static void record_environment(struct run_state *st)
{
	char buf[64];
	spawn_configure(st->o.pin_cpu, st->o.no_aslr);
	snprintf(buf, sizeof buf, st->o.pin_cpu >= 0 ? "cpu %d" : "none", st->o.pin_cpu);
	st->r.ctx.pinning = strdup(buf);
	if (st->o.no_aslr) {
		free(st->r.ctx.aslr);
		st->r.ctx.aslr = strdup("off (--no-aslr)");
	}
	const char *tunables = getenv("GLIBC_TUNABLES");
	for (size_t i = 0; i < st->o.env_count; i++)
		if (!strncmp(st->o.env[i], "GLIBC_TUNABLES=", 15))
			tunables = st->o.env[i] + 15;
	st->r.ctx.tunables = strdup(tunables ? tunables : "");
}

static int setup(struct run_state *st, int argc, char **argv, const char *self_dir)
{
	options_defaults(&st->o);
	int ret = options_parse(&st->o, argc, argv);
	if (ret)
		return ret < 0 ? 2 : -1;
	char err[1024];
	if (st->o.json_path && atomic_file_check(st->o.json_path, err, sizeof err)) {
		fprintf(stderr, "gate: --json: %s; nothing was run\n", err);
		return 2;
	}
	if (st->o.runs == 0)
		st->o.runs = st->o.update_baseline ? 3 : 1;
	if (!st->o.baseline_dir) {
		discover_baseline_dir(self_dir, st->default_baseline_dir,
				      sizeof st->default_baseline_dir);
		st->o.baseline_dir = st->default_baseline_dir;
	}
	if (st->o.kernel_dir)
		snprintf(st->kernel_dir, sizeof st->kernel_dir, "%s", st->o.kernel_dir);
	else
		snprintf(st->kernel_dir, sizeof st->kernel_dir, "%s/kernels", self_dir);
	if (platform_context(&st->r.ctx)) {
		fprintf(stderr, "gate: cannot read this machine's description: out of memory\n");
		return 2;
	}
	st->r.ctx.env = join_env(&st->o);
	if (allocator_context(&st->r.ctx, st->o.allocator)) {
		fprintf(stderr, "gate: cannot record the allocator: out of memory\n");
		return 2;
	}
	if (backend_context(&st->r.ctx, st->o.backend)) {
		fprintf(stderr, "gate: cannot record the backend: out of memory\n");
		return 2;
	}
	st->r.ctx.tier = strdup(st->o.tier_name);
	st->r.ctx.seed = (long long)st->o.seed;
	record_environment(st);
	/* The commit measured: set by ./gate from git, or by GitHub Actions. */
	const char *commit = getenv("ALLOCGATE_COMMIT");
	if (!commit || !*commit)
		commit = getenv("GITHUB_SHA");
	free(st->r.ctx.commit);
	st->r.ctx.commit = commit && *commit ? strdup(commit) : NULL;
	if (st->r.ctx.commit && strlen(st->r.ctx.commit) > 64)  /* no strndup on mingw */
		st->r.ctx.commit[64] = '\0';
	return load_baseline(st);
}

int run_main(int argc, char **argv, const char *self_dir)
{
	struct run_state st;
	memset(&st, 0, sizeof st);
	double start = now_seconds();
	int ret = setup(&st, argc, argv, self_dir);
	if (ret == 0)
		ret = list_kernels(&st);
	if (ret)
		goto out;
	shard_apply(st.kernels, st.kernel_count, st.o.tier, st.o.shard_index, st.o.shard_count);
	take_samples(&st);
	check_expectations(&st);
	compare(&st);
	result_sort(&st.r);
	st.r.wall_seconds = now_seconds() - start;
	st.r.exit_code = exit_code(&st);
	update_counters_note(&st.r);
	report_term_print(stdout, &st.r, &st.o, st.have_base ? &st.base : NULL);
	ret = st.r.exit_code;
	if (st.o.json_path) {
		char err[1024];
		if (report_json_write(st.o.json_path, &st.r, err, sizeof err)) {
			fprintf(stderr, "gate: --json: %s\n", err);
			ret = ret ? ret : 2;
		}
	}
	struct report_paths rp = { st.o.junit_path, st.o.markdown_path, st.o.svg_dir };
	if (report_outputs_write(&st.r, &rp))
		ret = ret ? ret : 2;
	if (st.o.update_baseline) {
		int u = update_baseline(&st.r, st.have_base ? &st.base : NULL, st.baseline_path,
					st.sample_failures);
		if (u)
			ret = u;
	}
out:
	for (size_t k = 0; k < st.kernel_count; k++)
		kernel_info_free(&st.kernels[k]);
	free(st.kernels);
	result_free(&st.r);
	result_free(&st.base);
	free(st.o.env);
	free(st.o.kernels);
	return ret < 0 ? 0 : ret;
}
