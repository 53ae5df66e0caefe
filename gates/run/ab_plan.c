/* ab_plan.c: each side's options of `gate ab` (ab_plan.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/ab_plan.h"

int ab_options_for_side(const struct run_options *shared, const struct ab_side_options *s,
			struct run_options *out)
{
	*out = *shared;
	size_t n = shared->env_count + s->env_count + 1;
	out->env = calloc(n + 1, sizeof *out->env);
	if (!out->env)
		return -1;
	out->env_count = 0;
	for (size_t i = 0; i < shared->env_count; i++)
		out->env[out->env_count++] = shared->env[i];
	for (size_t i = 0; i < s->env_count; i++)
		out->env[out->env_count++] = s->env[i];
	if (s->preload[0])
		out->env[out->env_count++] = s->preload;
	out->env[out->env_count] = NULL;
	if (s->kernel_dir)
		out->kernel_dir = s->kernel_dir;
	if (s->allocator)
		out->allocator = s->allocator;
	return 0;
}

void ab_options_describe(const struct ab_side_options *s, const char *kernel_dir,
			 const char *revision, char *buf, size_t size)
{
	const char *label = s->label ? s->label : "";
	size_t n = revision && *revision
		   ? (size_t)snprintf(buf, size, "%s%s%s", label, *label ? " " : "", revision)
		   : (size_t)snprintf(buf, size, "%s%skernels %s", label, *label ? ", " : "",
				      kernel_dir);
	for (size_t i = 0; i < s->env_count && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? " " : ", env ", s->env[i]);
	if (s->allocator && n < size)
		snprintf(buf + n, size - n, ", allocator %s", s->allocator);
}

void ab_options_free(struct ab_side_options *s)
{
	free(s->env);
	s->env = NULL;
	s->env_count = 0;
}
