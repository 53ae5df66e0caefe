/* test_e2e_exit.c: the exit status a run ends with is the one every report
 * says (the terminal's summary line, the JSON's exit_code and verdict, the
 * markdown's last line), also when a step after the decision changed it:
 * --update-baseline refused (decide/exit_decide.h, exit_decide_after_update)
 * or a report that could not be written (exit_decide_after_write_failure).
 * Only counts decide here (an extra malloc, a kernel that exits 3, a
 * kernel without timing expectations), never timing. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_fixture.h"
#include "sample/spawn.h"

static void setup(void)
{
	e2e_prepare("e2e-exit");
}

/* Runs `gate run` on the test kernels with the baselines in the test's
 * directory and ARGS (NULL-terminated); returns its exit status. */
static int gate(struct spawn_output *out, ...)
{
	char *argv[E2E_ARGV_MAX] = { gate_path, "run", "--kernel-dir", kernel_dir,
				     "--baseline-dir", tmpdir, "--no-color", "--best-of", "1",
				     "--quick", "--no-cost" };
	va_list ap;
	va_start(ap, out);
	int code = e2e_spawn(argv, 11, ap, NULL, 300, out);
	va_end(ap);
	return code;
}

/* NAME inside the test's directory, into BUF. */
static const char *in_dir(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", tmpdir, name);
	return buf;
}

/* The whole of PATH (malloc'd), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *text = calloc(1, 1 << 20);
	size_t n = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (text)
		text[n] = '\0';
	return text;
}

/* Checks that the summary line of OUT, the JSON file JSON and, when
 * given, the markdown file MARKDOWN all say exit status CODE, with WORD
 * ("ERROR") and VERDICT ("error"). */
static void expect_said_everywhere(const struct spawn_output *out, int code, const char *word,
				   const char *verdict, const char *json, const char *markdown)
{
	char want[120];
	snprintf(want, sizeof want, "\n%s: ", word);
	cr_expect(strstr(out->out, want), "no '%s' summary in:\n%s", word, out->out);
	snprintf(want, sizeof want, "; exit %d\n", code);
	cr_expect(strstr(out->out, want), "the summary does not say exit %d:\n%s", code, out->out);
	char *text = slurp(json);
	cr_assert(text, "%s not written", json);
	snprintf(want, sizeof want, "\"exit_code\": %d", code);
	cr_expect(strstr(text, want), "%s: no %s in:\n%.600s", json, want, text);
	snprintf(want, sizeof want, "\"verdict\": \"%s\"", verdict);
	cr_expect(strstr(text, want), "%s: no %s in:\n%.600s", json, want, text);
	free(text);
	if (!markdown)
		return;
	text = slurp(markdown);
	cr_assert(text, "%s not written", markdown);
	snprintf(want, sizeof want, "exit %d.", code);
	cr_expect(strstr(text, want), "%s: no '%s' in:\n%s", markdown, want, text);
	snprintf(want, sizeof want, "## allocgate: ❌ %s", word);
	cr_expect(strstr(text, want), "%s: no '%s' in:\n%s", markdown, want, text);
	free(text);
}

TestSuite(e2e_exit, .init = setup, .fini = e2e_cleanup, .timeout = 300);

Test(e2e_exit, a_refused_update_says_exit_4_in_every_report)
{
	struct spawn_output out;
	char json[400], md[400];
	int code = gate(&out, "--kernel", "toy", "--update-baseline", "--runs", "1", NULL);
	/* 1: the toy's timing expectation, a coin flip under ASan */
	cr_assert(code == 0 || (code == 1 && strstr(out.out, " series written (")),
		  "update-baseline exit %d\n%s\n%s", code, out.out, out.err);
	spawn_output_free(&out);
	/* an extra malloc per operation is a regression (exit 1) whatever the
	 * timing; the crashing kernel makes the update refuse (exit 4) */
	code = gate(&out, "--kernel", "toy", "--kernel", "crashy", "--env", "TOY_EXTRA_ALLOC=1",
		    "--env", "CRASHY_MODE=exit3", "--timeout", "10", "--update-baseline",
		    "--json", in_dir(json, sizeof json, "result.json"),
		    "--markdown", in_dir(md, sizeof md, "report.md"), NULL);
	cr_expect_eq(code, 4, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.out, "regression toy/single/small: allocs"), "%s", out.out);
	cr_expect(strstr(out.err, "baseline not updated"), "%s", out.err);
	expect_said_everywhere(&out, 4, "ERROR", "error", json, md);
	spawn_output_free(&out);
}

Test(e2e_exit, a_report_that_cannot_be_written_says_exit_2_where_the_others_are)
{
	struct spawn_output out;
	char json[400], md[400], blocker[400];
	/* a regular file where a directory is wanted: unwritable even as root */
	FILE *f = fopen(in_dir(blocker, sizeof blocker, "not-a-directory"), "w");
	cr_assert(f);
	fclose(f);
	int code = gate(&out, "--kernel", "allocs", "--json", in_dir(json, sizeof json, "r.json"),
			"--markdown", in_dir(md, sizeof md, "not-a-directory/report.md"), NULL);
	/* allocs declares nothing about timing and has no baseline: it passes,
	 * and the markdown that could not be written makes the run exit 2 */
	cr_expect_eq(code, 2, "exit %d\n%s\n%s", code, out.out, out.err);
	cr_expect(strstr(out.err, "--markdown: "), "the failed report is not named:\n%s", out.err);
	expect_said_everywhere(&out, 2, "ERROR", "error", json, NULL);
	spawn_output_free(&out);
}
