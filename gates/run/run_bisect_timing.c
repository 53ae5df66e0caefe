/* run_bisect_timing.c: `gate bisect --timing` (run_bisect.h): a probe
 * built in a worktree of its own and timed by `gate ab` against the good
 * revision's kernels in the same rounds, as a pull request is. Timing is
 * a measurement, not a count: a verdict is gate ab's (its paired test,
 * minimum effect and confirmation batch), taken afresh by every search. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_bisect.h"
#include "sample/spawn.h"
#include "store/results_load.h"

/* gate ab of GOOD_KD against KD (COMMIT's), its result into JSON: the
 * gate's exit status, or -1 with WHY when it could not be run. */
static int time_ab(const struct bisect_env *e, const char *good_kd, const char *kd,
		   const char *commit, const char *json, char *why, size_t size)
{
	char label[16];
	const char *argv[40];
	size_t n = 0;
	snprintf(label, sizeof label, "%.7s", commit);
	const char *fixed[] = { e->self, "ab", "--a-kernel-dir", good_kd, "--b-kernel-dir", kd,
				"--a-label", "good", "--b-label", label, "--gate", "timing",
				"--no-cost", "--no-color", "--json", json };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		argv[n++] = fixed[i];
	bisect_gate_args(e, argv, &n, sizeof argv / sizeof argv[0]);
	argv[n] = NULL;
	struct spawn_output o;
	if (spawn_run((char *const *)argv, NULL, 7200, &o)) {
		snprintf(why, size, "gate ab could not be started");
		return -1;
	}
	int code = o.status == SPAWN_EXITED ? o.exit_code : -1;
	if (code != 0 && code != 1)
		bisect_why_gate(&o, "gate ab", why, size);
	spawn_output_free(&o);
	return code;
}

int bisect_time(const struct bisect_env *e, const char *good_kd, const char *commit,
		struct run_result *result, char *why, size_t why_size)
{
	char dir[4096], kd[8400], json[4300], err[1024];
	int ret = bisect_worktree_build(e, commit, dir, sizeof dir, why, why_size);
	if (ret)
		return ret;
	snprintf(kd, sizeof kd, "%s/%s%s", dir, e->prefix, e->p->kernel_dir);
	snprintf(json, sizeof json, "%s/%s-%s.ab.json", e->cache, commit, e->key);
	int code = time_ab(e, good_kd, kd, commit, json, why, why_size);
	bisect_worktree_remove(e, dir);
	if (code != 0 && code != 1)
		return 1;
	if (result && code == 1 && results_load(json, result, err, sizeof err)) {
		snprintf(why, why_size, "%s", err);
		return 1;
	}
	return code == 1 ? 2 : 0;
}
