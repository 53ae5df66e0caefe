/* run_flags.h: the command-line flags of `gate run` (run_flags.c), parsed
 * into what the run was asked to do (run/run_options.h). */
#ifndef GATE_RUN_FLAGS_H
#define GATE_RUN_FLAGS_H

#include "cli/cli_table.h"
#include "cli/commands.h"
#include "run/run_options.h"

/* The flags of gate run, its plan a struct run_options; gate ab's and
 * gate matrix's tables take them too (cli_table.h, ALSO). */
extern const struct cli_table run_flags_table;

/* Prints the options of `gate run` to F. */
void run_options_usage(void *f);

/* Parses ARGV (after the subcommand) into O: CLI_PARSED, CLI_HELP_PRINTED
 * or CLI_BAD_USAGE after a message naming the bad flag or value
 * (cli/commands.h). Pointers in O point into ARGV or static storage. */
enum cli_parse run_options_parse(struct run_options *o, int argc, char **argv);

#endif
