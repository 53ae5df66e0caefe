/* test_report_dhat.c: the --dhat file (gates/report/report_dhat.c): the
 * fields DHAT's viewer requires, one program point per stack with its
 * frames innermost first (the entry point and place, the functions, a
 * truncated stack's "(deeper)", the region, the variant), a rest as one
 * point, stacks of no calls left out, the rates' total from the measured
 * regions' instructions, a name that is not UTF-8 replaced, and a run
 * without stacks still a file that opens. DHAT's own viewer reads it in
 * tests/browser_dhat.sh. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report_dhat.h"
#include "flame_fixture.h"

/* R written by report_dhat_write and read back. */
static json_t *written(const struct run_result *r)
{
	char path[] = "/tmp/allocgate-dhat-XXXXXX", err[512] = "";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(report_dhat_write(path, r, err, sizeof err), 0, "%s", err);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	cr_assert_not_null(root, "%s", je.text);
	unlink(path);
	return root;
}

/* The frames of program point I of ROOT, innermost first, joined by " | ". */
static void frames_of(json_t *root, size_t i, char *buf, size_t size)
{
	json_t *fs = json_object_get(json_array_get(json_object_get(root, "pps"), i), "fs");
	json_t *ftbl = json_object_get(root, "ftbl");
	size_t n = 0, k;
	json_t *f;
	buf[0] = '\0';
	json_array_foreach(fs, k, f)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", k ? " | " : "",
				      json_string_value(json_array_get(ftbl, (size_t)json_integer_value(f))));
}

/* The program point of ROOT whose frames are WANT, its index; fails the
 * test when none is. */
static size_t point_of(json_t *root, const char *want)
{
	char buf[1024];
	for (size_t i = 0; i < json_array_size(json_object_get(root, "pps")); i++) {
		frames_of(root, i, buf, sizeof buf);
		if (!strcmp(buf, want))
			return i;
	}
	cr_assert_fail("no program point %s", want);
	return 0;
}

static json_int_t field(json_t *root, size_t i, const char *name)
{
	return json_integer_value(json_object_get(json_array_get(json_object_get(root, "pps"), i),
						  name));
}

Test(report_dhat, the_viewers_fields_and_one_point_per_stack)
{
	struct run_result r;
	memset(&r, 0, sizeof r);
	struct stacks before;
	flame_fixture_build(&r.stacks, &before);
	result_stacks_free(&before);
	const char *const work[] = { "single", "work", NULL };
	struct stack *s = flame_fixture_stack(&r.stacks, work, "free", 70, 4, 40);
	free(s->region);
	s->region = strdup("outer/inner");
	flame_fixture_stack(&r.stacks, work, "calloc", 71, 0, 0);   /* no calls: left out */
	struct series *m = result_add_series(&r, "toy", "single", "small", "cost_instructions",
					     "count", METRIC_EXACT);
	cr_assert_not_null(m);
	m->median = 2e6;
	m = result_add_series(&r, "toy", "single", "small", "outer.cost_instructions", "count",
			      METRIC_EXACT);
	m->median = 1e6;
	m = result_add_series(&r, "toy", "single", "small", "inner.cost_instructions", "count",
			      METRIC_EXACT);
	m->median = 5e5;   /* inside outer: not counted again */
	json_t *root = written(&r);
	static const char *const fields[] = { "dhatFileVersion", "mode", "verb", "bklt", "bkacc",
					      "tu", "Mtu", "cmd", "pid", "te", "pps", "ftbl" };
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		cr_expect_not_null(json_object_get(root, fields[i]), "%s", fields[i]);
	cr_expect_eq(json_integer_value(json_object_get(root, "dhatFileVersion")), 2);
	cr_expect(json_is_false(json_object_get(root, "bklt")));
	cr_expect_str_eq(json_string_value(json_array_get(json_object_get(root, "ftbl"), 0)),
			 "[root]");
	cr_expect_eq(json_integer_value(json_object_get(root, "te")), 3000000,
		     "the unnamed region's and outer's, not inner's again");
	cr_expect_str_eq(json_string_value(json_object_get(root, "tu")), "instrs");
	cr_expect_eq(json_array_size(json_object_get(root, "pps")), 7, "6 of the fixture, 1 region");
	size_t i = point_of(root, "malloc at tests/kernels/toy.c:10 | new_node | parse | single | "
				  "toy/single/small");
	cr_expect_eq(field(root, i, "tbk"), 60);
	cr_expect_eq(field(root, i, "tb"), 6000);
	point_of(root, "malloc at tests/kernels/toy.c:50 | leaf | deep_helper | (deeper) | "
		       "toy/single/small");
	i = point_of(root, "(other stacks) of malloc | toy/single/small");
	cr_expect_eq(field(root, i, "tbk"), 5);
	point_of(root, "free at tests/kernels/toy.c:70 | work | single | region outer/inner | "
		       "toy/single/small");
	json_decref(root);
	result_free(&r);
}

Test(report_dhat, a_run_without_stacks_is_a_file_that_says_so)
{
	struct run_result r;
	memset(&r, 0, sizeof r);
	json_t *root = written(&r);
	cr_expect_eq(json_array_size(json_object_get(root, "pps")), 0);
	cr_expect_eq(json_array_size(json_object_get(root, "ftbl")), 1, "[root] alone");
	cr_expect(strstr(json_string_value(json_object_get(root, "cmd")), "the cost pass did not run"));
	json_decref(root);
	result_free(&r);
}

Test(report_dhat, a_name_that_is_not_utf8_is_replaced)
{
	struct run_result r;
	memset(&r, 0, sizeof r);
	r.stacks.recorded = true;
	const char *const bad[] = { "single", "bad\xff", NULL };
	flame_fixture_stack(&r.stacks, bad, "malloc", 10, 3, 30);
	json_t *root = written(&r);
	point_of(root, "malloc at tests/kernels/toy.c:10 | bad\xef\xbf\xbd | single | "
		       "toy/single/small");
	cr_expect_eq(json_integer_value(json_object_get(root, "te")), 30,
		     "no region series: the allocator's instructions");
	cr_expect_str_eq(json_string_value(json_object_get(root, "tu")), "allocator instrs");
	json_decref(root);
	result_free(&r);
}
