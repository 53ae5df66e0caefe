/* test_history_dir.c: gates/store/history_dir.c and core/result_history.c:
 * a run written into a history directory reads back the same, the
 * directory reads sorted by time, and a malformed file is refused naming
 * the file and the key. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/result_history.h"
#include "store/history_dir.h"

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/allocgate-hd-XXXXXX");
	cr_assert(mkdtemp(dir));
}

static void drop_dir(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(history_dir, .init = make_dir, .fini = drop_dir);

/* A run of COMMIT at TIME (also its start) with an exact, a near and a
 * timing series. */
static void sample_run(struct history_run *r, const char *commit, const char *time)
{
	struct history_value v = { "toy", "single", "small", "heap_malloc_calls", "count",
				   METRIC_EXACT, 1000, 0, NAN };
	memset(r, 0, sizeof *r);
	r->commit = strdup(commit);
	r->time = strdup(time);
	r->run_at = strdup(time);
	r->time_is_commit = true;
	r->platform = strdup("linux-x86_64-glibc");
	r->cpu.model = strdup("AMD EPYC");
	r->cpu.family = strdup("0x1a");
	r->cpu.count = 2;
	cr_assert_eq(result_history_add_value(r, &v), 0);
	v.metric = "page_faults";
	v.cls = METRIC_NEAR;
	v.median = 190.5;
	cr_assert_eq(result_history_add_value(r, &v), 0);
	v.metric = "wall_ns";
	v.unit = "ns";
	v.cls = METRIC_TIMING;
	v.median = 1.0123e6;
	v.n = 9;
	v.mad = 1234.5;
	cr_assert_eq(result_history_add_value(r, &v), 0);
}

/* Writes TEXT as DIR/NAME. */
static void write_text(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs(text, f);
	fclose(f);
}

Test(history_dir, round_trip)
{
	struct history_run r, back;
	char path[512], err[512];
	sample_run(&r, "1a2b3c4d5e6f", "2026-12-07T01:02:03Z");
	cr_assert_eq(history_dir_write(dir, &r, path, sizeof path, err, sizeof err), 0, "%s", err);
	cr_expect(strstr(path, "/2026-12-07T01-02-03Z-1a2b3c4.json"), "%s", path);
	cr_assert_eq(history_dir_load_file(path, &back, err, sizeof err), 0, "%s", err);
	cr_expect_str_eq(back.commit, "1a2b3c4d5e6f");
	cr_expect_str_eq(back.time, "2026-12-07T01:02:03Z");
	cr_expect(back.time_is_commit);
	cr_expect_str_eq(back.platform, "linux-x86_64-glibc");
	cr_expect(result_history_cpu_same(&r.cpu, &back.cpu));
	cr_assert_eq(back.count, 3);
	cr_expect_eq(back.values[0].cls, METRIC_EXACT);
	cr_expect_eq(back.values[0].median, 1000);
	cr_expect(isnan(back.values[0].mad) && back.values[0].n == 0);
	cr_expect_eq(back.values[1].median, 190.5);
	cr_expect_str_eq(back.values[2].unit, "ns");
	cr_expect_eq(back.values[2].n, 9);
	cr_expect_eq(back.values[2].mad, 1234.5);
	cr_expect_eq(back.values[2].median, 1.0123e6);
	result_history_run_free(&back);
	result_history_run_free(&r);
}

/* The directory reads sorted by time whatever the names; hidden files,
 * other files and a writer's temporaries are not read. */
Test(history_dir, directory_sorted_by_time)
{
	struct history_run a, b;
	struct result_history h;
	char path[512], err[512];
	sample_run(&a, "bbbbbbb", "2026-01-02T00:00:00Z");
	sample_run(&b, "aaaaaaa", "2026-01-01T00:00:00Z");
	free(b.run_at);
	b.run_at = strdup("2026-01-03T00:00:00Z");   /* run later, committed earlier */
	cr_assert_eq(history_dir_write(dir, &a, path, sizeof path, err, sizeof err), 0, "%s", err);
	cr_assert_eq(history_dir_write(dir, &b, path, sizeof path, err, sizeof err), 0, "%s", err);
	write_text(".hidden.json", "garbage");
	write_text("notes.txt", "garbage");
	write_text("x.json.tmp.123456", "garbage");
	cr_assert_eq(history_dir_load(dir, &h, err, sizeof err), 0, "%s", err);
	cr_assert_eq(h.count, 2);
	cr_expect_str_eq(h.runs[0].commit, "aaaaaaa");
	cr_expect_str_eq(h.runs[1].commit, "bbbbbbb");
	result_history_free(&h);
	result_history_run_free(&a);
	result_history_run_free(&b);
}

/* Each malformed file is refused with its name and the key. */
Test(history_dir, malformed_files_name_the_key)
{
	static const char head[] =
		"{\"schema\":1,\"kind\":\"history\",\"commit\":\"abc1234\",\"time\":"
		"\"2026-01-01T00:00:00Z\",\"time_source\":\"commit\",\"run_at\":"
		"\"2026-01-01T00:00:00Z\",\"platform\":\"p\",\"cpu\":{\"model\":null,\"vendor\":null,"
		"\"family\":null,\"model_number\":null,\"stepping\":null,\"count\":0},";
	static const struct {
		const char *series, *key;
	} cases[] = {
		{ "\"series\":[[\"k\",\"v\",\"p\",\"m\",\"exact\",\"count\",\"x\",null,null]]}",
		  "series[0][6]" },
		{ "\"series\":[[\"k\",\"v\",\"p\",\"m\",\"exact\",\"count\",1]]}", "series[0]:" },
		{ "\"series\":[[\"k\",\"v\",\"p\",\"m\",\"fast\",\"count\",1,null,null]]}",
		  "series[0][4]" },
		{ "\"series\":[[\"k\",\"v\",\"p\",\"m\",\"timing\",\"ns\",1,null,null]]}",
		  "series[0][7]" },
		{ "\"series\":[[\"k\",\"v\",\"p\",\"m\",\"exact\",\"count\",1,3,null]]}",
		  "series[0][7]" },
		{ "\"series\":{}}", "series: expected an array" },
		{ "\"serie\":[]}", "series: missing" },
	};
	char text[1024], err[512];
	struct result_history h;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(text, sizeof text, "%s%s", head, cases[i].series);
		write_text("r.json", text);
		cr_expect_eq(history_dir_load(dir, &h, err, sizeof err), -EINVAL, "case %zu", i);
		cr_expect(strstr(err, "/r.json: ") && strstr(err, cases[i].key), "case %zu: %s", i,
			  err);
	}
	write_text("r.json", "{\"schema\":2,\"kind\":\"history\"}");
	cr_expect_eq(history_dir_load(dir, &h, err, sizeof err), -EINVAL);
	cr_expect(strstr(err, "schema: expected 1"), "%s", err);
	write_text("r.json", "{\"schema\":1,\"kind\":\"history\",\"time\":\"2026-01-01\"}");
	cr_expect_eq(history_dir_load(dir, &h, err, sizeof err), -EINVAL);
	cr_expect(strstr(err, "commit: missing"), "%s", err);
	write_text("r.json", "{\"schema\":1,");
	cr_expect_eq(history_dir_load(dir, &h, err, sizeof err), -EINVAL);
	cr_expect(strstr(err, "r.json: line 1"), "%s", err);
}

Test(history_dir, missing_directory)
{
	struct result_history h;
	char err[512], path[128];
	snprintf(path, sizeof path, "%s/none", dir);
	cr_expect_eq(history_dir_load(path, &h, err, sizeof err), -ENOENT);
	cr_expect(strstr(err, "/none: "), "%s", err);
}

/* The file name: the start with ':' as '-', the short commit, characters
 * a file name should not hold as '_'. */
Test(history_dir, file_names)
{
	struct history_run r;
	char name[128];
	memset(&r, 0, sizeof r);
	r.run_at = "2026-12-07T01:02:03Z";
	r.commit = "v1.0-3-g1a2b3c4-dirty";
	cr_assert_eq(history_dir_file_name(&r, name, sizeof name), 0);
	cr_expect_str_eq(name, "2026-12-07T01-02-03Z-1a2b3c4.json");
	r.commit = "build 7/main";
	cr_assert_eq(history_dir_file_name(&r, name, sizeof name), 0);
	cr_expect_str_eq(name, "2026-12-07T01-02-03Z-build_7_main.json");
	r.run_at = "yesterday";
	cr_expect_eq(history_dir_file_name(&r, name, sizeof name), -1);
}

/* What a recorded commit is to git and to a person. */
Test(history_dir, commit_names)
{
	char out[64];
	result_history_rev("v1.0-3-g1a2b3c4-dirty", out, sizeof out);
	cr_expect_str_eq(out, "1a2b3c4");
	result_history_rev("1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d", out, sizeof out);
	cr_expect_str_eq(out, "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d");
	result_history_short("1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d", out, sizeof out);
	cr_expect_str_eq(out, "1a2b3c4");
	result_history_short("build-7", out, sizeof out);
	cr_expect_str_eq(out, "build-7");
	cr_expect(result_history_same_commit("1a2b3c4", "1a2b3c4d5e6f"));
	cr_expect(result_history_same_commit("1a2b3c4-dirty", "v2-1-g1a2b3c4"));
	cr_expect(!result_history_same_commit("1a2b3c4", "1a2b3c5"));
	cr_expect(!result_history_same_commit("1a2b3", "1a2b3c4"));   /* too short to say */
	cr_expect(result_history_time_valid("2026-12-07T01:02:03Z"));
	cr_expect(!result_history_time_valid("2026-12-07T01:02:03+01:00"));
}
