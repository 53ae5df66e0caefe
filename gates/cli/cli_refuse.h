/* cli_refuse.h: the one wording of each way a command line is refused
 * (cli_refuse.c), for every subcommand alike. Each prints one message
 * (core/message.h: "PROGRAM: ...") and returns -1; the subcommand then
 * exits 2 (cli/commands.h, CLI_BAD_USAGE). COMMAND is the subcommand as a
 * person types it ("gate run", "gate history add"), for the pointer to
 * its --help. */
#ifndef GATE_CLI_REFUSE_H
#define GATE_CLI_REFUSE_H

/* "unknown option 'ARG' (COMMAND --help lists them)": a flag no row
 * names, or a switch given a value ("--quick=1"). */
int cli_refuse_unknown(const char *command, const char *arg);

/* "unknown command 'NAME' (gate --help lists them)": a word where the
 * subcommand's name stands that names none. */
int cli_refuse_command(const char *name);

/* "unexpected argument 'ARG' (COMMAND --help shows the usage)": a word
 * where the command takes none, or no more. */
int cli_refuse_unexpected(const char *command, const char *arg);

/* "FLAG needs a value (FLAG VALUE)": FLAG last, or given "" (VALUE: what
 * the row says it takes, "N", "FILE"). */
int cli_refuse_missing_value(const char *flag, const char *value);

/* "FLAG VALUE: WHY": a value FLAG does not take, WHY what it takes
 * ("expected an integer from 2 to 1000"). */
int cli_refuse_value(const char *flag, const char *value, const char *why);

/* "FLAG and OTHER: choose one": two flags that ask for different things
 * of one setting. */
int cli_refuse_conflict(const char *flag, const char *other);

/* "FLAG: not with PROGRAM, WHY": a flag of gate run that this subcommand
 * cannot honour; WHY says why ("which reads or writes no baseline"). */
int cli_refuse_not_here(const char *flag, const char *why);

/* "missing WHAT (COMMAND --help shows the usage)": a required flag or
 * argument that was not given ("--dir DIR", "RESULT.json"). */
int cli_refuse_missing(const char *command, const char *what);

#endif
