/* session.c: the start of what `gate run` and `gate ab` share
 * (session.h): the clock, the context and the kernels asked for. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/session.h"
#include "run/variant_filter.h"
#include "run/discover.h"
#include "core/commit.h"
#include "core/message.h"
#include "core/platform.h"
#include "sample/counter_keep.h"
#include "sample/allocator.h"
#include "sample/backend.h"
#include "sample/cost_pass.h"
#include "sample/runner.h"
#include "sample/spawn.h"

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
	spawn_configure(s->options.pin_cpu, s->options.no_aslr, s->options.no_thp);
	counter_keep_open();
	snprintf(buf, sizeof buf, s->options.pin_cpu >= 0 ? "cpu %d" : "none", s->options.pin_cpu);
	s->result.ctx.pinning = strdup(buf);
	if (s->options.backend)   /* its counts would add up over repetitions */
		snprintf(buf, sizeof buf, "1 (--backend %s)", s->options.backend);
	else
		snprintf(buf, sizeof buf,
			 s->options.best_of ? "%d (--best-of)" : "per parameter set",
			 s->options.best_of);
	s->result.ctx.best_of = strdup(buf);
	if (s->options.no_aslr) {
		free(s->result.ctx.aslr);
		s->result.ctx.aslr = strdup("off (--no-aslr)");
	}
	if (s->options.no_thp) {
		free(s->result.ctx.thp);
		s->result.ctx.thp = strdup("off for the kernels (--no-thp)");
	}
	const char *tunables = getenv("GLIBC_TUNABLES");
	for (size_t i = 0; i < s->options.env_count; i++)
		if (!strncmp(s->options.env[i], "GLIBC_TUNABLES=", 15))
			tunables = s->options.env[i] + 15;
	s->result.ctx.tunables = strdup(tunables ? tunables : "");
}

/* The cost pass's part of the context, and its one `unavailable:` line
 * when it was asked for and cannot run. Returns 0 or -ENOMEM. */
static int session_cost_context(struct session *s)
{
	const char *why = cost_pass_unavailable();
	if (!s->options.cost) {
		free(s->result.ctx.cost_tool);
		free(s->result.ctx.cost_cpu);
		s->result.ctx.cost_tool = strdup("");
		s->result.ctx.cost_cpu = strdup("off: --no-cost");
		return s->result.ctx.cost_tool && s->result.ctx.cost_cpu ? 0 : -ENOMEM;
	}
	if (why)
		result_add_problem(&s->result, NULL, NULL, NULL, "cost pass", why);
	return cost_pass_context(&s->result.ctx, (char *const *)s->options.env);
}

int session_context(struct session *s, const char *self_dir)
{
	run_options_policy(&s->options, &s->result.policy);
	run_options_plan(&s->options, &s->plan);
	const char *no_interposer = discover_interposer(self_dir, s->interposer,
							sizeof s->interposer);
	if (!no_interposer)
		s->plan.interposer = s->interposer;
	else   /* an unavailable counter: expectations on proc_* are skipped */
		result_add_problem(&s->result, NULL, NULL, NULL, "proc_* (interposer)",
				   no_interposer);
	if (!s->options.baseline_dir) {
		/* kernels of the user's own (--kernel-dir): the baselines of the
		 * project the gate runs in, never the gate's own checkout's */
		if (s->options.kernel_dir)
			snprintf(s->default_baseline_dir, sizeof s->default_baseline_dir, "baselines");
		else
			discover_baseline_dir(self_dir, s->default_baseline_dir,
					      sizeof s->default_baseline_dir);
		s->options.baseline_dir = s->default_baseline_dir;
	}
	if (s->options.kernel_dir)
		snprintf(s->kernel_dir, sizeof s->kernel_dir, "%s", s->options.kernel_dir);
	else
		snprintf(s->kernel_dir, sizeof s->kernel_dir, "%s/kernels", self_dir);
	if (platform_context(&s->result.ctx)) {
		message_error("cannot read this machine's description: out of memory");
		return GATE_EXIT_USAGE;
	}
	s->result.ctx.env = join_env(&s->options);
	if (allocator_context(&s->result.ctx, s->options.allocator)) {
		message_error("cannot record the allocator: out of memory");
		return GATE_EXIT_USAGE;
	}
	if (backend_context(&s->result.ctx, s->options.backend)) {
		message_error("cannot record the backend: out of memory");
		return GATE_EXIT_USAGE;
	}
	if (session_cost_context(s)) {
		message_error("cannot record the cost pass: out of memory");
		return GATE_EXIT_USAGE;
	}
	s->result.ctx.tier = strdup(s->options.tier_name);
	s->result.variants_asked = s->options.variants;
	s->result.variants_asked_count = s->options.variant_count;
	s->result.ctx.seed = (long long)s->options.seed;
	record_environment(s);
	/* The commit measured: the override, GitHub's, or git's of the
	 * current directory (core/commit.h) */
	char commit[80];
	free(s->result.ctx.commit);
	s->result.ctx.commit = commit_current(commit, sizeof commit) ? NULL : strdup(commit);
	return GATE_EXIT_OK;
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

/* Checks that every --kernel names a kernel; returns GATE_EXIT_OK, or
 * GATE_EXIT_USAGE after a message. */
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
			return GATE_EXIT_USAGE;
		}
	}
	return GATE_EXIT_OK;
}

/* Checks that every --variant names a variant of a kernel listed (SEEN,
 * per --variant); returns GATE_EXIT_OK, or GATE_EXIT_USAGE after a message
 * naming KNOWN, the variants of the kernels listed. */
static int check_variant_names(const struct run_options *o, const bool *seen, const char *known)
{
	for (size_t v = 0; v < o->variant_count; v++)
		if (!seen[v]) {
			message_error("unknown variant '%s' (variants of the kernels asked for: %s)",
				      o->variants[v], *known ? known : "none");
			return GATE_EXIT_USAGE;
		}
	return GATE_EXIT_OK;
}

/* Appends "KERNEL/VARIANT, ..." of K to KNOWN (SIZE bytes) while it fits. */
static void add_known_variants(const struct kernel_info *k, char *known, size_t size)
{
	for (size_t i = 0; i < k->variant_count; i++) {
		size_t used = strlen(known);
		if (used + strlen(k->name) + strlen(k->variants[i]) + 4 < size)
			snprintf(known + used, size - used, "%s%s/%s", used ? ", " : "", k->name,
				 k->variants[i]);
	}
}

/* Lists the kernels of DIR that S->o selects (see session_list_kernels);
 * with CHECK_NAMES every --kernel must be among them. */
static int list_kernels(struct session *s, const char *dir, struct run_result *r,
			struct kernel_info **kernels, size_t *count, bool check_names, int *found)
{
	char **paths = NULL, name[256], err[1024], known[2048] = "";
	int n = discover_kernels(dir, &paths);
	*kernels = NULL;
	*count = 0;
	*found = n;
	if (n < 0)
		return n;
	int ret = check_names ? check_kernel_names(&s->options, paths) : 0;
	*kernels = calloc((size_t)n + 1, sizeof **kernels);
	bool *seen = calloc(s->options.variant_count + 1, sizeof *seen);
	for (int i = 0; !ret && *kernels && seen && i < n; i++) {
		discover_kernel_name(paths[i], name, sizeof name);
		if (!wanted(&s->options, name))
			continue;
		int listed = runner_list_kernel(paths[i], s->options.timeout_seconds,
						&(*kernels)[*count],
						err, sizeof err);
		if (listed == RUNNER_NOT_A_KERNEL && !s->options.kernel_count) {
			message_note("%s", err);   /* a kernel directory may hold other files */
			continue;
		}
		if (listed) {
			result_add_problem(r, name, NULL, NULL, "kernel", err);
			s->sample_failures++;
			continue;
		}
		if (s->options.variant_count)   /* for a refusal's list */
			add_known_variants(&(*kernels)[*count], known, sizeof known);
		int kept = variant_filter_apply(&(*kernels)[*count], s->options.variants,
						s->options.variant_count, seen);
		if (kept <= 0) {   /* none of the variants asked for */
			kernel_info_free(&(*kernels)[*count]);
			if (kept < 0) {
				message_error("cannot list kernel %s: out of memory", name);
				ret = GATE_EXIT_USAGE;
			}
			continue;
		}
		(*count)++;
	}
	if (!ret && check_names && seen)
		ret = check_variant_names(&s->options, seen, known);
	if (!seen && !ret) {
		message_error("cannot list the kernels: out of memory");
		ret = GATE_EXIT_USAGE;
	}
	free(seen);
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
		return GATE_EXIT_USAGE;
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
		return GATE_EXIT_USAGE;
	}
	return found < 0 ? 0 : ret;
}

void session_free(struct session *s)
{
	for (size_t k = 0; k < s->kernel_count; k++)
		kernel_info_free(&s->kernels[k]);
	free(s->kernels);
	result_free(&s->result);
	free(s->options.env);
	free(s->options.kernels);
	free(s->options.variants);
}
