/* session_finish.c: the end of a session (session.h): the declared
 * expectations evaluated, the exit status, the reports written. */
#include <math.h>
#include <stdio.h>

#include "cli/session.h"
#include "cli/update.h"
#include "core/message.h"
#include "decide/expect_eval.h"
#include "report/report_json.h"
#include "report/report_outputs.h"
#include "report/report_term.h"
#include "sample/groups.h"

void session_check_expectations(struct session *s)
{
	struct condition_target t = { s->r.ctx.os, s->r.ctx.allocator, s->r.ctx.cpu_count };
	expect_check_kernels(s->kernels, s->kernel_count, s->o.tier, &t, &s->r);
}

static int has_finite_sample(const struct run_result *r)
{
	for (size_t i = 0; i < r->series_count; i++)
		for (size_t j = 0; j < r->series[i].sample_count; j++)
			if (isfinite(r->series[i].samples[j]))
				return 1;
	return 0;
}

int session_exit_code(const struct session *s)
{
	const struct run_result *r = &s->r;
	/* a claim naming a metric nothing measures: the declaration is wrong
	 * (its file:line and the nearest name are in the report) */
	for (size_t i = 0; i < r->expect_count; i++)
		if (r->expects[i].gated && r->expects[i].unknown_metric)
			return 2;
	for (size_t i = 0; i < r->series_count; i++)
		if (r->series[i].verdict == VERDICT_FAIL && r->series[i].gated)
			return 1;
	for (size_t i = 0; i < r->expect_count; i++)
		if (r->expects[i].gated && r->expects[i].verdict == VERDICT_FAIL)
			return 1;
	if (!has_finite_sample(r))
		return s->sample_failures ? 4 : 3;
	/* a series that could not be checked: no sample, or a count nothing
	 * measured (decide/counted.h) */
	for (size_t i = 0; i < r->series_count; i++)
		if (r->series[i].gated && r->series[i].verdict == VERDICT_ERROR)
			return 4;
	for (size_t i = 0; i < r->expect_count; i++)
		if (r->expects[i].gated && r->expects[i].verdict == VERDICT_ERROR)
			return 4;
	return s->sample_failures ? 4 : 0;
}

int session_report(struct session *s, const struct run_result *base)
{
	result_sort(&s->r);
	s->r.wall_seconds = session_now() - s->started;
	s->r.exit_code = session_exit_code(s);
	update_counters_note(&s->r);
	struct report_term_options style = { s->o.no_color, s->o.details || s->o.verbose };
	report_term_print(stdout, &s->r, &style, base);
	int ret = s->r.exit_code;
	if (s->o.json_path) {
		char err[1024];
		if (report_json_write(s->o.json_path, &s->r, err, sizeof err)) {
			message_error("--json: %s", err);
			ret = ret ? ret : 2;
		}
	}
	struct report_paths rp = { s->o.junit_path, s->o.markdown_path, s->o.svg_dir };
	if (report_outputs_write(&s->r, &rp))
		ret = ret ? ret : 2;
	return ret;
}
