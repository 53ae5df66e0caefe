/* matrix.c: the matrix result's memory (matrix.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/matrix.h"

int matrix_allocator_index(const struct matrix *m, const char *name)
{
	for (size_t i = 0; i < m->allocator_count; i++)
		if (!strcmp(m->allocators[i].name, name))
			return (int)i;
	return -1;
}

/* Whether WHAT is one of the ", " separated names in the first N bytes of LIST. */
static int listed(const char *list, size_t n, const char *what)
{
	size_t k = strlen(what);
	for (const char *p = list; p + k <= list + n; p++)
		if (!strncmp(p, what, k) && (p == list || p[-1] == ' ') &&
		    (p + k == list + n || p[k] == ','))
			return 1;
	return 0;
}

int matrix_take_problems(struct matrix *m, const char *allocator, const struct run_result *r)
{
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		char line[2048];
		if (p->kernel)
			snprintf(line, sizeof line, "%s%s%s/%s/%s %s: %s", allocator ? allocator : "",
				 allocator ? ": " : "", p->kernel, p->variant ? p->variant : "*",
				 p->params ? p->params : "*", p->what, p->reason);
		else
			snprintf(line, sizeof line, "%s: %s", p->what, p->reason);
		int seen = 0;
		for (size_t k = 0; k < m->problem_count && !seen; k++) {
			seen = !strcmp(m->problems[k], line);
			/* refused counters with one reason: "cycles, instructions: why" */
			const char *tail = strstr(m->problems[k], ": ");
			if (!seen && !p->kernel && tail && !strcmp(tail + 2, p->reason) &&
			    !strchr(m->problems[k], '/')) {
				if (listed(m->problems[k], (size_t)(tail - m->problems[k]), p->what)) {
					seen = 1;
					break;
				}
				char joined[2048];
				snprintf(joined, sizeof joined, "%.*s, %s: %s",
					 (int)(tail - m->problems[k]), m->problems[k], p->what,
					 p->reason);
				char *d = strdup(joined);
				if (!d)
					return -ENOMEM;
				free(m->problems[k]);
				m->problems[k] = d;
				seen = 1;
			}
		}
		if (seen)
			continue;
		char **grown = realloc(m->problems, (m->problem_count + 1) * sizeof *grown);
		if (!grown)
			return -ENOMEM;
		m->problems = grown;
		if (!(m->problems[m->problem_count] = strdup(line)))
			return -ENOMEM;
		m->problem_count++;
	}
	return 0;
}

void matrix_free(struct matrix *m)
{
	for (size_t i = 0; i < m->problem_count; i++)
		free(m->problems[i]);
	free(m->problems);
	for (size_t i = 0; i < m->allocator_count; i++) {
		free(m->allocators[i].name);
		free(m->allocators[i].library);
		free(m->allocators[i].missing);
	}
	for (size_t i = 0; i < m->claim_count; i++) {
		struct matrix_claim *c = &m->claims[i];
		free(c->kernel);
		free(c->params);
		free(c->file);
		free(c->expr);
		free(c->conditions);
		free(c->cells);
		for (size_t k = 0; k < c->count_count; k++) {
			free(c->counts[k].variant);
			free(c->counts[k].metric);
			free(c->counts[k].medians);
		}
		free(c->counts);
	}
	for (size_t i = 0; i < m->speed_count; i++) {
		struct matrix_speed *s = &m->speeds[i];
		free(s->kernel);
		free(s->variant);
		free(s->params);
		free(s->median_ns);
		free(s->ratio);
		free(s->ci_low);
		free(s->ci_high);
	}
	free(m->allocators);
	free(m->claims);
	free(m->speeds);
	result_context_free(&m->ctx);
	memset(m, 0, sizeof *m);
}
