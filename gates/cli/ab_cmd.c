/* ab_cmd.c: `gate ab`: the side flags taken out (ab_options.h), the
 * sampling mode, the flags both sides share (run_flags.h), then the run
 * (run/run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ab_options.h"
#include "cli/commands.h"
#include "cli/run_flags.h"
#include "core/message.h"
#include "run/run.h"

/* Parses ARGV into P, REST holding what is not a side flag: CLI_PARSED,
 * CLI_HELP_PRINTED, or CLI_BAD_USAGE after a message (cli/commands.h). */
static enum cli_parse parse(struct ab_plan *p, int argc, char **argv, char **rest)
{
	int rest_count;
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			ab_options_usage(stdout);
			return CLI_HELP_PRINTED;
		}
	run_options_defaults(&p->shared);
	/* Paired rounds cancel the drift that forces 25% against a stored
	 * baseline (docs/noise.md, "Rounds"); 2% is the smallest change worth
	 * a failure. */
	p->shared.min_effect = POLICY_MIN_EFFECT_AB;
	p->shared.gates = POLICY_GATE_AB_DEFAULT;
	if (!rest || ab_options_split(argc, argv, &p->a, &p->b, rest, &rest_count) ||
	    ab_options_take_mode(rest, &rest_count, &p->choice))
		return CLI_BAD_USAGE;
	ab_options_take_all_rounds(rest, &rest_count, &p->all_rounds);
	if (run_options_parse(&p->shared, rest_count, rest) || ab_options_check(&p->shared))
		return CLI_BAD_USAGE;
	return CLI_PARSED;
}

int ab_main(int argc, char **argv, const char *self_dir)
{
	struct ab_plan p;
	char **rest = calloc((size_t)argc + 1, sizeof *rest);
	int ret;
	message_set_program("gate ab");
	memset(&p, 0, sizeof p);
	enum cli_parse parsed = parse(&p, argc, argv, rest);
	if (parsed == CLI_PARSED) {
		ret = run_ab(&p, self_dir);
	} else {
		run_options_free(&p.shared);
		ab_options_free(&p.a);
		ab_options_free(&p.b);
		ret = cli_parse_exit(parsed);
	}
	free(rest);
	return ret;
}
