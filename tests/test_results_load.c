/* test_results_load.c: gates/store/results_load.c: a --json result reads back
 * into the same run_result, and malformed result files are rejected with
 * the file and field named. */
#include <criterion/criterion.h>
#include <errno.h>

#include "report/report_json.h"
#include "report_fixture.h"
#include "store/results_load.h"

static char path[64];

static void make_path(void)
{
	snprintf(path, sizeof path, "/tmp/allocgate-rl-%d.json", (int)getpid());
}

static void drop_path(void)
{
	remove(path);
}

TestSuite(results_load, .init = make_path, .fini = drop_path);

Test(results_load, round_trip)
{
	struct run_result r, back;
	char err[512];
	fixture_build(&r);
	r.series[2].advisory = true;
	r.expects[1].gated = false;
	r.expects[1].conditions = strdup("linux,allocator=glibc|crt");
	cr_assert_eq(report_json_write(path, &r, err, sizeof err), 0, "%s", err);
	cr_assert_eq(results_load(path, &back, err, sizeof err), 0, "%s", err);
	cr_expect_eq(back.exit_code, 1);
	cr_expect_eq(back.series_count, 3);
	cr_expect_eq(back.expect_count, 2);
	cr_expect_eq(back.problem_count, 1);
	const struct series *s = result_find_series(&back, "toy", "single", "small", "wall_ns");
	cr_assert(s);
	cr_expect_eq(s->verdict, VERDICT_FAIL);
	cr_expect_str_eq(s->file, "tests/kernels/toy.c");
	cr_expect_eq(s->line, 64);
	cr_expect(s->has_baseline && s->baseline_median == 1e6 && s->change == 2.0);
	cr_expect_str_eq(s->note, "p = 0.001, 100% & <confirmed>");
	s = result_find_series(&back, "toy", "twice", "small", "wall_ns");
	cr_expect(s && !s->has_baseline && s->verdict == VERDICT_NEW);
	cr_expect(s && s->advisory, "advisory read back");
	cr_expect(!result_find_series(&back, "toy", "single", "small", "wall_ns")->advisory);
	cr_expect_eq(back.expects[1].verdict, VERDICT_INCONCLUSIVE);
	cr_expect_eq(back.expects[1].line, 79);
	cr_expect_str_eq(back.expects[1].note, "line one\nline two, 50%");
	cr_expect(back.expects[0].gated && !back.expects[1].gated, "gated read back");
	cr_expect_null(back.expects[0].conditions);
	cr_expect_str_eq(back.expects[1].conditions, "linux,allocator=glibc|crt");
	cr_expect_str_eq(back.problems[0].reason, "killed by signal 11");
	cr_expect_str_eq(back.baseline_path, "baselines/linux-x86_64-glibc.json");
	result_free(&back);
	result_free(&r);
}

static void expect_rejected(const char *json, const char *message)
{
	struct run_result back;
	char err[512] = "";
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs(json, f);
	fclose(f);
	cr_expect_eq(results_load(path, &back, err, sizeof err), -EINVAL, "accepted: %s", json);
	cr_expect(strstr(err, path) && strstr(err, message), "want '%s' in '%s'", message, err);
}

/* A file written before expectations named their conditions: gated. */
Test(results_load, expectation_without_gated_is_gated)
{
	struct run_result back;
	char err[512] = "";
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs("{\"schema\":1,\"series\":[],\"exit_code\":0,\"verdict\":\"pass\","
	      "\"expectations\":[{\"kernel\":\"k\",\"params\":\"p\",\"file\":\"k.c\","
	      "\"line\":3,\"expr\":\"a.x < b.x\",\"rounds\":9,\"ratio\":true,"
	      "\"estimate\":0.5,\"ci_low\":0.4,\"ci_high\":0.6,\"confidence\":0.96,"
	      "\"verdict\":\"pass\",\"note\":null}],\"problems\":[]}", f);
	fclose(f);
	cr_assert_eq(results_load(path, &back, err, sizeof err), 0, "%s", err);
	cr_assert_eq(back.expect_count, 1);
	cr_expect(back.expects[0].gated);
	cr_expect_null(back.expects[0].conditions);
	result_free(&back);
}

Test(results_load, rejects_malformed)
{
	expect_rejected("{\"schema\":1,\"series\":[],\"exit_code\":0,\"verdict\":\"pass\","
			"\"expectations\":[{\"kernel\":\"k\",\"params\":\"p\",\"file\":\"k.c\","
			"\"line\":3,\"expr\":\"a.x < b.x\",\"rounds\":9,\"ratio\":true,"
			"\"estimate\":0.5,\"ci_low\":0.4,\"ci_high\":0.6,\"confidence\":0.96,"
			"\"verdict\":\"pass\",\"note\":null,\"gated\":\"no\"}],\"problems\":[]}",
			"expectations[0].gated: expected true or false");
	expect_rejected("{\"schema\":1,\"series\":[]}", "exit_code: missing");
	expect_rejected("{\"schema\":1,\"series\":[],\"exit_code\":1,\"verdict\":\"pass\","
			"\"expectations\":[],\"problems\":[]}", "does not match exit_code 1");
	expect_rejected("{\"schema\":1,\"series\":[],\"exit_code\":0,\"verdict\":\"pass\","
			"\"problems\":[]}", "expectations: missing");
	expect_rejected("{\"schema\":1,\"series\":[{\"kernel\":\"k\",\"variant\":\"v\","
			"\"params\":\"p\",\"metric\":\"m\",\"unit\":\"ns\",\"class\":\"timing\","
			"\"median\":1,\"samples\":[1],\"verdict\":\"meh\"}],\"exit_code\":0,"
			"\"verdict\":\"pass\",\"expectations\":[],\"problems\":[]}",
			"series[0].verdict");
	expect_rejected("{\"schema\":1,\"series\":[{\"kernel\":\"k\",\"variant\":\"v\","
			"\"params\":\"p\",\"metric\":\"m\",\"unit\":\"ns\",\"class\":\"timing\","
			"\"median\":1,\"samples\":[1],\"verdict\":\"pass\",\"advisory\":1}],"
			"\"exit_code\":0,\"verdict\":\"pass\",\"expectations\":[],\"problems\":[]}",
			"series[0].advisory: expected true or false");
	expect_rejected("{\"schema\":1,\"series\":[],\"exit_code\":0,\"verdict\":\"pass\","
			"\"expectations\":[{\"kernel\":\"k\"}],\"problems\":[]}",
			"expectations[0].params: missing");
}
