/* diff_cmd.c: `gate diff A.json B.json` and `gate diff --baseline B.json`:
 * its flags, then the diff (run/run.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "core/message.h"
#include "run/run.h"

static void diff_usage(FILE *f)
{
	fprintf(f, "usage: gate diff [--changed] A.json B.json\n"
		   "       gate diff [--changed] --baseline [--baseline-dir DIR] B.json\n"
		   "Shows every series of A (old) and B (new) side by side: median, change,\n"
		   "grouped per kernel, variant and parameter set, largest change first.\n"
		   "A and B are --json results or baseline files; --baseline takes this\n"
		   "platform's stored baseline as A. --changed leaves out the series\n"
		   "whose median is the same on both sides.\n");
}

int diff_main(int argc, char **argv, const char *self_dir)
{
	message_set_program("gate diff");
	const char *files[2] = { NULL, NULL }, *dir = NULL;
	char base_path[4096];
	int nfiles = 0;
	bool use_baseline = false, changed_only = false;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			diff_usage(stdout);
			return GATE_EXIT_OK;
		} else if (!strcmp(argv[i], "--changed")) {
			changed_only = true;
		} else if (!strcmp(argv[i], "--baseline")) {
			use_baseline = true;
		} else if (!strcmp(argv[i], "--baseline-dir") && i + 1 < argc) {
			dir = argv[++i];
		} else if (argv[i][0] != '-' && nfiles < 2) {
			files[nfiles++] = argv[i];
		} else {
			message_error("unexpected argument '%s'", argv[i]);
			diff_usage(stderr);
			return GATE_EXIT_USAGE;
		}
	}
	if (use_baseline && nfiles == 1) {
		if (run_baseline_path(dir, self_dir, base_path, sizeof base_path))
			return GATE_EXIT_USAGE;
		files[1] = files[0];
		files[0] = base_path;
	} else if (use_baseline || nfiles != 2) {
		diff_usage(stderr);
		return GATE_EXIT_USAGE;
	}
	return run_diff(files[0], files[1], changed_only);
}
