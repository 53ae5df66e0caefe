/* ab_cmd.c: `gate ab`: its flags parsed (ab_options.h) after gate ab's
 * defaults, then the run (run/run.h). */
#include <string.h>

#include "cli/ab_options.h"
#include "cli/commands.h"
#include "core/message.h"
#include "run/run.h"

int ab_main(int argc, char **argv, const char *self_dir)
{
	struct ab_plan p;
	message_set_program("gate ab");
	memset(&p, 0, sizeof p);
	run_options_defaults(&p.shared);
	/* Paired rounds cancel the drift that forces 25% against a stored
	 * baseline (docs/noise.md, "Rounds"); 2% is the smallest change worth
	 * a failure. */
	p.shared.min_effect = POLICY_MIN_EFFECT_AB;
	p.shared.gates = POLICY_GATE_AB_DEFAULT;
	enum cli_parse parsed = ab_options_parse(&p, argc, argv);
	if (parsed == CLI_PARSED)
		return run_ab(&p, self_dir);
	run_options_free(&p.shared);
	ab_options_free(&p.a);
	ab_options_free(&p.b);
	return cli_parse_exit(parsed);
}
