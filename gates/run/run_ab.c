/* run_ab.c: `gate ab` (run.h): side B against side A, both measured in the same
 * shuffled rounds (compare_ab.h says why that beats a stored baseline on a
 * drifting machine). A and B differ by what the user says: an environment
 * variable, an allocator, or a kernel directory built from another commit.
 * No baseline is read or written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/ab_sampling.h"
#include "run/run.h"
#include "run/run_skeleton.h"
#include "run/session.h"
#include "core/commit.h"
#include "core/digest.h"
#include "core/message.h"
#include "decide/compare_ab.h"
#include "decide/confirm.h"
#include "decide/expect_eval.h"
#include "decide/sequential.h"
#include "decide/sites.h"
#include "decide/stacks.h"
#include "sample/allocator.h"
#include "sample/groups.h"
#include "sample/kernel_code.h"
#include "sample/runner.h"
#include "sample/shard.h"

struct ab_state {
	struct session s;              /* side B: its options, kernels and result */
	struct ab_plan *p;             /* what was asked: the shared and each side's options */
	struct run_options a_options;  /* shared + side A's environment */
	struct runner_plan a_plan;     /* how A's samples are taken, from a_options */
	char a_dir[4096];
	struct kernel_info *a_kernels;
	size_t a_count;
	bool a_missing;                /* A's kernel directory does not exist */
	char b_alone[1024];            /* groups B measured alone (A has none), for the note */
	size_t b_alone_count;
	char same[1024];               /* kernels whose code is A's: not measured */
	size_t same_count;
	struct run_result a;           /* side A's samples */
	struct runner_duet *duet;      /* duet sampling's CPUs and figures; NULL: interleaved */
	struct runner_looks looks;     /* when a group may stop early (decide/sequential.h) */
	bool confirming;               /* the samples are a confirmation batch's */
	struct condition_target a_target; /* A's claims are A's allocator's */
	char *a_allocator;
};

static const struct kernel_info *find_kernel(const struct kernel_info *k, size_t n,
					     const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(k[i].name, name))
			return &k[i];
	return NULL;
}

static const struct kernel_paramset *find_params(const struct kernel_info *k, const char *name)
{
	for (size_t i = 0; k && i < k->paramset_count; i++)
		if (!strcmp(k->paramsets[i].name, name))
			return &k->paramsets[i];
	return NULL;
}

/* The plan both sides run by, made of what was asked: gate ab's rounds
 * unless --rounds said otherwise, one batch, the deadline, and each
 * side's options. Returns GATE_EXIT_OK or GATE_EXIT_USAGE after a message. */
static int plan(struct ab_state *st)
{
	struct run_options *shared = &st->p->shared;
	/* The power of the paired test grows with the rounds (core/policy.h);
	 * --rounds still says otherwise, and the BPF backend's batches keep the
	 * tier's own. */
	if (!shared->rounds_given && !shared->backend)
		shared->rounds = policy_ab_rounds(run_options_policy_tier(shared));
	shared->runs = 1;
	run_skeleton_deadline(shared, st->s.started, 1);
	if (ab_options_for_side(shared, &st->p->a, &st->a_options) ||
	    ab_options_for_side(shared, &st->p->b, &st->s.options)) {
		message_error("out of memory");
		return GATE_EXIT_USAGE;
	}
	return GATE_EXIT_OK;
}

/* The sampling mode (ab_sampling.h) into the result and both plans, the
 * comparison's clause into HOW; the context's pinning says duet's CPUs. */
static int choose_mode(struct ab_state *st, char *how, size_t size)
{
	struct ab_schedule *sc = &st->s.result.schedule;
	const struct run_options *shared = &st->p->shared;
	if (ab_sampling_choose(st->p->choice, shared->pin_cpu, shared->backend, sc, &st->duet,
			       how, size))
		return -1;
	if (!st->duet)
		return 0;
	st->s.plan.duet = st->a_plan.duet = st->duet;
	char pinning[160];
	snprintf(pinning, sizeof pinning, "duet: A and B on CPUs %d | %d, swapped every round",
		 sc->cpus[0], sc->cpus[1]);
	free(st->s.result.ctx.pinning);
	st->s.result.ctx.pinning = strdup(pinning);
	return 0;
}

static int setup(struct ab_state *st, const char *self_dir)
{
	struct session *s = &st->s;
	int ret = session_context(s, self_dir);   /* B's environment is the one recorded */
	if (ret)
		return ret;
	run_options_plan(&st->a_options, &st->a_plan);
	st->a_plan.interposer = s->plan.interposer;
	if (st->p->a.kernel_dir)
		snprintf(st->a_dir, sizeof st->a_dir, "%s", st->p->a.kernel_dir);
	else if (st->p->shared.kernel_dir)
		snprintf(st->a_dir, sizeof st->a_dir, "%s", st->p->shared.kernel_dir);
	else
		snprintf(st->a_dir, sizeof st->a_dir, "%s/kernels", self_dir);
	ret = session_list_kernels(s, s->kernel_dir, &s->result, &s->kernels, &s->kernel_count);
	if (!ret)
		ret = session_list_kernels_of_base(s, st->a_dir, &s->result, &st->a_kernels,
						   &st->a_count, &st->a_missing);
	if (ret)
		return ret;
	char a[1400], b[1400], text[3500], how[400];
	if (choose_mode(st, how, sizeof how)) {
		message_error("out of memory");
		return GATE_EXIT_USAGE;
	}
	/* each side by the commit its kernels were built from, where they lie
	 * in a checkout or worktree: the base's temporary worktree path
	 * tells a reviewer nothing */
	char a_rev[80], b_rev[80];
	commit_dir_revision(st->a_dir, a_rev, sizeof a_rev);
	if (strcmp(st->a_dir, s->kernel_dir))
		commit_dir_revision(s->kernel_dir, b_rev, sizeof b_rev);
	else   /* one directory, one revision: git is asked once */
		snprintf(b_rev, sizeof b_rev, "%s", a_rev);
	ab_options_describe(&st->p->a, st->a_dir, a_rev, a, sizeof a);
	ab_options_describe(&st->p->b, s->kernel_dir, b_rev, b, sizeof b);
	if (st->a_count)
		snprintf(text, sizeof text, "A/B: B (%s) against A (%s); %s", b, a, how);
	else   /* a first pull request: its base has no kernels yet */
		snprintf(text, sizeof text, "A/B: B (%s) alone: A (%s) has no kernel%s, so nothing "
			 "is compared; B's own claims gate", b, a,
			 st->a_missing ? " (no such directory)" : "");
	s->result.comparison = strdup(text);
	return GATE_EXIT_OK;
}

/* gate ab's looks (decide/sequential.h): VARIANT of the group of SIDES
 * (A, B) stops once every timing series of it that the run would test is
 * settled and every claim naming it that the run gates is decided on both
 * sides at the looks' claim level; in a confirmation batch, which decides
 * no claim, once every suspected regression of it is
 * (compare_ab_confirm_settled). */
static bool variant_settled(void *ctx, const struct runner_side *sides, size_t side_count,
			    size_t first_round, size_t rounds, const char *variant)
{
	struct ab_state *st = ctx;
	const struct context *c = &st->s.result.ctx;
	struct condition_target tb = { c->os, c->allocator, c->cpu_count };
	if (side_count != 2)
		return false;
	size_t budget = (size_t)st->s.plan.rounds, left = budget > rounds ? budget - rounds : 0;
	double level = seq_claim_level(st->looks.count);
	if (st->confirming)
		return compare_ab_confirm_settled(sides[1].r, sides[0].r, &st->s.result,
						  sides[1].k->name, sides[1].p->name, variant,
						  first_round, rounds, budget, &st->s.result.policy);
	return compare_ab_group_settled(sides[1].r, sides[0].r, sides[1].k->name, sides[1].p->name,
					variant, first_round, rounds, budget,
					&st->s.result.policy) &&
	       expect_group_decided(sides[1].k, sides[1].p->name, variant, &tb, level, left,
				    sides[1].r) &&
	       expect_group_decided(sides[0].k, sides[0].p->name, variant, &st->a_target, level,
				    left, sides[0].r);
}

/* What side A shares with B: A's samples ran on B's machine, so A's
 * result gets the CPUs and pinning that decide which of its samples were
 * disturbed (interference.h: a region's threads against the cores); and
 * the target A's claims are decided for (A's allocator). Returns 0, or -1
 * when memory ran out. */
static int share_machine_with_a(struct ab_state *st)
{
	const struct context *c = &st->s.result.ctx;
	st->a.ctx.cpu_count = c->cpu_count;
	if (c->pinning && !(st->a.ctx.pinning = strdup(c->pinning)))
		return -1;
	struct context a_ctx;
	memset(&a_ctx, 0, sizeof a_ctx);
	a_ctx.libc = c->libc;   /* borrowed: allocator_context names the default by it */
	if (allocator_context(&a_ctx, st->a_options.allocator))
		return -1;
	st->a_allocator = a_ctx.allocator;
	free(a_ctx.platform_key);
	st->a_target = (struct condition_target){ c->os, st->a_allocator, c->cpu_count };
	return 0;
}

/* The looks (decide/sequential.h) on both sides' plans. */
static void set_looks(struct ab_state *st)
{
	st->looks.count = seq_looks((size_t)st->s.plan.rounds, st->looks.at);
	if (st->looks.count)
		st->s.result.schedule.settle_level = SEQ_LEVEL;
	st->looks.settled = variant_settled;
	st->looks.ctx = st;
	st->s.plan.looks = st->a_plan.looks = &st->looks;
}

/* Runs group (K, P) of B together with the same group of A, if A has it;
 * the rounds it took go to *TAKEN (0 when A has no such group), the
 * samples taken and budgeted to SAMPLES[0] and SAMPLES[1]. */
static int run_group(struct ab_state *st, const struct kernel_info *k,
		     const struct kernel_paramset *p, struct rng *rng,
		     struct run_result *b, struct run_result *a, size_t *taken, size_t *samples)
{
	*taken = 0;
	samples[0] = samples[1] = 0;
	const struct kernel_info *ka = find_kernel(st->a_kernels, st->a_count, k->name);
	const struct kernel_paramset *pa = find_params(ka, p->name);
	struct runner_side sides[2] = { { ka, pa, &st->a_plan, a }, { k, p, &st->s.plan, b } };
	if (!ka || !pa) {
		/* a kernel or parameter set new in B: measured, its claims
		 * checked, nothing compared (said once, in the run's note) */
		size_t used = strlen(st->b_alone);
		if (st->a_count && used + strlen(k->name) + strlen(p->name) + 8 < sizeof st->b_alone)
			snprintf(st->b_alone + used, sizeof st->b_alone - used, "%s%s/%s",
				 used ? ", " : "", k->name, p->name);
		st->b_alone_count++;
		return runner_run_sides(&sides[1], 1, rng, 0, NULL, NULL);
	}
	const char *va = pa->values ? pa->values : "", *vb = p->values ? p->values : "";
	if (strcmp(va, vb)) {
		/* e.g. a pull request that changed the work or best_of: compared
		 * all the same, and said, since the timing is not like for like */
		char why[700];
		snprintf(why, sizeof why, "the parameter set differs between A (%s) and B (%s): "
			 "timing compares different work", va, vb);
		result_add_problem(b, k->name, NULL, p->name, "A/B", why);
	}
	return runner_run_sides(sides, 2, rng, 0, taken, samples);
}

/* Whether the two sides run with the same environment and allocator: what
 * tells them apart, then, is only their kernels' code. */
static bool same_setup(const struct ab_plan *p)
{
	return !p->a.env_count && !p->b.env_count && !p->a.allocator && !p->b.allocator;
}

/* Kernels of B whose code is A's (sample/kernel_code.h), where nothing
 * else tells the sides apart: not measured (nothing there can have moved,
 * and the time goes to what changed), taken out of the tier as a shard
 * takes out what it does not run, and named in the run's note. */
static void leave_out_same_code(struct ab_state *st)
{
	struct session *s = &st->s;
	if (!same_setup(st->p))
		return;
	for (size_t i = 0; i < s->kernel_count; i++) {
		struct kernel_info *k = &s->kernels[i];
		const struct kernel_info *ka = find_kernel(st->a_kernels, st->a_count, k->name);
		char da[64], db[64];
		if (!ka || kernel_code_digest(k, db, sizeof db) ||
		    kernel_code_digest(ka, da, sizeof da) || strcmp(da, db))
			continue;
		for (size_t j = 0; j < k->paramset_count; j++)
			k->paramsets[j].tiers &= ~s->options.tier;
		size_t used = strlen(st->same);
		if (used + strlen(k->name) + 4 < sizeof st->same)
			snprintf(st->same + used, sizeof st->same - used, "%s%s", used ? ", " : "",
				 k->name);
		st->same_count++;
	}
	s->result.same_code_kernels = st->same_count;
}

/* Whether the files at A and B hold the same bytes (their digests,
 * core/digest.h): 1, else 0 (one missing or unreadable too). */
static int same_bytes(const char *a, const char *b)
{
	char da[DIGEST_TEXT_SIZE], db[DIGEST_TEXT_SIZE];
	return !digest_file(a, da, sizeof da) && !digest_file(b, db, sizeof db) && !strcmp(da, db);
}

/* Marks the site changes whose file, relative to each side's source root,
 * reads the same in A's tree and in B's: the calls there changed because
 * of a change elsewhere (an argument, a caller), and the reports point at
 * the kernel's line instead (report_github.c). Only where the sides differ
 * by their code alone, built from two trees (a pull request's base in a
 * worktree): where an environment, an allocator or the build flags of one
 * tree tell them apart, the place whose calls changed is the news. */
static void mark_files_same(struct ab_state *st)
{
	struct run_result *r = &st->s.result;
	if (!same_setup(st->p))
		return;
	for (size_t i = 0; i < r->site_change_count; i++) {
		struct site_change *c = &r->site_changes[i];
		const struct kernel_info *kb = find_kernel(st->s.kernels, st->s.kernel_count, c->kernel);
		const struct kernel_info *ka = find_kernel(st->a_kernels, st->a_count, c->kernel);
		if (!kb || !ka || !kb->source_root || !ka->source_root || c->line <= 0 ||
		    c->file[0] == '/' || !strncmp(c->file, "../", 3) ||
		    !strcmp(kb->source_root, ka->source_root))
			continue;
		char pa[4096], pb[4096];
		int na = snprintf(pa, sizeof pa, "%s/%s", ka->source_root, c->file);
		int nb = snprintf(pb, sizeof pb, "%s/%s", kb->source_root, c->file);
		c->file_same = na > 0 && (size_t)na < sizeof pa && nb > 0 && (size_t)nb < sizeof pb &&
			       same_bytes(pa, pb);
	}
}

/* The run's note: what B measured alone, which kernels were the same code. */
static void note_sides(struct ab_state *st)
{
	struct session *s = &st->s;
	char note[2600] = "";
	if (st->a_count && st->b_alone_count)
		snprintf(note, sizeof note, "measured on B alone, A has no such kernel or parameter "
			 "set (new in B: nothing compared, its claims gate): %s", *st->b_alone ?
			 st->b_alone : "...");
	if (st->same_count) {
		size_t used = strlen(note);
		snprintf(note + used, sizeof note - used, "%s%zu kernel%s the same code on both "
			 "sides (executable, counted twin and the project's libraries they load), not "
			 "measured: %s", used ? "; " : "", st->same_count,
			 st->same_count == 1 ? " is" : "s are", st->same);
	}
	if (!*note)
		return;
	free(s->result.baseline_note);
	s->result.baseline_note = strdup(note);
}

/* Group G of both sides (run_skeleton.h), counted in the schedule where
 * it was compared. */
static int sample_group(void *ctx, const struct group *g, struct rng *rng, size_t batch)
{
	struct ab_state *st = ctx;
	struct session *s = &st->s;
	size_t taken, samples[2];
	(void)batch;   /* gate ab takes one */
	int failures = run_group(st, g->kernel, g->params, rng, &s->result, &st->a, &taken,
				 samples);
	if (!taken)
		return failures;
	struct ab_schedule *sc = &s->result.schedule;
	sc->groups_compared++;
	sc->groups_settled += taken < (size_t)s->plan.rounds;
	sc->rounds_taken += taken;
	sc->rounds_budget += (size_t)s->plan.rounds;
	sc->samples_taken += samples[0];
	sc->samples_budget += samples[1];
	return failures;
}

/* A's failed samples are problems of the report too, marked as A's. */
static void take_problems_of_a(struct run_result *b, const struct run_result *a)
{
	for (size_t i = 0; i < a->problem_count; i++) {
		const struct problem *p = &a->problems[i];
		char what[200];
		if (!p->kernel)
			continue;   /* a refused counter: the same machine refuses it for B */
		snprintf(what, sizeof what, "A: %s", p->what);
		result_add_problem(b, p->kernel, p->variant, p->params, what, p->reason);
	}
}

/* The declared expectations evaluated on each side alone (B's on B's
 * rounds, A's on A's, where A's allocator is the target), then decided
 * together (compare_ab.h: a claim that fails on both sides is not the
 * change's failure). */
static void check_expectations(struct ab_state *st)
{
	struct session *s = &st->s;
	session_check_expectations(s);
	expect_check_kernels(st->a_kernels, st->a_count, s->options.tier, &st->a_target, &st->a);
	compare_ab_expectations(&s->result, &st->a);
}

/* One suspected group measured again on both sides and settled by the
 * pooled rule of compare_ab_settle. */
static int confirm_group(void *ctx, const struct group *g, struct rng *rng)
{
	struct ab_state *st = ctx;
	struct run_result b2, a2;
	memset(&b2, 0, sizeof b2);
	memset(&a2, 0, sizeof a2);
	size_t taken, samples[2];
	int failures = run_group(st, g->kernel, g->params, rng, &b2, &a2, &taken, samples);
	/* the fresh batch leaves out rounds by the first batch's rule */
	compare_ab_mark_interference(&b2, &a2);
	compare_ab_settle(&st->s.result, &st->a, &b2, &a2, g->kernel->name, g->params->name,
			  &st->s.result.policy);
	result_free(&b2);
	result_free(&a2);
	return failures;
}

/* The run prepared (run_skeleton.h): the plan, both sides' kernels, the
 * shard, the kernels left out, what A shares, the looks. */
static int prepare(void *ctx, const char *self_dir)
{
	struct ab_state *st = ctx;
	struct session *s = &st->s;
	int ret = plan(st);
	if (!ret)
		ret = setup(st, self_dir);
	if (ret)
		return ret;
	shard_apply(s->kernels, s->kernel_count, s->options.tier, s->options.shard_index,
		    s->options.shard_count);
	leave_out_same_code(st);
	if (share_machine_with_a(st)) {
		message_error("out of memory");
		return GATE_EXIT_USAGE;
	}
	if (!st->p->all_rounds)
		set_looks(st);
	return GATE_EXIT_OK;
}

/* After the samples: the notes, A's problems, the claims, the comparison
 * of the series and of the sites. Every group with a timing regression
 * runs once more, both sides, timing only. */
static bool settle(void *ctx)
{
	struct ab_state *st = ctx;
	struct session *s = &st->s;
	/* each side's call stacks bounded, A's the other side of B's */
	if (stacks_settle(&s->result.stacks, &s->result) || stacks_settle(&st->a.stacks, &st->a) ||
	    stacks_take_before(&s->result, &st->a.stacks))
		message_error("allocation call stacks: out of memory");
	note_sides(st);
	take_problems_of_a(&s->result, &st->a);
	check_expectations(st);
	compare_ab_mark_interference(&s->result, &st->a);
	compare_ab_run(&s->result, &st->a, &s->result.policy);
	if (sites_compare(&s->result, &st->a))
		message_error("comparing allocation sites: out of memory");
	mark_files_same(st);
	s->plan.cost = st->a_plan.cost = confirm_takes_cost_pass();
	s->plan.skip_counted_pass = st->a_plan.skip_counted_pass = !confirm_takes_counted_pass();
	st->confirming = true;
	return true;
}

/* After the confirmation: the sampling's figures, the conclusion, the
 * reports against A. */
static int finish(void *ctx)
{
	struct ab_state *st = ctx;
	ab_sampling_figures(st->duet, &st->s.result.schedule);
	session_conclude(&st->s);
	return session_report(&st->s, &st->a);
}

int run_ab(struct ab_plan *p, const char *self_dir)
{
	struct ab_state st;
	memset(&st, 0, sizeof st);
	struct session *s = &st.s;
	st.p = p;
	struct run_skeleton sk = { s, &st, p->shared.json_path, false, NULL, prepare,
				   sample_group, settle, confirm_group, finish };
	int ret = run_skeleton_drive(&sk, self_dir);
	session_free(s);
	for (size_t k = 0; k < st.a_count; k++)
		kernel_info_free(&st.a_kernels[k]);
	free(st.a_kernels);
	result_free(&st.a);
	free(st.a_options.env);
	free(p->shared.env);
	if (p->shared.kernels != s->options.kernels)   /* else session_free freed it */
		free(p->shared.kernels);
	ab_options_free(&p->a);
	ab_options_free(&p->b);
	free(st.duet);
	free(st.a_allocator);
	return ret;
}
