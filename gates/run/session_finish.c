/* session_finish.c: the end of a session (session.h): the declared
 * expectations evaluated, the run concluded, the reports written. */
#include <stdio.h>

#include "run/reports.h"
#include "run/session.h"
#include "run/update.h"
#include "decide/exit_decide.h"
#include "decide/expect_eval.h"
#include "sample/runner.h"

void session_check_expectations(struct session *s)
{
	struct condition_target t = { s->result.ctx.os, s->result.ctx.allocator,
				      s->result.ctx.cpu_count };
	expect_check_kernels(s->kernels, s->kernel_count, s->options.tier, &t, &s->result);
}

void session_conclude(struct session *s)
{
	result_sort(&s->result);
	s->result.wall_seconds = runner_now() - s->started;
	s->result.sample_failures = s->sample_failures;
	s->result.exit_code = exit_decide_run(&s->result, s->sample_failures);
	update_counters_note(&s->result);
}

int session_report(struct session *s, const struct run_result *base)
{
	struct report_term_options style = { s->options.no_color,
					     s->options.details || s->options.verbose };
	struct report_paths paths = { s->options.json_path, s->options.junit_path,
				      s->options.markdown_path, s->options.svg_dir,
				      s->options.html_path, s->options.dhat_path };
	return reports_write_run(&s->result, &paths, &style, base);
}
