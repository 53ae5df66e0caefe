/* syscall_tracepoints.h: the allocator's system calls the Linux probe counts
 * (docs/counters.md): one perf event each on the one tracepoint
 * raw_syscalls:sys_enter, filtered to the call's number in this process's
 * ABI (<sys/syscall.h>: "id == SYS_mmap"). One tracepoint, not six
 * syscalls:sys_enter_NAME: closing the last event of a tracepoint waits
 * for a grace period, so a counted sample's exit (and the gate's release of
 * the one it holds around a counted pass, gates/os/counter_keep_linux.c,
 * whose layer may not include this; tests/test_counter_keep_linux.c checks
 * that the two name the same tracepoint) waits once instead of six times.
 * The probe's event table (counters_linux.c) expands the list.
 *   X(COUNTER_ID, SYS_NUMBER) */
#ifndef ALLOCGATE_SYSCALL_TRACEPOINTS_H
#define ALLOCGATE_SYSCALL_TRACEPOINTS_H

#include <sys/syscall.h>

/* Under tracefs's events/: its id is events/raw_syscalls/sys_enter/id. */
#define SYSCALL_TRACEPOINT "raw_syscalls/sys_enter"

#define SYSCALL_TRACEPOINTS(X) \
	X(COUNTER_SYS_MMAP, SYS_mmap) \
	X(COUNTER_SYS_MUNMAP, SYS_munmap) \
	X(COUNTER_SYS_BRK, SYS_brk) \
	X(COUNTER_SYS_MREMAP, SYS_mremap) \
	X(COUNTER_SYS_MADVISE, SYS_madvise) \
	X(COUNTER_SYS_FUTEX, SYS_futex)

#endif
