/* flame_svg.h: allocation flame graphs of a result's call stacks
 * (core/result.h, struct stacks), plain SVG with no scripts: one graph per
 * (kernel, variant, parameter set) and measure, root at the bottom, a
 * frame's width its share of the variant's value, and the differential of
 * a run against the other side (baseline or gate ab's A): widths are this
 * side's values, colours the change (docs/sites.md, "Flame graphs", cites
 * the conventions followed). */
#ifndef GATE_FLAME_SVG_H
#define GATE_FLAME_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

enum flame_measure {
	FLAME_CALLS,          /* allocator calls */
	FLAME_INSTRUCTIONS,   /* instructions inside the allocator */
};

/* Which graph to draw. */
struct flame_ask {
	const char *kernel, *variant, *params;
	enum flame_measure measure;
	bool differential;    /* colour by the change against BEFORE */
	bool inline_svg;      /* for an HTML page: no XML prolog */
	const char *id_prefix; /* makes the graph's ids unique in a page; "" alone */
	bool changed_only;    /* with differential: only the stacks whose value changed
			       * (or that one side alone has), so that a change in a path
			       * of a few calls beside many unchanged ones has a width */
};

/* Prints the graph ASK of AFTER's stacks (BEFORE: the other side's, used
 * when ASK->differential) to F. Returns 0, or -ENOENT when AFTER has no
 * stack of that variant (a differential graph of a variant only BEFORE
 * has is drawn: no width, its paths listed as A's alone), or -ENOMEM.
 * A differential graph whose BEFORE is NULL or not recorded is drawn
 * without colours of change and says so. */
int flame_svg_print(FILE *f, const struct stacks *after, const struct stacks *before,
		    const struct flame_ask *ask);

/* flame_svg_print of stacks already chosen: AFTER (AFTER_COUNT) and
 * BEFORE (BEFORE_COUNT), all of ASK's variant; BEFORE_RECORDED whether the
 * other side's stacks were taken at all. */
int flame_svg_print_stacks(FILE *f, const struct stack *const *after, size_t after_count,
			   const struct stack *const *before, size_t before_count,
			   bool before_recorded, const struct flame_ask *ask);

/* The folder of the --svg directory the reports write the flame graphs
 * to (report_outputs.c). */
#define FLAME_SVG_SUBDIR "flame"

/* Writes R's flame graphs under DIR (created when missing, one level),
 * each file atomically: per (kernel, variant, parameter set) of R->stacks
 * DIR/<kernel>.<variant>.<params>.calls.svg and .instructions.svg, and
 * with R->stacks_before recorded .calls.diff.svg and .instructions.diff.svg
 * (B against A; also for a variant only A has). The names keep
 * [A-Za-z0-9_-] of each part and write '_' for any other byte (the dots
 * separate the parts), at most FLAME_SVG_NAME_PART bytes of each; a name
 * that would be a file already written in this call (ignoring case, as
 * Windows and macOS do) gets "-2", "-3", ... after the parameter set.
 * Returns how many files, or a negative errno with ERR naming the file. */
#define FLAME_SVG_NAME_PART 64
int flame_svg_write_dir(const char *dir, const struct run_result *r, char *err,
			size_t err_size);

#endif
