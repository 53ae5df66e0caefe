/* test_fuzz_corpus.c: replays the fuzzing seeds (tests/fuzz/corpus/) and
 * the inputs that once crashed a fuzz target (tests/fuzz/regressions/)
 * through the parsers they were found for: each must parse or be rejected
 * with a message, never crash (the ASan/UBSan build checks the memory).
 * The seeds taken from real files (the committed baseline, a quick run's
 * result file, callgrind's dumps of the seed kernels) must parse. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/policy.h"
#include "decide/expr.h"
#include "sample/cost_dump.h"
#include "sample/cost_sites.h"
#include "sample/cost_stacks.h"
#include "sample/kernel_info.h"
#include "sample/record.h"
#include "store/baseline.h"
#include "store/policy_json.h"
#include "store/results_load.h"
#include "store/sites_json.h"
#include "store/stacks_json.h"

/* Calls FN on the path of every file of tests/fuzz/<kind>/<target>/;
 * returns how many. */
static int each_file(const char *kind, const char *target, void (*fn)(const char *path))
{
	char dir[256], path[600];
	snprintf(dir, sizeof dir, "tests/fuzz/%s/%s", kind, target);
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		fn(path);
		n++;
	}
	closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	cr_assert_not_null(fp, "%s: %s", path, strerror(errno));
	char *buf = calloc(1, 1 << 16);
	size_t n = fread(buf, 1, (1 << 16) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static void replay_baseline(const char *path)
{
	struct run_result r;
	char err[1024] = "";
	int rc = baseline_load(path, &r, err, sizeof err);
	cr_expect(rc == 0 || (rc == -EINVAL && err[0]), "%s: %d %s", path, rc, err);
	if (rc == 0)
		result_free(&r);
}

static void replay_record(const char *path)
{
	struct record rec;
	char err[256] = "", *text = slurp(path);
	if (record_parse(text, &rec, err, sizeof err) == 0)
		record_free(&rec);
	else
		cr_expect(err[0], "%s: rejected without a reason", path);
	free(text);
}

static void replay_expr(const char *path)
{
	struct expr e;
	char err[256] = "", *text = slurp(path);
	if (expr_parse(text, &e, err, sizeof err) == 0)
		expr_free(&e);
	else
		cr_expect(err[0], "%s: rejected without a reason", path);
	free(text);
}

static void replay_kernel_info(const char *path)
{
	struct kernel_info k;
	char err[256] = "", *text = slurp(path);
	if (kernel_info_parse("build/kernels/fuzz", text, &k, err, sizeof err) == 0)
		kernel_info_free(&k);
	else
		cr_expect(err[0], "%s: rejected without a reason", path);
	free(text);
}

Test(fuzz_corpus, baseline_seeds_and_regressions)
{
	cr_expect_gt(each_file("corpus", "baseline", replay_baseline), 0, "run from the repository root");
	each_file("regressions", "baseline", replay_baseline);
}

Test(fuzz_corpus, record_seeds_and_regressions)
{
	cr_expect_gt(each_file("corpus", "record", replay_record), 0);
	each_file("regressions", "record", replay_record);
}

Test(fuzz_corpus, expr_seeds_and_regressions)
{
	cr_expect_gt(each_file("corpus", "expr", replay_expr), 0);
	each_file("regressions", "expr", replay_expr);
}

Test(fuzz_corpus, kernel_info_seeds_and_regressions)
{
	cr_expect_gt(each_file("corpus", "kernel_info", replay_kernel_info), 0);
	each_file("regressions", "kernel_info", replay_kernel_info);
}

static void replay_results_load(const char *path)
{
	struct run_result r;
	char err[1024] = "";
	int rc = results_load(path, &r, err, sizeof err);
	cr_expect(rc == 0 || (rc == -EINVAL && err[0]), "%s: %d %s", path, rc, err);
	if (rc == 0)
		result_free(&r);
}

/* JSON text at PATH, or NULL where jansson rejects it (the fuzz target
 * gives the parsers only what jansson accepts). */
static json_t *load_json(const char *path)
{
	return json_load_file(path, JSON_DECODE_ANY, NULL);
}

static void replay_sites_json(const char *path)
{
	json_t *root = load_json(path);
	struct run_result r;
	char err[512] = "";
	if (!root)
		return;
	memset(&r, 0, sizeof r);
	if (sites_json_load(root, &r, err, sizeof err) != 0)
		cr_expect(err[0], "%s: sites rejected without a reason", path);
	result_free(&r);
	memset(&r, 0, sizeof r);
	err[0] = '\0';
	if (site_changes_json_load(root, &r, err, sizeof err) != 0)
		cr_expect(err[0], "%s: site_changes rejected without a reason", path);
	result_free(&r);
	json_decref(root);
}

static void replay_policy_json(const char *path)
{
	json_t *root = load_json(path);
	struct run_policy p;
	char why[512] = "";
	if (!root)
		return;
	if (policy_json_load(root, &p, why, sizeof why) != 0)
		cr_expect(why[0], "%s: rejected without a reason", path);
	json_decref(root);
}

static void replay_cost_dump(const char *path)
{
	struct cost_dump d;
	char err[256] = "", *text = slurp(path), *ifuncs = NULL;
	if (cost_parse_dump(text, &d, err, sizeof err) != 0)
		cr_expect(err[0], "%s: rejected without a reason", path);
	cr_expect_eq(cost_dump_ifuncs(text, &ifuncs), 0, "%s", path);
	free(ifuncs);
	free(text);
}

static void replay_cost_sites(const char *path)
{
	struct cost_sites g;
	struct cost_stacks contexts;
	struct stacks stacks;
	struct record rec;
	char *text = slurp(path);
	memset(&g, 0, sizeof g);
	memset(&contexts, 0, sizeof contexts);
	memset(&stacks, 0, sizeof stacks);
	memset(&rec, 0, sizeof rec);
	cr_expect_eq(cost_sites_add_dump(&g, text), 0, "%s", path);
	cr_expect_eq(cost_sites_record(&g, &rec), 0, "%s", path);
	cr_expect_eq(cost_stacks_add_dump(&contexts, text), 0, "%s", path);
	cr_expect_eq(cost_stacks_record(&contexts, &g, &stacks), 0, "%s", path);
	result_stacks_free(&stacks);
	cost_stacks_free(&contexts);
	record_free(&rec);
	cost_sites_free(&g);
	free(text);
}

static void replay_stacks_json(const char *path)
{
	json_t *root = load_json(path);
	struct stacks set;
	char err[512] = "";
	memset(&set, 0, sizeof set);
	if (root && stacks_json_load(root, "stacks", &set, err, sizeof err) != 0)
		cr_expect(err[0], "%s: rejected without a reason", path);
	result_stacks_free(&set);
	json_decref(root);
}

Test(fuzz_corpus, results_load_seeds_and_regressions)
{
	cr_expect_gt(each_file("corpus", "results_load", replay_results_load), 0);
	each_file("regressions", "results_load", replay_results_load);
}

Test(fuzz_corpus, stacks_json_seeds_and_regressions)
{
	cr_expect_gt(each_file("corpus", "stacks_json", replay_stacks_json), 0);
	each_file("regressions", "stacks_json", replay_stacks_json);
}

Test(fuzz_corpus, sites_json_seeds_and_regressions)
{
	cr_expect_gt(each_file("corpus", "sites_json", replay_sites_json), 0);
	each_file("regressions", "sites_json", replay_sites_json);
}

Test(fuzz_corpus, policy_json_seeds_and_regressions)
{
	cr_expect_gt(each_file("corpus", "policy_json", replay_policy_json), 0);
	each_file("regressions", "policy_json", replay_policy_json);
}

Test(fuzz_corpus, cost_dump_seeds_and_regressions)
{
	cr_expect_gt(each_file("corpus", "cost_dump", replay_cost_dump), 0);
	each_file("regressions", "cost_dump", replay_cost_dump);
}

Test(fuzz_corpus, cost_sites_seeds_and_regressions)
{
	cr_expect_gt(each_file("corpus", "cost_sites", replay_cost_sites), 0);
	each_file("regressions", "cost_sites", replay_cost_sites);
}

/* The seeds cut from real files are what the parsers accept: a fuzz run
 * that starts from rejected seeds explores only the error paths. */
Test(fuzz_corpus, real_seeds_parse)
{
	struct run_result r;
	char err[1024] = "";
	cr_assert_eq(baseline_load("tests/fuzz/corpus/baseline/committed_excerpt.json", &r, err,
				   sizeof err), 0, "%s", err);
	cr_expect_eq(r.series_count, 6);
	cr_expect_eq(r.site_count, 4);
	result_free(&r);
	cr_assert_eq(results_load("tests/fuzz/corpus/results_load/quick_run.json", &r, err,
				  sizeof err), 0, "%s", err);
	cr_expect_eq(r.series_count, 6);
	result_free(&r);

	struct cost_dump d;
	char *text = slurp("tests/fuzz/corpus/cost_dump/free_cost_alloc");
	cr_assert_eq(cost_parse_dump(text, &d, err, sizeof err), 0, "%s", err);
	cr_expect_str_eq(d.label, "allocgate/alloc");
	cr_expect_eq(d.calls[COST_MALLOC], 1000, "free_cost n_1k allocates 1000 blocks");
	free(text);

	struct cost_sites g;
	struct record rec;
	memset(&g, 0, sizeof g);
	memset(&rec, 0, sizeof rec);
	text = slurp("tests/fuzz/corpus/cost_sites/free_cost_alloc");
	cr_assert_eq(cost_sites_add_dump(&g, text), 0);
	cr_assert_eq(cost_sites_record(&g, &rec), 0);
	cr_expect_gt(rec.site_count, 0, "the kernel's malloc line is a site");
	record_free(&rec);
	cost_sites_free(&g);
	free(text);
}
