/* ab_options.h: the side options of `gate ab` (--a-env, --b-allocator,
 * --a-kernel-dir, ...), taken out of the command line before the options
 * both sides share are parsed by run_options.c. */
#ifndef GATE_AB_OPTIONS_H
#define GATE_AB_OPTIONS_H

#include <stddef.h>

#include "cli/run_options.h"

/* What one side (A or B) runs with besides the shared options. */
struct ab_side_options {
	char name;                  /* 'a' or 'b' */
	const char **env;           /* --a-env KEY=VALUE..., NULL-terminated */
	size_t env_count;
	const char *allocator;      /* --a-allocator NAME|PATH, NULL for none */
	char preload[4200];         /* its preload assignment, "" for none */
	const char *kernel_dir;     /* --a-kernel-dir DIR, NULL: the shared one */
};

/* Moves the side options out of ARGV (ARGC entries) into A and B and the
 * rest, in order, into REST (room for ARGC + 1 pointers, NULL-terminated);
 * *REST_COUNT says how many. Returns 0, or -1 after a message naming the
 * flag. Pointers point into ARGV. */
int ab_options_split(int argc, char **argv, struct ab_side_options *a,
		     struct ab_side_options *b, char **rest, int *rest_count);

/* How `gate ab` takes the two sides' samples: --sampling duet (--duet:
 * simultaneous pairs, one per CPU set, sample/duet.h), --sampling
 * interleaved (--interleaved: one at a time, in one shuffled order), or
 * neither (core/policy.h, POLICY_AB_SAMPLING_DEFAULT). */
enum ab_mode_choice { AB_CHOICE_DEFAULT, AB_CHOICE_DUET, AB_CHOICE_INTERLEAVED };

/* Takes --duet, --interleaved and --sampling MODE (or --sampling=MODE)
 * out of REST (*REST_COUNT entries, NULL-terminated) into *CHOICE. Returns
 * 0, or -1 after a message when two disagree or MODE is unknown. */
int ab_options_take_mode(char **rest, int *rest_count, enum ab_mode_choice *choice);

/* Checks the shared options O for what `gate ab` cannot do (a baseline,
 * --runs); returns 0, or -1 after a message. */
int ab_options_check(const struct run_options *o);

/* SHARED's options with side S's environment added, into OUT (OUT->env is
 * allocated: free it). Returns 0 or -1 (no memory). */
int ab_options_for_side(const struct run_options *shared, const struct ab_side_options *s,
			struct run_options *out);

/* One line describing side S ("kernels DIR, env K=V, allocator X"), into BUF. */
void ab_options_describe(const struct ab_side_options *s, const char *kernel_dir, char *buf,
			 size_t size);

/* Prints the side options to F. */
void ab_options_usage(void *f);

void ab_options_free(struct ab_side_options *s);

#endif
