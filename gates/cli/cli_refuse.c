/* cli_refuse.c: the one wording of each refusal of a command line
 * (cli_refuse.h). */
#include "cli/cli_refuse.h"
#include "core/message.h"

int cli_refuse_unknown(const char *command, const char *arg)
{
	message_error("unknown option '%s' (%s --help lists them)", arg, command);
	return -1;
}

int cli_refuse_command(const char *name)
{
	message_error("unknown command '%s' (gate --help lists them)", name);
	return -1;
}

int cli_refuse_unexpected(const char *command, const char *arg)
{
	message_error("unexpected argument '%s' (%s --help shows the usage)", arg, command);
	return -1;
}

int cli_refuse_missing_value(const char *flag, const char *value)
{
	message_error("%s needs a value (%s %s)", flag, flag, value);
	return -1;
}

int cli_refuse_value(const char *flag, const char *value, const char *why)
{
	message_error("%s %s: %s", flag, value, why);
	return -1;
}

int cli_refuse_conflict(const char *flag, const char *other)
{
	message_error("%s and %s: choose one", flag, other);
	return -1;
}

int cli_refuse_not_here(const char *flag, const char *why)
{
	message_error("%s: not with %s, %s", flag, message_program(), why);
	return -1;
}

int cli_refuse_missing(const char *command, const char *what)
{
	message_error("missing %s (%s --help shows the usage)", what, command);
	return -1;
}
