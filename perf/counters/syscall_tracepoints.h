/* syscall_tracepoints.h: the allocator's system calls the Linux probe counts
 * (docs/counters.md), tracepoints syscalls:NAME: the probe's event table
 * (counters_linux.c) expands it, and the gate, which holds them around a
 * counted pass (gates/os/counter_keep_linux.c, whose layer may not include
 * this), is checked against it by tests/test_counter_keep_linux.c.
 *   X(COUNTER_ID, "NAME") */
#ifndef ALLOCGATE_SYSCALL_TRACEPOINTS_H
#define ALLOCGATE_SYSCALL_TRACEPOINTS_H

#define SYSCALL_TRACEPOINTS(X) \
	X(COUNTER_SYS_MMAP, "sys_enter_mmap") \
	X(COUNTER_SYS_MUNMAP, "sys_enter_munmap") \
	X(COUNTER_SYS_BRK, "sys_enter_brk") \
	X(COUNTER_SYS_MREMAP, "sys_enter_mremap") \
	X(COUNTER_SYS_MADVISE, "sys_enter_madvise") \
	X(COUNTER_SYS_FUTEX, "sys_enter_futex")

#endif
