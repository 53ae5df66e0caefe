/* list_cmd.c: `gate list [--kernel-dir DIR]`: its flags (one table,
 * cli_table.h), then the listing (run/run.h). */
#include <stdio.h>

#include "cli/cli_table.h"
#include "cli/commands.h"
#include "core/message.h"
#include "run/run.h"

/* What gate list was asked for. */
struct list_plan {
	char kernel_dir[4096];
};

static int set_kernel_dir(void *plan, const char *flag, const char *v)
{
	struct list_plan *p = plan;
	(void)flag;
	snprintf(p->kernel_dir, sizeof p->kernel_dir, "%s", v);
	return 0;
}

static const struct cli_flag list_flags[] = {
	{ "--kernel-dir", "DIR", NULL, "kernel executables (default: next to the gate binary)",
	  set_kernel_dir },
};

static const struct cli_table list_table = {
	.command = "gate list",
	.head = "usage: gate list [--kernel-dir DIR]\n"
		"  the kernels (default: next to the gate binary), each with its\n"
		"  variants, parameter sets and expectations with file:line\n",
	CLI_ROWS(list_flags),
};

int list_main(int argc, char **argv, const char *self_dir)
{
	struct list_plan p;
	message_set_program("gate list");
	snprintf(p.kernel_dir, sizeof p.kernel_dir, "%s/kernels", self_dir);
	enum cli_parse parsed = cli_table_parse(&list_table, &p, argc, argv);
	if (parsed != CLI_PARSED)
		return cli_parse_exit(parsed);
	return run_list(p.kernel_dir);
}
