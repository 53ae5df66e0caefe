/* result_summary.c: a result as a history run (result_summary.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decide/result_summary.h"
#include "decide/stats.h"

double result_summary_mad(const double *v, size_t n, double median)
{
	double *dev = malloc((n ? n : 1) * sizeof *dev);
	if (!dev || !isfinite(median)) {
		free(dev);
		return NAN;
	}
	for (size_t i = 0; i < n; i++)
		dev[i] = isfinite(v[i]) ? fabs(v[i] - median) : NAN;
	double mad = stats_median(dev, n);   /* NaN entries are left out */
	free(dev);
	return mad;
}

/* Copies of the context's CPU identity into CPU; 0 or -ENOMEM. */
static int copy_cpu(const struct context *c, struct history_cpu *cpu)
{
	cpu->model = result_dup_or_null(c->cpu_model);
	cpu->vendor = result_dup_or_null(c->cpu_vendor);
	cpu->family = result_dup_or_null(c->cpu_family);
	cpu->model_number = result_dup_or_null(c->cpu_model_number);
	cpu->stepping = result_dup_or_null(c->cpu_stepping);
	cpu->count = c->cpu_count;
	if ((c->cpu_model && !cpu->model) || (c->cpu_vendor && !cpu->vendor) ||
	    (c->cpu_family && !cpu->family) || (c->cpu_model_number && !cpu->model_number) ||
	    (c->cpu_stepping && !cpu->stepping))
		return -ENOMEM;
	return 0;
}

/* Series S as a history value into V (strings shared with S). */
static void summarise(const struct series *s, struct history_value *v)
{
	size_t measured = 0;
	for (size_t i = 0; i < s->sample_count; i++)
		measured += isfinite(s->samples[i]) != 0;
	memset(v, 0, sizeof *v);
	v->kernel = s->kernel;
	v->variant = s->variant;
	v->params = s->params;
	v->metric = s->metric;
	v->unit = s->unit;
	v->cls = s->cls;
	v->median = s->median;
	v->mad = NAN;
	if (s->cls == METRIC_TIMING) {
		v->n = measured;
		v->mad = result_summary_mad(s->samples, s->sample_count, s->median);
	}
}

int result_summary_history(const struct run_result *r, const char *time,
			   struct history_run *out, const char **missing)
{
	const struct context *c = &r->ctx;
	memset(out, 0, sizeof *out);
	*missing = !c->commit || !*c->commit ? "context.commit"
		   : !c->started_at || !*c->started_at ? "context.started_at" : NULL;
	if (*missing)
		return -EINVAL;
	out->commit = strdup(c->commit);
	out->run_at = strdup(c->started_at);
	out->time = strdup(time ? time : c->started_at);
	out->time_is_commit = time != NULL;
	out->platform = strdup(c->platform_key ? c->platform_key : "unknown");
	if (!out->commit || !out->run_at || !out->time || !out->platform || copy_cpu(c, &out->cpu))
		goto nomem;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		struct history_value v;
		if (!isfinite(s->median) || result_metric_is_scheduling(s->metric) ||
		    result_metric_is_machine_load(s->metric))
			continue;
		summarise(s, &v);
		if (result_history_add_value(out, &v))
			goto nomem;
	}
	return 0;
nomem:
	result_history_run_free(out);
	return -ENOMEM;
}
