/* report_outputs.c: the CI reports of a run or a merge (report_outputs.h). */
#include <stdio.h>
#include <stdlib.h>

#include "report/report_outputs.h"
#include "core/message.h"
#include "report/report_github.h"
#include "report/report_junit.h"
#include "report/report_markdown.h"
#include "report/report_svg.h"

int report_outputs_write(const struct run_result *r, const struct report_paths *p)
{
	char err[1024];
	int ret = 0;
	if (p->junit && report_junit_write(p->junit, r, err, sizeof err) < 0) {
		message_error("--junit: %s", err);
		ret = 2;
	}
	if (p->markdown && report_markdown_write(p->markdown, r, err, sizeof err) < 0) {
		message_error("--markdown: %s", err);
		ret = 2;
	}
	if (p->svg_dir && report_svg_write_dir(p->svg_dir, r, err, sizeof err) < 0) {
		message_error("--svg: %s", err);
		ret = 2;
	}
	const char *summary = getenv("GITHUB_STEP_SUMMARY");
	if (summary && *summary && report_markdown_append(summary, r, err, sizeof err) < 0) {
		message_error("GITHUB_STEP_SUMMARY: %s", err);
		ret = 2;
	}
	if (report_github_enabled())
		report_github_print(stdout, r);
	return ret;
}
