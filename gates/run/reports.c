/* reports.c: the reports written with the final exit status (reports.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/reports.h"
#include "core/message.h"
#include "decide/exit_decide.h"
#include "report/report_github.h"

/* What is written: a run result or a matrix, behind the same two calls. */
struct reports_target {
	const char *(*path)(const struct reports_target *t, enum report_output k, char *buf,
			    size_t size);
	int (*write)(const struct reports_target *t, enum report_output k, const char *path,
		     char *err, size_t size);
	const void *what;      /* the run result or the matrix */
	const void *outputs;   /* its struct report_paths or struct matrix_outputs */
	int *exit_code;        /* its exit status */
};

/* Writes the outputs FIRST..LAST that T asks for (and, when ONLY is set,
 * that ONLY marks), marking each written in WRITTEN. Returns how many
 * failed, each named on stderr. */
static int write_outputs(const struct reports_target *t, enum report_output first,
			 enum report_output last, const bool *only, bool *written)
{
	int failed = 0;
	for (enum report_output k = first; k <= last; k++) {
		char buf[4200], err[1024];
		const char *path = t->path(t, k, buf, sizeof buf);
		if (!path || (only && !only[k]))
			continue;
		if (t->write(t, k, path, err, sizeof err)) {
			message_error("%s: %s", report_output_flag(k), err);
			failed++;
		} else {
			written[k] = true;
		}
	}
	return failed;
}

/* After a file could not be written: the exit status, and when that
 * changed it, the files written so far written again (the step summary,
 * appended to, never twice). */
static void after_failure(const struct reports_target *t, bool *written)
{
	enum gate_exit status = exit_decide_after_write_failure(*t->exit_code);
	bool again[REPORT_OUTPUTS];
	if ((int)status == *t->exit_code)
		return;
	*t->exit_code = status;
	memcpy(again, written, sizeof again);
	again[REPORT_OUTPUT_STEP_SUMMARY] = false;
	write_outputs(t, REPORT_OUTPUT_JSON, REPORT_OUTPUT_LAST_WHOLE, again, written);
}

static void write_files(const struct reports_target *t)
{
	bool written[REPORT_OUTPUTS] = { false };
	if (write_outputs(t, REPORT_OUTPUT_JSON, REPORT_OUTPUT_LAST_WHOLE, NULL, written))
		after_failure(t, written);
	if (write_outputs(t, REPORT_OUTPUT_STEP_SUMMARY, REPORT_OUTPUT_STEP_SUMMARY, NULL, written))
		after_failure(t, written);
}

static const char *run_path(const struct reports_target *t, enum report_output k, char *buf,
			    size_t size)
{
	(void)buf, (void)size;
	return report_output_path(t->outputs, k);
}

static int run_write(const struct reports_target *t, enum report_output k, const char *path,
		     char *err, size_t size)
{
	return report_output_write(t->what, k, path, err, size);
}

int reports_write_run(struct run_result *r, const struct report_paths *p,
		      const struct report_term_options *style, const struct run_result *base)
{
	struct reports_target t = { run_path, run_write, r, p, &r->exit_code };
	write_files(&t);
	report_term_print(stdout, r, style, base);
	if (report_github_enabled())
		report_github_print(stdout, r);
	return r->exit_code;
}

static const char *matrix_path(const struct reports_target *t, enum report_output k,
			       char *buf, size_t size)
{
	return matrix_output_path(t->outputs, k, buf, size);
}

static int matrix_write(const struct reports_target *t, enum report_output k, const char *path,
			char *err, size_t size)
{
	return matrix_output_write(t->what, k, path, err, size);
}

int reports_write_matrix(struct matrix *m, const struct matrix_outputs *o)
{
	struct reports_target t = { matrix_path, matrix_write, m, o, &m->exit_code };
	bool color = !o->no_color && isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	write_files(&t);
	matrix_text_print(stdout, m, color, o->details);
	fflush(stdout);
	return m->exit_code;
}
