/* commands.h: the subcommands; each returns the process exit status
 * (core/exit_status.h). */
#ifndef GATE_COMMANDS_H
#define GATE_COMMANDS_H

#include "core/exit_status.h"

/* What every subcommand's argument parser returns; cli_parse_exit gives
 * the exit status of each: parsed (go on), help printed to stdout
 * (GATE_EXIT_OK), bad usage after a message naming the flag
 * (GATE_EXIT_USAGE). */
enum cli_parse { CLI_PARSED = 0, CLI_HELP_PRINTED = 1, CLI_BAD_USAGE = 2 };

/* The exit status of a parse that did not return CLI_PARSED. */
static inline int cli_parse_exit(enum cli_parse p)
{
	return p == CLI_PARSED || p == CLI_HELP_PRINTED ? GATE_EXIT_OK : GATE_EXIT_USAGE;
}

/* `gate run [options]`; SELF_DIR is the directory of the gate binary. */
int run_main(int argc, char **argv, const char *self_dir);

/* `gate list [--kernel-dir DIR]`: kernels, variants, parameter sets, expectations. */
int list_main(int argc, char **argv, const char *self_dir);

/* `gate merge RESULT.json... [--json OUT] [--junit F] [--markdown F] [--svg DIR]
 * [--html F]`:
 * shards and platforms joined into one result and one verdict. */
int merge_main(int argc, char **argv, const char *self_dir);

/* `gate diff A.json B.json | --baseline B.json`: two result sets side by side. */
int diff_main(int argc, char **argv, const char *self_dir);

/* `gate ab [options]`: side B against side A, measured in the same rounds. */
int ab_main(int argc, char **argv, const char *self_dir);

/* `gate matrix [options]`: every kernel under every installed allocator,
 * one claims x allocators table. */
int matrix_main(int argc, char **argv, const char *self_dir);
int history_main(int argc, char **argv, const char *self_dir); /* `gate history [add]` */

/* `gate bisect --good REV --bad REV --build CMD`: the first commit whose
 * exact series differ from the good revision's. */
int bisect_main(int argc, char **argv, const char *self_dir);

#endif
