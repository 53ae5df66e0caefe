// SPDX-License-Identifier: GPL-2.0
/* bpf_alloc.bpf.c: the kernel side of the BPF backend (docs/counters.md).
 *
 * Counts the allocator's own entry points (uprobes on malloc, calloc,
 * realloc, free, posix_memalign, aligned_alloc, memalign of libc or of a
 * preloaded allocator) and the futex calls of one process, the kernel
 * whose tgid the loader sets, and only while that process is inside a
 * measured region: uprobes on the probe's gate_region_mark_begin/end
 * (perf/probe/probe_region.c) move region_depth. It counts; the only duration it sums
 * is the time threads spent blocked in futex waits (entry to exit of the
 * syscall, raw syscall tracepoints), which is not a sample timing.
 *
 * With pmu_enabled, malloc and free also read the user-mode instruction
 * and cycle counters (perf event arrays the loader fills, kernel
 * excluded) at entry and return and attribute the difference per call
 * (perf/bpf/pmu_attrib.h).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "bpf/bpf_alloc.h"
#include "bpf/pmu_attrib.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_tgid = 0;
const volatile bool pmu_enabled = false;

/* Read by the loader through the skeleton's bss. */
__u64 counts[BPF_ALLOC_COUNT_MAX];
__s64 region_depth;

/* futex wait start per thread, ns */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u64);
} futex_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} pmu_instructions SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} pmu_cycles SEC(".maps");

/* PMU reading at entry per thread, and totals per CPU and entry point. */
struct pmu_entry {
	struct pmu_reading at;
	__u32 fn;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct pmu_entry);
} pmu_entries SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PMU_FN_COUNT);
	__type(key, __u32);
	__type(value, struct pmu_fn_totals);
} pmu_totals SEC(".maps");

static __always_inline bool is_target(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == target_tgid;
}

static __always_inline bool counting(void)
{
	return is_target() && region_depth > 0;
}

static __always_inline void add(int slot, __u64 n)
{
	if (slot >= 0 && slot < BPF_ALLOC_COUNT_MAX)
		__sync_fetch_and_add(&counts[slot], n);
}

static __always_inline int pmu_read(struct pmu_reading *r)
{
	struct bpf_perf_event_value v;
	r->cpu = bpf_get_smp_processor_id();
	if (bpf_perf_event_read_value(&pmu_instructions, BPF_F_CURRENT_CPU, &v, sizeof v))
		return -1;
	r->instructions = v.counter;
	if (bpf_perf_event_read_value(&pmu_cycles, BPF_F_CURRENT_CPU, &v, sizeof v))
		return -1;
	r->cycles = v.counter;
	return 0;
}

static __always_inline void pmu_enter(__u32 fn)
{
	struct pmu_entry e = { .fn = fn };
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	if (!pmu_enabled || !counting())
		return;
	/* last, so that the entry reading includes as little as possible */
	if (pmu_read(&e.at) == 0)
		bpf_map_update_elem(&pmu_entries, &tid, &e, BPF_ANY);
}

static __always_inline void pmu_return(void)
{
	struct pmu_reading now;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct pmu_entry *e;
	struct pmu_fn_totals *t;
	if (!pmu_enabled || pmu_read(&now))   /* first: as little as possible */
		return;
	e = bpf_map_lookup_elem(&pmu_entries, &tid);
	if (!e)
		return;
	t = bpf_map_lookup_elem(&pmu_totals, &e->fn);
	if (t)
		pmu_attrib_call(t, &e->at, &now);
	bpf_map_delete_elem(&pmu_entries, &tid);
}

SEC("uprobe")
int BPF_KPROBE(region_begin)
{
	if (is_target()) {
		__sync_fetch_and_add(&region_depth, 1);
		add(BPF_ALLOC_REGIONS, 1);
	}
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(region_end)
{
	if (is_target() && region_depth > 0)
		__sync_fetch_and_add(&region_depth, -1);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(malloc_enter, __u64 size)
{
	if (counting()) {
		add(BPF_ALLOC_MALLOC_CALLS, 1);
		add(BPF_ALLOC_MALLOC_BYTES, size);
		pmu_enter(PMU_FN_MALLOC);
	}
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(calloc_enter, __u64 n, __u64 size)
{
	if (counting()) {
		add(BPF_ALLOC_CALLOC_CALLS, 1);
		add(BPF_ALLOC_CALLOC_BYTES, n * size);
	}
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(realloc_enter, void *ptr, __u64 size)
{
	if (counting()) {
		add(BPF_ALLOC_REALLOC_CALLS, 1);
		add(BPF_ALLOC_REALLOC_BYTES, size);
	}
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(free_enter, void *ptr)
{
	if (counting()) {
		add(ptr ? BPF_ALLOC_FREE_CALLS : BPF_ALLOC_FREE_NULL_CALLS, 1);
		pmu_enter(PMU_FN_FREE);
	}
	return 0;
}

SEC("uretprobe")
int BPF_KRETPROBE(alloc_return)
{
	pmu_return();
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(posix_memalign_enter)
{
	if (counting())
		add(BPF_ALLOC_POSIX_MEMALIGN_CALLS, 1);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(aligned_alloc_enter)
{
	if (counting())
		add(BPF_ALLOC_ALIGNED_ALLOC_CALLS, 1);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(memalign_enter)
{
	if (counting())
		add(BPF_ALLOC_MEMALIGN_CALLS, 1);
	return 0;
}

/* futex(2) op values (linux/futex.h) that block the caller */
#define FUTEX_CMD_MASK 0x7f
static __always_inline bool futex_op_waits(long op)
{
	long cmd = op & FUTEX_CMD_MASK;
	return cmd == 0 /* WAIT */ || cmd == 6 /* LOCK_PI */ || cmd == 9 /* WAIT_BITSET */ ||
	       cmd == 11 /* WAIT_REQUEUE_PI */ || cmd == 13 /* LOCK_PI2 */;
}

/* futex(2)'s number: raw syscall tracepoints see every syscall, and tp_btf
 * attaches by BTF id, without tracefs (not mounted on every machine). */
#if defined(__TARGET_ARCH_x86)
#define FUTEX_NR 202
#elif defined(__TARGET_ARCH_arm64) || defined(__TARGET_ARCH_riscv)
#define FUTEX_NR 98
#else
#define FUTEX_NR -1
#endif

SEC("tp_btf/sys_enter")
int BPF_PROG(futex_enter, struct pt_regs *regs, long id)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 now;
	if (id != FUTEX_NR || !counting())
		return 0;
	add(BPF_ALLOC_FUTEX_CALLS, 1);
	if (!futex_op_waits(PT_REGS_PARM2_CORE_SYSCALL(regs)))
		return 0;
	now = bpf_ktime_get_ns();
	bpf_map_update_elem(&futex_start, &tid, &now, BPF_ANY);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(futex_exit, struct pt_regs *regs, long ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 *start;
	if (!is_target())
		return 0;
	start = bpf_map_lookup_elem(&futex_start, &tid);
	if (!start)
		return 0;
	add(BPF_ALLOC_FUTEX_WAIT_CALLS, 1);
	add(BPF_ALLOC_FUTEX_WAIT_NS, bpf_ktime_get_ns() - *start);
	bpf_map_delete_elem(&futex_start, &tid);
	return 0;
}
