/* session.c: the start of what `gate run` and `gate ab` share
 * (session.h): the clock, the context and the kernels asked for. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/session.h"
#include "cli/discover.h"
#include "core/commit.h"
#include "core/message.h"
#include "core/platform.h"
#include "sample/allocator.h"
#include "sample/backend.h"
#include "sample/cost_pass.h"
#include "sample/runner.h"
#include "sample/spawn.h"

double session_now(void)
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

/* The environment control in force: pinning, ASLR, malloc tunables. */
static void record_environment(struct session *s)
{
	char buf[64];
	spawn_configure(s->o.pin_cpu, s->o.no_aslr, s->o.no_thp);
	snprintf(buf, sizeof buf, s->o.pin_cpu >= 0 ? "cpu %d" : "none", s->o.pin_cpu);
	s->r.ctx.pinning = strdup(buf);
	if (s->o.backend)   /* its counts would add up over repetitions */
		snprintf(buf, sizeof buf, "1 (--backend %s)", s->o.backend);
	else
		snprintf(buf, sizeof buf, s->o.best_of ? "%d (--best-of)" : "per parameter set",
			 s->o.best_of);
	s->r.ctx.best_of = strdup(buf);
	if (s->o.no_aslr) {
		free(s->r.ctx.aslr);
		s->r.ctx.aslr = strdup("off (--no-aslr)");
	}
	if (s->o.no_thp) {
		free(s->r.ctx.thp);
		s->r.ctx.thp = strdup("off for the kernels (--no-thp)");
	}
	const char *tunables = getenv("GLIBC_TUNABLES");
	for (size_t i = 0; i < s->o.env_count; i++)
		if (!strncmp(s->o.env[i], "GLIBC_TUNABLES=", 15))
			tunables = s->o.env[i] + 15;
	s->r.ctx.tunables = strdup(tunables ? tunables : "");
}

/* The cost pass's part of the context, and its one `unavailable:` line
 * when it was asked for and cannot run. Returns 0 or -ENOMEM. */
static int session_cost_context(struct session *s)
{
	const char *why = cost_pass_unavailable();
	if (!s->o.cost) {
		free(s->r.ctx.cost_tool);
		free(s->r.ctx.cost_cpu);
		s->r.ctx.cost_tool = strdup("");
		s->r.ctx.cost_cpu = strdup("off: --no-cost");
		return s->r.ctx.cost_tool && s->r.ctx.cost_cpu ? 0 : -ENOMEM;
	}
	if (why)
		result_add_problem(&s->r, NULL, NULL, NULL, "cost pass", why);
	return cost_pass_context(&s->r.ctx, (char *const *)s->o.env);
}

int session_context(struct session *s, const char *self_dir)
{
	run_options_policy(&s->o, &s->r.policy);
	run_options_plan(&s->o, &s->plan);
	const char *no_interposer = discover_interposer(self_dir, s->interposer,
							sizeof s->interposer);
	if (!no_interposer)
		s->plan.interposer = s->interposer;
	else   /* an unavailable counter: expectations on proc_* are skipped */
		result_add_problem(&s->r, NULL, NULL, NULL, "proc_* (interposer)", no_interposer);
	if (!s->o.baseline_dir) {
		/* kernels of the user's own (--kernel-dir): the baselines of the
		 * project the gate runs in, never the gate's own checkout's */
		if (s->o.kernel_dir)
			snprintf(s->default_baseline_dir, sizeof s->default_baseline_dir, "baselines");
		else
			discover_baseline_dir(self_dir, s->default_baseline_dir,
					      sizeof s->default_baseline_dir);
		s->o.baseline_dir = s->default_baseline_dir;
	}
	if (s->o.kernel_dir)
		snprintf(s->kernel_dir, sizeof s->kernel_dir, "%s", s->o.kernel_dir);
	else
		snprintf(s->kernel_dir, sizeof s->kernel_dir, "%s/kernels", self_dir);
	if (platform_context(&s->r.ctx)) {
		message_error("cannot read this machine's description: out of memory");
		return 2;
	}
	s->r.ctx.env = join_env(&s->o);
	if (allocator_context(&s->r.ctx, s->o.allocator)) {
		message_error("cannot record the allocator: out of memory");
		return 2;
	}
	if (backend_context(&s->r.ctx, s->o.backend)) {
		message_error("cannot record the backend: out of memory");
		return 2;
	}
	if (session_cost_context(s)) {
		message_error("cannot record the cost pass: out of memory");
		return 2;
	}
	s->r.ctx.tier = strdup(s->o.tier_name);
	s->r.ctx.seed = (long long)s->o.seed;
	record_environment(s);
	/* The commit measured: the override, GitHub's, or git's of the
	 * current directory (core/commit.h) */
	char commit[80];
	free(s->r.ctx.commit);
	s->r.ctx.commit = commit_current(commit, sizeof commit) ? NULL : strdup(commit);
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
			message_error("unknown kernel '%s' (known: %s)", o->kernels[k],
				*known ? known : "none");
			return 2;
		}
	}
	return 0;
}

/* Lists the kernels of DIR that S->o selects (see session_list_kernels);
 * with CHECK_NAMES every --kernel must be among them. */
static int list_kernels(struct session *s, const char *dir, struct run_result *r,
			struct kernel_info **kernels, size_t *count, bool check_names, int *found)
{
	char **paths = NULL, name[256], err[1024];
	int n = discover_kernels(dir, &paths);
	*kernels = NULL;
	*count = 0;
	*found = n;
	if (n < 0)
		return n;
	int ret = check_names ? check_kernel_names(&s->o, paths) : 0;
	*kernels = calloc((size_t)n + 1, sizeof **kernels);
	for (int i = 0; !ret && *kernels && i < n; i++) {
		discover_kernel_name(paths[i], name, sizeof name);
		if (!wanted(&s->o, name))
			continue;
		int listed = runner_list_kernel(paths[i], s->o.timeout_seconds, &(*kernels)[*count],
						err, sizeof err);
		if (listed == RUNNER_NOT_A_KERNEL && !s->o.kernel_count) {
			message_note("%s", err);   /* a kernel directory may hold other files */
			continue;
		}
		if (listed) {
			result_add_problem(r, name, NULL, NULL, "kernel", err);
			s->sample_failures++;
			continue;
		}
		(*count)++;
	}
	discover_free(paths);
	return ret;
}

int session_list_kernels(struct session *s, const char *dir, struct run_result *r,
			 struct kernel_info **kernels, size_t *count)
{
	int found, ret = list_kernels(s, dir, r, kernels, count, true, &found);
	if (found < 0) {
		message_error("kernel directory %s: %s (./gate builds allocgate's own "
			      "kernels; yours: pass --kernel-dir)", dir, strerror(-found));
		return 2;
	}
	return ret;
}

int session_list_kernels_of_base(struct session *s, const char *dir, struct run_result *r,
				 struct kernel_info **kernels, size_t *count, bool *missing)
{
	int found, ret = list_kernels(s, dir, r, kernels, count, false, &found);
	*missing = found == -ENOENT;
	if (found < 0 && !*missing) {
		message_error("kernel directory %s (side A): %s", dir, strerror(-found));
		return 2;
	}
	return found < 0 ? 0 : ret;
}

void session_free(struct session *s)
{
	for (size_t k = 0; k < s->kernel_count; k++)
		kernel_info_free(&s->kernels[k]);
	free(s->kernels);
	result_free(&s->r);
	free(s->o.env);
	free(s->o.kernels);
}
