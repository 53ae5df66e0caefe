/* probe_main.c: the kernel side of the kernel protocol (docs/protocol.md).
 *
 * gate_kernel_main() parses the command line, then prints --help or
 * --list, or runs one sample (probe_sample.c); the other jobs of the probe
 * are the files named in probe_state.h.
 *
 * Mistakes in a kernel file (a missing parameter key, an unbalanced
 * region, a bad metric name) are bugs of that file: the probe names the
 * kernel, variant and culprit on stderr and exits 2, as for a bad flag.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe_state.h"

static const struct gate_variant *probe_find_variant(const struct gate_kernel *k,
						     const char *name)
{
	for (const struct gate_variant *v = k->variants; v && v->name; v++) {
		if (strcmp(v->name, name) == 0)
			return v;
	}
	fprintf(stderr, "%s: unknown variant '%s' (variants:", k->name, name);
	for (const struct gate_variant *v = k->variants; v && v->name; v++)
		fprintf(stderr, " %s", v->name);
	fprintf(stderr, ")\n");
	return NULL;
}

static const struct gate_paramset *probe_find_paramset(const struct gate_kernel *k,
						       const char *name)
{
	for (const struct gate_paramset *p = k->paramsets; p && p->name; p++) {
		if (strcmp(p->name, name) == 0)
			return p;
	}
	fprintf(stderr, "%s: unknown parameter set '%s' (sets:", k->name, name);
	for (const struct gate_paramset *p = k->paramsets; p && p->name; p++)
		fprintf(stderr, " %s", p->name);
	fprintf(stderr, ")\n");
	return NULL;
}

/* Checks the sample flags and prepares probe.params; returns the variant
 * to run, or NULL after a message. */
static const struct gate_variant *probe_prepare(const struct probe_args *a)
{
	const struct gate_kernel *k = probe.kernel;
	const struct gate_variant *v;
	const struct gate_paramset *p;
	char err[256];

	if (!a->variant || !a->params) {
		fprintf(stderr, "%s: a sample needs --variant V and --params P (try --help)\n",
			k->name);
		return NULL;
	}
	if (probe_parse_numbers(a) < 0 || !(v = probe_find_variant(k, a->variant)) ||
	    !(p = probe_find_paramset(k, a->params)))
		return NULL;
	probe.params.kernel = k->name;
	probe.params.name = p->name;
	if (params_parse(p->values, &probe.params, err, sizeof err) < 0) {
		fprintf(stderr, "%s: parameter set '%s': %s\n", k->name, p->name, err);
		return NULL;
	}
	probe.variant = v->name;
	return v;
}

int gate_kernel_main(const struct gate_kernel *kernel, int argc, char **argv)
{
	struct probe_args args;
	const struct gate_variant *variant;

	probe.kernel = kernel;
	counters_stdout_binary();
	if (probe_check_kernel(kernel) < 0 || probe_parse_args(argc, argv, &args) < 0)
		return 2;
	if (args.help) {
		probe_usage(stdout);
		return 0;
	}
	if (args.list) {
		if (args.variant || args.params || args.seed || args.threads || args.best_of) {
			fprintf(stderr, "%s: --list takes no other flag\n", kernel->name);
			return 2;
		}
		return probe_list(kernel);
	}
	variant = probe_prepare(&args);
	return variant ? probe_run_sample(variant) : 2;
}
