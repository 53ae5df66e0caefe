/* ab_options.h: the side options of `gate ab` (--a-env, --b-allocator,
 * --a-kernel-dir, ...), taken out of the command line before the options
 * both sides share are parsed by run_flags.c. */
#ifndef GATE_AB_OPTIONS_H
#define GATE_AB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "run/ab_plan.h"
#include "run/run_options.h"

/* Moves the side options out of ARGV (ARGC entries) into A and B and the
 * rest, in order, into REST (room for ARGC + 1 pointers, NULL-terminated);
 * *REST_COUNT says how many. Returns 0, or -1 after a message naming the
 * flag. Pointers point into ARGV. */
int ab_options_split(int argc, char **argv, struct ab_side_options *a,
		     struct ab_side_options *b, char **rest, int *rest_count);

/* Takes --duet, --interleaved and --sampling MODE (or --sampling=MODE)
 * out of REST (*REST_COUNT entries, NULL-terminated) into *CHOICE. Returns
 * 0, or -1 after a message when two disagree or MODE is unknown. */
int ab_options_take_mode(char **rest, int *rest_count, enum ab_mode_choice *choice);

/* Takes --all-rounds out of REST (*REST_COUNT entries, NULL-terminated)
 * into *ALL_ROUNDS (false without it). */
void ab_options_take_all_rounds(char **rest, int *rest_count, bool *all_rounds);

/* Checks the shared options O for what `gate ab` cannot do (a baseline,
 * --runs); returns 0, or -1 after a message. */
int ab_options_check(const struct run_options *o);

/* Prints the side options to F. */
void ab_options_usage(void *f);

#endif
