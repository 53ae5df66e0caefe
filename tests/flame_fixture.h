/* flame_fixture.h: hand-built allocation call stacks of one variant,
 * toy/single/small, on two sides, shared by the flame graph tests
 * (test_flame_svg.c) and the golden files (test_golden.c). Header-only:
 * each test file includes it once.
 *
 * B (this run), 160 calls:
 *   single > parse > new_node  malloc at toy.c:10   60 calls   6,000 instructions
 *   single > parse > new_node  free   at toy.c:20   60 calls   3,000
 *   single > grow              realloc at toy.c:30  20 calls   4,000
 *   single > emit              malloc at toy.c:40   10 calls   1,000
 *   (deeper) > deep_helper > leaf  malloc at toy.c:50  5 calls  500 (truncated)
 *   (other stacks) of malloc                         5 calls     500 (the rest)
 * A (the other side): the same, but grow's realloc 10 calls (2,000
 * instructions), and single > old_path malloc at toy.c:60, 30 calls (3,000),
 * which B does not have: grow's path grew, single shrank, parse and emit
 * are unchanged. The stacks are added out of order, as the layout must
 * not depend on it. */
#ifndef TESTS_FLAME_FIXTURE_H
#define TESTS_FLAME_FIXTURE_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/result.h"

/* Adds to SET a stack of toy/single/small: FRAMES (NULL-terminated; NULL
 * for a rest), KIND at toy.c:LINE, CALLS and INSTRUCTIONS. */
static inline struct stack *flame_fixture_stack(struct stacks *set, const char *const *frames,
						const char *kind, int line, uint64_t calls,
						uint64_t instructions)
{
	size_t n = 0;
	while (frames && frames[n])
		n++;
	struct stack *s = result_add_stack(set, "toy", "single", "small", "", kind, frames, n);
	cr_assert_not_null(s);
	s->rest = frames == NULL;
	if (line) {
		s->file = strdup("tests/kernels/toy.c");
		s->line = line;
	}
	s->calls = calls;
	s->instructions = instructions;
	return s;
}

/* B's stacks (AFTER) and A's (BEFORE) as above, both recorded. */
static inline void flame_fixture_build(struct stacks *after, struct stacks *before)
{
	static const char *const parse[] = { "single", "parse", "new_node", NULL };
	static const char *const grow[] = { "single", "grow", NULL };
	static const char *const emit[] = { "single", "emit", NULL };
	static const char *const deep[] = { "deep_helper", "leaf", NULL };
	static const char *const old_path[] = { "single", "old_path", NULL };
	memset(after, 0, sizeof *after);
	memset(before, 0, sizeof *before);
	after->recorded = before->recorded = true;
	for (int side = 0; side < 2; side++) {
		struct stacks *set = side ? before : after;
		flame_fixture_stack(set, emit, "malloc", 40, 10, 1000);
		flame_fixture_stack(set, parse, "malloc", 10, 60, 6000)->bytes_known = true;
		set->items[set->count - 1].bytes = 60 * 24;
		flame_fixture_stack(set, grow, "realloc", 30, side ? 10 : 20, side ? 2000 : 4000);
		flame_fixture_stack(set, NULL, "malloc", 0, 5, 500);
		flame_fixture_stack(set, parse, "free", 20, 60, 3000);
		flame_fixture_stack(set, deep, "malloc", 50, 5, 500)->truncated = true;
	}
	flame_fixture_stack(before, old_path, "malloc", 60, 30, 3000);
}

#endif
