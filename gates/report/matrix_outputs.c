/* matrix_outputs.c: `gate matrix`'s terminal table and files, each file
 * written atomically (matrix_report.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/message.h"
#include "report/matrix_report.h"
#include "store/atomic_file.h"

typedef void (*matrix_render_fn)(FILE *f, const struct matrix *m);

static int write_file(const char *flag, const char *path, matrix_render_fn render,
		      const struct matrix *m)
{
	struct atomic_file af;
	char err[1024];
	int rc = atomic_file_open(&af, path, err, sizeof err);
	if (!rc) {
		render(af.fp, m);
		if (ferror(af.fp)) {
			atomic_file_abort(&af);
			snprintf(err, sizeof err, "%s: write error", path);
			rc = -EIO;
		} else {
			rc = atomic_file_commit(&af, err, sizeof err);
		}
	}
	if (rc)
		message_error("%s: %s", flag, err);
	return rc ? 2 : 0;
}

/* Appends the markdown to $GITHUB_STEP_SUMMARY (a job's summary page). */
static int append_summary(const struct matrix *m)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	if (!path || !*path)
		return 0;
	FILE *f = fopen(path, "a");
	if (!f) {
		message_error("GITHUB_STEP_SUMMARY: %s: cannot append", path);
		return 2;
	}
	matrix_markdown_print(f, m);
	return fclose(f) ? 2 : 0;
}

int matrix_report_all(const struct matrix *m, const struct matrix_outputs *o)
{
	int ret = 0;
	bool color = !o->no_color && isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	matrix_text_print(stdout, m, color, o->details);
	fflush(stdout);
	if (o->json_path) {
		char err[1024];
		if (matrix_json_write(o->json_path, m, err, sizeof err)) {
			message_error("--json: %s", err);
			ret = 2;
		}
	}
	if (o->markdown_path && write_file("--markdown", o->markdown_path, matrix_markdown_print, m))
		ret = 2;
	if (o->svg_dir) {
		char path[4200];
		snprintf(path, sizeof path, "%s/matrix.svg", o->svg_dir);
		if (write_file("--svg", path, matrix_svg_print, m))
			ret = 2;
	}
	if (append_summary(m))
		ret = 2;
	return ret;
}
