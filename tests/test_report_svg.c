/* test_report_svg.c: gates/report/report_svg.c: a chart of a hand-built run is
 * well-formed XML (python3's parser) with a dot per sample, a median bar
 * per row, the baseline line, no script; one file per kernel; the flame
 * graphs of --svg DIR in DIR/flame/ (report_outputs.c). */
#include <criterion/criterion.h>

#include "report/report_outputs.h"
#include "report/report_svg.h"
#include "report_fixture.h"

Test(report_svg, chart_of_a_kernel)
{
	static const char script[] =
		"import sys, xml.etree.ElementTree as ET\n"
		"ns = \"{http://www.w3.org/2000/svg}\"\n"
		"root = ET.parse(sys.argv[1]).getroot()\n"
		"assert root.tag == ns + \"svg\"\n"
		"assert len(root.findall(ns + \"circle\")) == 6\n"
		"assert not root.findall(\".//\" + ns + \"script\")\n"
		"texts = \" \".join(t.text or \"\" for t in root.iter(ns + \"text\"))\n"
		"assert \"fail +200.0%\" in texts and \"(no baseline)\" in texts, texts\n";
	struct run_result r;
	fixture_build(&r);
	char *svg = fixture_render(report_svg_print, &r, "toy");
	cr_expect(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""), "%s", svg);
	cr_expect(!strstr(svg, "<script"));
	int st = fixture_python(script, svg);
	if (st == -1)
		cr_skip_test("python3 is not installed: the XML parser check is skipped");
	cr_expect_eq(st, 0, "python3 rejected:\n%s", svg);
	free(svg);
	result_free(&r);
}

Test(report_svg, one_file_per_kernel)
{
	char dir[] = "/tmp/allocgate-svg-XXXXXX", path[128], err[256];
	cr_assert(mkdtemp(dir));
	struct run_result r;
	fixture_build(&r);
	struct series *s = result_add_series(&r, "other/kind", "v", "p", "free.wall_ns", "ns",
					     METRIC_TIMING);
	result_series_append(s, 5);
	s->median = 5;
	s->verdict = VERDICT_NEW;
	cr_expect_eq(report_svg_write_dir(dir, &r, err, sizeof err), 2, "%s", err);
	snprintf(path, sizeof path, "%s/toy.svg", dir);
	cr_expect_eq(access(path, R_OK), 0, "%s missing", path);
	cr_expect_eq(remove(path), 0);
	snprintf(path, sizeof path, "%s/other_kind.svg", dir);
	cr_expect_eq(access(path, R_OK), 0, "%s missing", path);
	cr_expect_eq(remove(path), 0);
	rmdir(dir);
	result_free(&r);
}

/* --svg DIR: the flame graphs of a run with call stacks in DIR/flame/,
 * DIR made even when no chart is written; none without stacks. */
Test(report_svg, flame_graphs_in_the_flame_folder)
{
	char dir[] = "/tmp/allocgate-svg-XXXXXX", svg[128], path[256], err[256];
	cr_assert(mkdtemp(dir));
	snprintf(svg, sizeof svg, "%s/svg", dir);
	struct run_result r;
	memset(&r, 0, sizeof r);
	static const char *const frames[] = { "main_loop", "grow" };
	r.stacks.recorded = true;
	result_add_stack(&r.stacks, "toy", "single", "small", "", "malloc", frames, 2)->calls = 7;
	cr_expect_eq(report_output_write(&r, REPORT_OUTPUT_SVG, svg, err, sizeof err), 0, "%s",
		     err);
	snprintf(path, sizeof path, "%s/flame/toy.single.small.calls.svg", svg);
	cr_expect_eq(access(path, R_OK), 0, "%s missing", path);
	cr_expect_eq(remove(path), 0);
	snprintf(path, sizeof path, "%s/flame/toy.single.small.instructions.svg", svg);
	cr_expect_eq(remove(path), 0, "%s missing", path);
	snprintf(path, sizeof path, "%s/flame", svg);
	cr_expect_eq(rmdir(path), 0, "other files in %s", path);
	/* stacks not taken: no flame folder */
	r.stacks.recorded = false;
	cr_expect_eq(report_output_write(&r, REPORT_OUTPUT_SVG, svg, err, sizeof err), 0, "%s",
		     err);
	cr_expect_neq(access(path, F_OK), 0, "%s made without stacks", path);
	rmdir(svg);
	cr_expect_eq(rmdir(dir), 0);
	result_free(&r);
}
