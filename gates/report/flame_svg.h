/* flame_svg.h: allocation flame graphs of a result's call stacks
 * (core/result.h, struct stacks), plain SVG with no scripts: one graph per
 * (kernel, variant, parameter set) and measure, root at the bottom, a
 * frame's width its share of the variant's value, and the differential of
 * a run against the other side (baseline or gate ab's A): widths are this
 * side's values, colours the change (the documentation's section on
 * allocation call stacks cites the conventions followed). */
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
};

/* Prints the graph ASK of AFTER's stacks (BEFORE: the other side's, used
 * when ASK->differential) to F. Returns 0, or -ENOENT when AFTER has no
 * stack of that variant. */
int flame_svg_print(FILE *f, const struct stacks *after, const struct stacks *before,
		    const struct flame_ask *ask);

/* Writes R's flame graphs under DIR (created when missing), each file
 * atomically; returns how many, or a negative errno with ERR naming the
 * file. */
int flame_svg_write_dir(const char *dir, const struct run_result *r, char *err,
			size_t err_size);

#endif
