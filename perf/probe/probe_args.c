/* probe_args.c: the kernel's command line: its flags (one table, from
 * which --help is written), their values checked. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe_state.h"

static const struct probe_flag {
	const char *name;
	size_t field;          /* offset of its slot in struct probe_args */
	const char *value;     /* name of its value; NULL for a switch */
	const char *help;
} probe_flags[] = {
	{ "--list", offsetof(struct probe_args, list), NULL,
	  "print variants, parameter sets and expectations (allocgate-list 1)" },
	{ "--variant", offsetof(struct probe_args, variant), "V", "variant to run" },
	{ "--params", offsetof(struct probe_args, params), "P", "parameter set to run it on" },
	{ "--seed", offsetof(struct probe_args, seed), "N",
	  "seed of the kernel's random numbers (default 1)" },
	{ "--threads", offsetof(struct probe_args, threads), "N",
	  "threads for threaded variants (default: the kernel's)" },
	{ "--best-of", offsetof(struct probe_args, best_of), "K",
	  "run the variant K times; timing is the fastest (default: best_of)" },
	{ "--help", offsetof(struct probe_args, help), NULL, "print this help" },
};

#define PROBE_FLAG_COUNT (sizeof probe_flags / sizeof probe_flags[0])

/* probe_state.h */
void probe_usage(FILE *out)
{
	const struct gate_kernel *k = probe.kernel;
	fprintf(out, "%s: %s\nusage: %s --list\n       %s --variant V --params P "
		"[--seed N] [--threads N] [--best-of K]\n", k->name, k->summary, k->name, k->name);
	for (size_t i = 0; i < PROBE_FLAG_COUNT; i++)
		fprintf(out, "  %-12s %-2s %s\n", probe_flags[i].name,
			probe_flags[i].value ? probe_flags[i].value : "", probe_flags[i].help);
	fprintf(out, "variants:\n");
	for (const struct gate_variant *v = k->variants; v && v->name; v++)
		fprintf(out, "  %-20s %s\n", v->name, v->description);
	fprintf(out, "parameter sets:\n");
	for (const struct gate_paramset *p = k->paramsets; p && p->name; p++)
		fprintf(out, "  %-20s %s\n", p->name, p->values ? p->values : "");
	counters_open(COUNTER_ALL);
	fprintf(out, "counters: %s\n", counters_backend());
	for (int i = 0; i < COUNTER_COUNT; i++) {
		const char *why = counters_unavailable((enum counter_id)i);
		if (why)
			fprintf(out, "  %-20s unavailable: %s\n", counter_name((enum counter_id)i), why);
	}
	counters_close();
}

/* probe_state.h */
int probe_parse_args(int argc, char **argv, struct probe_args *a)
{
	static const char present[] = "";
	memset(a, 0, sizeof *a);
	for (int i = 1; i < argc; i++) {
		const struct probe_flag *f = NULL;
		for (size_t k = 0; k < PROBE_FLAG_COUNT && !f; k++) {
			if (strcmp(argv[i], probe_flags[k].name) == 0)
				f = &probe_flags[k];
		}
		if (!f) {
			fprintf(stderr, "%s: unknown flag '%s' (try --help)\n",
				probe.kernel->name, argv[i]);
			return -EINVAL;
		}
		const char **slot = (const char **)((char *)a + f->field);
		if (*slot) {
			fprintf(stderr, "%s: %s given twice\n", probe.kernel->name, f->name);
			return -EINVAL;
		}
		if (f->value && i + 1 == argc) {
			fprintf(stderr, "%s: %s needs a value %s\n", probe.kernel->name,
				f->name, f->value);
			return -EINVAL;
		}
		*slot = f->value ? argv[++i] : present;
	}
	return 0;
}

/* Unsigned decimal TEXT no larger than MAX into *OUT; 0 or -EINVAL. */
static int probe_parse_unsigned(const char *text, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (!text[0])
		return -EINVAL;
	for (const char *c = text; *c; c++) {
		unsigned d = (unsigned)(*c - '0');
		if (d > 9 || v > (max - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* probe_state.h */
int probe_parse_numbers(const struct probe_args *a)
{
	uint64_t threads = 0, best_of = 0;
	const char *name = probe.kernel->name;
	if (a->seed && probe_parse_unsigned(a->seed, UINT64_MAX, &probe.seed) < 0) {
		fprintf(stderr, "%s: bad --seed '%s' (expected an unsigned 64-bit decimal "
			"integer)\n", name, a->seed);
		return -EINVAL;
	}
	if (a->threads && (probe_parse_unsigned(a->threads, PROBE_MAX_THREADS, &threads) < 0 ||
			   threads == 0)) {
		fprintf(stderr, "%s: bad --threads '%s' (expected 1 to %d)\n", name,
			a->threads, PROBE_MAX_THREADS);
		return -EINVAL;
	}
	probe.threads = a->threads ? (int)threads : 0;
	if (a->best_of && (probe_parse_unsigned(a->best_of, PROBE_MAX_BEST_OF, &best_of) < 0 ||
			   best_of == 0)) {
		fprintf(stderr, "%s: bad --best-of '%s' (expected 1 to %d)\n", name,
			a->best_of, PROBE_MAX_BEST_OF);
		return -EINVAL;
	}
	probe.best_of = (unsigned)best_of;
	return 0;
}
