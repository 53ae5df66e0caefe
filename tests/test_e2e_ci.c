/* test_e2e_ci.c: the CI side of the gate, run as CI runs it, on the test
 * suite's own kernels: the --junit/--markdown/--svg reports and GitHub
 * annotations of a real regression (the toy kernel with 10x the work), and
 * --shard 1/2 + 2/2 joined by `gate merge` giving the verdicts of one
 * unsharded run. Timing is not what these check: the sharded comparison
 * uses the largest --min-effect and compares exact counts and the
 * expectations on counts. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e_fixture.h"
#include "sample/spawn.h"
#include "source_line.h"

static void setup(void)
{
	e2e_prepare("ci");
}

/* Runs build/gate with ENV (NULL-terminated or NULL) and the arguments
 * after it (NULL-terminated), `run` ones getting the test setup; returns
 * the exit status and fills OUT. */
static int gate(struct spawn_output *out, char **env, const char *cmd, ...)
{
	char *argv[E2E_ARGV_MAX];
	int n = 0, code;
	va_list ap;
	argv[n++] = gate_path;
	argv[n++] = (char *)cmd;
	if (!strcmp(cmd, "run")) {
		argv[n++] = "--kernel-dir";
		argv[n++] = kernel_dir;
		argv[n++] = "--baseline-dir";
		argv[n++] = tmpdir;
		argv[n++] = "--quick";
	}
	argv[n++] = "--no-color";
	va_start(ap, cmd);
	code = e2e_spawn(argv, n, ap, env, 300, out);
	va_end(ap);
	return code;
}

static const char *in_dir(const char *name)
{
	static char paths[8][512];
	static int next;
	char *p = paths[next++ % 8];
	snprintf(p, 512, "%s/%s", tmpdir, name);
	return p;
}

/* Runs python3 SCRIPT with ARGS; its exit status; skips without python3. */
static int python(const char *script, const char *args)
{
	if (system("python3 -c pass >/dev/null 2>&1") != 0)
		e2e_skip("python3 is not installed");
	FILE *f = fopen(in_dir("check.py"), "w");
	cr_assert(f);
	fputs(script, f);
	fclose(f);
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "python3 '%s' %s", in_dir("check.py"), args);
	return system(cmd);
}

TestSuite(e2e_ci, .init = setup, .fini = e2e_cleanup, .timeout = 300);

Test(e2e_ci, regression_reports)
{
	struct spawn_output out;
	int code = gate(&out, NULL, "run", "--kernel", "toy", "--update-baseline", "--runs", "1",
			NULL);
	/* 1: the toy's timing expectation (single < 0.75 x twice) is a coin
	 * flip under ASan, whose malloc dominates both (seen in .ci/run); the
	 * baseline is written either way, and this test is about the reports */
	cr_assert(code == 0 || code == 1, "update-baseline exit %d\n%s\n%s", code, out.out,
		  out.err);
	cr_assert(strstr(out.out, " series written ("), "no baseline written:\n%s\n%s", out.out,
		  out.err);
	spawn_output_free(&out);
	char summary[600];
	snprintf(summary, sizeof summary, "GITHUB_STEP_SUMMARY=%s", in_dir("summary.md"));
	char *env[] = { "GITHUB_ACTIONS=true", summary, NULL };
	code = gate(&out, env, "run", "--kernel", "toy", "--gate", "all", "--env",
		    "TOY_SLOWDOWN_PERCENT=900",
		    "--junit", in_dir("junit.xml"), "--markdown", in_dir("report.md"), "--svg",
		    in_dir("svg"), NULL);
	/* both variants do 10x the work; which of them the gate finds
	 * regressed is the machine's call (e2e_timing_undecided). Each variant
	 * found must be named with its own line, in every report. */
	static const char *const variants[] = { "single", "twice" };
	char regressed[200] = "";
	int found = 0;
	for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
		char needle[64], want[200];
		snprintf(needle, sizeof needle, "GATE_VARIANT(\"%s\"", variants[i]);
		int line = line_of("tests/kernels/toy.c", needle);
		cr_assert(line > 0, "no %s in tests/kernels/toy.c", needle);
		snprintf(want, sizeof want,
			 "\n::error file=tests/kernels/toy.c,line=%d,title=allocgate%%3A "
			 "regression toy/%s/small::",
			 line, variants[i]);
		if (!strstr(out.out, want))
			continue;
		found++;
		size_t used = strlen(regressed);
		snprintf(regressed + used, sizeof regressed - used, " %s:%d", variants[i], line);
	}
	if (!found && e2e_timing_undecided(out.out))
		e2e_skip_timing_undecided();
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(found > 0, "no regression annotation of toy/single or toy/twice in:\n%s",
		  out.out);
	static const char check[] =
		"import sys, os, xml.etree.ElementTree as ET\n"
		"d = sys.argv[1]\n"
		"regressed = dict(a.split(':') for a in sys.argv[2:])\n"
		"root = ET.parse(d + '/junit.xml').getroot()\n"
		"fails = [c for c in root.iter('testcase') if c.find('failure') is not None]\n"
		"for v, line in regressed.items():\n"
		"    mine = [c for c in fails if c.get('name').startswith(v + '/small ')]\n"
		"    assert mine, (v, fails)\n"
		"    for c in mine:\n"
		"        msg = c.find('failure').get('message')\n"
		"        assert msg.startswith('tests/kernels/toy.c:%s:' % line), msg\n"
		"assert all(c.find('failure').get('message').startswith('tests/kernels/toy.c:')\n"
		"           for c in fails)\n"
		"md = open(d + '/report.md').read()\n"
		"assert '### What broke' in md and 'tests/kernels/toy.c:' in md\n"
		"for v, line in regressed.items():\n"
		"    assert '**toy/%s/small** `tests/kernels/toy.c:%s`' % (v, line) in md, md\n"
		"assert open(d + '/summary.md').read() == md + '\\n'\n"
		"svg = ET.parse(d + '/svg/toy.svg').getroot()\n"
		"assert len(svg.findall('{http://www.w3.org/2000/svg}circle')) >= 9\n";
	char args[400];
	snprintf(args, sizeof args, "'%s'%s", tmpdir, regressed);
	cr_expect_eq(python(check, args), 0, "reports in %s are wrong", tmpdir);
	spawn_output_free(&out);
}

Test(e2e_ci, shards_merge_to_the_unsharded_verdicts)
{
	struct spawn_output out;
	int code = gate(&out, NULL, "run", "--update-baseline", "--runs", "1", NULL);
	/* 1: only the toy's timing expectation, a coin flip under ASan */
	cr_assert(code == 0 || (code == 1 && strstr(out.out, " series written (")),
		  "update-baseline exit %d\n%s\n%s", code, out.out, out.err);
	spawn_output_free(&out);
	code = gate(&out, NULL, "run", "--min-effect", "1000", "--json", in_dir("all.json"), NULL);
	spawn_output_free(&out);
	int c1 = gate(&out, NULL, "run", "--min-effect", "1000", "--shard", "1/2", "--json",
		      in_dir("s1.json"), NULL);
	spawn_output_free(&out);
	int c2 = gate(&out, NULL, "run", "--min-effect", "1000", "--shard", "2/2", "--json",
		      in_dir("s2.json"), NULL);
	spawn_output_free(&out);
	int cm = gate(&out, NULL, "merge", in_dir("s1.json"), in_dir("s2.json"), "--json",
		      in_dir("merged.json"), "--junit", in_dir("merged.xml"), NULL);
	/* the merged verdict is the worst of the shards' (fail before error);
	 * whether it equals the unsharded run's is checked below, where the
	 * timing expectations (the toy's single < 0.75 x twice is a coin flip
	 * under ASan, seen in CI) can be told from the rest */
	int worst = c1 == 1 || c2 == 1 ? 1 : c1 > c2 ? c1 : c2;
	cr_expect_eq(cm, worst, "merge exit %d (shards %d, %d), unsharded %d\n%s\n%s", cm, c1, c2,
		     code, out.out, out.err);
	spawn_output_free(&out);
	static const char check[] =
		"import sys, json\n"
		"def load(p):\n"
		"    return json.load(open(p))\n"
		"def timing_failed(d):\n"
		"    return any(x['class'] == 'timing' and x['verdict'] == 'fail' for x in d['series'])"
		" or any('_ns' in x['expr'] and x['verdict'] == 'fail' for x in d['expectations'])\n"
		"def verdicts(d):\n"
		"    s = sorted((x['kernel'], x['variant'], x['params'], x['metric'], x['verdict'])\n"
		"               for x in d['series'] if x['class'] == 'exact')\n"
		"    e = sorted((x['kernel'], x['params'], x['line'], x['verdict'])\n"
		"               for x in d['expectations'] if '_ns' not in x['expr'])\n"
		"    return s, e\n"
		"a, m = load(sys.argv[1]), load(sys.argv[2])\n"
		"s1, s2 = load(sys.argv[3]), load(sys.argv[4])\n"
		"assert s1['series'] and s2['series'], 'a shard ran nothing'\n"
		"k1 = {x['kernel'] for x in s1['series']}; k2 = {x['kernel'] for x in s2['series']}\n"
		"assert not (k1 & k2), (k1, k2)\n"
		"assert len(a['series']) == len(m['series'])\n"
		"assert verdicts(a) == verdicts(m), (verdicts(a), verdicts(m))\n"
		"if not timing_failed(a) and not timing_failed(m):\n"
		"    assert a['verdict'] == m['verdict'], (a['verdict'], m['verdict'])\n"
		"assert m['policy'] == s1['policy'] and m['policy']['min_effect'] == 10, m['policy']\n";
	char args[1200];
	snprintf(args, sizeof args, "'%s' '%s' '%s' '%s'", in_dir("all.json"),
		 in_dir("merged.json"), in_dir("s1.json"), in_dir("s2.json"));
	cr_expect_eq(python(check, args), 0, "sharded verdicts differ, files in %s", tmpdir);
}

Test(e2e_ci, overlapping_shards_are_refused)
{
	struct spawn_output out;
	int code = gate(&out, NULL, "run", "--kernel", "toy", "--json", in_dir("a.json"), NULL);
	cr_assert(code == 0 || code == 1, "exit %d\n%s", code, out.err);
	spawn_output_free(&out);
	code = gate(&out, NULL, "merge", in_dir("a.json"), in_dir("a.json"), NULL);
	cr_expect_eq(code, 2, "exit %d\n%s", code, out.err);
	cr_expect(strstr(out.err, "overlap"), "%s", out.err);
	spawn_output_free(&out);
	code = gate(&out, NULL, "merge", in_dir("missing.json"), NULL);
	cr_expect_eq(code, 2);
	cr_expect(strstr(out.err, "missing.json"), "%s", out.err);
	spawn_output_free(&out);
}

/* The merged result renders the shards' own policy, not this gate's
 * defaults; shards decided by different policies are refused. */
Test(e2e_ci, merge_keeps_the_shards_policy)
{
	struct spawn_output out;
	int code = gate(&out, NULL, "run", "--kernel", "toy", "--min-effect", "40", "--correction",
			"bh", "--json", in_dir("a.json"), NULL);
	cr_assert(code == 0 || code == 1, "exit %d\n%s", code, out.err);
	spawn_output_free(&out);
	static const char other[] =
		"import sys, json\n"
		"d = json.load(open(sys.argv[1]))\n"
		"assert d['policy']['min_effect'] == 0.4 and d['policy']['correction'] == 'bh', d['policy']\n"
		"d['platform'] = d['context']['platform_key'] = 'other-arch-libc'\n"
		"for x in d['series']:\n"
		"    if x['class'] == 'timing' and x['samples']:\n"
		"        x['p_value'] = 0.5\n"   /* a compared timing series: the method line */
		"json.dump(d, open(sys.argv[2], 'w'))\n"
		"d['policy']['alpha'] = 0.01\n"
		"json.dump(d, open(sys.argv[3], 'w'))\n";
	char args[1200];
	snprintf(args, sizeof args, "'%s' '%s' '%s'", in_dir("a.json"), in_dir("b.json"),
		 in_dir("c.json"));
	cr_assert_eq(python(other, args), 0);
	code = gate(&out, NULL, "merge", in_dir("a.json"), in_dir("b.json"), "--no-color", NULL);
	cr_expect(code == 0 || code == 1, "exit %d\n%s", code, out.err);
	cr_expect(strstr(out.out, "(alpha 0.05), tolerance max(40%, 3 x drift"), "%s", out.out);
	spawn_output_free(&out);
	code = gate(&out, NULL, "merge", in_dir("a.json"), in_dir("c.json"), NULL);
	cr_expect_eq(code, 2, "exit %d\n%s", code, out.err);
	cr_expect(strstr(out.err, "gate merge: ") && strstr(out.err, "different policies (alpha "
							       "0.05 vs 0.01)"), "%s", out.err);
	spawn_output_free(&out);
}

/* Shards are one run's family again (decide/readjust.h): a timing failure
 * whose raw p its shard's Holm family let through, and the whole run's does
 * not, is inconclusive in the merge, and the merge passes when the shard
 * recorded no failed sample; one significant over the whole run still
 * fails it; a file that did not record its failed samples keeps its
 * status. The shards are a real run's result with its wall and task
 * clock series made tested timing comparisons with set p-values. */
Test(e2e_ci, merge_adjusts_the_shards_timing_as_one_run)
{
	struct spawn_output out;
	int code = gate(&out, NULL, "run", "--kernel", "toy", "--update-baseline", "--runs", "1",
			NULL);
	cr_assert(code == 0 || (code == 1 && strstr(out.out, " series written (")),
		  "update-baseline exit %d\n%s\n%s", code, out.out, out.err);
	spawn_output_free(&out);
	code = gate(&out, NULL, "run", "--kernel", "toy", "--json", in_dir("a.json"), NULL);
	cr_assert(code == 0 || code == 1, "exit %d\n%s", code, out.err);
	spawn_output_free(&out);
	static const char craft[] =
		"import sys, json\n"
		"d = json.load(open(sys.argv[1]))\n"
		"TEST = ('timing: Hodges-Lehmann ratio, Moses 95% interval, Mann-Whitney one-sided, '\n"
		"        'Holm over the run, tolerance max(minimum effect, 3 x drift)')\n"
		"t = [x for x in d['series'] if x['metric'] in ('wall_ns', 'task_clock_ns')]\n"
		"assert len(t) >= 2, [x['metric'] for x in d['series']]\n"
		"for x in t:   # tested as on a quiet machine (these were maybe disturbed)\n"
		"    x.update(test=TEST, tolerance=0.02, change=0.0, ci_low=0.98, ci_high=1.02)\n"
		"d['expectations'] = []\n"
		"def shard(kernel, p, path, failures=0):\n"
		"    e = json.loads(json.dumps(d))\n"
		"    for x in e['series'] + e['sites'] + e['problems']:\n"
		"        if x.get('kernel') == 'toy':\n"
		"            x['kernel'] = kernel\n"
		"    hit = None\n"
		"    for x in e['series']:\n"
		"        x['verdict'] = 'pass'\n"
		"        if x['test'] == TEST:\n"
		"            x['p_value'] = 0.9\n"
		"            hit = hit or x\n"
		"    hit.update(p_value=p, change=0.5, ci_low=1.3, ci_high=1.7, gated=True,\n"
		"               verdict='fail' if p * len(t) < 0.05 else 'pass')\n"
		"    fails = hit['verdict'] == 'fail'\n"
		"    e['exit_code'], e['verdict'] = (1, 'fail') if fails else (0, 'pass')\n"
		"    if failures is None:\n"
		"        e.pop('sample_failures', None)\n"
		"    else:\n"
		"        e['sample_failures'] = failures\n"
		"    json.dump(e, open(path, 'w'))\n"
		"d2 = sys.argv[2]\n"
		"m = len(t)\n"
		"shard('toy1', 0.03 / m, d2 + '/s1.json')       # 0.03 in its shard, 0.06 merged\n"
		"shard('toy2', 0.9, d2 + '/s2.json')\n"
		"shard('toy3', 0.005 / m, d2 + '/s3.json')      # 0.005, and 0.01 merged\n"
		"shard('toy4', 0.03 / m, d2 + '/s4.json', None)\n";
	char args[1200];
	snprintf(args, sizeof args, "'%s' '%s'", in_dir("a.json"), tmpdir);
	cr_assert_eq(python(craft, args), 0, "files in %s", tmpdir);
	code = gate(&out, NULL, "merge", in_dir("s1.json"), in_dir("s2.json"), "--json",
		    in_dir("m12.json"), NULL);
	cr_expect_eq(code, 0, "merge exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.err, "1 timing failure of the shards is not significant over the "
			 "merged run's timing comparisons (Holm, as one family): inconclusive"),
		  "%s", out.err);
	spawn_output_free(&out);
	static const char check[] =
		"import sys, json\n"
		"d = json.load(open(sys.argv[1]))\n"
		"hit = [x for x in d['series'] if x['kernel'] == 'toy1' and x['p_value'] is not None"
		" and x['p_value'] < 0.5]\n"
		"assert len(hit) == 1 and hit[0]['verdict'] == 'inconclusive', hit\n"
		"assert 'over the merged run' in hit[0]['note'], hit[0]['note']\n"
		"assert d['verdict'] == 'pass' and d['sample_failures'] == 0, d['verdict']\n";
	snprintf(args, sizeof args, "'%s'", in_dir("m12.json"));
	cr_expect_eq(python(check, args), 0, "merged result in %s", tmpdir);
	code = gate(&out, NULL, "merge", in_dir("s3.json"), in_dir("s2.json"), NULL);
	cr_expect_eq(code, 1, "a failure of the whole run: merge exit %d\n%s", code, out.err);
	cr_expect_not(strstr(out.err, "not significant over the merged run"), "%s", out.err);
	spawn_output_free(&out);
	code = gate(&out, NULL, "merge", in_dir("s4.json"), in_dir("s2.json"), NULL);
	cr_expect_eq(code, 1, "no sample_failures recorded: merge exit %d\n%s", code, out.err);
	spawn_output_free(&out);
}

/* Results of two platforms stay apart: kernels named <platform>/<kernel>. */
Test(e2e_ci, platforms_stay_apart)
{
	struct spawn_output out;
	int code = gate(&out, NULL, "run", "--kernel", "toy", "--json", in_dir("a.json"), NULL);
	cr_assert(code == 0 || code == 1, "exit %d\n%s", code, out.err);
	spawn_output_free(&out);
	static const char other[] =
		"import sys, json\n"
		"d = json.load(open(sys.argv[1]))\n"
		"d['platform'] = d['context']['platform_key'] = 'other-arch-libc'\n"
		"json.dump(d, open(sys.argv[2], 'w'))\n";
	char args[1200];
	snprintf(args, sizeof args, "'%s' '%s'", in_dir("a.json"), in_dir("b.json"));
	cr_assert_eq(python(other, args), 0);
	int cm = gate(&out, NULL, "merge", in_dir("a.json"), in_dir("b.json"), "--json",
		      in_dir("m.json"), NULL);
	cr_expect_eq(cm, code, "exit %d\n%s", cm, out.err);
	spawn_output_free(&out);
	static const char check[] =
		"import sys, json\n"
		"a, m = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))\n"
		"ks = sorted({s['kernel'] for s in m['series']})\n"
		"assert ks == sorted([a['platform'] + '/toy', 'other-arch-libc/toy']), ks\n"
		"assert len(m['series']) == 2 * len(a['series'])\n"
		"assert '+other-arch-libc' in m['platform'], m['platform']\n";
	snprintf(args, sizeof args, "'%s' '%s'", in_dir("a.json"), in_dir("m.json"));
	cr_expect_eq(python(check, args), 0);
}
