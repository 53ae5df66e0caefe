/* test_fuzz_corpus.c: replays the fuzzing seeds (tests/fuzz/corpus/) and
 * the inputs that once crashed a fuzz target (tests/fuzz/regressions/)
 * through the parsers they were found for: each must parse or be rejected
 * with a message, never crash (the ASan/UBSan build checks the memory). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/expr.h"
#include "sample/kernel_info.h"
#include "sample/record.h"
#include "store/baseline.h"

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
