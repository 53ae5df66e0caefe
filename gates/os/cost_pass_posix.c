/* cost_pass_posix.c: cost_pass.h with valgrind (Linux; on other POSIX
 * systems valgrind is usually absent and the pass says so).
 *
 * A cost sample is `valgrind --tool=callgrind --instr-atstart=no
 * --cache-sim=yes <fixed caches> --callgrind-out-file=DIR/cg.out KERNEL
 * ...` in a fresh temporary DIR; the probe's dumps are DIR/cg.out.1,
 * .2, ... (the final DIR/cg.out, written at exit, holds nothing counted),
 * which sample/cost_regions.c sums per region and sample/cost_sites.c reads
 * for the allocation sites. Samples run on threads, each spawning its own valgrind: they are not
 * timed, so they may share the machine. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cost_key.h"
#include "core/digest.h"
#include "sample/cost_dump.h"
#include "sample/cost_pass.h"
#include "sample/cost_regions.h"
#include "sample/cost_sites.h"
#include "sample/cost_stacks.h"
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

/* The path of the first mapping of /proc/self/maps whose file name starts
 * with PREFIX and names a shared object ("ld-", "libc.so"): the loader and
 * libc this gate runs with, the kernels' too. 0 or -ENOENT. */
static int mapped_path(const char *prefix, char *out, size_t size)
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
		if (!strncmp(base, prefix, strlen(prefix)) && strstr(base, ".so")) {
			snprintf(out, size, "%s", path);
			ret = 0;
		}
	}
	if (f)
		fclose(f);
	return ret;
}

/* "libc.so.6 fnv1a64-elf:...; ld-linux-x86-64.so.2 fnv1a64-elf:..." into
 * OUT: the builds whose code the cost samples run (digest.h: the loaded
 * part of each, so the same build digests the same on every machine). */
static void libc_builds(const char *loader, char *out, size_t size)
{
	char libc[4096], d1[64] = "unknown", d2[64] = "unknown";
	int have_libc = mapped_path("libc.so", libc, sizeof libc) == 0;
	if (have_libc)
		digest_executable(libc, NULL, d1, sizeof d1);
	digest_executable(loader, NULL, d2, sizeof d2);
	snprintf(out, size, "%s %s; %s %s", have_libc ? strrchr(libc, '/') + 1 : "libc",
		 d1, strrchr(loader, '/') ? strrchr(loader, '/') + 1 : loader, d2);
}

/* Sets *FIELD to a copy of VALUE; returns 0 or -ENOMEM. */
static int set_field(char **field, const char *value)
{
	free(*field);
	*field = strdup(value ? value : "");
	return *field ? 0 : -ENOMEM;
}

int cost_pass_context(struct context *ctx, char *const *env)
{
	char tool[4096], loader[4096] = "", cpu[256] = "", libc[600] = "";
	char tunables[2048], *cost_env[256];
	const char *why = cost_pass_unavailable();
	char *version = NULL, *lines = NULL;
	if (why) {
		snprintf(cpu, sizeof cpu, "off: %s", why);
	} else {
		find_valgrind(tool, sizeof tool);
		char *vargv[] = { tool, "--version", NULL };
		version = run_for_output(vargv, NULL);
		if (version)
			version[strcspn(version, "\n")] = '\0';
		char *dargv[] = { tool, "--tool=none", "-q", loader, "--list-diagnostics", NULL };
		/* the cost samples' environment: GLIBC_TUNABLES=glibc.cpu.hwcaps=...
		 * changes the features glibc uses */
		cost_pass_env(env, cost_env, 256, tunables, sizeof tunables);
		char *diag = mapped_path("ld-", loader, sizeof loader) ? NULL
								    : run_for_output(dargv, cost_env);
		lines = diag ? cost_key_cpu_lines(diag) : NULL;
		if (lines)
			cost_key_summary(lines, cpu, sizeof cpu);
		else
			snprintf(cpu, sizeof cpu, "unknown (ld.so --list-diagnostics did not run "
				 "under valgrind)");
		if (*loader)
			libc_builds(loader, libc, sizeof libc);
		free(diag);
	}
	int ret = set_field(&ctx->cost_tool, version);
	ret = ret ? ret : set_field(&ctx->cost_cpu, cpu);
	ret = ret ? ret : set_field(&ctx->cost_libc, libc);
	ret = ret ? ret : set_field(&ctx->cost_tunables, why ? "" : COST_TUNABLES);
	free(ctx->cost_diagnostics);
	ctx->cost_diagnostics = lines;
	free(version);
	return ret;
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

/* Reads DIR/cg.out.1, .2, ... into JOB's record (cost_regions.h); a dump
 * that does not parse stops it, its error in JOB->why. */
static int read_dumps(struct cost_job *job, const char *dir)
{
	struct cost_regions *rs = calloc(1, sizeof *rs);
	struct cost_sites graph = { 0 };
	struct cost_stacks contexts = { 0 };
	char path[4200];
	int ret = 0;
	if (!rs)
		return -ENOMEM;
	for (int i = 1; !ret; i++) {
		snprintf(path, sizeof path, "%s/cg.out.%d", dir, i);
		char *text = read_file(path);
		if (!text)
			break;
		ret = cost_regions_add_dump(rs, text, &job->ifuncs, job->why, sizeof job->why);
		ret = ret ? ret : cost_sites_add_dump(&graph, text);
		ret = ret ? ret : cost_stacks_add_dump(&contexts, text);
		free(text);
	}
	ret = ret ? ret : cost_regions_metrics(rs, job->argv[0], &job->rec, job->why,
					       sizeof job->why);
	/* the allocation sites of the same dumps (cost_sites.h) */
	ret = ret ? ret : cost_sites_record(&graph, &job->rec);
	/* and their call stacks, wrappers folded as the sites found them */
	ret = ret ? ret : cost_stacks_record(&contexts, &graph, &job->stacks);
	if (ret == -ENOMEM && !job->why[0])
		snprintf(job->why, sizeof job->why, "cost pass: out of memory");
	cost_stacks_free(&contexts);
	cost_sites_free(&graph);
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

/* A symbolic link to KERNEL in DIR whose path is COST_ARGV0_LENGTH
 * characters long ("DIR/kkk...k"), into LINK. 0, or -1 when DIR is too
 * long or the link cannot be made (the kernel's own path is used). */
static int kernel_link(const char *kernel, const char *dir, char *link, size_t size)
{
	char target[4096];
	size_t len = strlen(dir);
	if (!realpath(kernel, target) || len + 2 >= COST_ARGV0_LENGTH || size <= COST_ARGV0_LENGTH)
		return -1;
	memcpy(link, dir, len);
	link[len] = '/';
	memset(link + len + 1, 'k', COST_ARGV0_LENGTH - len - 1);
	link[COST_ARGV0_LENGTH] = '\0';
	return symlink(target, link);
}

/* The temporary directories of the samples running now (one per thread),
 * for cost_pass_remove_temporary. */
#define DIRS_MAX 64
static pthread_mutex_t dirs_lock = PTHREAD_MUTEX_INITIALIZER;
static char *dirs[DIRS_MAX];
static int dirs_closed;

/* mkdtemp on DIR (a template) and lists it; 0 or a negative errno. */
static int make_dir(char *dir)
{
	int ret = 0;
	pthread_mutex_lock(&dirs_lock);
	if (dirs_closed)
		ret = -EINTR;
	else if (!mkdtemp(dir))
		ret = -errno;
	for (size_t i = 0; !ret && i < DIRS_MAX; i++)
		if (!dirs[i]) {
			dirs[i] = dir;
			break;
		}
	pthread_mutex_unlock(&dirs_lock);
	return ret;
}

/* Unlists DIR and removes it, unless cost_pass_remove_temporary did. */
static void drop_dir(char *dir)
{
	pthread_mutex_lock(&dirs_lock);
	for (size_t i = 0; i < DIRS_MAX; i++)
		if (dirs[i] == dir)
			dirs[i] = NULL;
	if (!dirs_closed)
		remove_dir(dir);
	pthread_mutex_unlock(&dirs_lock);
}

void cost_pass_remove_temporary(void)
{
	pthread_mutex_lock(&dirs_lock);
	dirs_closed = 1;
	for (size_t i = 0; i < DIRS_MAX; i++)
		if (dirs[i]) {
			remove_dir(dirs[i]);
			dirs[i] = NULL;
		}
	pthread_mutex_unlock(&dirs_lock);
}

static void run_job(struct cost_job *job)
{
	char tool[4096], dir[4096], out_file[4200], out_arg[4300], link[COST_ARGV0_LENGTH + 1];
	char *argv[COST_PREFIX_MAX + 64];
	const char *tmp = getenv("TMPDIR");
	struct spawn_output out;
	char tunables[2048], *env[256];
	memset(&job->rec, 0, sizeof job->rec);
	memset(&job->stacks, 0, sizeof job->stacks);
	job->why[0] = '\0';
	job->ifuncs = NULL;
	if (find_valgrind(tool, sizeof tool)) {
		snprintf(job->why, sizeof job->why, "valgrind is not installed");
		job->ret = -ENOENT;
		return;
	}
	snprintf(dir, sizeof dir, "%s/allocgate-cost-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	job->ret = make_dir(dir);
	if (job->ret) {
		snprintf(job->why, sizeof job->why, "cost pass: mkdtemp %.300s: %s", dir,
			 strerror(-job->ret));
		return;
	}
	snprintf(out_file, sizeof out_file, "%s/cg.out", dir);
	size_t n = cost_prefix(tool, out_file, out_arg, sizeof out_arg, argv);
	if (kernel_link(job->argv[0], dir, link, sizeof link) == 0)
		argv[n++] = link;
	else
		argv[n++] = job->argv[0];
	for (size_t k = 1; job->argv[k] && n + 1 < sizeof argv / sizeof *argv; k++)
		argv[n++] = job->argv[k];
	argv[n] = NULL;
	cost_pass_env(job->env, env, sizeof env / sizeof *env, tunables, sizeof tunables);
	job->ret = spawn_run(argv, env, job->timeout_seconds, &out);
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
			result_stacks_free(&job->stacks);
		}
	}
	spawn_output_free(&out);
	drop_dir(dir);
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
