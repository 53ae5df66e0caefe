/* bpf_alloc.h: what the BPF program (perf/bpf/bpf_alloc.bpf.c) counts, shared
 * with its loader (perf/bpf/bpf_gate_linux.c). Plain C types only: the BPF
 * side includes it after vmlinux.h, without libc headers. */
#ifndef GATE_BPF_ALLOC_H
#define GATE_BPF_ALLOC_H

/* Slots of the counts array; the loader prints them as bpf.NAME. */
enum bpf_alloc_count {
	BPF_ALLOC_MALLOC_CALLS,
	BPF_ALLOC_MALLOC_BYTES,
	BPF_ALLOC_CALLOC_CALLS,
	BPF_ALLOC_CALLOC_BYTES,
	BPF_ALLOC_REALLOC_CALLS,
	BPF_ALLOC_REALLOC_BYTES,
	BPF_ALLOC_FREE_CALLS,
	BPF_ALLOC_FREE_NULL_CALLS,
	BPF_ALLOC_POSIX_MEMALIGN_CALLS,
	BPF_ALLOC_ALIGNED_ALLOC_CALLS,
	BPF_ALLOC_MEMALIGN_CALLS,
	BPF_ALLOC_FUTEX_CALLS,
	BPF_ALLOC_FUTEX_WAIT_CALLS,
	BPF_ALLOC_FUTEX_WAIT_NS,
	BPF_ALLOC_REGIONS,
	BPF_ALLOC_COUNT_MAX
};

#endif
