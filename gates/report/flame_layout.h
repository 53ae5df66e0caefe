/* flame_layout.h: the flame graph of one variant's allocation call stacks
 * as a tree of frames with widths, before any drawing (flame_svg.c draws
 * it). Stacks that share a prefix of functions share its frames; a frame's
 * value is the sum over the stacks through it (inclusive), so the children
 * of a frame sum to its value and the root's is the variant's total.
 *
 * The tree, bottom up: the root "all"; above it, in a variant of named
 * regions, one frame per region a stack's calls were made in (its region:
 * "alloc", or "outer/inner" for the calls made while both were open, so
 * that no interval counts twice); above that the variant's function
 * (a stack's frames[0]), a "(deeper)" frame under the frames of a truncated
 * stack (its frames[0] is not the variant's function), or one "(other
 * stacks)" frame per entry point for a rest (the stacks left out by the
 * bound, summed); the stack's functions, root first; on top the allocator
 * entry point it called (its kind: "malloc", "free", ...), one frame per
 * kind and place (file:line) its caller called it at. */
#ifndef GATE_FLAME_LAYOUT_H
#define GATE_FLAME_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "report/flame_svg.h"

enum flame_role {
	FLAME_ROLE_ALL,        /* the root: every stack of the variant */
	FLAME_ROLE_FUNCTION,   /* a function of a stack */
	FLAME_ROLE_ALLOCATOR,  /* the entry point a stack's last function called */
	FLAME_ROLE_REST,       /* "(other stacks)": a rest stack */
	FLAME_ROLE_DEEPER,     /* "(deeper)": under a truncated stack's frames */
	FLAME_ROLE_REGION,     /* the measured regions a stack's calls were made in */
};

#define FLAME_LABEL_ALL "all"
#define FLAME_LABEL_REST "(other stacks)"
#define FLAME_LABEL_DEEPER "(deeper)"

struct flame_frame {
	const char *name;      /* the function, the entry point, or a label above;
				* borrowed from the stacks (they outlive the tree) */
	const char *kind;      /* allocator and rest frames: the entry point; else NULL */
	enum flame_role role;
	size_t parent;         /* index of the parent frame; the root's is 0, itself */
	size_t depth;          /* 0: the root, drawn at the bottom */
	uint64_t x;            /* left edge, in the measure's units from the root's left */
	uint64_t value;        /* inclusive, of the side drawn (AFTER): the width */
	uint64_t before;       /* inclusive, of the other side (BEFORE); 0 without one */
	bool in_after, in_before; /* whether a stack of that side passes through it */
	const char *file;      /* allocator frames: where the caller called it; NULL unknown */
	int line;
	uint64_t bytes;        /* allocator frames, AFTER: bytes requested, when bytes_known */
	bool bytes_known;      /* every AFTER stack through it knew its bytes */
};

struct flame_tree {
	struct flame_frame *frames; /* depth first, siblings in alphabetical order (then
				     * by kind and place): frames[0] is the root, a
				     * frame's children follow it, left to right */
	size_t count;
	size_t depth;               /* levels: the deepest frame's depth + 1 */
};

/* The value of stack S under measure M: its calls or its instructions. */
uint64_t flame_stack_value(const struct stack *s, enum flame_measure m);

/* Builds into T the tree of the AFTER stacks (AFTER_COUNT of them, all of
 * one variant) under measure M, with the BEFORE stacks' values alongside
 * (BEFORE_COUNT may be 0): a path that only BEFORE has is in the tree with
 * value 0 (no width) and in_after false. Returns 0, or -ENOMEM with T
 * empty. */
int flame_layout(struct flame_tree *t, const struct stack *const *after, size_t after_count,
		 const struct stack *const *before, size_t before_count, enum flame_measure m);

/* Whether frame F grew (1), shrank (-1) or is unchanged (0) from BEFORE
 * to AFTER under measure M. Calls are exact counts: equal is unchanged,
 * any other is a change. Instructions: within POLICY_COST_TOLERANCE (0.2%)
 * of BEFORE's is unchanged, the cost comparison's own floor
 * (core/policy.h): threaded regions' instructions differ by a little
 * between runs of the same code (docs/cost.md, "Determinism"). */
int flame_frame_change(const struct flame_frame *f, enum flame_measure m);

/* Frees what T holds (not the names it borrows) and zeroes it. */
void flame_tree_free(struct flame_tree *t);

#endif
