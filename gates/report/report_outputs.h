/* report_outputs.h: every file report of a run or a merge (--json, --junit,
 * --markdown, --svg, --dhat, --html, $GITHUB_STEP_SUMMARY), one at a time, so that the
 * run (run/reports.h) decides the order, names a failure and writes them
 * again when the exit status changes. Nothing here prints. */
#ifndef GATE_REPORT_OUTPUTS_H
#define GATE_REPORT_OUTPUTS_H

#include <stddef.h>

#include "core/result.h"

struct report_paths {
	const char *json;      /* --json FILE, or NULL */
	const char *junit;     /* --junit FILE, or NULL */
	const char *markdown;  /* --markdown FILE, or NULL */
	const char *svg_dir;   /* --svg DIR, or NULL: the charts, and the flame
				* graphs in DIR/flame/ (flame_svg.h) */
	const char *html;      /* --html FILE, or NULL */
	const char *dhat;      /* --dhat FILE, or NULL: the call stacks for DHAT's
				* viewer (report_dhat.h) */
};

/* The file reports, in the order they are written: those replaced whole,
 * then the step summary, which is appended to (once). */
enum report_output {
	REPORT_OUTPUT_JSON,
	REPORT_OUTPUT_JUNIT,
	REPORT_OUTPUT_MARKDOWN,
	REPORT_OUTPUT_SVG,
	REPORT_OUTPUT_DHAT,
	REPORT_OUTPUT_HTML,
	REPORT_OUTPUT_STEP_SUMMARY,
	REPORT_OUTPUTS
};

/* The last of the outputs replaced whole. */
#define REPORT_OUTPUT_LAST_WHOLE REPORT_OUTPUT_HTML

/* The flag (or variable) that asks for output K: "--json", ...,
 * "GITHUB_STEP_SUMMARY". */
const char *report_output_flag(enum report_output k);

/* Where P (or, for the step summary, the environment) sends output K;
 * NULL when it was not asked for. */
const char *report_output_path(const struct report_paths *p, enum report_output k);

/* Writes output K of R to PATH (atomically; the step summary appended).
 * Returns 0, or a negative errno with ERR naming the file. */
int report_output_write(const struct run_result *r, enum report_output k, const char *path,
			char *err, size_t err_size);

#endif
