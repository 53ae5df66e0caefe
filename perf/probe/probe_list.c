/* probe_list.c: --list: the kernel's tables, checked (also before a
 * sample: a malformed table is never measured), then printed in the line
 * format of docs/protocol.md. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe_state.h"

/* Whether S is non-empty, one line, and (when NO_SPACE) one field. */
static bool probe_is_field(const char *s, bool no_space)
{
	return s && s[0] && !strchr(s, '\n') && !strchr(s, '\r') &&
	       !(no_space && (strchr(s, ' ') || strchr(s, '\t')));
}

static bool probe_is_paramset_name(const char *s)
{
	if (!s || !s[0])
		return false;
	for (; *s; s++) {
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_.-", *s))
			return false;
	}
	return true;
}

static int probe_check_variants(const struct gate_kernel *k)
{
	for (const struct gate_variant *v = k->variants; v && v->name; v++) {
		if (!probe_is_identifier(v->name, true, 64) || !v->run ||
		    !probe_is_field(v->description, false)) {
			fprintf(stderr, "%s: variant '%s': needs a name [a-z0-9_]+, a run "
				"function and a one-line description\n", k->name, v->name);
			return -EINVAL;
		}
		for (const struct gate_variant *w = k->variants; w != v; w++) {
			if (strcmp(w->name, v->name) == 0) {
				fprintf(stderr, "%s: variant '%s' declared twice\n", k->name, v->name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static int probe_check_paramsets(const struct gate_kernel *k)
{
	struct gate_params parsed;
	char err[256];
	for (const struct gate_paramset *p = k->paramsets; p && p->name; p++) {
		if (!probe_is_paramset_name(p->name) || p->tiers == 0 ||
		    (p->tiers & ~(unsigned)(GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL))) {
			fprintf(stderr, "%s: parameter set '%s': needs a name [A-Za-z0-9_.-]+ "
				"and tiers of GATE_TIER_QUICK|DEFAULT|FULL\n", k->name, p->name);
			return -EINVAL;
		}
		if (params_parse(p->values, &parsed, err, sizeof err) < 0) {
			fprintf(stderr, "%s: parameter set '%s': %s\n", k->name, p->name, err);
			return -EINVAL;
		}
		long long best_of = 1;
		if (params_find(&parsed, "best_of", &best_of) == 0 &&
		    (best_of < 1 || best_of > PROBE_MAX_BEST_OF)) {
			fprintf(stderr, "%s: parameter set '%s': best_of=%lld (expected 1 to "
				"%d)\n", k->name, p->name, best_of, PROBE_MAX_BEST_OF);
			return -EINVAL;
		}
		for (const struct gate_paramset *q = k->paramsets; q != p; q++) {
			if (strcmp(q->name, p->name) == 0) {
				fprintf(stderr, "%s: parameter set '%s' declared twice\n", k->name,
					p->name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static int probe_check_expects(const struct gate_kernel *k)
{
	for (const struct gate_expect *e = k->expects; e && e->expr; e++) {
		if (!probe_is_field(e->expr, false) || !probe_is_field(e->file, true) ||
		    e->line <= 0 || (e->conditions && !probe_is_field(e->conditions, true)) ||
		    (e->params && !probe_is_field(e->params, true))) {
			fprintf(stderr, "%s: expectation '%s' at %s:%d: needs a one-line "
				"expression, a file without spaces, a line, and comma lists "
				"without spaces\n", k->name, e->expr, e->file ? e->file : "?",
				e->line);
			return -EINVAL;
		}
	}
	return 0;
}

/* probe_state.h */
int probe_check_kernel(const struct gate_kernel *k)
{
	if (!probe_is_identifier(k->name, false, 64) || !probe_is_field(k->summary, false)) {
		fprintf(stderr, "%s: the kernel needs a name [A-Za-z0-9_]+ and a one-line "
			"summary\n", k->name ? k->name : "kernel");
		return -EINVAL;
	}
	if (probe_check_variants(k) < 0 || probe_check_paramsets(k) < 0 ||
	    probe_check_expects(k) < 0)
		return -EINVAL;
	return 0;
}

static void probe_print_tiers(unsigned tiers)
{
	static const char *const names[] = { "quick", "default", "full" };
	const char *sep = "";
	for (int i = 0; i < 3; i++) {
		if (tiers & (1u << i)) {
			printf("%s%s", sep, names[i]);
			sep = ",";
		}
	}
}

/* probe_state.h */
int probe_list(const struct gate_kernel *k)
{
	struct gate_params parsed;
	char err[256], values[PARAMS_MAX * (PARAMS_KEY_SIZE + 24)];

	printf("allocgate-list 1\nkernel %s %s\n", k->name, k->summary);
	if (k->file && !strchr(k->file, ' '))
		printf("source %s %d\n", k->file, k->line);
	for (const struct gate_variant *v = k->variants; v && v->name; v++) {
		printf("variant %s %s\n", v->name, v->description);
		if (v->file && !strchr(v->file, ' '))
			printf("variant-source %s %s %d\n", v->name, v->file, v->line);
	}
	for (const struct gate_paramset *p = k->paramsets; p && p->name; p++) {
		params_parse(p->values, &parsed, err, sizeof err);
		params_format(&parsed, values, sizeof values);
		printf("params %s ", p->name);
		probe_print_tiers(p->tiers);
		printf("%s%s\n", parsed.count ? " " : "", values);
	}
	for (const struct gate_expect *e = k->expects; e && e->expr; e++)
		printf("expect %s %d %s %s %s\n", e->file, e->line,
		       e->conditions ? e->conditions : "*", e->params ? e->params : "*", e->expr);
	printf("end\n");
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
