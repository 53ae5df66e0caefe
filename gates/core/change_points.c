/* change_points.c: the findings of `gate history` (change_points.h). */
#include <stdlib.h>
#include <string.h>

#include "core/change_points.h"

const struct change_commit *change_points_commit(const struct change_findings *f,
						 const struct change_track *t,
						 const struct change_point *p)
{
	return &f->commits[t->commit[p->at]];
}

const struct change_commit *change_points_previous(const struct change_findings *f,
						   const struct change_track *t,
						   const struct change_point *p)
{
	return &f->commits[t->commit[p->at - 1]];
}

const char *change_points_method_name(enum change_method m)
{
	return m == CHANGE_STEP ? "exact" : "e-divisive";
}

void change_points_free(struct change_findings *f)
{
	for (size_t i = 0; i < f->track_count; i++) {
		struct change_track *t = &f->tracks[i];
		free(t->commit);
		free(t->value);
		free(t->spread);
		free(t->cpu);
		free(t->points);
	}
	for (size_t i = 0; i < f->commit_count; i++)
		free(f->commits[i].subject);
	free(f->tracks);
	free(f->commits);
	memset(f, 0, sizeof *f);
}
