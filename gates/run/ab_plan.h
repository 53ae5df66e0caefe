/* ab_plan.h: what each side of `gate ab` runs with besides the options
 * both sides share (cli/ab_options.c takes them off the command line). */
#ifndef GATE_AB_PLAN_H
#define GATE_AB_PLAN_H

#include <stddef.h>

#include "run/run_options.h"

/* What one side (A or B) runs with besides the shared options. */
struct ab_side_options {
	char name;                  /* 'a' or 'b' */
	const char **env;           /* --a-env KEY=VALUE..., NULL-terminated */
	size_t env_count;
	const char *allocator;      /* --a-allocator NAME|PATH, NULL for none */
	char preload[4200];         /* its preload assignment, "" for none */
	const char *kernel_dir;     /* --a-kernel-dir DIR, NULL: the shared one */
	const char *label;          /* --a-label TEXT ("base"), NULL: none (the
				     * side is its letter alone) */
};

/* How `gate ab` takes the two sides' samples: --sampling duet (--duet:
 * simultaneous pairs, one per CPU set, sample/duet.h), --sampling
 * interleaved (--interleaved: one at a time, in one shuffled order), or
 * neither (core/policy.h, POLICY_AB_SAMPLING_DEFAULT). */
enum ab_mode_choice { AB_CHOICE_DEFAULT, AB_CHOICE_DUET, AB_CHOICE_INTERLEAVED };

/* SHARED's options with side S's environment added, into OUT (OUT->env is
 * allocated: free it). Returns 0 or -1 (no memory). */
int ab_options_for_side(const struct run_options *shared, const struct ab_side_options *s,
			struct run_options *out);

/* What side S is, for the comparison line, into BUF: its label, then its
 * REVISION (the commit its KERNEL_DIR was built from, commit.h's
 * commit_dir_revision) or, when NULL or "" (a directory in no checkout),
 * the directory, then what it runs with: "head 5d6e7f8, env K=V,
 * allocator X", "1a2b3c4", "kernels DIR, env K=V". */
void ab_options_describe(const struct ab_side_options *s, const char *kernel_dir,
			 const char *revision, char *buf, size_t size);

/* Frees what S holds (not S). */
void ab_options_free(struct ab_side_options *s);

#endif
