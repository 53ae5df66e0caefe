/* report_outputs.h: every report besides the terminal and --json, written
 * the same way by `gate run` and `gate merge`. */
#ifndef GATE_REPORT_OUTPUTS_H
#define GATE_REPORT_OUTPUTS_H

#include "core/result.h"

struct report_paths {
	const char *junit;     /* --junit FILE, or NULL */
	const char *markdown;  /* --markdown FILE, or NULL */
	const char *svg_dir;   /* --svg DIR, or NULL */
};

/* Writes the requested files, appends the markdown to $GITHUB_STEP_SUMMARY
 * when set, and prints the ::error / ::warning annotations to stdout when
 * GITHUB_ACTIONS=true. Returns 0, or 2 after a message on stderr naming the
 * flag and file that could not be written (the others are still tried). */
int report_outputs_write(const struct run_result *r, const struct report_paths *p);

#endif
