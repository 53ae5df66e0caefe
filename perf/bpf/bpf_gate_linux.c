/* bpf_gate_linux.c: build/gate-bpf, the loader of the BPF backend.
 *
 *   gate-bpf [--lib PATH]... [--no-pmu] [-v] -- KERNEL ARGS...
 *
 * Runs one kernel sample under the probes of perf/bpf/bpf_alloc.bpf.c and
 * prints the kernel's sample record with the BPF counts added as metrics
 * (bpf.malloc_calls, ...) before its "end" line. The order of events:
 *   1. fork; the child blocks reading a pipe, before it execs the kernel;
 *   2. the parent opens and loads the skeleton with the child's pid as the
 *      only process to count, and attaches: uprobes on the allocator entry
 *      points of libc and of each --lib (a preloaded allocator), uprobes on
 *      the kernel's gate_region_mark_begin/end, futex tracepoints; uprobes
 *      are bound to the child's pid, so no other process traps;
 *   3. the parent writes one byte; the child execs (same pid) and runs;
 *   4. the parent reads the child's stdout to its end, waits for it, reads
 *      the counts and prints the record.
 * Exit status: the kernel's; 2 for a bad command line; 77 when BPF cannot
 * be used here (not root, not permitted, no BTF), with the reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <link.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bpf/bpf_alloc.h"
#include "bpf_alloc.skel.h"
#include "bpf/pmu_attrib.h"

#define BPF_GATE_EXIT_UNUSABLE 77
#define BPF_GATE_MAX_LIBS 8
#define BPF_GATE_OUTPUT_MAX (1u << 20)

struct bpf_gate {
	const char *libs[BPF_GATE_MAX_LIBS + 1];   /* libc first */
	size_t lib_count;
	bool pmu_wanted;
	int verbose;
	char **kernel_argv;
	char libc_path[4096];
	char pmu_why[160];          /* why per-call PMU figures are unavailable */
	char futex_why[160];        /* why futex figures are unavailable */
	int pmu_fds[2][1024];
	int cpu_count;
};

static const struct {
	const char *name;   /* printed as bpf.NAME */
	const char *cls, *unit;
} bpf_gate_counts[BPF_ALLOC_COUNT_MAX] = {
	[BPF_ALLOC_MALLOC_CALLS] = { "malloc_calls", "exact", "count" },
	[BPF_ALLOC_MALLOC_BYTES] = { "malloc_bytes", "exact", "bytes" },
	[BPF_ALLOC_CALLOC_CALLS] = { "calloc_calls", "exact", "count" },
	[BPF_ALLOC_CALLOC_BYTES] = { "calloc_bytes", "exact", "bytes" },
	[BPF_ALLOC_REALLOC_CALLS] = { "realloc_calls", "exact", "count" },
	[BPF_ALLOC_REALLOC_BYTES] = { "realloc_bytes", "exact", "bytes" },
	[BPF_ALLOC_FREE_CALLS] = { "free_calls", "exact", "count" },
	[BPF_ALLOC_FREE_NULL_CALLS] = { "free_null_calls", "exact", "count" },
	[BPF_ALLOC_POSIX_MEMALIGN_CALLS] = { "posix_memalign_calls", "exact", "count" },
	[BPF_ALLOC_ALIGNED_ALLOC_CALLS] = { "aligned_alloc_calls", "exact", "count" },
	[BPF_ALLOC_MEMALIGN_CALLS] = { "memalign_calls", "exact", "count" },
	[BPF_ALLOC_FUTEX_CALLS] = { "futex_calls", "timing", "count" },
	[BPF_ALLOC_FUTEX_WAIT_CALLS] = { "futex_wait_calls", "timing", "count" },
	[BPF_ALLOC_FUTEX_WAIT_NS] = { "futex_wait_ns", "timing", "ns" },
	[BPF_ALLOC_REGIONS] = { "regions", "exact", "count" },
};

static int bpf_gate_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

/* dl_iterate_phdr callback: the path of the libc this process runs on,
 * which is the one the kernel will load (same system, same loader). */
static int bpf_gate_find_libc(struct dl_phdr_info *info, size_t size, void *data)
{
	struct bpf_gate *g = data;
	const char *base = strrchr(info->dlpi_name, '/');
	(void)size;
	if (base && strncmp(base + 1, "libc.so", 7) == 0) {
		snprintf(g->libc_path, sizeof g->libc_path, "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

static int bpf_gate_usage(void)
{
	fprintf(stderr, "usage: gate-bpf [--lib PATH]... [--no-pmu] [-v] -- KERNEL ARGS...\n"
		"  runs one kernel sample under the BPF allocator probes and adds the\n"
		"  counts to its record (docs/counters.md)\n");
	return 2;
}

static int bpf_gate_parse(struct bpf_gate *g, int argc, char **argv)
{
	int i;
	g->pmu_wanted = true;
	g->lib_count = 1;   /* slot 0: libc */
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (!strcmp(argv[i], "--lib") && i + 1 < argc &&
		    g->lib_count < BPF_GATE_MAX_LIBS) {
			g->libs[g->lib_count++] = argv[++i];
		} else if (!strcmp(argv[i], "--no-pmu")) {
			g->pmu_wanted = false;
		} else if (!strcmp(argv[i], "-v")) {
			g->verbose++;
		} else {
			fprintf(stderr, "gate-bpf: bad argument '%s'\n", argv[i]);
			return -EINVAL;
		}
	}
	if (i + 1 >= argc)
		return -EINVAL;
	g->kernel_argv = &argv[i + 1];
	dl_iterate_phdr(bpf_gate_find_libc, g);
	if (!g->libc_path[0]) {
		fprintf(stderr, "gate-bpf: cannot find the path of libc.so\n");
		return -ENOENT;
	}
	g->libs[0] = g->libc_path;
	return 0;
}

/* Forks the kernel process, stopped before exec until a byte arrives on
 * *GO; its stdout is the read end *OUT. Returns its pid or -errno. */
static pid_t bpf_gate_fork(char **argv, int *go, int *out)
{
	int gop[2], outp[2];
	pid_t pid;
	char byte;
	if (pipe2(gop, O_CLOEXEC) || pipe2(outp, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(gop[1]);
		close(outp[0]);
		if (dup2(outp[1], STDOUT_FILENO) < 0 || read(gop[0], &byte, 1) != 1)
			_exit(127);
		execv(argv[0], argv);
		fprintf(stderr, "gate-bpf: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(gop[0]);
	close(outp[1]);
	*go = gop[1];
	*out = outp[0];
	return pid;
}

/* Links made outside the skeleton, destroyed before it at exit (so that a
 * LeakSanitizer build of gate-bpf exits clean). */
#define BPF_GATE_MAX_LINKS 256
static struct bpf_link *bpf_gate_links[BPF_GATE_MAX_LINKS];
static size_t bpf_gate_link_count;

static struct bpf_link *bpf_gate_keep(struct bpf_link *link)
{
	if (link && bpf_gate_link_count < BPF_GATE_MAX_LINKS)
		bpf_gate_links[bpf_gate_link_count++] = link;
	return link;
}

static void bpf_gate_destroy_links(void)
{
	while (bpf_gate_link_count)
		bpf_link__destroy(bpf_gate_links[--bpf_gate_link_count]);
}

/* Attaches PROG to FUNC of BINARY for process PID; returns 0 or -errno. */
static int bpf_gate_uprobe(struct bpf_program *prog, pid_t pid, const char *binary,
			   const char *func, bool retprobe)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = func, .retprobe = retprobe);
	struct bpf_link *link =
		bpf_gate_keep(bpf_program__attach_uprobe_opts(prog, pid, binary, 0, &opts));
	if (!link)
		return -errno;
	return 0;   /* destroyed at exit, before the skeleton */
}

/* The allocator entry points; malloc and free are required in libc. */
static int bpf_gate_attach_allocator(struct bpf_gate *g, struct bpf_alloc *s, pid_t pid,
				     const char *lib, bool required)
{
	const struct {
		const char *func;
		struct bpf_program *prog;
		bool needed;
	} probes[] = {
		{ "malloc", s->progs.malloc_enter, true },
		{ "free", s->progs.free_enter, true },
		{ "calloc", s->progs.calloc_enter, false },
		{ "realloc", s->progs.realloc_enter, false },
		{ "posix_memalign", s->progs.posix_memalign_enter, false },
		{ "aligned_alloc", s->progs.aligned_alloc_enter, false },
		{ "memalign", s->progs.memalign_enter, false },
	};
	for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
		int ret = bpf_gate_uprobe(probes[i].prog, pid, lib, probes[i].func, false);
		if (ret && required && probes[i].needed) {
			fprintf(stderr, "gate-bpf: uprobe on %s in %s: %s\n", probes[i].func,
				lib, strerror(-ret));
			return ret;
		}
		if (ret && g->verbose)
			fprintf(stderr, "gate-bpf: no uprobe on %s in %s: %s\n", probes[i].func,
				lib, strerror(-ret));
		if (!ret && g->pmu_why[0] == '\0' && i < 2)
			ret = bpf_gate_uprobe(s->progs.alloc_return, pid, lib, probes[i].func, true);
		if (ret && required && probes[i].needed)
			return ret;
	}
	return 0;
}

static int bpf_gate_attach(struct bpf_gate *g, struct bpf_alloc *s, pid_t pid)
{
	const char *kernel = g->kernel_argv[0];
	int ret = bpf_gate_uprobe(s->progs.region_begin, pid, kernel, "gate_region_mark_begin",
				  false);
	if (!ret)
		ret = bpf_gate_uprobe(s->progs.region_end, pid, kernel, "gate_region_mark_end",
				      false);
	if (ret) {
		fprintf(stderr, "gate-bpf: uprobe on gate_region_mark_begin/end in %s: %s (is it "
			"a kernel linked with the probe?)\n", kernel, strerror(-ret));
		return ret;
	}
	for (size_t i = 0; i < g->lib_count; i++) {
		ret = bpf_gate_attach_allocator(g, s, pid, g->libs[i], i == 0);
		if (ret)
			return ret;
	}
	if (!bpf_gate_keep(bpf_program__attach(s->progs.futex_enter)) ||
	    !bpf_gate_keep(bpf_program__attach(s->progs.futex_exit)))
		snprintf(g->futex_why, sizeof g->futex_why, "raw syscall tracepoints: %s",
			 strerror(errno));
	return 0;
}

/* Opens user-mode instruction and cycle counters on every CPU (kernel
 * excluded, so the uprobe's own cost is not counted). On failure sets
 * pmu_why: this is the no-PMU path of virtual machines and hosted CI runners. */
static void bpf_gate_pmu_open(struct bpf_gate *g)
{
	static const unsigned long long configs[2] = { PERF_COUNT_HW_INSTRUCTIONS,
						       PERF_COUNT_HW_CPU_CYCLES };
	g->cpu_count = libbpf_num_possible_cpus();
	if (!g->pmu_wanted) {
		snprintf(g->pmu_why, sizeof g->pmu_why, "per-call PMU figures off (--no-pmu)");
		return;
	}
	if (g->cpu_count <= 0 || g->cpu_count > 1024) {
		snprintf(g->pmu_why, sizeof g->pmu_why, "cannot count the CPUs");
		return;
	}
	for (int k = 0; k < 2; k++) {
		for (int cpu = 0; cpu < g->cpu_count; cpu++) {
			struct perf_event_attr a = { .size = sizeof a, .type = PERF_TYPE_HARDWARE,
						     .config = configs[k], .exclude_kernel = 1,
						     .exclude_hv = 1 };
			int fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
			g->pmu_fds[k][cpu] = fd;
			if (fd < 0 && !g->pmu_why[0])
				snprintf(g->pmu_why, sizeof g->pmu_why, "no PMU: per-call instructions "
					 "unavailable (perf_event_open %s: %s)",
					 k ? "cycles" : "instructions", strerror(errno));
		}
	}
}

static int bpf_gate_pmu_install(struct bpf_gate *g, struct bpf_alloc *s)
{
	struct bpf_map *maps[2] = { s->maps.pmu_instructions, s->maps.pmu_cycles };
	for (int k = 0; k < 2 && !g->pmu_why[0]; k++) {
		for (int cpu = 0; cpu < g->cpu_count; cpu++) {
			if (bpf_map__update_elem(maps[k], &cpu, sizeof cpu, &g->pmu_fds[k][cpu],
						 sizeof(int), BPF_ANY))
				return -errno;
		}
	}
	return 0;
}

/* Prints the per-call attribution of malloc and free, or why there is none. */
static void bpf_gate_pmu_print(struct bpf_gate *g, struct bpf_alloc *s)
{
	static const char *const fn_names[PMU_FN_COUNT] = { "malloc", "free" };
	struct pmu_fn_totals percpu[1024];
	if (g->pmu_why[0]) {
		printf("unavailable bpf.pmu %s\n", g->pmu_why);
		return;
	}
	for (__u32 fn = 0; fn < PMU_FN_COUNT; fn++) {
		struct pmu_fn_totals sum = { 0 };
		if (bpf_map__lookup_elem(s->maps.pmu_totals, &fn, sizeof fn, percpu,
					 sizeof percpu[0] * (size_t)g->cpu_count, 0))
			continue;
		for (int cpu = 0; cpu < g->cpu_count; cpu++)
			pmu_attrib_merge(&sum, &percpu[cpu]);
		printf("metric bpf.%s_pmu_calls exact count %llu\n", fn_names[fn], sum.calls);
		printf("metric bpf.%s_instructions near count %llu\n", fn_names[fn],
		       sum.instructions);
		printf("metric bpf.%s_cycles timing count %llu\n", fn_names[fn], sum.cycles);
		if (g->verbose)
			fprintf(stderr, "gate-bpf: %s: %llu calls (%llu dropped), %.2f instructions "
				"per call\n", fn_names[fn], sum.calls, sum.dropped,
				pmu_attrib_per_call_x100(sum.instructions, sum.calls) / 100.0);
	}
}

/* Reads FD to its end into a NUL-terminated buffer; NULL when too long. */
static char *bpf_gate_read_all(int fd, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	ssize_t got;
	while (buf && (got = read(fd, buf + n, cap - n - 1)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 || cap >= BPF_GATE_OUTPUT_MAX) {
			free(buf);
			return NULL;
		}
		n += (size_t)got;
		if (cap - n - 1 == 0) {
			char *more = realloc(buf, cap * 2);
			if (!more)
				free(buf);
			buf = more;
			cap *= 2;
		}
	}
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/* The kernel's record with the counts inserted before its "end" line; a
 * record that does not end so is passed on untouched (the runner says
 * what is wrong with it). */
static void bpf_gate_print_record(struct bpf_gate *g, struct bpf_alloc *s, const char *out,
				  size_t len)
{
	if (len < 4 || strcmp(out + len - 4, "end\n") != 0 ||
	    (len > 4 && out[len - 5] != '\n')) {
		fputs(out, stdout);
		return;
	}
	fwrite(out, 1, len - 4, stdout);
	for (int i = 0; i < BPF_ALLOC_COUNT_MAX; i++) {
		bool futex = i >= BPF_ALLOC_FUTEX_CALLS && i <= BPF_ALLOC_FUTEX_WAIT_NS;
		if (futex && g->futex_why[0]) {
			printf("unavailable bpf.%s %s\n", bpf_gate_counts[i].name, g->futex_why);
			continue;
		}
		printf("metric bpf.%s %s %s %llu\n", bpf_gate_counts[i].name,
		       bpf_gate_counts[i].cls, bpf_gate_counts[i].unit,
		       (unsigned long long)s->bss->counts[i]);
	}
	bpf_gate_pmu_print(g, s);
	printf("end\n");
}

/* Loads and attaches for process PID. Returns 0, or an exit status. */
static int bpf_gate_prepare(struct bpf_gate *g, struct bpf_alloc **sp, pid_t pid)
{
	struct bpf_alloc *s = bpf_alloc__open();
	int ret;
	*sp = s;
	if (!s) {
		fprintf(stderr, "gate-bpf: BPF unusable: opening the program: %s\n",
			strerror(errno));
		return BPF_GATE_EXIT_UNUSABLE;
	}
	s->rodata->target_tgid = (__u32)pid;
	s->rodata->pmu_enabled = g->pmu_why[0] == '\0';
	ret = bpf_alloc__load(s);
	if (ret) {
		fprintf(stderr, "gate-bpf: BPF not permitted or unsupported here: loading the "
			"program: %s%s\n", strerror(-ret),
			geteuid() ? " (not root: run as root or with CAP_BPF and CAP_PERFMON)" : "");
		return BPF_GATE_EXIT_UNUSABLE;
	}
	ret = bpf_gate_pmu_install(g, s);
	if (!ret)
		ret = bpf_gate_attach(g, s, pid);
	if (ret)
		return ret == -EPERM || ret == -EACCES ? BPF_GATE_EXIT_UNUSABLE : 1;
	return 0;
}

/* How the kernel ended, as this process's exit status. */
static int bpf_gate_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return 1;
}

int main(int argc, char **argv)
{
	static struct bpf_gate g;
	struct bpf_alloc *s = NULL;
	int go = -1, out = -1, status = 0, ret;
	size_t len = 0;
	char *text;
	pid_t pid;

	if (bpf_gate_parse(&g, argc, argv) < 0)
		return bpf_gate_usage();
	libbpf_set_print(g.verbose ? NULL : bpf_gate_libbpf_print);
	bpf_gate_pmu_open(&g);
	pid = bpf_gate_fork(g.kernel_argv, &go, &out);
	if (pid < 0) {
		fprintf(stderr, "gate-bpf: fork: %s\n", strerror((int)-pid));
		return 1;
	}
	ret = bpf_gate_prepare(&g, &s, pid);
	if (ret == 0 && write(go, "g", 1) != 1)
		ret = 1;
	close(go);   /* without the byte the child exits 127 without exec */
	text = bpf_gate_read_all(out, &len);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (ret == 0 && !text) {
		fprintf(stderr, "gate-bpf: reading the kernel's output failed or it was over "
			"%u bytes\n", BPF_GATE_OUTPUT_MAX);
		ret = 1;
	}
	if (ret == 0) {
		ret = bpf_gate_status(status);
		if (ret == 0)
			bpf_gate_print_record(&g, s, text, len);
		else
			fputs(text, stdout);
	}
	free(text);
	bpf_gate_destroy_links();
	bpf_alloc__destroy(s);
	return fflush(stdout) == 0 && ret == 0 ? 0 : (ret ? ret : 1);
}
