/* run_skeleton.c: the steps of a measuring run in their order
 * (run_skeleton.h); what each command does at a step is its hook's. */
#include <stdlib.h>

#include "run/run_skeleton.h"
#include "core/message.h"
#include "decide/confirm.h"
#include "sample/runner.h"
#include "store/atomic_file.h"

/* Before anything runs: a --json file that could not be written later. */
static int check_json(const char *json_path)
{
	char err[1024];
	if (json_path && atomic_file_check(json_path, err, sizeof err)) {
		message_error("--json: %s; nothing was run", err);
		return GATE_EXIT_USAGE;
	}
	return GATE_EXIT_OK;
}

void run_skeleton_deadline(struct run_options *o, double started, double sides)
{
	if (!o->deadline_seconds)
		o->deadline_seconds = run_options_deadline(o) * sides;
	o->deadline_at = started + o->deadline_seconds;
}

/* Every group of the tier, pass after pass, each announced by a progress
 * line and sampled by K->sample from one RNG seeded from --seed. */
static void take_samples(const struct run_skeleton *k)
{
	struct session *s = k->s;
	struct rng rng;
	rng_seed(&rng, s->options.seed);
	size_t batches = !k->batch_major ? 1 : s->options.runs > 0 ? (size_t)s->options.runs : 0;
	size_t total = groups_count(s->kernels, s->kernel_count, s->options.tier) * batches;
	size_t done = 0;
	const char *suffix = k->progress_suffix ? k->progress_suffix : "";
	for (size_t b = 0; b < batches; b++) {
		struct group_iter it;
		struct group g;
		groups_begin(&it, s->kernels, s->kernel_count, s->options.tier);
		while (groups_next(&it, &g)) {
			message_progress("[%zu/%zu] %s %s%s", ++done, total, g.kernel->name,
					 g.params->name, suffix);
			s->sample_failures += k->sample(k->ctx, &g, &rng, b);
		}
	}
}

/* confirm_suspects's callback: the group announced, then K->confirm. */
static int confirm_group(const struct group *g, struct rng *rng, void *ctx)
{
	const struct run_skeleton *k = ctx;
	message_progress("confirming %s %s in a fresh batch", g->kernel->name, g->params->name);
	return k->confirm(k->ctx, g, rng);
}

int run_skeleton_drive(const struct run_skeleton *k, const char *self_dir)
{
	struct session *s = k->s;
	s->started = runner_now();
	int ret = check_json(k->json_path);
	if (!ret)
		ret = k->prepare(k->ctx, self_dir);
	if (ret)
		return ret;
	take_samples(k);
	if (k->settle(k->ctx) && k->confirm)
		s->sample_failures += confirm_suspects(s->kernels, s->kernel_count,
						       s->options.tier, s->options.seed,
						       &s->result, confirm_group, (void *)k);
	return k->finish(k->ctx);
}
