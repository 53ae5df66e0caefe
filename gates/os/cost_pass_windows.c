/* cost_pass_windows.c: cost_pass.h on Windows: valgrind does not run
 * there, so the pass is unavailable and says so once per run. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sample/cost_pass.h"

const char *cost_pass_unavailable(void)
{
	return "valgrind does not run on Windows";
}

int cost_pass_context(struct context *ctx, char *const *env)
{
	(void)env;
	free(ctx->cost_tool);
	free(ctx->cost_cpu);
	ctx->cost_tool = strdup("");
	ctx->cost_cpu = strdup("off: valgrind does not run on Windows");
	return ctx->cost_tool && ctx->cost_cpu ? 0 : -ENOMEM;
}

void cost_pass_run(struct cost_job *jobs, size_t n, int parallel)
{
	(void)parallel;
	for (size_t i = 0; i < n; i++) {
		memset(&jobs[i].rec, 0, sizeof jobs[i].rec);
		memset(&jobs[i].stacks, 0, sizeof jobs[i].stacks);
		strcpy(jobs[i].why, "valgrind does not run on Windows");
		jobs[i].ret = -ENOSYS;
	}
}

/* No cost sample runs here: no temporary directory to remove. */
void cost_pass_remove_temporary(void)
{
}
