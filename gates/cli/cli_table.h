/* cli_table.h: a subcommand's option table (cli_table.c): each row is a
 * flag, the value it takes, its lines of --help and what it sets; the
 * parser and the usage are both read from it (as wireguard-tools' wg.c
 * writes its usage from its subcommand table). */
#ifndef GATE_CLI_TABLE_H
#define GATE_CLI_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/commands.h"

/* Width of --help's first column (a flag and its value) unless a table
 * says otherwise. */
#define CLI_TABLE_WIDTH 24

/* One flag: NAME, the VALUE it takes (NULL: a switch), how --help shows
 * it (SHOWN NULL: NAME and VALUE; "": on the row above's line, or not at
 * all), its HELP (lines apart by '\n') and what it SETs in the command's
 * PLAN from VALUE (NULL when missing): 0, or -1 after a message. A
 * switch without SET is handed to the table's OTHER as it stands. */
struct cli_flag {
	const char *name, *value, *shown, *help;
	int (*set)(void *plan, const char *flag, const char *value);
};

/* A subcommand's options: --help prints HEAD, a line per shown row of
 * FLAGS (COUNT rows; first column WIDTH, 0: CLI_TABLE_WIDTH), then TAIL
 * (NULL: none). EQUALS: a valued flag may be given as --flag=VALUE. OTHER
 * takes each argument no row names into PLAN: 0, or -1 after a message. */
struct cli_table {
	const char *head, *tail;
	const struct cli_flag *flags;
	size_t count;
	int width;
	bool equals;
	int (*other)(void *plan, char *arg);
};

/* One row of a subcommand's --help into F: NAME and VALUE (NULL: none) in
 * a first column WIDTH wide, the lines of HELP ('\n' apart) beside it. */
void cli_table_usage_row(void *f, int width, const char *name, const char *value,
			 const char *help);

/* Prints T's usage (head, rows, tail) to F. */
void cli_table_usage(const struct cli_table *t, void *f);

/* Parses ARGV (ARGC entries, after the subcommand) by T into PLAN, in
 * order: --help or -h prints the usage to stdout (CLI_HELP_PRINTED); a
 * row's flag and its value go to its SET, anything else to T's OTHER.
 * CLI_PARSED, or CLI_BAD_USAGE after the message of the first that
 * failed (cli/commands.h). */
enum cli_parse cli_table_parse(const struct cli_table *t, void *plan, int argc, char **argv);

#endif
