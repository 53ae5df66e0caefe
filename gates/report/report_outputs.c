/* report_outputs.c: the file reports of a run or a merge (report_outputs.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_outputs.h"
#include "core/worktree_os.h"
#include "report/flame_svg.h"
#include "report/report_dhat.h"
#include "report/report_html.h"
#include "report/report_json.h"
#include "report/report_junit.h"
#include "report/report_markdown.h"
#include "report/report_svg.h"

const char *report_output_flag(enum report_output k)
{
	static const char *const flags[REPORT_OUTPUTS] = {
		[REPORT_OUTPUT_JSON] = "--json",
		[REPORT_OUTPUT_JUNIT] = "--junit",
		[REPORT_OUTPUT_MARKDOWN] = "--markdown",
		[REPORT_OUTPUT_SVG] = "--svg",
		[REPORT_OUTPUT_DHAT] = "--dhat",
		[REPORT_OUTPUT_HTML] = "--html",
		[REPORT_OUTPUT_STEP_SUMMARY] = "GITHUB_STEP_SUMMARY",
	};
	return k < REPORT_OUTPUTS ? flags[k] : "?";
}

const char *report_output_path(const struct report_paths *p, enum report_output k)
{
	const char *summary;
	switch (k) {
	case REPORT_OUTPUT_JSON:
		return p->json;
	case REPORT_OUTPUT_JUNIT:
		return p->junit;
	case REPORT_OUTPUT_MARKDOWN:
		return p->markdown;
	case REPORT_OUTPUT_SVG:
		return p->svg_dir;
	case REPORT_OUTPUT_DHAT:
		return p->dhat;
	case REPORT_OUTPUT_HTML:
		return p->html;
	case REPORT_OUTPUT_STEP_SUMMARY:
		summary = getenv("GITHUB_STEP_SUMMARY");
		return summary && *summary ? summary : NULL;
	default:
		return NULL;
	}
}

/* R's flame graphs into SVG_DIR/flame/ when it or its other side has call
 * stacks (its own taken: flame_svg.h): the
 * charts' directory made first, as the charts make it only when there are
 * timing series. Returns 0 or a negative errno with ERR. */
static int write_flame(const struct run_result *r, const char *svg_dir, char *err,
		       size_t err_size)
{
	char dir[4096];
	if (!r->stacks.recorded ||
	    (!r->stacks.count && !(r->stacks_before.recorded && r->stacks_before.count)))
		return 0;
	int rc = worktree_os_mkdir(svg_dir);
	if (rc) {
		snprintf(err, err_size, "%s: cannot make the directory: %s", svg_dir,
			 strerror(-rc));
		return rc;
	}
	snprintf(dir, sizeof dir, "%s/%s", svg_dir, FLAME_SVG_SUBDIR);
	rc = flame_svg_write_dir(dir, r, err, err_size);
	return rc < 0 ? rc : 0;
}

int report_output_write(const struct run_result *r, enum report_output k, const char *path,
			char *err, size_t err_size)
{
	int rc;
	switch (k) {
	case REPORT_OUTPUT_JSON:
		return report_json_write(path, r, err, err_size);
	case REPORT_OUTPUT_JUNIT:
		return report_junit_write(path, r, err, err_size);
	case REPORT_OUTPUT_MARKDOWN:
		return report_markdown_write(path, r, err, err_size);
	case REPORT_OUTPUT_SVG:
		rc = report_svg_write_dir(path, r, err, err_size);
		return rc < 0 ? rc : write_flame(r, path, err, err_size);
	case REPORT_OUTPUT_DHAT:
		return report_dhat_write(path, r, err, err_size);
	case REPORT_OUTPUT_HTML:
		return report_html_write(path, r, err, err_size);
	case REPORT_OUTPUT_STEP_SUMMARY:
		return report_markdown_append(path, r, err, err_size);
	default:
		return 0;
	}
}
