/* run_diff.c: `gate diff` (run.h): every series of two result or
 * baseline files side by side (diff.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "run/discover.h"
#include "run/run.h"
#include "core/message.h"
#include "core/platform.h"
#include "decide/diff.h"
#include "decide/sites.h"
#include "report/flame_svg.h"
#include "store/baseline.h"

int run_baseline_path(const char *dir, const char *self_dir, char *out, size_t size)
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

/* Whether the file at PATH, loaded as R, holds call stacks to draw; a
 * message when not. */
static bool flame_has_stacks(const struct run_result *r, const char *path)
{
	if (r->stacks.recorded)
		return true;
	message_error("--flame: %s has no call stacks: they are recorded by the cost pass of "
		      "gate run or gate ab (on unless --no-cost) in its --json result, and a "
		      "baseline or a result of an older version has none", path);
	return false;
}

int run_diff_flame(const char *dir, const struct run_result *a, const char *a_path,
		   const struct run_result *b, const char *b_path)
{
	struct run_result view;
	char err[1024];
	if (!flame_has_stacks(a, a_path) || !flame_has_stacks(b, b_path))
		return GATE_EXIT_USAGE;
	if (!a->stacks.count && !b->stacks.count) {
		message_error("--flame: neither %s nor %s has a call stack (no allocation in the "
			      "cost pass's regions): nothing to draw", a_path, b_path);
		return GATE_EXIT_USAGE;
	}
	/* B's stacks, drawn against A's: the run_result of a gate ab */
	memset(&view, 0, sizeof view);
	view.stacks = b->stacks;
	view.stacks_before = a->stacks;
	int n = flame_svg_write_dir(dir, &view, err, sizeof err);
	if (n < 0) {
		message_error("--flame: %s", err);
		return GATE_EXIT_USAGE;
	}
	printf("\nFlame graphs of %s against %s: %d files in %s/\n", b_path, a_path, n, dir);
	return GATE_EXIT_OK;
}

int run_diff(const char *a_path, const char *b_path, bool changed_only, const char *flame_dir)
{
	int ret = GATE_EXIT_USAGE;
	struct run_result a, b;
	struct diff d;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	if (diff_load(a_path, &a) || diff_load(b_path, &b))
		goto out;
	if (flame_dir && (!flame_has_stacks(&a, a_path) || !flame_has_stacks(&b, b_path)))
		goto out;   /* before the diff: the error is not lost above it */
	if (diff_compute(&a, &b, &d)) {
		message_error("out of memory");
		goto out;
	}
	if (changed_only)
		diff_drop_unchanged(&d);
	diff_print_text(stdout, &d, a_path, &a.ctx, b_path, &b.ctx);
	diff_free(&d);
	if (sites_compare(&b, &a)) {
		message_error("out of memory");
		goto out;
	}
	diff_print_sites(stdout, &a, &b);
	ret = flame_dir ? run_diff_flame(flame_dir, &a, a_path, &b, b_path) : GATE_EXIT_OK;
out:
	result_free(&a);
	result_free(&b);
	return ret;
}
