/* metric_class.h: the class a series is compared by, settled once the
 * samples are in.
 *
 * A kernel's record declares each metric's class (exact, near, timing:
 * docs/protocol.md). The cost pass's counts (cost_*, sample/cost_dump.h)
 * are declared exact; one whose samples differ within the run (threads
 * scheduled differently under valgrind) is near-exact, so that the
 * baseline records the determinism measured and compare.c gates it by
 * the spread of its samples. */
#ifndef GATE_METRIC_CLASS_H
#define GATE_METRIC_CLASS_H

#include "core/result.h"

/* Settles the class of every series of R: a cost series whose finite
 * samples are not all the same becomes METRIC_NEAR. */
void metric_class_settle(struct run_result *r);

#endif
