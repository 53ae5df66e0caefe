/* cli_table.h: a subcommand's option table (cli_table.c): each row is a
 * flag, the value it takes, its lines of --help and what it sets; the
 * parser and the usage are both read from it (as wireguard-tools' wg.c
 * writes its usage from its subcommand table). Every subcommand parses
 * its command line with it: one reading of `--flag VALUE` and
 * `--flag=VALUE`, one wording of each refusal (cli_refuse.h). */
#ifndef GATE_CLI_TABLE_H
#define GATE_CLI_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/commands.h"

/* Width of --help's first column (a flag and its value) unless a table
 * says otherwise. */
#define CLI_TABLE_WIDTH 24

/* The most rows a table may have (the rows given are kept in a 64-bit
 * set). */
#define CLI_TABLE_ROWS_MAX 64

/* One flag: NAME, the VALUE it takes (NULL: a switch), how --help shows
 * it (SHOWN NULL: NAME and VALUE; "": on the row above's line, or not at
 * all), its HELP (lines apart by '\n') and what it SETs in the command's
 * PLAN from VALUE (a switch: NULL; a valued flag: never NULL nor "", the
 * parser refuses those), FLAG being the row's NAME: 0, or -1 after a
 * message. A row without SET is
 * --help's alone: the parser looks for the flag in the table's ALSO. */
struct cli_flag {
	const char *name, *value, *shown, *help;
	int (*set)(void *plan, const char *flag, const char *value);
};

/* A subcommand's options: --help prints HEAD, a line per shown row of
 * FLAGS (COUNT rows; first column WIDTH, 0: CLI_TABLE_WIDTH), then TAIL
 * (NULL: none). COMMAND: the subcommand as typed ("gate ab"), named by
 * the refusals. WORD takes each argument that is not a flag (does not
 * start with '-') into PLAN: 0, or -1 after a message; NULL: the command
 * takes none. ALSO: another table whose flags the command takes too (gate
 * ab and gate matrix take gate run's), into the plan ALSO_PLAN finds in
 * PLAN. REQUIRED: the names of the table's valued rows that the command
 * line must give (NULL-terminated; NULL: none). */
struct cli_table {
	const char *command, *head, *tail;
	const char *const *required;
	const struct cli_flag *flags;
	size_t count;
	int width;
	int (*word)(void *plan, char *arg);
	const struct cli_table *also;
	void *(*also_plan)(void *plan);
};

/* A table's FLAGS and COUNT from the array ROWS. */
#define CLI_ROWS(rows) .flags = (rows), .count = sizeof(rows) / sizeof((rows)[0])

/* One row of a subcommand's --help into F: NAME and VALUE (NULL: none) in
 * a first column WIDTH wide, the lines of HELP ('\n' apart) beside it. */
void cli_table_usage_row(void *f, int width, const char *name, const char *value,
			 const char *help);

/* Prints T's usage (head, rows, tail) to F. */
void cli_table_usage(const struct cli_table *t, void *f);

/* Parses ARGV (ARGC entries, after the subcommand) by T into PLAN, in
 * order: --help or -h prints the usage to stdout (CLI_HELP_PRINTED); a
 * flag of T's rows (or its ALSO's) and its value (the next argument, or
 * after '=' in the same one) go to its row's SET, a word to T's WORD.
 * CLI_PARSED, or CLI_BAD_USAGE after the message of the first that
 * failed: an unknown flag, a value missing or empty, a value SET refused,
 * a word where none is taken, a required row not given (cli/commands.h,
 * cli_refuse.h). */
enum cli_parse cli_table_parse(const struct cli_table *t, void *plan, int argc, char **argv);

#endif
