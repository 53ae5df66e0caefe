/* main.c: the gate's command line: a table of subcommands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_refuse.h"
#include "cli/commands.h"
#include "run/discover.h"
#include "core/interrupt.h"
#include "core/message.h"
#include "core/version.h"
#include "sample/cost_pass.h"
#include "sample/spawn.h"
#include "store/atomic_file.h"

/* Exit status of a run ended by signal N (the shell's convention). */
#define EXIT_INTERRUPTED(n) (128 + (n))

static int help_main(int argc, char **argv, const char *self_dir);
static int version_main(int argc, char **argv, const char *self_dir);

static const struct {
	const char *name;
	int (*main)(int argc, char **argv, const char *self_dir);
	const char *description;
} commands[] = {
	{ "run", run_main, "run the kernels, check expectations and the baseline (default)" },
	{ "ab", ab_main, "compare B with A (env, allocator or kernel build) in the same rounds" },
	{ "matrix", matrix_main, "measure every kernel under every installed allocator: claims x allocators" },
	{ "diff", diff_main, "compare two result files (or the baseline) series by series" },
	{ "bisect", bisect_main, "name the commit that changed an allocation count or cost" },
	{ "list", list_main, "show kernels, variants, parameter sets and expectations" },
	{ "merge", merge_main, "join --json results of shards and platforms into one verdict" },
	{ "history", history_main, "the commits that moved a series, from results kept per commit" },
	{ "help", help_main, "show this help" },
	{ "version", version_main, "show the version" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: gate [COMMAND] [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].description);
	fprintf(f, "\n`gate` alone is `gate run`; `gate run --help` lists its options.\n"
		   "exit status: 0 pass; 1 regression or violated expectation; 2 usage or bad input;\n"
		   "3 nothing could be measured; 4 a kernel crashed, hung or printed garbage;\n"
		   "128+N ended by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP).\n");
}

static int help_main(int argc, char **argv, const char *self_dir)
{
	(void)argc, (void)argv, (void)self_dir;
	usage(stdout);
	return GATE_EXIT_OK;
}

static int version_main(int argc, char **argv, const char *self_dir)
{
	(void)argc, (void)argv, (void)self_dir;
	printf("allocgate %s\n", gate_version());
	return GATE_EXIT_OK;
}

/* SIGINT, SIGTERM or SIGHUP (interrupt.h): every kernel and valgrind
 * ended, no temporary file left, the files written so far whole or
 * untouched (atomic_file.h); exit 128 + N. */
static void interrupted(int signal_number)
{
	spawn_end_all();
	cost_pass_remove_temporary();
	atomic_file_remove_open();
	message_error("interrupted by %s: the kernels were ended, no file left half "
		      "written (exit %d)", interrupt_name(signal_number),
		      EXIT_INTERRUPTED(signal_number));
	_Exit(EXIT_INTERRUPTED(signal_number));
}

/* What every subcommand runs under: no process a kernel starts outlives
 * its sample or the gate (spawn.h), a signal ends the run cleanly, and the
 * kernels do not get the CI's command files and credentials. Before any
 * thread starts. */
static void contain(void)
{
	spawn_contain();   /* -ENOSYS on macOS: the process group alone */
	int ret = interrupt_install(interrupted);
	errno = -ret;
	if (ret)
		message_error("cannot handle interruptions: a signal may leave kernels running:");
	spawn_configure_env(1);
}

int main(int argc, char **argv)
{
	char self_dir[4096];
	contain();
	const char *argv0 = argc > 0 ? argv[0] : "gate";
	discover_self_dir(argv0, self_dir, sizeof self_dir);
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")))
			return version_main(0, NULL, self_dir);
		if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
			usage(stdout);
			return GATE_EXIT_OK;
		}
		return run_main(argc - 1, argv + 1, self_dir);
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].main(argc - 2, argv + 2, self_dir);
	cli_refuse_command(argv[1]);
	return GATE_EXIT_USAGE;
}
