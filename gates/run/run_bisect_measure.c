/* run_bisect_measure.c: one revision of `gate bisect` measured
 * (run_bisect.h): built in a git worktree at a path of the checkout's
 * length, its kernels run once by `gate run`, the result kept in the
 * cache under the commit and the key of what was asked. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_bisect.h"
#include "core/worktree_os.h"
#include "sample/spawn.h"
#include "store/baseline.h"

/* E's cache file of COMMIT with ENDING (".json", ".skip", ".log") into OUT. */
static void cache_path(const struct bisect_env *e, const char *commit, const char *ending,
		       char *out, size_t size)
{
	snprintf(out, size, "%s/%s-%s%s", e->cache, commit, e->key, ending);
}

static int exists(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f)
		fclose(f);
	return f != NULL;
}

/* Writes TEXT (LEN bytes) and, when not NULL, MORE to PATH; 0 or -1. */
static int write_text(const char *path, const char *text, size_t len, const char *more)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	fwrite(text, 1, len, f);
	if (more)
		fputs(more, f);
	return fclose(f) ? -1 : 0;
}

/* COMMIT is skipped for WHY: said in the cache, so that a second search
 * skips it without building it. Returns 1. */
static int skip(const struct bisect_env *e, const char *commit, const char *why, char *out,
		size_t size)
{
	char path[4200];
	cache_path(e, commit, ".skip", path, sizeof path);
	write_text(path, why, strlen(why), "\n");
	if (out != why)
		snprintf(out, size, "%s", why);
	return 1;
}

/* Reads the reason of a cached skip into WHY. */
static void read_skip(const char *path, char *why, size_t size)
{
	FILE *f = fopen(path, "rb");
	if (!f || !fgets(why, (int)size, f))
		snprintf(why, size, "skipped by an earlier search");
	why[strcspn(why, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* Builds E's kernels in DIR (a worktree of COMMIT): 0, or 1 with WHY. */
static int build(const struct bisect_env *e, const char *dir, const char *commit, char *why,
		 size_t size)
{
	char at[8300], log[4200], *argv[8];
	struct spawn_output o;
	snprintf(at, sizeof at, "%s/%s", dir, e->prefix);
	worktree_os_shell(at, e->p->build, argv);
	if (spawn_run(argv, NULL, e->p->build_seconds, &o))
		return skip(e, commit, "the build could not be started", why, size);
	cache_path(e, commit, ".log", log, sizeof log);
	write_text(log, o.out ? o.out : "", o.out_len, o.err);
	int ok = o.status == SPAWN_EXITED && o.exit_code == 0;
	char how[300];
	if (!ok) {
		spawn_describe(&o, how, sizeof how);
		snprintf(why, size, "the build failed: %s (log: %s)", how, log);
	}
	spawn_output_free(&o);
	return ok ? 0 : skip(e, commit, why, why, size);
}

void bisect_gate_args(const struct bisect_env *e, const char **argv, size_t *n, size_t room)
{
	if (e->p->tier && *n + 2 < room)
		argv[(*n)++] = e->p->tier;
	for (size_t i = 0; i < e->kernel_count && *n + 4 < room; i++) {
		argv[(*n)++] = "--kernel";
		argv[(*n)++] = e->kernels[i];
	}
}

void bisect_why_gate(const struct spawn_output *o, const char *what, char *why, size_t size)
{
	const char *err = o->err && *o->err ? o->err : "no output";
	const char *last = err;   /* the gate's last line of stderr says why */
	for (const char *p = err; (p = strchr(p, '\n')) && p[1]; p++)
		last = p + 1;
	snprintf(why, size, "%s exited %d: %.*s", what, o->exit_code, (int)strcspn(last, "\n"),
		 last);
}

/* Runs the gate on the kernels of DIR into the cache file of COMMIT: 0, or
 * 1 with WHY (no kernel, a kernel that crashed). */
static int measure(const struct bisect_env *e, const char *dir, const char *commit, char *why,
		   size_t size)
{
	char kd[8400], none[8400], tmp[4300], json[4300];
	const char *argv[40];
	size_t n = 0;
	snprintf(kd, sizeof kd, "%s/%s%s", dir, e->prefix, e->p->kernel_dir);
	snprintf(none, sizeof none, "%s/.allocgate-no-baseline", dir);
	cache_path(e, commit, ".tmp.json", tmp, sizeof tmp);
	cache_path(e, commit, ".json", json, sizeof json);
	const char *fixed[] = { e->self, "run", "--kernel-dir", kd, "--baseline-dir", none,
				"--json", tmp, "--rounds", "2", "--warmup", "0", "--runs", "1",
				"--no-color" };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		argv[n++] = fixed[i];
	bisect_gate_args(e, argv, &n, sizeof argv / sizeof argv[0]);
	if (e->no_cost)
		argv[n++] = "--no-cost";
	argv[n] = NULL;
	struct spawn_output o;
	if (spawn_run((char *const *)argv, NULL, 3600, &o))
		return skip(e, commit, "the gate could not be started", why, size);
	int ok = o.status == SPAWN_EXITED && o.exit_code <= 1 && exists(tmp);
	if (!ok)
		bisect_why_gate(&o, "gate run", why, size);
	spawn_output_free(&o);
	if (ok && rename(tmp, json))
		return -errno;
	remove(tmp);
	return ok ? 0 : skip(e, commit, why, why, size);
}

int bisect_worktree_build(const struct bisect_env *e, const char *commit, char *dir,
			  size_t dir_size, char *why, size_t why_size)
{
	char err[300];
	if (worktree_os_make_dir(e->top, dir, dir_size) < 0)
		return -EIO;
	const char *add[] = { "-C", e->top, "worktree", "add", "-q", "--detach", dir, commit,
			      NULL };
	if (bisect_git(add, NULL, err, sizeof err)) {
		snprintf(why, why_size, "git worktree add: %s", err);
		remove(dir);
		return skip(e, commit, why, why, why_size);
	}
	int ret = build(e, dir, commit, why, why_size);
	if (ret)
		bisect_worktree_remove(e, dir);
	return ret;
}

void bisect_worktree_remove(const struct bisect_env *e, const char *dir)
{
	const char *rm[] = { "-C", e->top, "worktree", "remove", "--force", dir, NULL };
	bisect_git(rm, NULL, NULL, 0);
	remove(dir);
}

/* Builds and measures COMMIT in a worktree of its own, removed after. */
static int fresh(const struct bisect_env *e, const char *commit, char *why, size_t size)
{
	char dir[4096];
	int ret = bisect_worktree_build(e, commit, dir, sizeof dir, why, size);
	if (ret)
		return ret;
	ret = measure(e, dir, commit, why, size);
	bisect_worktree_remove(e, dir);
	return ret;
}

int bisect_measure(const struct bisect_env *e, const char *commit, struct run_result *r,
		   bool *cached, char *why, size_t why_size)
{
	char json[4300], skipped[4300], err[1024];
	cache_path(e, commit, ".json", json, sizeof json);
	cache_path(e, commit, ".skip", skipped, sizeof skipped);
	*cached = exists(json) || exists(skipped);
	if (!exists(json)) {
		if (exists(skipped)) {
			read_skip(skipped, why, why_size);
			return 1;
		}
		int ret = fresh(e, commit, why, why_size);
		if (ret)
			return ret;
	}
	if (baseline_load_result(json, r, err, sizeof err)) {
		snprintf(why, why_size, "%s", err);
		return skip(e, commit, why, why, why_size);
	}
	return 0;
}
