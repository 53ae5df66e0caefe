/* sched_wait_windows.c: sched_wait.h on Windows, which gives no per-thread
 * run-queue wait: the counter is unavailable (counters_windows.c says why). */
#include "counters/sched_wait_none.h"
