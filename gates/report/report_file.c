/* report_file.c: a rendered report written atomically (report_file.h). */
#include <errno.h>
#include <stdio.h>

#include "report/report_file.h"
#include "store/atomic_file.h"

int report_file_write(const char *path, report_render_fn render, const struct run_result *r,
		      const void *arg, char *err, size_t err_size)
{
	struct atomic_file af;
	int rc = atomic_file_open(&af, path, err, err_size);
	if (rc)
		return rc;
	render(af.fp, r, arg);
	if (ferror(af.fp)) {
		atomic_file_abort(&af);
		snprintf(err, err_size, "%s: write error", path);
		return -EIO;
	}
	return atomic_file_commit(&af, err, err_size);
}
