/* diff_cmd.c: `gate diff A.json B.json` and `gate diff --baseline B.json`:
 * every series of two result or baseline files side by side (diff.h). */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/discover.h"
#include "core/message.h"
#include "core/platform.h"
#include "decide/diff.h"
#include "decide/sites.h"
#include "store/baseline.h"

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

/* This platform's baseline file into OUT (DIR: --baseline-dir or NULL). */
static int diff_baseline_path(const char *dir, const char *self_dir, char *out, size_t size)
{
	char found[2048];
	struct context ctx;
	memset(&ctx, 0, sizeof ctx);
	if (!dir) {
		discover_baseline_dir(self_dir, found, sizeof found);
		dir = found;
	}
	if (platform_context(&ctx))
		return -1;
	int n = snprintf(out, size, "%s/%s.json", dir,
			 ctx.platform_key ? ctx.platform_key : "unknown");
	result_context_free(&ctx);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

static int diff_load(const char *path, struct run_result *r)
{
	char err[1024];
	int ret = baseline_load_result(path, r, err, sizeof err);
	if (ret)
		message_error("%s", err);
	return ret;
}

int diff_main(int argc, char **argv, const char *self_dir)
{
	message_set_program("gate diff");
	const char *files[2] = { NULL, NULL }, *dir = NULL;
	char base_path[4096];
	int use_baseline = 0, changed_only = 0, nfiles = 0, ret = GATE_EXIT_USAGE;
	struct run_result a, b;
	struct diff d;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			diff_usage(stdout);
			return GATE_EXIT_OK;
		} else if (!strcmp(argv[i], "--changed")) {
			changed_only = 1;
		} else if (!strcmp(argv[i], "--baseline")) {
			use_baseline = 1;
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
		if (diff_baseline_path(dir, self_dir, base_path, sizeof base_path))
			return GATE_EXIT_USAGE;
		files[1] = files[0];
		files[0] = base_path;
	} else if (use_baseline || nfiles != 2) {
		diff_usage(stderr);
		return GATE_EXIT_USAGE;
	}
	if (diff_load(files[0], &a) || diff_load(files[1], &b))
		goto out;
	if (diff_compute(&a, &b, &d)) {
		message_error("out of memory");
		goto out;
	}
	if (changed_only)
		diff_drop_unchanged(&d);
	diff_print_text(stdout, &d, files[0], &a.ctx, files[1], &b.ctx);
	diff_free(&d);
	if (sites_compare(&b, &a)) {
		message_error("out of memory");
		goto out;
	}
	diff_print_sites(stdout, &a, &b);
	ret = GATE_EXIT_OK;
out:
	result_free(&a);
	result_free(&b);
	return ret;
}
