/* sched_wait_darwin.c: sched_wait.h on macOS, which gives no per-thread
 * run-queue wait: the counter is unavailable (counters_darwin.c says why). */
#include "counters/sched_wait_none.h"
