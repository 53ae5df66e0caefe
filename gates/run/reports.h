/* reports.h: the reports of `gate run`, `gate ab`, `gate merge` and
 * `gate matrix`, every one saying the exit status the process returns.
 *
 * The files are written first, those replaced whole before the step
 * summary (appended once); a file that cannot be written is named on
 * stderr and decides the status (exit_decide_after_write_failure), and the
 * files already written are written again when that changed it; the
 * terminal report (and GitHub's annotations) come last, with the final
 * status. */
#ifndef GATE_REPORTS_H
#define GATE_REPORTS_H

#include "core/matrix.h"
#include "core/result.h"
#include "report/matrix_report.h"
#include "report/report_outputs.h"
#include "report/report_term.h"

/* Writes R's files P asks for, then prints the terminal report (STYLE,
 * against BASE, may be NULL) and the annotations. Returns R's exit status,
 * final (R->exit_code is updated). */
int reports_write_run(struct run_result *r, const struct report_paths *p,
		      const struct report_term_options *style, const struct run_result *base);

/* The same for a matrix M and the outputs O asks for. */
int reports_write_matrix(struct matrix *m, const struct matrix_outputs *o);

#endif
