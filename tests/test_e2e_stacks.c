/* test_e2e_stacks.c: allocation call stacks end to end, on the test
 * kernel tests/kernels/stacks.c: `gate run` with the cost pass names the
 * stack helper -> make_node -> malloc at make_node's line with the counted
 * build's bytes, and the wrapper xmalloc folded into its caller's line;
 * the stacks of a variant of named regions add up to each region's cost
 * metrics; a run against a baseline and gate ab carry the other side's
 * stacks in
 * "stacks_before"; gate diff reads the result back. */
#include <jansson.h>

#include "e2e_fixture.h"
#include "sample/cost_pass.h"

static void setup(void)
{
	e2e_prepare("stacks");
}

/* `gate COMMAND --kernel-dir ... --kernel stacks --full ARGS...` with the
 * cost pass */
static int gate(struct spawn_output *out, const char *command, ...)
{
	char *argv[E2E_ARGV_MAX] = { gate_path, (char *)command, "--kernel-dir", kernel_dir,
				     "--kernel", "stacks", "--full", "--rounds", "3", "--no-color",
				     "--best-of", "1", "--cost" };
	va_list ap;
	spawn_output_free(out);   /* a test's earlier call, if any */
	va_start(ap, command);
	int code = e2e_spawn(argv, 13, ap, NULL, 300, out);
	va_end(ap);
	return code;
}

/* The stack of ARR of KIND whose frames are FRAMES (NULL-terminated) at
 * LINE, or NULL. */
static json_t *stack_of(json_t *arr, const char *kind, const char *const *frames, int line)
{
	size_t i, n = 0;
	json_t *s;
	while (frames[n])
		n++;
	json_array_foreach(arr, i, s) {
		json_t *f = json_object_get(s, "frames");
		int same = json_array_size(f) == n &&
			   !strcmp(json_string_value(json_object_get(s, "kind")), kind) &&
			   json_integer_value(json_object_get(s, "line")) == line;
		for (size_t k = 0; same && k < n; k++)
			same = !strcmp(json_string_value(json_array_get(f, k)), frames[k]);
		if (same)
			return s;
	}
	return NULL;
}

static json_t *load(const char *path)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	cr_assert(root, "%s: %s", path, je.text);
	return root;
}

/* The median of ROOT's series of variant "regions" named METRIC. */
static double series_of(json_t *root, const char *metric)
{
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(root, "series"), i, s)
		if (!strcmp(json_string_value(json_object_get(s, "variant")), "regions") &&
		    !strcmp(json_string_value(json_object_get(s, "metric")), metric))
			return json_number_value(json_object_get(s, "median"));
	cr_assert_fail("no series regions %s", metric);
	return 0;
}

/* The calls of KIND of variant "regions"' stacks made while REGION was
 * open (a stack's region names the regions open, '/' between them). */
static long long calls_in(json_t *stacks, const char *kind, const char *region)
{
	size_t i, len = strlen(region);
	long long sum = 0;
	json_t *s;
	json_array_foreach(stacks, i, s) {
		const char *r = json_string_value(json_object_get(s, "region"));
		cr_assert(r, "a stack without a region");
		bool names = false;
		for (const char *p = r; *p; p += strcspn(p, "/"), p += *p == '/')
			names |= !strncmp(p, region, len) && (p[len] == '/' || !p[len]);
		if (names && !strcmp(json_string_value(json_object_get(s, "variant")), "regions") &&
		    !strcmp(json_string_value(json_object_get(s, "kind")), kind))
			sum += json_integer_value(json_object_get(s, "calls"));
	}
	return sum;
}

/* The stacks of variant "regions" by region add up to each region's cost
 * metrics: 100 nodes of two mallocs built in "build", freed in "drop",
 * half of them with "inner" open inside it. */
static void regions_add_up(json_t *root)
{
	json_t *stacks = json_object_get(root, "stacks");
	static const char *const regions[] = { "build", "drop", "inner" };
	static const long long frees[] = { 0, 200, 100 };
	for (size_t i = 0; i < 3; i++) {
		char name[64];
		snprintf(name, sizeof name, "%s.cost_malloc_calls", regions[i]);
		cr_expect_eq((double)calls_in(stacks, "malloc", regions[i]), series_of(root, name),
			     "%s", name);
		snprintf(name, sizeof name, "%s.cost_free_calls", regions[i]);
		cr_expect_eq((double)calls_in(stacks, "free", regions[i]), series_of(root, name),
			     "%s", name);
		cr_expect_eq(calls_in(stacks, "free", regions[i]), frees[i], "%s", regions[i]);
	}
	cr_expect_eq(calls_in(stacks, "malloc", "build"), 200);
}

TestSuite(e2e_stacks, .init = setup, .fini = e2e_cleanup, .timeout = 600);

Test(e2e_stacks, run_names_the_variant_the_helper_and_malloc)
{
	struct spawn_output out = { 0 };
	char json[300];
	if (cost_pass_unavailable())
		e2e_skip("cost pass unavailable: %s", cost_pass_unavailable());
	snprintf(json, sizeof json, "%s/r.json", tmpdir);
	int code = gate(&out, "run", "--baseline-dir", tmpdir, "--json", json, NULL);
	cr_assert_eq(code, 0, "exit %d\n%s\n%s", code, out.out, out.err);
	json_t *root = load(json);
	json_t *stacks = json_object_get(root, "stacks");
	cr_assert(json_is_array(stacks), "no \"stacks\" in %s", json);
	const char *helper[] = { "v_helper", "make_node", NULL };
	int line = e2e_line_of("tests/kernels/stacks.c", "struct node *n = malloc(sizeof *n);");
	json_t *s = stack_of(stacks, "malloc", helper, line);
	cr_assert(s, "no stack v_helper -> make_node -> malloc at line %d", line);
	cr_expect_eq(json_integer_value(json_object_get(s, "calls")), 1000);
	cr_expect_eq(json_integer_value(json_object_get(s, "bytes")), 8000,
		     "the counted build's site, reached by this stack alone");
	cr_expect(json_is_false(json_object_get(s, "truncated")));
	const char *variant[] = { "v_helper", NULL };
	line = e2e_line_of("tests/kernels/stacks.c", "void *p = xmalloc_call(48);");
	s = stack_of(stacks, "malloc", variant, line);
	cr_assert(s, "the wrapper xmalloc folded into its caller's line %d", line);
	cr_expect_eq(json_integer_value(json_object_get(s, "calls")), 300);
	cr_expect(json_is_null(json_object_get(s, "bytes")), "no counted site at that line");
	cr_expect_null(json_object_get(root, "stacks_before"), "no baseline: no other side");
	regions_add_up(root);
	json_decref(root);
	/* gate diff reads the stacks back strictly */
	char *argv[] = { gate_path, "diff", json, json, NULL };
	spawn_output_free(&out);
	cr_assert_eq(spawn_run(argv, NULL, 60, &out), 0);
	cr_expect_eq(out.exit_code, 0, "%s", out.err);
	spawn_output_free(&out);
}

Test(e2e_stacks, the_baseline_and_side_a_are_the_other_side)
{
	struct spawn_output out = { 0 };
	char json[300], baseline[400];
	if (cost_pass_unavailable())
		e2e_skip("cost pass unavailable: %s", cost_pass_unavailable());
	int code = gate(&out, "run", "--baseline-dir", tmpdir, "--update-baseline", "--runs", "1",
			NULL);
	cr_assert(code == 0 || code == 1, "exit %d\n%s\n%s", code, out.out, out.err);
	snprintf(baseline, sizeof baseline, "%s/linux-x86_64-glibc.json", tmpdir);
	json_t *root = load(baseline);
	size_t kept = json_array_size(json_object_get(root, "stacks"));
	cr_expect_geq(kept, 5, "the baseline's stacks: %zu", kept);
	json_decref(root);
	snprintf(json, sizeof json, "%s/now.json", tmpdir);
	/* --gate counts: timing against a one-batch baseline is not the point */
	code = gate(&out, "run", "--baseline-dir", tmpdir, "--json", json, "--gate", "counts",
		    NULL);
	cr_expect_eq(code, 0, "exit %d\n%s", code, out.out);
	root = load(json);
	cr_expect_eq(json_array_size(json_object_get(root, "stacks_before")), kept,
		     "the baseline's stacks are the other side");
	json_decref(root);
	snprintf(json, sizeof json, "%s/ab.json", tmpdir);
	code = gate(&out, "ab", "--b-env", "ALLOCGATE_AA=1", "--json", json, "--gate", "counts",
		    NULL);
	cr_expect_eq(code, 0, "exit %d\n%s", code, out.out);
	root = load(json);
	json_t *a = json_object_get(root, "stacks_before"), *b = json_object_get(root, "stacks");
	cr_expect(json_array_size(a) >= 5 && json_array_size(a) == json_array_size(b),
		  "A's stacks beside B's: %zu, %zu", json_array_size(a), json_array_size(b));
	json_decref(root);
	spawn_output_free(&out);
}
