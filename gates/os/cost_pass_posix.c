/* cost_pass_posix.c: cost_pass.h with valgrind (Linux; on other POSIX
 * systems valgrind is usually absent and the pass says so).
 *
 * A cost sample is `valgrind --tool=callgrind --instr-atstart=no
 * --cache-sim=yes <fixed caches> --callgrind-out-file=DIR/cg.out KERNEL
 * ...` in a fresh temporary DIR; the probe's dumps are DIR/cg.out.1,
 * .2, ... (the final DIR/cg.out, written at exit, holds nothing counted).
 * Samples run on threads, each spawning its own valgrind: they are not
 * timed, so they may share the machine. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/digest.h"
#include "sample/cost_dump.h"
#include "sample/cost_pass.h"
#include "sample/spawn.h"

/* valgrind on PATH into OUT; 0 or -ENOENT. */
static int find_valgrind(char *out, size_t size)
{
	const char *path = getenv("PATH");
	path = path ? path : "/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		snprintf(out, size, "%.*s/valgrind", (int)len, path);
		if (len && access(out, X_OK) == 0)
			return 0;
		path += len + (path[len] == ':');
	}
	return -ENOENT;
}

const char *cost_pass_unavailable(void)
{
	char tool[4096];
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return "a sanitizer build (valgrind cannot run ASan or TSan executables)";
#endif
#ifndef GATE_HAVE_CALLGRIND
	return "the probe was built without <valgrind/callgrind.h> (apt-get install valgrind, "
	       "then rebuild)";
#endif
	if (find_valgrind(tool, sizeof tool))
		return "valgrind is not installed (apt-get install valgrind)";
	return NULL;
}

/* Runs ARGV with the extra environment ENV and returns its stdout (NULL
 * when it failed). */
static char *run_for_output(char **argv, char *const *env)
{
	struct spawn_output out;
	char *text = NULL;
	if (spawn_run(argv, env, 60, &out))
		return NULL;
	if (out.status == SPAWN_EXITED && out.exit_code == 0) {
		text = out.out;
		out.out = NULL;
	}
	spawn_output_free(&out);
	return text;
}

/* The dynamic loader this gate runs with (the kernels' too): the first
 * mapping of /proc/self/maps whose file name starts with "ld-". */
static int loader_path(char *out, size_t size)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4608];
	int ret = -ENOENT;
	while (f && ret && fgets(line, sizeof line, f)) {
		char *path = strchr(line, '/'), *base;
		if (!path)
			continue;
		path[strcspn(path, "\n")] = '\0';
		base = strrchr(path, '/') + 1;
		if (!strncmp(base, "ld-", 3) && strstr(base, ".so")) {
			snprintf(out, size, "%s", path);
			ret = 0;
		}
	}
	if (f)
		fclose(f);
	return ret;
}

/* Digest and summary of the "cpu_features" lines of ld.so's diagnostics
 * (glibc 2.33+): what decides glibc's ifunc variants (memcpy, strlen, ...)
 * and its copy thresholds, as valgrind's virtual CPU presents them. */
static void cpu_summary(const char *diag, char *out, size_t size)
{
	uint64_t h = DIGEST_FNV1A64_OFFSET;
	char model[32] = "?", isa[32] = "?";
	size_t lines = 0;
	for (const char *p = diag; *p;) {
		size_t len = strcspn(p, "\n");
		const char *f = strstr(p, "cpu_features.");
		if (f && f < p + len) {
			h = digest_fnv1a64(h, p, len + 1);
			lines++;
			if (!strncmp(f, "cpu_features.basic.model=", 25))
				snprintf(model, sizeof model, "%.*s", (int)(p + len - f - 25), f + 25);
			if (!strncmp(f, "cpu_features.isa_1=", 19))
				snprintf(isa, sizeof isa, "%.*s", (int)(p + len - f - 19), f + 19);
		}
		p += len + (p[len] == '\n');
	}
	if (!lines)
		snprintf(out, size, "unknown (ld.so --list-diagnostics printed no cpu_features)");
	else
		snprintf(out, size, "fnv1a64:%016llx (model %s, isa_1 %s, %zu lines)",
			 (unsigned long long)h, model, isa, lines);
}

int cost_pass_context(struct context *ctx, char *const *env)
{
	char tool[4096], loader[4096], cpu[256] = "";
	const char *why = cost_pass_unavailable();
	char *version = NULL;
	if (why) {
		snprintf(cpu, sizeof cpu, "off: %s", why);
	} else {
		find_valgrind(tool, sizeof tool);
		char *vargv[] = { tool, "--version", NULL };
		version = run_for_output(vargv, NULL);
		if (version)
			version[strcspn(version, "\n")] = '\0';
		char *dargv[] = { tool, "--tool=none", "-q", loader, "--list-diagnostics", NULL };
		/* the kernels' environment: GLIBC_TUNABLES=glibc.cpu.hwcaps=... changes
		 * the features glibc uses */
		char *diag = loader_path(loader, sizeof loader) ? NULL : run_for_output(dargv, env);
		if (diag)
			cpu_summary(diag, cpu, sizeof cpu);
		else
			snprintf(cpu, sizeof cpu, "unknown (ld.so --list-diagnostics did not run "
				 "under valgrind)");
		free(diag);
	}
	free(ctx->cost_tool);
	free(ctx->cost_cpu);
	ctx->cost_tool = strdup(version ? version : "");
	ctx->cost_cpu = strdup(cpu);
	free(version);
	return ctx->cost_tool && ctx->cost_cpu ? 0 : -ENOMEM;
}

/* Reads PATH whole into a NUL-terminated buffer; NULL on failure. */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)len + 1)) != NULL) {
		size_t got = fread(buf, 1, (size_t)len, f);
		buf[got] = '\0';
	}
	fclose(f);
	return buf;
}

#define COST_MAX_REGIONS 16

/* The summed dumps of one region. */
struct cost_region {
	char name[128];
	struct cost_dump sum;
};

struct cost_regions {
	struct cost_region r[COST_MAX_REGIONS];
	size_t n;
	const struct cost_dump *dump;   /* the dump being added */
	int overflow;
};

static void add_to_region(const char *name, void *arg)
{
	struct cost_regions *rs = arg;
	struct cost_region *r = NULL;
	for (size_t i = 0; i < rs->n && !r; i++)
		if (!strcmp(rs->r[i].name, name))
			r = &rs->r[i];
	if (!r && rs->n == COST_MAX_REGIONS) {
		rs->overflow = 1;
		return;
	}
	if (!r) {
		r = &rs->r[rs->n++];
		memset(r, 0, sizeof *r);
		snprintf(r->name, sizeof r->name, "%s", name);
	}
	for (int e = 0; e < COST_EVENTS; e++)
		r->sum.events[e] += rs->dump->events[e];
	for (int e = 0; e < COST_ENTRIES; e++) {
		r->sum.calls[e] += rs->dump->calls[e];
		r->sum.entry_ir[e] += rs->dump->entry_ir[e];
	}
}

static int add_metric(struct record *rec, const char *region, const char *name,
		      const char *unit, uint64_t value)
{
	char full[256];
	struct record_metric *m = realloc(rec->metrics, (rec->metric_count + 1) * sizeof *m);
	if (!m)
		return -ENOMEM;
	rec->metrics = m;
	snprintf(full, sizeof full, "%s%s%s", region, *region ? "." : "", name);
	m += rec->metric_count;
	*m = (struct record_metric){ strdup(full), strdup(unit), METRIC_EXACT, value };
	if (!m->name || !m->unit) {
		free(m->name);
		free(m->unit);
		return -ENOMEM;
	}
	rec->metric_count++;
	return 0;
}

/* The metrics of one region into REC. */
static int region_metrics(struct record *rec, const struct cost_region *r)
{
	const uint64_t *e = r->sum.events;
	char name[64];
	int ret = add_metric(rec, r->name, "cost_instructions", "instructions", e[COST_IR]);
	ret = ret ? ret : add_metric(rec, r->name, "cost_l1_misses", "count",
				     e[COST_I1MR] + e[COST_D1MR] + e[COST_D1MW]);
	ret = ret ? ret : add_metric(rec, r->name, "cost_ll_misses", "count",
				     e[COST_ILMR] + e[COST_DLMR] + e[COST_DLMW]);
	ret = ret ? ret : add_metric(rec, r->name, "cost_est_cycles", "cycles",
				     cost_estimated_cycles(e));
	for (int i = 0; !ret && i < COST_ENTRIES; i++) {
		snprintf(name, sizeof name, "cost_%s_calls", cost_entry_name((enum cost_entry)i));
		ret = add_metric(rec, r->name, name, "count", r->sum.calls[i]);
		snprintf(name, sizeof name, "cost_%s_instructions",
			 cost_entry_name((enum cost_entry)i));
		ret = ret ? ret : add_metric(rec, r->name, name, "instructions",
					     r->sum.entry_ir[i]);
	}
	return ret;
}

/* Reads DIR/cg.out.1, .2, ... into JOB's record; removes them. */
static int read_dumps(struct cost_job *job, const char *dir)
{
	struct cost_regions *rs = calloc(1, sizeof *rs);
	char path[4200];
	int ret = 0, dumps = 0;
	if (!rs)
		return -ENOMEM;
	for (int i = 1; !ret; i++) {
		struct cost_dump d;
		snprintf(path, sizeof path, "%s/cg.out.%d", dir, i);
		char *text = read_file(path);
		if (!text)
			break;
		ret = cost_parse_dump(text, &d, job->why, sizeof job->why);
		free(text);
		if (!ret && cost_label_has(d.label, "") >= 0) {
			rs->dump = &d;
			cost_label_regions(d.label, add_to_region, rs);
			dumps++;
		}
	}
	if (!ret && rs->overflow) {
		snprintf(job->why, sizeof job->why, "more than %d regions", COST_MAX_REGIONS);
		ret = -EINVAL;
	}
	if (!ret && !dumps) {
		snprintf(job->why, sizeof job->why, "%s was built without the cost markers (no "
			 "region was dumped; rebuild it with <valgrind/callgrind.h> installed)",
			 job->argv[0]);
		ret = -ENODATA;
	}
	for (size_t i = 0; !ret && i < rs->n; i++)
		ret = region_metrics(&job->rec, &rs->r[i]);
	free(rs);
	return ret;
}

/* Removes DIR and the files in it. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096 + 512];
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static void run_job(struct cost_job *job)
{
	char tool[4096], dir[4096], out_file[4200], out_arg[4300];
	char *argv[COST_PREFIX_MAX + 64];
	const char *tmp = getenv("TMPDIR");
	struct spawn_output out;
	memset(&job->rec, 0, sizeof job->rec);
	job->why[0] = '\0';
	if (find_valgrind(tool, sizeof tool)) {
		snprintf(job->why, sizeof job->why, "valgrind is not installed");
		job->ret = -ENOENT;
		return;
	}
	snprintf(dir, sizeof dir, "%s/allocgate-cost-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		job->ret = -errno;
		snprintf(job->why, sizeof job->why, "cost pass: mkdtemp %.300s: %s", dir,
			 strerror(errno));
		return;
	}
	snprintf(out_file, sizeof out_file, "%s/cg.out", dir);
	size_t n = cost_prefix(tool, out_file, out_arg, sizeof out_arg, argv);
	for (size_t k = 0; job->argv[k] && n + 1 < sizeof argv / sizeof *argv; k++)
		argv[n++] = job->argv[k];
	argv[n] = NULL;
	job->ret = spawn_run(argv, job->env, job->timeout_seconds, &out);
	if (job->ret) {
		snprintf(job->why, sizeof job->why, "runner: %s", strerror(-job->ret));
	} else if (out.status != SPAWN_EXITED || out.exit_code != 0) {
		char how[128];
		spawn_describe(&out, how, sizeof how);
		snprintf(job->why, sizeof job->why, "under valgrind: %s", how);
		job->ret = -EIO;
	} else {
		job->ret = read_dumps(job, dir);
		if (job->ret) {
			record_free(&job->rec);
			memset(&job->rec, 0, sizeof job->rec);
		}
	}
	spawn_output_free(&out);
	remove_dir(dir);
}

struct cost_queue {
	struct cost_job *jobs;
	size_t n;
	atomic_size_t next;
};

static void *worker(void *arg)
{
	struct cost_queue *q = arg;
	for (size_t i; (i = atomic_fetch_add(&q->next, 1)) < q->n;)
		run_job(&q->jobs[i]);
	return NULL;
}

void cost_pass_run(struct cost_job *jobs, size_t n, int parallel)
{
	struct cost_queue q = { jobs, n, 0 };
	pthread_t threads[64];
	int started = 0;
	if (parallel <= 0)
		parallel = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (parallel > 64)
		parallel = 64;
	for (; started < parallel - 1 && (size_t)started + 1 < n; started++)
		if (pthread_create(&threads[started], NULL, worker, &q))
			break;
	worker(&q);
	for (int t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
}
