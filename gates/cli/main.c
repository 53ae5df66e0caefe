/* main.c: the gate's command line: a table of subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/discover.h"
#include "core/message.h"

#ifndef GATE_VERSION
#define GATE_VERSION "unknown"
#endif

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
	{ "list", list_main, "show kernels, variants, parameter sets and expectations" },
	{ "merge", merge_main, "join --json results of shards and platforms into one verdict" },
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
		   "3 nothing could be measured; 4 a kernel crashed, hung or printed garbage.\n");
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
	printf("allocgate %s\n", GATE_VERSION);
	return GATE_EXIT_OK;
}

int main(int argc, char **argv)
{
	char self_dir[4096];
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
	message_error("unknown command '%s'", argv[1]);
	usage(stderr);
	return GATE_EXIT_USAGE;
}
