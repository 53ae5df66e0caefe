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

int run_diff(const char *a_path, const char *b_path, bool changed_only)
{
	int ret = GATE_EXIT_USAGE;
	struct run_result a, b;
	struct diff d;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	if (diff_load(a_path, &a) || diff_load(b_path, &b))
		goto out;
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
	ret = GATE_EXIT_OK;
out:
	result_free(&a);
	result_free(&b);
	return ret;
}
