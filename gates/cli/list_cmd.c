/* list_cmd.c: `gate list [--kernel-dir DIR]`: its flags, then the listing
 * (run/run.h). */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "core/message.h"
#include "run/run.h"

int list_main(int argc, char **argv, const char *self_dir)
{
	message_set_program("gate list");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/kernels", self_dir);
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: gate list [--kernel-dir DIR]\n"
			       "  the kernels (default: next to the gate binary), each with its\n"
			       "  variants, parameter sets and expectations with file:line\n");
			return GATE_EXIT_OK;
		}
		if (!strcmp(argv[i], "--kernel-dir") && i + 1 < argc) {
			snprintf(dir, sizeof dir, "%s", argv[++i]);
		} else {
			message_error("unknown option '%s' (usage: gate list "
				"[--kernel-dir DIR])", argv[i]);
			return GATE_EXIT_USAGE;
		}
	}
	return run_list(dir);
}
