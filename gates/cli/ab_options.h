/* ab_options.h: the flags of `gate ab` (ab_options.c): each side's
 * options (--a-env, --b-allocator, --a-kernel-dir, --b-label, ...), the
 * sampling mode and --all-rounds in one table with gate run's flags,
 * which both sides share (run_flags.h). */
#ifndef GATE_AB_OPTIONS_H
#define GATE_AB_OPTIONS_H

#include "cli/commands.h"
#include "run/ab_plan.h"
#include "run/run.h"
#include "run/run_options.h"

/* Parses gate ab's ARGV (ARGC entries, after the subcommand) into P, whose
 * shared options hold gate ab's defaults: CLI_PARSED, CLI_HELP_PRINTED, or
 * CLI_BAD_USAGE after a message naming the flag (cli/commands.h).
 * Pointers in P point into ARGV or static storage. */
enum cli_parse ab_options_parse(struct ab_plan *p, int argc, char **argv);

/* Checks the shared options O for what `gate ab` cannot do (a baseline,
 * --runs); returns 0, or -1 after a message. */
int ab_options_check(const struct run_options *o);

#endif
