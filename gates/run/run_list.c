/* run_list.c: `gate list` (run.h): what every kernel has, read from the
 * kernels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocgate/probe.h"
#include "run/discover.h"
#include "run/run.h"
#include "core/message.h"
#include "sample/runner.h"

static void tiers_text(unsigned tiers, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s%s%s", tiers & GATE_TIER_QUICK ? "quick" : "",
		 (tiers & GATE_TIER_QUICK) && (tiers & ~GATE_TIER_QUICK) ? "," : "",
		 tiers & GATE_TIER_DEFAULT ? "default" : "",
		 (tiers & GATE_TIER_DEFAULT) && (tiers & GATE_TIER_FULL) ? "," : "",
		 tiers & GATE_TIER_FULL ? "full" : "");
}

static void print_kernel(const struct kernel_info *k)
{
	char tiers[64];
	printf("%s: %s\n  variants:", k->name, k->summary);
	for (size_t i = 0; i < k->variant_count; i++)
		printf(" %s", k->variants[i]);
	printf("\n  parameter sets:\n");
	for (size_t i = 0; i < k->paramset_count; i++) {
		tiers_text(k->paramsets[i].tiers, tiers, sizeof tiers);
		printf("    %-14s %-20s %s\n", k->paramsets[i].name, tiers, k->paramsets[i].values);
	}
	printf("  expectations:\n");
	for (size_t i = 0; i < k->expect_count; i++) {
		const struct kernel_expect *e = &k->expects[i];
		printf("    %s:%d  %s", e->file, e->line, e->expr);
		if (e->conditions || e->params)
			printf("  [on %s, params %s]", e->conditions ? e->conditions : "all",
			       e->params ? e->params : "all");
		printf("\n");
	}
}

int run_list(const char *dir)
{
	char **paths = NULL, err[1024];
	int n = discover_kernels(dir, &paths), ret = GATE_EXIT_OK;
	if (n < 0) {
		message_error("kernel directory %s: cannot be read", dir);
		return GATE_EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		struct kernel_info k;
		if (runner_list_kernel(paths[i], 30, &k, err, sizeof err)) {
			message_error("%s", err);
			ret = GATE_EXIT_UNCHECKED;
			continue;
		}
		print_kernel(&k);
		kernel_info_free(&k);
	}
	discover_free(paths);
	return ret;
}
