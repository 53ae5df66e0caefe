/* test_e2e_matrix.c: claims keyed by allocator and `gate matrix`, end to
 * end: tests/kernels/claims.c under glibc and under
 * tests/preload/moving_realloc.c (a realloc that always moves), as
 * `gate run --allocator PATH` and `gate matrix --allocators glibc,PATH`. */
#include <jansson.h>

#include "e2e_fixture.h"

static char moving[512];

static void setup(void)
{
	e2e_prepare("matrix");
	/* a sanitizer's allocator replaces glibc's (its realloc always moves,
	 * so glibc's claim does not hold) and a preloaded library cannot come
	 * before its runtime: the plain build runs these tests */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	e2e_skip("a sanitizer build: its own allocator replaces glibc's and the preloaded one");
#endif
	const char *bd = getenv("GATE_BUILD_DIR");
	snprintf(moving, sizeof moving, "%s/tests/preload/libmoving_realloc.so", bd ? bd : "build");
}

/* Runs `gate COMMAND --kernel-dir ... --kernel claims --no-color ARGS...`. */
static int gate(struct spawn_output *out, const char *command, ...)
{
	char *argv[E2E_ARGV_MAX] = { gate_path, (char *)command, "--kernel-dir", kernel_dir,
				     "--kernel", "claims", "--no-color", "--best-of", "1",
				     "--no-cost" };
	va_list ap;
	spawn_output_free(out);   /* a test's earlier call, if any */
	va_start(ap, command);
	int code = e2e_spawn(argv, 10, ap, NULL, 300, out);
	va_end(ap);
	return code;
}

/* The expectation declared at LINE of claims.c in the result file. */
static json_t *expectation(json_t *root, int line, const char *params)
{
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(root, "expectations"), i, e)
		if (json_integer_value(json_object_get(e, "line")) == line &&
		    !strcmp(json_string_value(json_object_get(e, "params")), params))
			return e;
	return NULL;
}

static int line_of(const char *needle)
{
	return e2e_line_of("tests/kernels/claims.c", needle);
}

#define GLIBC_CLAIM "GATE_EXPECT_UNDER(\"glibc\", "
#define MOVING_CLAIM "GATE_EXPECT_UNDER(\"libmoving_realloc\", "
#define BOTH_CLAIM "GATE_EXPECT_UNDER_AT(\"glibc|libmoving_realloc\""

static json_t *load(const char *path)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	cr_assert(root, "%s: %s", path, je.text);
	return root;
}

static void expect_claim(json_t *root, int line, const char *params, int gated,
			 const char *verdict)
{
	json_t *e = expectation(root, line, params);
	cr_assert(e, "no expectation at claims.c:%d on %s", line, params);
	cr_expect_eq(json_is_true(json_object_get(e, "gated")), gated, "claims.c:%d gated", line);
	cr_expect_str_eq(json_string_value(json_object_get(e, "verdict")), verdict,
			 "claims.c:%d", line);
}

TestSuite(e2e_matrix, .init = setup, .fini = e2e_cleanup, .timeout = 300);

Test(e2e_matrix, another_allocators_claim_is_information_not_a_failure)
{
	struct spawn_output out = { 0 };
	char json[300];
	snprintf(json, sizeof json, "%s/moving.json", tmpdir);
	int code = gate(&out, "run", "--quick", "--allocator", moving, "--json", json, NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	json_t *root = load(json);
	/* glibc's claim does not hold under the moving realloc: information */
	expect_claim(root, line_of(GLIBC_CLAIM), "small", 0, "fail");
	/* the moving allocator's own claim is gated and holds */
	expect_claim(root, line_of(MOVING_CLAIM), "small", 1, "pass");
	json_t *e = expectation(root, line_of(GLIBC_CLAIM), "small");
	cr_expect_str_eq(json_string_value(json_object_get(e, "conditions")), "allocator=glibc");
	cr_expect_null(expectation(root, line_of("GATE_EXPECT_ON(\"darwin\""), "small"),
		       "declared for another OS: not evaluated");
	cr_expect(strstr(out.out, "information: 1 claim declared for glibc, not gated under "
			 "libmoving_realloc: 0 hold, 1 does not"), "%s", out.out);
	cr_expect_null(strstr(out.out, "what broke"), "%s", out.out);
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_matrix, glibc_run_gates_glibcs_claim_and_informs_on_the_other)
{
	struct spawn_output out = { 0 };
	char json[300];
	snprintf(json, sizeof json, "%s/glibc.json", tmpdir);
	int code = gate(&out, "run", "--quick", "--json", json, "--details", NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	json_t *root = load(json);
	expect_claim(root, line_of(GLIBC_CLAIM), "small", 1, "pass");
	expect_claim(root, line_of(MOVING_CLAIM), "small", 0, "fail");
	cr_expect(strstr(out.out, "does not hold under glibc (declared for libmoving_realloc, "
			 "not gated)"), "--details says what it measured: %s", out.out);
	json_decref(root);
	spawn_output_free(&out);
}

Test(e2e_matrix, a_claim_declared_for_the_allocator_still_fails)
{
	struct spawn_output out = { 0 };
	char line[64];
	int code = gate(&out, "run", "--full", "--allocator", moving, NULL);
	cr_expect_eq(code, 1, "exit %d\n%s\n%s", code, out.out, out.err);
	snprintf(line, sizeof line, "kernels/claims.c:%d: expectation violated on strict",
		 line_of(BOTH_CLAIM));
	cr_expect(strstr(out.out, line), "want '%s' in %s", line, out.out);
	spawn_output_free(&out);
}

Test(e2e_matrix, matrix_table_of_both_allocators)
{
	struct spawn_output out = { 0 };
	char json[300], md[300], svg[300];
	snprintf(json, sizeof json, "%s/m.json", tmpdir);
	snprintf(md, sizeof md, "%s/m.md", tmpdir);
	snprintf(svg, sizeof svg, "%s/svg", tmpdir);
	char list[700];
	snprintf(list, sizeof list, "glibc,%s", moving);
	int code = gate(&out, "matrix", "--quick", "--allocators", list, "--json", json,
			"--markdown", md, "--svg", svg, NULL);
	cr_expect_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "claims x allocators"), "%s", out.out);
	json_t *root = load(json);
	json_t *allocators = json_object_get(root, "allocators");
	cr_assert_eq(json_array_size(allocators), 2);
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(allocators, 1), "name")),
			 "libmoving_realloc");
	int glibc_line = line_of(GLIBC_CLAIM), found = 0;
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(root, "claims"), i, c) {
		if (json_integer_value(json_object_get(c, "line")) != glibc_line)
			continue;
		found = 1;
		json_t *cells = json_object_get(c, "cells");
		json_t *g = json_array_get(cells, 0), *m = json_array_get(cells, 1);
		cr_expect(json_is_true(json_object_get(g, "declared")));
		cr_expect_str_eq(json_string_value(json_object_get(g, "verdict")), "pass");
		cr_expect(json_is_false(json_object_get(m, "declared")));
		cr_expect_str_eq(json_string_value(json_object_get(m, "verdict")), "fail");
		/* the count that explains it: 0 moves against 8 */
		json_t *k = json_array_get(json_object_get(c, "counts"), 0);
		cr_assert(k, "no explaining count");
		cr_expect_str_eq(json_string_value(json_object_get(k, "metric")), "realloc_moved");
		json_t *medians = json_object_get(k, "medians");
		cr_expect_eq(json_integer_value(json_array_get(medians, 0)), 0);
		cr_expect_eq(json_integer_value(json_array_get(medians, 1)), 8);
	}
	cr_expect(found, "no row for claims.c:%d", glibc_line);
	json_decref(root);
	char svg_file[400];
	snprintf(svg_file, sizeof svg_file, "%s/matrix.svg", svg);
	cr_expect(access(svg_file, R_OK) == 0, "%s not written", svg_file);
	cr_expect(access(md, R_OK) == 0, "%s not written", md);
	spawn_output_free(&out);
}

Test(e2e_matrix, bad_input_exits_2)
{
	struct spawn_output out = { 0 };
	cr_expect_eq(gate(&out, "matrix", "--quick", "--allocators", "glibc,nosuchalloc", NULL), 2);
	cr_expect(strstr(out.err, "--allocators: nosuchalloc: unknown allocator"), "%s", out.err);
	cr_expect_eq(gate(&out, "matrix", "--quick", "--allocator", "jemalloc", NULL), 2);
	cr_expect(strstr(out.err, "--allocator: not with gate matrix"), "%s", out.err);
	cr_expect_eq(gate(&out, "matrix", "--quick", "--update-baseline", NULL), 2);
	cr_expect_eq(gate(&out, "matrix", "--quick", "--allocators", "glibc,glibc", NULL), 2);
	cr_expect(strstr(out.err, "glibc named twice"), "%s", out.err);
	cr_expect_eq(gate(&out, "matrix", "--allocators", NULL), 2);
	spawn_output_free(&out);
}
