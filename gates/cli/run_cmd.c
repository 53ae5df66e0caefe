/* run_cmd.c: `gate run`: its flags parsed (run_flags.h), then the run
 * (run/run.h). */
#include "cli/commands.h"
#include "cli/run_flags.h"
#include "core/message.h"
#include "run/run.h"

int run_main(int argc, char **argv, const char *self_dir)
{
	struct run_options o;
	message_set_program("gate");
	run_options_defaults(&o);
	enum cli_parse parsed = run_options_parse(&o, argc, argv);
	if (parsed != CLI_PARSED) {
		run_options_free(&o);
		return cli_parse_exit(parsed);
	}
	return run_gate(&o, self_dir);
}
