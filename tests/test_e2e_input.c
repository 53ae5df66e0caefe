/* test_e2e_input.c: bad input given to the whole gate (build/gate on the
 * test kernels): flags, --env, output paths, and baselines that are not
 * this platform's or come from a newer gate. Each must exit 2 with a
 * message naming the flag or file, and write nothing. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/platform.h"
#include "e2e_fixture.h"
#include "sample/spawn.h"
#include "store/baseline.h"

static char this_key[128];

static void setup(void)
{
	struct context ctx = { 0 };
	e2e_prepare("input");
	cr_assert_eq(platform_context(&ctx), 0);
	snprintf(this_key, sizeof this_key, "%s", ctx.platform_key);
	result_context_free(&ctx);
}

TestSuite(e2e_input, .init = setup, .fini = e2e_cleanup);

/* Runs build/gate run on the toy kernel (quick tier) with the extra
 * arguments (NULL-terminated); returns its exit status, stderr in OUT. */
static int gate(struct spawn_output *out, ...)
{
	char *argv[E2E_ARGV_MAX] = { gate_path, "run", "--kernel-dir", kernel_dir, "--baseline-dir",
				     tmpdir, "--no-color", "--quick", "--kernel", "toy" };
	va_list ap;
	va_start(ap, out);
	int code = e2e_spawn(argv, 10, ap, NULL, 120, out);
	va_end(ap);
	return code;
}

/* Names in TMPDIR other than KEEP (may be NULL), space-separated. */
static void entries(char *buf, size_t size, const char *keep)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	*buf = '\0';
	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    (!keep || strcmp(e->d_name, keep)) && strlen(buf) + strlen(e->d_name) + 2 < size)
			strcat(strcat(buf, e->d_name), " ");
	closedir(d);
}

static void expect_rejected(struct spawn_output *o, int status, const char *needle,
			    const char *keep)
{
	char left[512];
	cr_expect_eq(status, 2, "exit %d, want 2; stderr: %s", status, o->err);
	cr_expect(strstr(o->err, needle) != NULL, "stderr lacks \"%s\": %s", needle, o->err);
	cr_expect(strstr(o->err, "gate: [1/") == NULL, "it ran kernels first: %s", o->err);
	entries(left, sizeof left, keep);
	cr_expect_str_eq(left, "", "written: %s", left);
	spawn_output_free(o);
}

struct bad_flag {
	const char *flag, *value, *needle;
};

Test(e2e_input, bad_flag_values_exit_2_naming_the_flag)
{
	static const struct bad_flag cases[] = {
		{ "--seed", "-1", "--seed -1: expected an integer" },
		{ "--seed", "1e400", "--seed 1e400" },
		{ "--seed", "12abc", "--seed 12abc" },
		{ "--rounds", "0", "--rounds 0: expected an integer from 2" },
		{ "--rounds", "99999999999", "--rounds 99999999999" },
		{ "--rounds", "2.5", "--rounds 2.5: expected an integer" },
		{ "--rounds", "10x", "--rounds 10x: expected an integer" },
		{ "--rounds", "-3", "--rounds -3: expected an integer" },
		{ "--rounds", "99999999999999999999", "--rounds 99999999999999999999: expected" },
		{ "--warmup", "-1", "--warmup -1" },
		{ "--warmup", "1.5", "--warmup 1.5: expected auto or an integer" },
		{ "--timeout", "nan", "--timeout nan" },
		{ "--timeout", "inf", "--timeout inf" },
		{ "--timeout", "-5", "--timeout -5" },
		{ "--min-effect", "nan", "--min-effect nan" },
		{ "--env", "A=1\nB=2", "control characters" },
		{ "--env", "X=\t", "control characters" },
		{ "--env", "=1", "--env =1: expected KEY=VALUE" },
		{ "--env", "A-B=1", "KEY must be letters" },
		{ "--kernel", "../../etc/passwd", "unknown kernel '../../etc/passwd'" },
		{ "--variant", "../../etc/passwd", "unknown variant '../../etc/passwd' (variants of "
		  "the kernels asked for: toy/single, toy/twice)" },
		{ "--json", "", "--json needs a value" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct spawn_output o;
		int status = gate(&o, "--update-baseline", cases[i].flag, cases[i].value, NULL);
		expect_rejected(&o, status, cases[i].needle, NULL);
	}
}

Test(e2e_input, json_in_a_missing_directory_exits_2_before_running)
{
	struct spawn_output o;
	char path[400];
	snprintf(path, sizeof path, "%s/no/such/dir/out.json", tmpdir);
	int status = gate(&o, "--json", path, "--update-baseline", NULL);
	expect_rejected(&o, status, path, NULL);
}

Test(e2e_input, json_naming_a_directory_exits_2_before_running)
{
	struct spawn_output o;
	int status = gate(&o, "--json", tmpdir, NULL);
	expect_rejected(&o, status, "Is a directory", NULL);
}

Test(e2e_input, unwritable_baseline_dir_exits_2_before_running)
{
	struct spawn_output o;
	char *argv[] = { gate_path, "run", "--kernel-dir", kernel_dir, "--baseline-dir",
			 "/proc/no/such", "--quick", "--kernel", "toy", "--update-baseline", NULL };
	cr_assert(spawn_run(argv, NULL, 120, &o) == 0);
	cr_expect_eq(o.exit_code, 2, "%s", o.err);
	cr_expect(strstr(o.err, "/proc/no/such") && strstr(o.err, "nothing was run"), "%s", o.err);
	spawn_output_free(&o);
}

/* Writes TEXT as this platform's baseline; returns its file name. */
static const char *plant(const char *text)
{
	static char name[160];
	char path[512];
	snprintf(name, sizeof name, "%s.json", this_key);
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
	return name;
}

Test(e2e_input, another_platforms_baseline_at_this_path_exits_2)
{
	struct spawn_output o;
	const char *name = plant("{\"schema\":1,\"platform\":\"windows-x86_64-msvcrt\",\"context\":"
				 "{\"platform_key\":\"windows-x86_64-msvcrt\"},\"series\":[]}");
	int status = gate(&o, "--update-baseline", NULL);
	cr_expect(strstr(o.err, name) != NULL, "the file is not named: %s", o.err);
	expect_rejected(&o, status, "not this machine's", name);
}

Test(e2e_input, platform_and_context_that_disagree_exit_2)
{
	struct spawn_output o;
	char text[512];
	snprintf(text, sizeof text, "{\"schema\":1,\"platform\":\"%s\",\"context\":"
		 "{\"platform_key\":\"macos-arm64-libsystem\"},\"series\":[]}", this_key);
	const char *name = plant(text);
	int status = gate(&o, NULL);
	cr_expect(strstr(o.err, name) != NULL, "the file is not named: %s", o.err);
	expect_rejected(&o, status, "but context.platform_key is", name);
}

Test(e2e_input, baseline_schema_from_the_future_exits_2)
{
	struct spawn_output o;
	const char *name = plant("{\"schema\":7,\"platform\":\"x\",\"series\":[]}");
	int status = gate(&o, "--update-baseline", NULL);
	cr_expect(strstr(o.err, name) != NULL, "the file is not named: %s", o.err);
	expect_rejected(&o, status, "schema 7 is newer", name);
}

Test(e2e_input, baseline_with_nan_literal_exits_2)
{
	struct spawn_output o;
	const char *name = plant("{\"schema\":1,\"series\":[{\"kernel\":\"toy\",\"variant\":\"single\","
				 "\"params\":\"small\",\"metric\":\"wall_ns\",\"unit\":\"ns\","
				 "\"class\":\"timing\",\"median\":NaN,\"samples\":[NaN]}]}");
	int status = gate(&o, NULL);
	cr_expect(strstr(o.err, name) != NULL, "the file is not named: %s", o.err);
	expect_rejected(&o, status, "invalid JSON", name);
}

/* Every subcommand's --help: usage on stdout, nothing on stderr, exit 0
 * and nothing run; a bad flag: one line naming it, exit 2 (the one parse
 * convention of cli/commands.h); an unknown command: one line, exit 2. */
Test(e2e_input, help_is_help_and_a_bad_flag_is_bad_usage)
{
	static const char *const commands[] = { "run", "ab", "matrix", "merge", "diff", "list",
						"history", "bisect" };
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		struct spawn_output out;
		char *help[] = { gate_path, (char *)commands[i], "--help", NULL };
		cr_assert_eq(spawn_run(help, NULL, 60, &out), 0);
		cr_expect(out.status == SPAWN_EXITED && out.exit_code == 0, "%s --help: exit %d: %s",
			  commands[i], out.exit_code, out.err);
		cr_expect(strstr(out.out, "usage: gate"), "%s --help: %s", commands[i], out.out);
		cr_expect_str_empty(out.err, "%s --help wrote to stderr: %s", commands[i], out.err);
		spawn_output_free(&out);
		char *bad[] = { gate_path, (char *)commands[i], "--no-such-flag", NULL };
		cr_assert_eq(spawn_run(bad, NULL, 60, &out), 0);
		cr_expect(out.status == SPAWN_EXITED && out.exit_code == 2, "%s --no-such-flag: exit "
			  "%d: %s", commands[i], out.exit_code, out.err);
		cr_expect(strstr(out.err, "--no-such-flag"), "%s: %s", commands[i], out.err);
		spawn_output_free(&out);
	}
	struct spawn_output out;
	char *unknown[] = { gate_path, "frobnicate", NULL };
	cr_assert_eq(spawn_run(unknown, NULL, 60, &out), 0);
	cr_expect(out.status == SPAWN_EXITED && out.exit_code == 2, "exit %d", out.exit_code);
	cr_expect_str_eq(out.err, "gate: unknown command 'frobnicate' (gate --help lists them)\n");
	spawn_output_free(&out);
}

/* A baseline without its context block, or without platform, is accepted
 * (docs/robustness.md): no context means unknown hardware and software
 * (counts compared, timing and cost not), no platform means the platform
 * its file name says. Both are recorded, then edited, here. */
Test(e2e_input, a_baseline_without_context_or_platform_is_accepted, .timeout = 300)
{
	struct spawn_output out;
	char cmd[1200];
	int code = gate(&out, "--update-baseline", "--runs", "1", "--no-cost", "--best-of", "1",
			NULL);
	cr_assert_eq(code, 0, "%s", out.out);
	spawn_output_free(&out);
	snprintf(cmd, sizeof cmd, "cd '%s' && python3 -c \"import json; b = json.load(open('%s.json'));"
		 " del b['context']; json.dump(b, open('%s.json', 'w'))\"", tmpdir, this_key,
		 this_key);
	cr_assert_eq(system(cmd), 0);
	code = gate(&out, "--no-cost", "--best-of", "1", "--env", "TOY_EXTRA_ALLOC=1", NULL);
	cr_expect_eq(code, 1, "counts are still compared: exit %d\n%s", code, out.out);
	cr_expect(strstr(out.out, "hardware differs from the baseline's: unknown -> "),
		  "%s", out.out);
	spawn_output_free(&out);
	code = gate(&out, "--update-baseline", "--runs", "1", "--no-cost", "--best-of", "1", NULL);
	cr_assert(code == 0 || code == 1, "%s", out.out);
	spawn_output_free(&out);
	snprintf(cmd, sizeof cmd, "cd '%s' && python3 -c \"import json; b = json.load(open('%s.json'));"
		 " del b['platform']; json.dump(b, open('%s.json', 'w'))\"", tmpdir, this_key,
		 this_key);
	cr_assert_eq(system(cmd), 0);
	code = gate(&out, "--no-cost", "--best-of", "1", "--min-effect", "1000", NULL);
	cr_expect_eq(code, 0, "no platform: this file's: exit %d\n%s", code, out.out);
	spawn_output_free(&out);
}
