/* run_skeleton.h: the one skeleton of a measuring run (`gate run`,
 * `gate ab`, `gate matrix`): the --json check, the command's own
 * preparation, the groups sampled in order under one progress line each,
 * the command's settling, the suspected timing regressions confirmed in
 * fresh batches, and the command's finish. Each command fills in its hooks
 * with what differs; the steps and their order are written here only. */
#ifndef GATE_RUN_SKELETON_H
#define GATE_RUN_SKELETON_H

#include <stdbool.h>
#include <stddef.h>

#include "run/session.h"
#include "core/rng.h"
#include "sample/groups.h"

struct run_skeleton {
	struct session *s;       /* its kernels, tier, seed and failed samples */
	void *ctx;               /* handed to every hook */
	const char *json_path;   /* --json, checked before anything runs */
	bool batch_major;        /* --runs passes over every group (gate run); else one */
	const char *progress_suffix; /* after the group's name in its progress line, or NULL */
	/* After the --json check (S->started is set): the deadline, the
	 * context, the kernels. Returns GATE_EXIT_OK or an exit status after a
	 * message, which ends the run. */
	int (*prepare)(void *ctx, const char *self_dir);
	/* Group G's samples of pass BATCH; returns the failed samples. */
	int (*sample)(void *ctx, const struct group *g, struct rng *rng, size_t batch);
	/* After the samples: the claims and the comparison. Returns whether
	 * the timing regressions are confirmed. */
	bool (*settle)(void *ctx);
	/* Group G measured again and settled; returns the failed samples.
	 * NULL: the command confirms nothing. */
	int (*confirm)(void *ctx, const struct group *g, struct rng *rng);
	/* The conclusion and the reports; returns the final exit status. */
	int (*finish)(void *ctx);
};

/* Runs K's steps in order from SELF_DIR. Returns the exit status: the
 * first step's that refused, or K->finish's. Frees nothing. */
int run_skeleton_drive(const struct run_skeleton *k, const char *self_dir);

/* O's deadline: --deadline, else the tier's for its --runs times SIDES
 * (gate matrix: the allocators measured; else 1), counted from STARTED. */
void run_skeleton_deadline(struct run_options *o, double started, double sides);

#endif
