/* matrix_outputs.c: `gate matrix`'s files, each written atomically
 * (matrix_report.h). Nothing here prints: the CLI names a failure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/matrix_report.h"
#include "store/atomic_file.h"

typedef void (*matrix_render_fn)(FILE *f, const struct matrix *m);

static int write_file(const char *path, matrix_render_fn render, const struct matrix *m,
		      char *err, size_t err_size)
{
	struct atomic_file af;
	int rc = atomic_file_open(&af, path, err, err_size);
	if (rc)
		return rc;
	render(af.fp, m);
	if (ferror(af.fp)) {
		atomic_file_abort(&af);
		snprintf(err, err_size, "%s: write error", path);
		return -EIO;
	}
	return atomic_file_commit(&af, err, err_size);
}

/* Appends the markdown to PATH, $GITHUB_STEP_SUMMARY (a job's summary page). */
static int append_summary(const char *path, const struct matrix *m, char *err, size_t err_size)
{
	FILE *f = fopen(path, "a");
	if (!f) {
		int e = errno;
		snprintf(err, err_size, "%s: cannot append: %s", path, strerror(e));
		return -e;
	}
	matrix_markdown_print(f, m);
	int bad = ferror(f), closed = fclose(f);
	if (bad || closed) {
		snprintf(err, err_size, "%s: write error", path);
		return -EIO;
	}
	return 0;
}

const char *matrix_output_path(const struct matrix_outputs *o, enum report_output k,
			       char *path, size_t path_size)
{
	const char *summary;
	switch (k) {
	case REPORT_OUTPUT_JSON:
		return o->json_path;
	case REPORT_OUTPUT_MARKDOWN:
		return o->markdown_path;
	case REPORT_OUTPUT_SVG:
		if (!o->svg_dir)
			return NULL;
		snprintf(path, path_size, "%s/matrix.svg", o->svg_dir);
		return path;
	case REPORT_OUTPUT_STEP_SUMMARY:
		summary = getenv("GITHUB_STEP_SUMMARY");
		return summary && *summary ? summary : NULL;
	default:
		return NULL;
	}
}

int matrix_output_write(const struct matrix *m, enum report_output k, const char *path,
			char *err, size_t err_size)
{
	switch (k) {
	case REPORT_OUTPUT_JSON:
		return matrix_json_write(path, m, err, err_size);
	case REPORT_OUTPUT_MARKDOWN:
		return write_file(path, matrix_markdown_print, m, err, err_size);
	case REPORT_OUTPUT_SVG:
		return write_file(path, matrix_svg_print, m, err, err_size);
	case REPORT_OUTPUT_STEP_SUMMARY:
		return append_summary(path, m, err, err_size);
	default:
		return 0;
	}
}
