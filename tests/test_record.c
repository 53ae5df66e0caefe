/* test_record.c: gates/sample/record.c, the strict parser of one sample record
 * (docs/protocol.md, "One sample"): a valid record and a table of invalid
 * ones, each with the line number and reason its error must give. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "sample/record.h"

#define HEADER "allocgate-sample 1\n"

/* The example of docs/protocol.md. */
static const char protocol_example[] =
	HEADER
	"metric wall_ns timing ns 1234567\n"
	"metric task_clock_ns timing ns 1200345\n"
	"metric page_faults near count 12\n"
	"metric realloc_moved exact count 0\n"
	"metric free.wall_ns timing ns 2345\n"
	"unavailable cycles no hardware PMU (perf_event_open: No such file or directory)\n"
	"end\n";

static void expect_metric(const struct record_metric *m, const char *name,
			  enum metric_class cls, const char *unit, uint64_t value)
{
	cr_expect_str_eq(m->name, name);
	cr_expect_eq(m->cls, cls, "%s: class %d, want %d", name, (int)m->cls, (int)cls);
	cr_expect_str_eq(m->unit, unit);
	cr_expect_eq(m->value, value, "%s: value %llu, want %llu", name,
		     (unsigned long long)m->value, (unsigned long long)value);
}

Test(record, protocol_example_parses)
{
	struct record r;
	char err[256] = "";

	cr_assert_eq(record_parse(protocol_example, &r, err, sizeof err), 0, "%s", err);
	cr_assert_eq(r.metric_count, 5);
	expect_metric(&r.metrics[0], "wall_ns", METRIC_TIMING, "ns", 1234567);
	expect_metric(&r.metrics[1], "task_clock_ns", METRIC_TIMING, "ns", 1200345);
	expect_metric(&r.metrics[2], "page_faults", METRIC_NEAR, "count", 12);
	expect_metric(&r.metrics[3], "realloc_moved", METRIC_EXACT, "count", 0);
	expect_metric(&r.metrics[4], "free.wall_ns", METRIC_TIMING, "ns", 2345);
	cr_assert_eq(r.unavailable_count, 1);
	cr_expect_str_eq(r.unavailable[0].name, "cycles");
	cr_expect_str_eq(r.unavailable[0].reason,
			 "no hardware PMU (perf_event_open: No such file or directory)");
	record_free(&r);
	cr_expect_eq(r.metric_count, 0);
	cr_expect_null(r.metrics);
	cr_expect_eq(r.unavailable_count, 0);
	cr_expect_null(r.unavailable);
}

Test(record, largest_value_and_last_line_without_newline)
{
	struct record r;
	char err[256] = "";

	cr_assert_eq(record_parse(HEADER "metric moved exact count 18446744073709551615\nend",
				  &r, err, sizeof err), 0, "%s", err);
	cr_assert_eq(r.metric_count, 1);
	cr_expect_eq(r.metrics[0].value, UINT64_MAX);
	cr_expect_eq(r.unavailable_count, 0);
	record_free(&r);
}

Test(record, unavailable_only_alongside_a_metric)
{
	struct record r;
	char err[256] = "";

	cr_assert_eq(record_parse(HEADER "unavailable free.cycles not supported\n"
				  "metric free.wall_ns timing ns 5\nend\n",
				  &r, err, sizeof err), 0, "%s", err);
	cr_expect_eq(r.metric_count, 1);
	cr_assert_eq(r.unavailable_count, 1);
	cr_expect_str_eq(r.unavailable[0].name, "free.cycles");
	cr_expect_str_eq(r.unavailable[0].reason, "not supported");
	record_free(&r);
}

/* ---- invalid records ---- */

struct bad_record {
	/* Arrays, not pointers: Criterion may run each case in a fresh
	 * process, where the addresses of string literals differ. */
	char what[48];
	char text[160];
	char error[128]; /* the whole message */
};

static struct bad_record bad_records[] = {
	{ "empty input", "",
	  "sample record line 1: expected 'allocgate-sample 1'" },
	{ "metric with a trailing space", HEADER "metric wall_ns timing ns 1 \nend\n",
	  "sample record line 2: trailing space" },
	{ "end with a trailing space", HEADER "metric wall_ns timing ns 1\nend \n",
	  "sample record line 3: trailing space" },
	{ "metric name with an empty region", HEADER "metric .wall_ns timing ns 1\nend\n",
	  "sample record line 2: expected 'metric NAME exact|near|timing UNIT VALUE'" },
	{ "missing header", "metric wall_ns timing ns 1\nend\n",
	  "sample record line 1: expected 'allocgate-sample 1'" },
	{ "wrong version", "allocgate-sample 2\nmetric wall_ns timing ns 1\nend\n",
	  "sample record line 1: expected 'allocgate-sample 1'" },
	{ "header with trailing space", "allocgate-sample 1 \nmetric wall_ns timing ns 1\nend\n",
	  "sample record line 1: expected 'allocgate-sample 1'" },
	{ "unknown line", HEADER "metric wall_ns timing ns 1\nhello world\nend\n",
	  "sample record line 3: unknown line" },
	{ "empty line", HEADER "metric wall_ns timing ns 1\n\nend\n",
	  "sample record line 3: unknown line" },
	{ "end with a field", HEADER "metric wall_ns timing ns 1\nend now\n",
	  "sample record line 3: unknown line" },
	{ "metric twice", HEADER "metric wall_ns timing ns 1\nmetric wall_ns timing ns 2\nend\n",
	  "sample record line 3: metric reported twice" },
	{ "metric then unavailable of the same name",
	  HEADER "metric cycles timing count 1\nunavailable cycles no PMU\nend\n",
	  "sample record line 3: metric reported twice" },
	{ "unavailable then metric of the same name",
	  HEADER "unavailable cycles no PMU\nmetric cycles timing count 1\nend\n",
	  "sample record line 3: metric reported twice" },
	{ "non-integer value", HEADER "metric wall_ns timing ns 1.5\nend\n",
	  "sample record line 2: expected 'metric NAME CLASS UNIT VALUE' "
	  "with an unsigned integer VALUE" },
	{ "negative value", HEADER "metric wall_ns timing ns -1\nend\n",
	  "sample record line 2: expected 'metric NAME CLASS UNIT VALUE' "
	  "with an unsigned integer VALUE" },
	{ "value with trailing junk", HEADER "metric wall_ns timing ns 12ms\nend\n",
	  "sample record line 2: expected 'metric NAME CLASS UNIT VALUE' "
	  "with an unsigned integer VALUE" },
	{ "value overflowing 64 bits", HEADER "metric wall_ns timing ns 18446744073709551616\nend\n",
	  "sample record line 2: expected 'metric NAME CLASS UNIT VALUE' "
	  "with an unsigned integer VALUE" },
	{ "a field after the value", HEADER "metric wall_ns timing ns 12 34\nend\n",
	  "sample record line 2: expected 'metric NAME CLASS UNIT VALUE' "
	  "with an unsigned integer VALUE" },
	{ "missing value", HEADER "metric wall_ns timing ns\nend\n",
	  "sample record line 2: expected 'metric NAME CLASS UNIT VALUE' "
	  "with an unsigned integer VALUE" },
	{ "bad unit", HEADER "metric wall_ns timing Ns 1\nend\n",
	  "sample record line 2: expected 'metric NAME CLASS UNIT VALUE' "
	  "with an unsigned integer VALUE" },
	{ "bad class", HEADER "metric wall_ns fuzzy ns 1\nend\n",
	  "sample record line 2: expected 'metric NAME exact|near|timing UNIT VALUE'" },
	{ "class in uppercase", HEADER "metric wall_ns Timing ns 1\nend\n",
	  "sample record line 2: expected 'metric NAME exact|near|timing UNIT VALUE'" },
	{ "metric name in uppercase", HEADER "metric Wall_ns timing ns 1\nend\n",
	  "sample record line 2: expected 'metric NAME exact|near|timing UNIT VALUE'" },
	{ "metric name with '/'", HEADER "metric free/wall_ns timing ns 1\nend\n",
	  "sample record line 2: expected 'metric NAME exact|near|timing UNIT VALUE'" },
	{ "two spaces after metric", HEADER "metric  wall_ns timing ns 1\nend\n",
	  "sample record line 2: expected 'metric NAME exact|near|timing UNIT VALUE'" },
	{ "unavailable without a reason", HEADER "metric wall_ns timing ns 1\nunavailable cycles\nend\n",
	  "sample record line 3: expected 'unavailable NAME REASON'" },
	{ "unavailable with a bad name", HEADER "metric wall_ns timing ns 1\nunavailable Cycles x\nend\n",
	  "sample record line 3: expected 'unavailable NAME REASON'" },
	{ "no end line (truncated)", HEADER "metric wall_ns timing ns 1\n",
	  "sample record line 2: no 'end' line (truncated record)" },
	{ "header only", HEADER,
	  "sample record line 1: no 'end' line (truncated record)" },
	{ "text after end", HEADER "metric wall_ns timing ns 1\nend\nmetric x timing ns 2\n",
	  "sample record line 3: output after 'end'" },
	{ "blank line after end", HEADER "metric wall_ns timing ns 1\nend\n\n",
	  "sample record line 3: output after 'end'" },
	{ "no metric at all", HEADER "unavailable cycles no PMU\nend\n",
	  "sample record line 3: no metric in the record" },
	{ "end right after the header", HEADER "end\n",
	  "sample record line 2: no metric in the record" },
};

ParameterizedTestParameters(record, invalid_records_are_rejected)
{
	return cr_make_param_array(struct bad_record, bad_records,
				   sizeof bad_records / sizeof *bad_records);
}

ParameterizedTest(struct bad_record *c, record, invalid_records_are_rejected)
{
	struct record r;
	char err[256] = "";

	cr_assert_eq(record_parse(c->text, &r, err, sizeof err), -EINVAL,
		     "%s: must be rejected", c->what);
	cr_expect_str_eq(err, c->error, "%s", c->what);
	cr_expect_eq(r.metric_count, 0, "%s: nothing is kept", c->what);
	cr_expect_null(r.metrics, "%s", c->what);
	cr_expect_eq(r.unavailable_count, 0, "%s", c->what);
	cr_expect_null(r.unavailable, "%s", c->what);
}

Test(record, allocation_sites)
{
	struct record r;
	char err[256] = "";
	static const char text[] = HEADER
		"metric heap_calls exact count 3\n"
		"site malloc 153 80000 1920000 worker_strdup kernels/refcount.c\n"
		"site free 154 80000 0 worker_strdup kernels/refcount.c\n"
		"site malloc 12 1 64 main /home/me/my project/src/a file.c\n"
		"lib-site malloc 10 220 libglib-2.0.so.0\n"
		"sites-dropped 7\n"
		"sites-dropped 1\n"
		"end\n";
	cr_assert_eq(record_parse(text, &r, err, sizeof err), 0, "%s", err);
	cr_assert_eq(r.site_count, 4);
	cr_expect_eq(r.sites[3].line, 0, "a library's calls: line 0");
	cr_expect_str_eq(r.sites[3].file, "libglib-2.0.so.0");
	cr_expect_str_eq(r.sites[3].function, "-");
	cr_expect_str_eq(r.sites[0].kind, "malloc");
	cr_expect_eq(r.sites[0].line, 153);
	cr_expect_eq(r.sites[0].calls, 80000);
	cr_expect_eq(r.sites[0].bytes, 1920000);
	cr_expect_str_eq(r.sites[0].function, "worker_strdup");
	cr_expect_str_eq(r.sites[0].file, "kernels/refcount.c");
	cr_expect_str_eq(r.sites[2].file, "/home/me/my project/src/a file.c",
			 "the file is the rest of the line, spaces and all");
	cr_expect_eq(r.sites_dropped, 8, "the counted build's and the interposer's add up");
	record_free(&r);
}

Test(record, bad_allocation_sites)
{
	static const char *const bad[] = {
		HEADER "metric a exact count 1\nsite mallok 3 1 1 f a.c\nend\n",
		HEADER "metric a exact count 1\nsite malloc 0 1 1 f a.c\nend\n",
		HEADER "metric a exact count 1\nsite malloc 3 x 1 f a.c\nend\n",
		HEADER "metric a exact count 1\nsite malloc 3 1 1 f\nend\n",
		HEADER "metric a exact count 1\nsite malloc 3 1 -1 f a.c\nend\n",
		HEADER "metric a exact count 1\nsites-dropped x\nend\n",
		HEADER "metric a exact count 1\nlib-site mallok 1 1 libc.so.6\nend\n",
		HEADER "metric a exact count 1\nlib-site malloc 1 1 lib c.so\nend\n",
		NULL };
	for (const char *const *b = bad; *b; b++) {
		struct record r;
		char err[256] = "";
		cr_expect_eq(record_parse(*b, &r, err, sizeof err), -EINVAL, "accepted: %s", *b);
		cr_expect(strstr(err, "line 3"), "%s", err);
	}
	struct record r;
	char err[256] = "";
	cr_expect_eq(record_parse(HEADER "metric a exact count 1\nsite free 3 1 0 f a.c\n"
				  "site free 3 2 0 f a.c\nend\n", &r, err, sizeof err), -EINVAL);
	cr_expect_str_eq(err, "sample record line 4: site reported twice");
}

Test(record, error_is_truncated_to_the_buffer)
{
	struct record r;
	char err[12];

	cr_assert_eq(record_parse("", &r, err, sizeof err), -EINVAL);
	cr_expect_str_eq(err, "sample reco");
}
