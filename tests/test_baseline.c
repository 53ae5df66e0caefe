/* test_baseline.c: gates/store/baseline.c (load, save, strict checks) and the
 * atomic write it goes through (gates/os/atomic_file_posix.c). Every file is
 * written into a fresh mkdtemp directory, removed after each test. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <jansson.h>

#include "store/baseline.h"
#include "store/jsonout.h"

static char dir[256];

/* Removes the entries of PATH (one level of subdirectories) and PATH. */
static void remove_tree(const char *path)
{
	char sub[512];
	struct dirent *e;
	DIR *d = opendir(path);

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		chmod(sub, 0755);
		if (unlink(sub) < 0)
			remove_tree(sub);
	}
	closedir(d);
	rmdir(path);
}

static void make_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/allocgate-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
}

static void remove_dir(void)
{
	chmod(dir, 0755);
	remove_tree(dir);
}

TestSuite(baseline, .init = make_dir, .fini = remove_dir);

/* DIR/NAME in a static buffer (one at a time). */
static const char *in_dir(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	cr_assert_not_null(fp, "%s: %s", path, strerror(errno));
	fputs(text, fp);
	cr_assert_eq(fclose(fp), 0);
}

/* The contents of PATH, malloc'd; NULL when unreadable. */
static char *read_text(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *text;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	text = calloc(1, (size_t)n + 1);
	if (text && fread(text, 1, (size_t)n, fp) != (size_t)n) {
		free(text);
		text = NULL;
	}
	fclose(fp);
	return text;
}

/* How many entries DIR holds, besides "." and "..". */
static int count_entries(const char *path)
{
	struct dirent *e;
	DIR *d = opendir(path);
	int n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void add(struct run_result *r, const char *kernel, const char *variant,
		const char *metric, enum metric_class cls, const double *samples, size_t n)
{
	struct series *s = result_add_series(r, kernel, variant, "2MB", metric,
					     cls == METRIC_EXACT ? "count" : "ns", cls);
	size_t i;

	cr_assert_not_null(s);
	for (i = 0; i < n; i++)
		cr_assert_eq(result_series_append(s, samples[i]), 0);
	s->median = samples[0];
}

/* A run with awkward numbers (NaN, tiny, huge, inexact decimals), added
 * out of order. */
static void fill(struct run_result *r)
{
	static const double timing[] = { 1234.5, NAN, 0.1, 1e-9, 123456789.123 };
	static const double exact[] = { 100, 100, 0, 9007199254740993.0 };
	static const double faults[] = { 12, 13, NAN };

	memset(r, 0, sizeof(*r));
	r->ctx.platform_key = strdup("linux-x86_64-glibc");
	r->ctx.os = strdup("linux");
	r->ctx.cpu_model = strdup("Intel(R) Xeon(R) \"quoted\" CPU @ 2.80GHz");
	r->ctx.cpu_count = 8;
	r->ctx.page_size = 4096;
	r->ctx.seed = 1234567890123LL;
	r->ctx.started_at = strdup("2024-05-01T12:34:56Z");
	add(r, "resize", "realloc_grow", "wall_ns", METRIC_TIMING, timing, 5);
	add(r, "alloc", "small", "malloc_calls", METRIC_EXACT, exact, 4);
	add(r, "resize", "lossful_grow", "page_faults", METRIC_NEAR, faults, 3);
	add(r, "resize", "lossful_grow", "wall_ns", METRIC_TIMING, timing, 5);
}

static int same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static void expect_same_series(const struct series *a, const struct series *b)
{
	size_t i;

	cr_expect_str_eq(a->unit, b->unit);
	cr_expect_eq(a->cls, b->cls);
	cr_expect(same_double(a->median, b->median));
	cr_assert_eq(a->sample_count, b->sample_count, "%s.%s", a->variant, a->metric);
	for (i = 0; i < a->sample_count; i++)
		cr_expect(same_double(a->samples[i], b->samples[i]), "%s.%s[%zu]: %.17g != %.17g",
			  a->variant, a->metric, i, a->samples[i], b->samples[i]);
}

static void expect_same_samples(const struct run_result *want, const struct run_result *got)
{
	size_t i;

	cr_expect_eq(got->series_count, want->series_count);
	for (i = 0; i < want->series_count; i++) {
		const struct series *w = &want->series[i];
		const struct series *g = result_find_series(got, w->kernel, w->variant,
							    w->params, w->metric);

		cr_assert_not_null(g, "%s %s %s %s missing", w->kernel, w->variant,
				   w->params, w->metric);
		expect_same_series(w, g);
	}
}

Test(baseline, round_trip_keeps_samples_nan_and_context)
{
	struct run_result r, back;
	char err[256] = "";

	fill(&r);
	cr_assert_eq(baseline_save(in_dir("b.json"), &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(baseline_load(in_dir("b.json"), &back, err, sizeof(err)), 0, "%s", err);
	expect_same_samples(&r, &back);
	cr_expect_str_eq(back.ctx.platform_key, "linux-x86_64-glibc");
	cr_expect_str_eq(back.ctx.cpu_model, r.ctx.cpu_model);
	cr_expect_eq(back.ctx.cpu_count, 8);
	cr_expect_eq(back.ctx.page_size, 4096);
	cr_expect_eq(back.ctx.seed, 1234567890123LL);
	cr_expect_null(back.ctx.env);
	cr_expect_null(back.ctx.arch);
	result_free(&r);
	result_free(&back);
}

Test(baseline, kernel_digest_and_drift_history_round_trip)
{
	static const double history[] = { 1200.5, 980, 1010.25 };
	struct run_result r, back;
	char err[256] = "";

	fill(&r);
	struct series *s = &r.series[0];
	s->kernel_digest = strdup("fnv1a64:0123456789abcdef");
	s->history = malloc(sizeof history);
	cr_assert_not_null(s->history);
	memcpy(s->history, history, sizeof history);
	s->history_count = 3;
	cr_assert_eq(baseline_save(in_dir("h.json"), &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(baseline_load(in_dir("h.json"), &back, err, sizeof(err)), 0, "%s", err);
	const struct series *b = result_find_series(&back, s->kernel, s->variant, s->params,
						    s->metric);
	cr_assert_not_null(b);
	cr_expect_str_eq(b->kernel_digest, "fnv1a64:0123456789abcdef");
	cr_assert_eq(b->history_count, 3);
	for (size_t i = 0; i < 3; i++)
		cr_expect_eq(b->history[i], history[i], "history[%zu]", i);
	/* the other series had neither */
	for (size_t i = 0; i < back.series_count; i++)
		if (&back.series[i] != b) {
			cr_expect_null(back.series[i].kernel_digest);
			cr_expect_eq(back.series[i].history_count, 0);
		}
	result_free(&r);
	result_free(&back);
}

Test(baseline, shuffled_series_are_saved_sorted)
{
	struct run_result r, back;
	char err[256] = "";
	size_t i;

	fill(&r);
	cr_assert_eq(baseline_save(in_dir("b.json"), &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(baseline_load(in_dir("b.json"), &back, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(back.series_count, 4);
	cr_expect_str_eq(back.series[0].kernel, "alloc");
	cr_expect_str_eq(back.series[1].metric, "page_faults");
	cr_expect_str_eq(back.series[2].variant, "lossful_grow");
	cr_expect_str_eq(back.series[3].variant, "realloc_grow");
	/* r itself was not reordered: the save takes a const result */
	cr_expect_str_eq(r.series[0].variant, "realloc_grow");
	for (i = 1; i < back.series_count; i++)
		cr_expect_lt(strcmp(back.series[i - 1].kernel, back.series[i].kernel), 1);
	result_free(&r);
	result_free(&back);
}

Test(baseline, file_is_json_with_one_series_per_line)
{
	struct run_result r;
	char err[256] = "", *text, *line, *save = NULL;
	json_error_t jerr;
	json_t *root;
	size_t lines = 0, series_lines = 0;

	fill(&r);
	cr_assert_eq(baseline_save(in_dir("b.json"), &r, err, sizeof(err)), 0, "%s", err);
	root = json_load_file(in_dir("b.json"), JSON_REJECT_DUPLICATES, &jerr);
	cr_assert_not_null(root, "line %d: %s", jerr.line, jerr.text);
	cr_expect_eq(json_integer_value(json_object_get(root, "schema")), 1);
	json_decref(root);
	text = read_text(in_dir("b.json"));
	cr_assert_not_null(text);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lines++;
		if (strncmp(line, "    {\"kernel\":", 14) == 0) {
			size_t n = strlen(line);
			json_t *one;

			if (line[n - 1] == ',')
				line[n - 1] = '\0';
			one = json_loads(line, 0, &jerr);
			cr_expect_not_null(one, "a series line is not JSON: %s", line);
			json_decref(one);
			series_lines++;
		}
	}
	/* { schema platform context{ fields } series[ n ] } */
	cr_expect_eq(series_lines, 4);
	cr_expect_eq(lines, 8 + jsonout_context_field_count + series_lines);
	free(text);
	result_free(&r);
}

Test(baseline, saving_twice_gives_the_same_bytes)
{
	struct run_result r;
	char err[256] = "", *a, *b;

	fill(&r);
	cr_assert_eq(baseline_save(in_dir("a.json"), &r, err, sizeof(err)), 0, "%s", err);
	result_sort(&r);
	cr_assert_eq(baseline_save(in_dir("b.json"), &r, err, sizeof(err)), 0, "%s", err);
	a = read_text(in_dir("a.json"));
	b = read_text(in_dir("b.json"));
	cr_assert(a && b);
	cr_expect_str_eq(a, b);
	free(a);
	free(b);
	result_free(&r);
}

Test(baseline, series_without_any_sample_are_left_out)
{
	static const double none[] = { NAN, NAN };
	struct run_result r, back;
	char err[256] = "";

	fill(&r);
	add(&r, "crashy", "always", "wall_ns", METRIC_TIMING, none, 2);
	cr_assert_not_null(result_add_series(&r, "empty", "v", "p", "m", "u", METRIC_EXACT));
	/* one measured sample in three batches: what a load refuses, never saved */
	static const double one[] = { 5, NAN, NAN };
	add(&r, "crashy", "mostly", "wall_ns", METRIC_TIMING, one, 3);
	r.series[r.series_count - 1].batches = 3;
	cr_assert_eq(baseline_save(in_dir("b.json"), &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(baseline_load(in_dir("b.json"), &back, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(back.series_count, 4);
	cr_expect_null(result_find_series(&back, "crashy", "mostly", "2MB", "wall_ns"));
	cr_expect_null(result_find_series(&back, "crashy", "always", "2MB", "wall_ns"));
	result_free(&r);
	result_free(&back);
}

Test(baseline, context_may_lack_fields_and_carry_unknown_ones)
{
	struct run_result back;
	char err[256] = "";

	write_text(in_dir("b.json"),
		   "{\"schema\": 1, \"platform\": \"linux-x86_64-glibc\",\n"
		   " \"context\": {\"os\": \"linux\", \"from_the_future\": [1, 2]},\n"
		   " \"series\": [{\"kernel\": \"k\", \"variant\": \"v\", \"params\": \"p\",\n"
		   "  \"metric\": \"m\", \"unit\": \"count\", \"class\": \"exact\",\n"
		   "  \"median\": null, \"samples\": [3, null, 4.5], \"extra\": true}]}\n");
	cr_assert_eq(baseline_load(in_dir("b.json"), &back, err, sizeof(err)), 0, "%s", err);
	cr_expect_str_eq(back.ctx.os, "linux");
	cr_expect_str_eq(back.ctx.platform_key, "linux-x86_64-glibc");
	cr_expect_null(back.ctx.cpu_model);
	cr_expect_eq(back.ctx.cpu_count, 0);
	cr_assert_eq(back.series_count, 1);
	cr_expect(isnan(back.series[0].median));
	cr_assert_eq(back.series[0].sample_count, 3);
	cr_expect(isnan(back.series[0].samples[1]));
	cr_expect_eq(back.series[0].samples[2], 4.5);
	result_free(&back);
}

Test(baseline, missing_file_is_enoent_naming_the_path)
{
	struct run_result back;
	char err[256] = "";

	cr_expect_eq(baseline_load(in_dir("nope.json"), &back, err, sizeof(err)), -ENOENT);
	cr_expect_not_null(strstr(err, in_dir("nope.json")), "%s", err);
	cr_expect_eq(back.series_count, 0);
}

Test(baseline, a_directory_is_not_a_baseline)
{
	struct run_result back;
	char err[256] = "";

	cr_expect_eq(baseline_load(dir, &back, err, sizeof(err)), -EISDIR);
	cr_expect_not_null(strstr(err, "is a directory"), "%s", err);
}

struct malformed {
	char name[32];
	char text[400];
	char want[96];
};

#define SERIES(fields) "{\"kernel\":\"k\",\"variant\":\"v\",\"params\":\"p\",\"metric\":\"m\"," \
	"\"unit\":\"ns\"," fields "}"
#define GOOD_FIELDS "\"class\":\"timing\",\"median\":1,\"samples\":[1,2]"
#define FILE_OF(series) "{\"schema\":1,\"context\":{},\"series\":[" series "]}"

ParameterizedTestParameters(baseline, malformed_file_is_rejected)
{
	static struct malformed cases[] = {
		{ "truncated", "{\"schema\":1,\"series\":[{\"kernel\":\"k\"", "invalid JSON" },
		{ "truncated_has_line", "{\"schema\":1,\n\"series\":[", "line 2" },
		{ "empty", "", "invalid JSON" },
		{ "schema_2", "{\"schema\":2,\"series\":[]}",
		  "schema 2 is newer than this gate understands (1)" },
		{ "schema_0", "{\"schema\":0,\"series\":[]}", "schema 0 is not a valid schema" },
		{ "schema_missing", "{\"series\":[]}", "schema: missing" },
		{ "schema_string", "{\"schema\":\"1\",\"series\":[]}", "schema: expected an integer" },
		{ "top_level_array", "[]", "expected a JSON object at the top level" },
		{ "series_missing", "{\"schema\":1}", "series: missing" },
		{ "series_object", "{\"schema\":1,\"series\":{}}", "series: expected an array" },
		{ "series_not_object", FILE_OF("3"), "series[0]: expected an object" },
		{ "samples_not_array", FILE_OF(SERIES("\"class\":\"timing\",\"median\":1,\"samples\":3")),
		  "series[0].samples: expected an array of numbers" },
		{ "samples_missing", FILE_OF(SERIES("\"class\":\"timing\",\"median\":1")),
		  "series[0].samples: expected an array of numbers" },
		{ "string_sample", FILE_OF(SERIES("\"class\":\"timing\",\"median\":1,\"samples\":[1,\"2\"]")),
		  "series[0].samples[1]: expected a number or null, found a string" },
		{ "negative_sample", FILE_OF(SERIES("\"class\":\"timing\",\"median\":1,\"samples\":[-1]")),
		  "series[0].samples[0]: negative sample -1" },
		{ "overflowing_sample", FILE_OF(SERIES("\"class\":\"timing\",\"median\":1,\"samples\":[1e400]")),
		  "invalid JSON" },
		{ "unknown_class", FILE_OF(SERIES("\"class\":\"fuzzy\",\"median\":1,\"samples\":[1]")),
		  "series[0].class: unknown class \"fuzzy\"" },
		{ "median_string", FILE_OF(SERIES("\"class\":\"exact\",\"median\":\"1\",\"samples\":[1]")),
		  "series[0].median: expected a number or null" },
		{ "duplicate_series", FILE_OF(SERIES(GOOD_FIELDS) ",{\"kernel\":\"k\",\"variant\":\"v\","
		  "\"params\":\"p\",\"metric\":\"other\",\"unit\":\"ns\"," GOOD_FIELDS "},"
		  SERIES(GOOD_FIELDS)),
		  "series[2] duplicates series[0] (k v p m)" },
		{ "duplicate_key", FILE_OF("{\"kernel\":\"k\",\"kernel\":\"k\"}"), "duplicate object key" },
		{ "missing_kernel", FILE_OF("{\"variant\":\"v\",\"params\":\"p\",\"metric\":\"m\"}"),
		  "series[0].kernel: missing" },
		{ "kernel_number", FILE_OF("{\"kernel\":5}"), "series[0].kernel: expected a string" },
		{ "context_array", "{\"schema\":1,\"context\":[],\"series\":[]}",
		  "context: expected an object" },
		{ "cpu_count_string", "{\"schema\":1,\"context\":{\"cpu_count\":\"8\"},\"series\":[]}",
		  "context.cpu_count: expected an integer" },
		{ "os_number", "{\"schema\":1,\"context\":{\"os\":1},\"series\":[]}",
		  "context.os: expected a string" },
		{ "platform_number", "{\"schema\":1,\"platform\":1,\"series\":[]}",
		  "platform: expected a string" },
		{ "platform_mismatch", "{\"schema\":1,\"platform\":\"a\",\"context\":"
		  "{\"platform_key\":\"b\"},\"series\":[]}",
		  "platform: \"a\" but context.platform_key is \"b\"" },
		{ "nan_literal", FILE_OF(SERIES("\"class\":\"timing\",\"median\":1,\"samples\":[NaN]")),
		  "invalid JSON" },
		{ "infinity_literal", FILE_OF(SERIES("\"class\":\"timing\",\"median\":1,"
		  "\"samples\":[Infinity]")), "invalid JSON" },
		{ "batches_negative", FILE_OF(SERIES(GOOD_FIELDS ",\"batches\":-2")),
		  "series[0].batches: expected a positive integer" },
		{ "batches_huge", FILE_OF(SERIES(GOOD_FIELDS ",\"batches\":9223372036854775807")),
		  "series[0].batches: expected a positive integer" },
		{ "digest_number", FILE_OF(SERIES(GOOD_FIELDS ",\"kernel_digest\":5")),
		  "series[0].kernel_digest: expected a string" },
		{ "history_object", FILE_OF(SERIES(GOOD_FIELDS ",\"history\":{}")),
		  "series[0].history: expected an array" },
		{ "history_zero", FILE_OF(SERIES(GOOD_FIELDS ",\"history\":[5,0]")),
		  "series[0].history[1]: expected a finite number > 0" },
		{ "history_null", FILE_OF(SERIES(GOOD_FIELDS ",\"history\":[null]")),
		  "series[0].history[0]: expected a finite number > 0" },
		{ "history_string", FILE_OF(SERIES(GOOD_FIELDS ",\"history\":[\"7\"]")),
		  "series[0].history[0]: expected a finite number > 0" },
		{ "samples_empty", FILE_OF(SERIES("\"class\":\"exact\",\"median\":1,\"samples\":[]")),
		  "series[0] (k v p m): no measured sample" },
		{ "samples_all_null", FILE_OF(SERIES("\"class\":\"exact\",\"median\":null,"
		  "\"samples\":[null,null]")), "series[0] (k v p m): no measured sample" },
		{ "samples_empty_with_batches", FILE_OF(SERIES("\"class\":\"exact\",\"median\":1,"
		  "\"samples\":[],\"batches\":3")), "series[0] (k v p m): no measured sample" },
		{ "batches_without_samples", FILE_OF(SERIES("\"class\":\"timing\",\"median\":1,"
		  "\"samples\":[1,null,null,null,null,null],\"batches\":3")),
		  "series[0] (k v p m): 1 measured sample cannot support 3 batches" },
		{ "kernel_with_cr", FILE_OF("{\"kernel\":\"k\\r::error::x\"}"),
		  "series[0].kernel: holds a control character" },
		{ "context_with_newline", "{\"schema\":1,\"context\":{\"cpu_model\":\"a\\n::error::x\"},"
		  "\"series\":[]}", "context.cpu_model: holds a control character" },
	};
	return cr_make_param_array(struct malformed, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct malformed *c, baseline, malformed_file_is_rejected)
{
	struct run_result back;
	char err[512] = "", path[512];

	snprintf(path, sizeof(path), "%s", in_dir("x.json"));
	write_text(path, c->text);
	cr_assert_eq(baseline_load(path, &back, err, sizeof(err)), -EINVAL, "%s: %s", c->name, err);
	cr_expect_eq(strncmp(err, path, strlen(path)), 0, "%s: message does not name the file: %s",
		     c->name, err);
	cr_expect_not_null(strstr(err, c->want), "%s: \"%s\" lacks \"%s\"", c->name, err, c->want);
	cr_expect_eq(back.series_count, 0);
	cr_expect_null(back.series);
}

/* A result file (gate merge, gate diff) may hold a variant whose every
 * sample failed; a baseline may not. */
Test(baseline, a_result_may_hold_a_series_without_samples)
{
	struct run_result back;
	char err[512] = "", path[512];

	snprintf(path, sizeof(path), "%s", in_dir("r.json"));
	write_text(path, FILE_OF(SERIES("\"class\":\"exact\",\"median\":null,\"samples\":[null]")));
	cr_assert_eq(baseline_load_result(path, &back, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(back.series_count, 1);
	result_free(&back);
	cr_expect_eq(baseline_load(path, &back, err, sizeof(err)), -EINVAL);
}

/* Over BASELINE_MAX_BYTES: refused unread (not parsed), naming the file. */
Test(baseline, a_file_over_the_size_limit_is_refused)
{
	struct run_result back;
	char err[512] = "", path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s", in_dir("big.json"));
	f = fopen(path, "w");
	cr_assert_not_null(f);
	/* whitespace: valid JSON around it would parse, were it read */
	fputs("{\"schema\":1,\"series\":[]", f);
	for (size_t i = 0; i < (size_t)BASELINE_MAX_BYTES / 4096 + 1; i++)
		fprintf(f, "%4096s", "");
	fputs("}", f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(baseline_load(path, &back, err, sizeof(err)), -EFBIG, "%s", err);
	cr_expect_eq(strncmp(err, path, strlen(path)), 0, "%s", err);
	cr_expect_not_null(strstr(err, "64 MiB"), "%s", err);
}

Test(baseline, save_leaves_no_temporary_file)
{
	struct run_result r;
	char err[256] = "";

	fill(&r);
	cr_assert_eq(baseline_save(in_dir("b.json"), &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(baseline_save(in_dir("b.json"), &r, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(count_entries(dir), 1);
	result_free(&r);
}

Test(baseline, save_creates_a_missing_directory)
{
	struct run_result r, back;
	char err[256] = "", path[512];

	fill(&r);
	snprintf(path, sizeof(path), "%s", in_dir("baselines/linux.json"));
	cr_assert_eq(baseline_save(path, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(baseline_load(path, &back, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(back.series_count, 4);
	cr_expect_eq(count_entries(in_dir("baselines")), 1);
	result_free(&r);
	result_free(&back);
}

/* Permissions do not stop root, so as root this case cannot be built and
 * is skipped; failed_rename_keeps_the_old_file covers the cleanup then. */
Test(baseline, unwritable_directory_keeps_the_old_file)
{
	struct run_result r;
	char err[256] = "", path[512], *before, *after;

	if (geteuid() == 0) {
		remove_dir(); /* cr_skip ends the test without running .fini */
		cr_skip("running as root: directory permissions do not apply");
	}
	fill(&r);
	snprintf(path, sizeof(path), "%s", in_dir("b.json"));
	write_text(path, "old contents\n");
	cr_assert_eq(chmod(dir, 0555), 0);
	before = read_text(path);
	cr_expect_eq(baseline_save(path, &r, err, sizeof(err)), -EACCES, "%s", err);
	cr_expect_not_null(strstr(err, path), "%s", err);
	after = read_text(path);
	cr_expect_str_eq(after, before);
	cr_expect_eq(count_entries(dir), 1);
	chmod(dir, 0755);
	free(before);
	free(after);
	result_free(&r);
}

/* A rename that fails after the temporary file was written (PATH is a
 * non-empty directory): the temporary file goes, PATH stays. */
Test(baseline, failed_rename_keeps_the_old_file)
{
	struct run_result r;
	char err[256] = "", path[512];
	struct stat st;

	fill(&r);
	snprintf(path, sizeof(path), "%s", in_dir("b.json"));
	cr_assert_eq(mkdir(path, 0755), 0);
	write_text(in_dir("b.json/keep"), "x");
	cr_expect_lt(baseline_save(path, &r, err, sizeof(err)), 0);
	cr_expect_not_null(strstr(err, path), "%s", err);
	cr_assert_eq(stat(path, &st), 0);
	cr_expect(S_ISDIR(st.st_mode));
	cr_expect_eq(count_entries(dir), 1, "a temporary file was left behind");
	result_free(&r);
}

/* The run policy (core/policy.h) in a baseline: written when recorded,
 * read back field for field; a file without one loads with the defaults,
 * marked not recorded; a malformed one is refused naming the field. */
Test(baseline, policy_round_trips_and_is_read_strictly)
{
	struct run_result r, back;
	char err[512];
	fill(&r);
	policy_defaults(&r.policy);
	r.policy.recorded = true;
	r.policy.alpha = 0.01;
	r.policy.fdr = true;
	r.policy.min_effect = 0.03;
	r.policy.min_effect_whole = 0.05;
	r.policy.rounds = 31;
	r.policy.warmup = -1;
	r.policy.cost = false;
	const char *path = in_dir("p.json");
	cr_assert_eq(baseline_save(path, &r, err, sizeof err), 0, "%s", err);
	cr_assert_eq(baseline_load(path, &back, err, sizeof err), 0, "%s", err);
	cr_expect(back.policy.recorded);
	cr_expect_eq(back.policy.alpha, 0.01);
	cr_expect(back.policy.fdr);
	cr_expect_eq(back.policy.min_effect, 0.03);
	cr_expect_eq(back.policy.min_effect_whole, 0.05);
	cr_expect_eq(back.policy.rounds, 31);
	cr_expect_eq(back.policy.warmup, -1);
	cr_expect(!back.policy.cost);
	cr_expect(policy_same_decisions(&r.policy, &back.policy, NULL, 0));
	result_free(&back);

	/* without a policy: the defaults, not recorded */
	r.policy.recorded = false;
	cr_assert_eq(baseline_save(path, &r, err, sizeof err), 0, "%s", err);
	char *text = read_text(path);
	cr_expect_null(strstr(text, "\"policy\""), "%s", text);
	free(text);
	cr_assert_eq(baseline_load(path, &back, err, sizeof err), 0, "%s", err);
	cr_expect(!back.policy.recorded);
	cr_expect_eq(back.policy.alpha, POLICY_ALPHA);
	cr_expect_eq(back.policy.min_effect, POLICY_MIN_EFFECT);
	result_free(&back);

	/* malformed: a wrong type, a missing key, an unknown correction */
	static const char *const cases[][2] = {
		{ "\"alpha\": 0.5,", "\"alpha\": \"x\"," },
		{ "\"rounds\": 31,", "" },
		{ "\"correction\": \"bh\"", "\"correction\": \"bonferroni\"" },
		{ "\"min_effect_whole\": 0.5,", "\"min_effect_whole\": -1," },
	};
	static const char *const named[] = { "policy.alpha", "policy.rounds: missing",
					     "policy.correction", "policy.min_effect_whole" };
	r.policy.recorded = true;
	r.policy.alpha = 0.5;   /* exact in binary: written as 0.5 */
	r.policy.min_effect_whole = 0.5;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cr_assert_eq(baseline_save(path, &r, err, sizeof err), 0, "%s", err);
		text = read_text(path);
		char *at = strstr(text, cases[i][0]);
		cr_assert_not_null(at, "no '%s' in %s", cases[i][0], text);
		size_t len = strlen(text) - strlen(cases[i][0]) + strlen(cases[i][1]) + 1;
		char *edited = malloc(len);
		snprintf(edited, len, "%.*s%s%s", (int)(at - text), text, cases[i][1],
			 at + strlen(cases[i][0]));
		write_text(path, edited);
		cr_expect_eq(baseline_load(path, &back, err, sizeof err), -EINVAL, "%s", edited);
		cr_expect(strstr(err, named[i]), "case %zu: %s", i, err);
		free(edited);
		free(text);
	}
	result_free(&r);
}

/* The strict checks accept every committed baseline (run from the
 * repository's root, as ci/test.sh does). */
Test(baseline, every_committed_baseline_loads)
{
	DIR *d = opendir("baselines");
	struct dirent *e;
	size_t loaded = 0;

	if (!d)
		cr_skip_test("no baselines/ in the current directory");
	while ((e = readdir(d))) {
		struct run_result back;
		char err[1024] = "", path[600];
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		snprintf(path, sizeof path, "baselines/%s", e->d_name);
		cr_expect_eq(baseline_load(path, &back, err, sizeof err), 0, "%s", err);
		result_free(&back);
		loaded++;
	}
	closedir(d);
	cr_expect_gt(loaded, 0);
}
