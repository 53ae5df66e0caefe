/* test_report_junit.c: gates/report/report_junit.c on a hand-built run_result:
 * the golden XML, and a real XML parser (python3's xml.etree) reading it
 * with the failures, their numbers and file/line in it. */
#include <criterion/criterion.h>

#include "report/report_junit.h"
#include "report_fixture.h"

static const char golden[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	"<testsuites name=\"allocgate\" tests=\"6\" failures=\"2\" errors=\"1\" time=\"1.500\">\n"
	"  <testsuite name=\"toy\" tests=\"6\" failures=\"2\" errors=\"1\" skipped=\"2\" time=\"0\">\n"
	"    <testcase classname=\"toy\" time=\"0\" name=\"expect small: single.wall_ns &lt; 0.75 * twice.wall_ns\"><failure message=\"tests/kernels/toy.c:78: expectation violated on small: single.wall_ns &lt; 0.75 * twice.wall_ns: 3,000,000 &lt; 750,000 (per-round ratio 3, interval [2.5, 3.5], 9 rounds)\" type=\"fail\">tests/kernels/toy.c:78: expectation violated on small: single.wall_ns &lt; 0.75 * twice.wall_ns: 3,000,000 &lt; 750,000 (per-round ratio 3, interval [2.5, 3.5], 9 rounds)</failure></testcase>\n"
	"    <testcase classname=\"toy\" time=\"0\" name=\"expect small: twice.allocs == 2 * single.allocs\"><skipped message=\"tests/kernels/toy.c:79: expectation inconclusive on small: twice.allocs == 2 * single.allocs: 14 == 14 (per-round ratio 1, interval [0.5, 1.5], 9 rounds); line one&#10;line two, 50%\">tests/kernels/toy.c:79: expectation inconclusive on small: twice.allocs == 2 * single.allocs: 14 == 14 (per-round ratio 1, interval [0.5, 1.5], 9 rounds); line one&#10;line two, 50%</skipped></testcase>\n"
	"    <testcase classname=\"toy\" time=\"0\" name=\"single/small wall_ns\"><failure message=\"tests/kernels/toy.c:64: regression toy/single/small wall_ns: 1 ms -&gt; 3 ms (+200.0%); p = 0.001, 100% &amp; &lt;confirmed&gt;\" type=\"fail\">tests/kernels/toy.c:64: regression toy/single/small wall_ns: 1 ms -&gt; 3 ms (+200.0%); p = 0.001, 100% &amp; &lt;confirmed&gt;</failure></testcase>\n"
	"    <testcase classname=\"toy\" time=\"0\" name=\"single/small allocs\"><system-out>tests/kernels/toy.c:64: unchanged toy/single/small allocs: 100 -&gt; 100 (+0.0%)</system-out></testcase>\n"
	"    <testcase classname=\"toy\" time=\"0\" name=\"twice/small wall_ns\"><skipped message=\"new (no baseline) toy/twice/small wall_ns: - -&gt; 1 ms\">new (no baseline) toy/twice/small wall_ns: - -&gt; 1 ms</skipped></testcase>\n"
	"    <testcase classname=\"toy\" time=\"0\" name=\"problem twice/small sample\"><error message=\"killed by signal 11\" type=\"error\">killed by signal 11</error></testcase>\n"
	"  </testsuite>\n"
	"</testsuites>\n";

Test(report_junit, golden)
{
	struct run_result r;
	fixture_build(&r);
	char *xml = fixture_render(report_junit_print, &r, NULL);
	cr_expect_str_eq(xml, golden);
	free(xml);
	result_free(&r);
}

/* The parser sees 2 failures carrying the numbers, 1 error, and file/line. */
Test(report_junit, parses_with_failures)
{
	static const char script[] =
		"import sys, xml.etree.ElementTree as ET\n"
		"root = ET.parse(sys.argv[1]).getroot()\n"
		"cases = root.findall(\"testsuite/testcase\")\n"
		"fails = [c for c in cases if c.find(\"failure\") is not None]\n"
		"assert root.get(\"failures\") == \"2\" and len(fails) == 2, fails\n"
		"msgs = [c.find(\"failure\").get(\"message\") for c in fails]\n"
		"assert msgs[0].startswith(\"tests/kernels/toy.c:78: \"), msgs\n"
		"assert msgs[1].startswith(\"tests/kernels/toy.c:64: \"), msgs\n"
		"assert all(c.get(\"time\") == \"0\" for c in cases)\n"
		"assert \"1 ms -> 3 ms (+200.0%)\" in fails[1].find(\"failure\").get(\"message\")\n"
		"assert len([c for c in cases if c.find(\"error\") is not None]) == 1\n";
	struct run_result r;
	fixture_build(&r);
	char *xml = fixture_render(report_junit_print, &r, NULL);
	int st = fixture_python(script, xml);
	if (st == -1)
		cr_skip_test("python3 is not installed: the XML parser check is skipped");
	cr_expect_eq(st, 0, "python3 xml.etree rejected:\n%s", xml);
	free(xml);
	result_free(&r);
}

Test(report_junit, writes_file_atomically)
{
	struct run_result r;
	char path[] = "/tmp/allocgate-junit-XXXXXX", file[64], err[256];
	cr_assert(mkdtemp(path));
	snprintf(file, sizeof file, "%s/sub/r.xml", path);
	fixture_build(&r);
	cr_expect_eq(report_junit_write(file, &r, err, sizeof err), 0, "%s", err);
	FILE *f = fopen(file, "r");
	cr_expect(f);
	if (f)
		fclose(f);
	remove(file);
	snprintf(file, sizeof file, "%s/sub", path);
	rmdir(file);
	rmdir(path);
	result_free(&r);
}

/* A regression of a class the run does not gate (--gate) is a skipped
 * case: in the report, never a failure of the suite. */
Test(report_junit, a_regression_that_does_not_gate_is_skipped)
{
	struct run_result r;
	fixture_build(&r);
	for (size_t i = 0; i < r.series_count; i++)
		if (r.series[i].verdict == VERDICT_FAIL)
			r.series[i].gated = false;
	char *xml = fixture_render(report_junit_print, &r, NULL);
	cr_expect(strstr(xml, "<testsuites name=\"allocgate\" tests=\"6\" failures=\"1\""), "%s",
		  xml);
	cr_expect(strstr(xml, "name=\"single/small wall_ns\"><skipped message="), "%s", xml);
	free(xml);
	result_free(&r);
}
