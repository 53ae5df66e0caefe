/* metric_name.h: what a metric's name says of where it comes from, read by
 * the decisions and the samplers alike ("[REGION.]NAME", docs/protocol.md). */
#ifndef GATE_METRIC_NAME_H
#define GATE_METRIC_NAME_H

/* Whether metric NAME ([REGION.]cost_*) comes from the cost pass
 * (sample/cost_pass.h): 1 or 0. */
int metric_is_cost(const char *name);

#endif
