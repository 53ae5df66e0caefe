/* counter_keep.h: the software counters every kernel's probe opens
 * (perf/counters), held open by the gate itself for the rest of its run.
 *
 * On Linux, opening the first software event of a kind and closing the
 * last one switch a static key in the kernel's own code: it is patched on
 * every CPU, with an interrupt to each (perf_swevent_init ->
 * static_key_slow_inc). Each sample's process opened and closed five such
 * kinds, so each sample paid ten code patches, a large share of a short
 * kernel's process time (measured: docs/measurements.md, "At scale"). The
 * gate's events are disabled (they count nothing), and no child inherits
 * them; what a kernel measures is unchanged (its region starts after its
 * own opens).
 *
 * One implementation per OS: counter_keep_linux.c; counter_keep_darwin.c
 * and counter_keep_windows.c hold nothing. */
#ifndef GATE_COUNTER_KEEP_H
#define GATE_COUNTER_KEEP_H

/* Opens, once a process, one disabled event of each software kind the
 * probes use; later calls do nothing. Returns how many the gate holds (0
 * where the OS has none or refuses them: perf_event_paranoid, a container's
 * seccomp; the kernels then run as before). */
int counter_keep_open(void);

/* The tracepoint a counted sample's probe counts the allocator's system
 * calls with (mmap, munmap, brk, mremap, madvise, futex: one event each,
 * filtered to the call's number; perf/counters/syscall_tracepoints.h, which
 * this layer may not include: tests/test_counter_keep_linux.c checks that
 * both name the same one), as tracefs names it under events/. */
#define COUNTER_KEEP_TRACEPOINT "raw_syscalls/sys_enter"

/* Holds one disabled event of COUNTER_KEEP_TRACEPOINT, for this process
 * alone, around one group's counted pass. On Linux, closing the last perf
 * event of a tracepoint unregisters its probe and waits for a grace period
 * (perf_trace_event_unreg -> tracepoint_synchronize_unregister), tens of
 * milliseconds: each counted sample's process paid it at its exit
 * (measured: docs/measurements.md, "The counted pass's tracepoints").
 * Held, its closes only drop a reference, and the release pays it once.
 * Held for the pass only, never across timed rounds: while a syscall
 * tracepoint has a probe every task's system calls take the tracing path.
 * Returns 1 when it is held (0 where the OS has none, tracefs does not
 * name it, or the open is refused). */
int counter_keep_tracepoints_hold(void);

/* Closes what counter_keep_tracepoints_hold opened: its close waits for
 * the grace period once. */
void counter_keep_tracepoints_release(void);

#endif
