/* comparable.c: what of a run can be compared with a baseline
 * (comparable.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cost_key.h"
#include "core/cpu_identity.h"
#include "core/platform.h"
#include "decide/comparable.h"

/* Appends "; " (unless first) and "LABEL "A" -> "B"" to WHY when A and B
 * differ; returns whether they do. */
static int differs(const char *label, const char *a, const char *b, char *why, size_t size)
{
	a = a ? a : "";
	b = b ? b : "";
	if (!strcmp(a, b))
		return 0;
	size_t used = strlen(why);
	if (used + 1 < size)
		snprintf(why + used, size - used, "%s%s \"%s\" -> \"%s\"", used ? "; " : "", label,
			 a, b);
	return 1;
}

/* Appends TEXT as a clause ("; " between) to WHY. */
static void add(char *why, size_t size, const char *text)
{
	size_t used = strlen(why);
	if (used + 1 < size)
		snprintf(why + used, size - used, "%s%s", used ? "; " : "", text);
}

/* Whether a field was recorded by both (an older file has NULL). */
static bool both(const char *a, const char *b)
{
	return a && b;
}

/* The cost key of BASE against CUR into C. */
static void decide_cost(const struct context *base, const struct context *cur,
			struct comparability *c)
{
	char *why = c->cost_why, *notes = c->cost_notes, text[900], outside[600];
	size_t wsize = sizeof c->cost_why, nsize = sizeof c->cost_notes;
	int keys = 0, out = 0;
	keys += differs("libc", base->libc, cur->libc, why, wsize);
	keys += differs("libc version", base->libc_version, cur->libc_version, why, wsize);
	keys += differs("valgrind", base->cost_tool, cur->cost_tool, why, wsize);
	keys += differs("allocator", base->allocator, cur->allocator, why, wsize);
	if (both(base->cost_libc, cur->cost_libc))
		keys += differs("libc build", base->cost_libc, cur->cost_libc, why, wsize);
	if (both(base->cost_tunables, cur->cost_tunables))
		keys += differs("pinned tunables", base->cost_tunables, cur->cost_tunables, why,
				wsize);
	if (both(base->cost_diagnostics, cur->cost_diagnostics)) {
		int n = cost_key_diff_cpu(base->cost_diagnostics, cur->cost_diagnostics, text,
					  sizeof text, outside, sizeof outside, &out);
		if (n) {
			char line[1000];
			snprintf(line, sizeof line, "CPU under valgrind: %s", text);
			add(why, wsize, line);
			keys += n;
		}
		if (out) {
			char line[800];
			snprintf(line, sizeof line, "CPU under valgrind differs in %d line%s outside "
				 "the cost key (%s)", out, out == 1 ? "" : "s", outside);
			add(notes, nsize, line);
		}
	} else if (!base->cost_tunables && cur->cost_tunables) {
		/* an older allocgate took its cost samples in the gate's own
		 * environment, with lazy binding inside the regions: other counts */
		add(why, wsize, "the baseline's cost samples were taken by an older allocgate, in "
		    "another environment");
		keys++;
	}
	if (base->cost_ifuncs && *base->cost_ifuncs && cur->cost_ifuncs && *cur->cost_ifuncs) {
		int n = cost_key_diff_ifuncs(base->cost_ifuncs, cur->cost_ifuncs, text, sizeof text);
		if (n) {
			char line[1000];
			snprintf(line, sizeof line, "ifunc variants that ran: %s", text);
			add(why, wsize, line);
			keys += n;
		}
	}
	c->cost_comparable = keys == 0;
}

static bool same_text(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* " family F model M" (and " stepping S" when STEPPING) of C into OUT at
 * *N. */
static void add_identity(const struct context *c, bool stepping, char *out, size_t size,
			 size_t *n)
{
	if (*n < size && c->cpu_family)
		*n += (size_t)snprintf(out + *n, size - *n, " family %s", c->cpu_family);
	if (*n < size && c->cpu_model_number)
		*n += (size_t)snprintf(out + *n, size - *n, " model %s", c->cpu_model_number);
	if (*n < size && stepping && c->cpu_stepping)
		*n += (size_t)snprintf(out + *n, size - *n, " stepping %s", c->cpu_stepping);
}

/* The hardware for timing: the CPU's name, its identity (vendor, family,
 * model, stepping) where both contexts record one, and the online cores.
 * Two machines both named "AMD EPYC" (a Zen 3 and a Zen 5) differ by
 * family and model. WHY: "AMD EPYC family 0x19 model 0x11 -> family 0x1a model 0x02;
 * cores 2 -> 4". A baseline without an identity (an older version) is
 * compared by name and cores, and C->identity_unknown says so. */
static void decide_hardware(const struct context *base, const struct context *cur,
			    struct comparability *c)
{
	bool both = cpu_identity_known(base) && cpu_identity_known(cur);
	bool name = same_text(base->cpu_model, cur->cpu_model);
	bool step = !both || same_text(base->cpu_stepping, cur->cpu_stepping);
	bool fm = !both || (same_text(base->cpu_family, cur->cpu_family) &&
			    same_text(base->cpu_model_number, cur->cpu_model_number) &&
			    same_text(base->cpu_vendor, cur->cpu_vendor));
	char *why = c->hardware_why;
	size_t size = sizeof c->hardware_why, n = 0;

	c->identity_unknown = !cpu_identity_known(base) && cpu_identity_known(cur);
	c->same_hardware = name && fm && step && base->cpu_count == cur->cpu_count;
	if (!name || !fm || !step) {
		n = (size_t)snprintf(why, size, "%s", base->cpu_model ? base->cpu_model : "unknown");
		if (both)
			add_identity(base, !step, why, size, &n);
		if (n < size)
			n += (size_t)snprintf(why + n, size - n, " ->%s%s", name ? "" : " ",
					      name ? "" : cur->cpu_model ? cur->cpu_model : "unknown");
		if (both && (!fm || !step))
			add_identity(cur, !step, why, size, &n);
		else if (both && n < size)   /* only the name differs */
			add_identity(cur, false, why, size, &n);
	}
	if (base->cpu_count != cur->cpu_count && n < size)
		snprintf(why + n, size - n, "%scores %d -> %d", n ? "; " : "", base->cpu_count,
			 cur->cpu_count);
	if (c->identity_unknown)
		cpu_identity_text(cur, c->identity_now, sizeof c->identity_now);
}

void comparable_decide(const struct context *base, const struct context *cur,
		       struct comparability *c)
{
	memset(c, 0, sizeof *c);
	decide_hardware(base, cur, c);
	c->software_changed = platform_software_diff(base, cur, c->software_why,
						     sizeof c->software_why);
	if (cur->cost_tool && *cur->cost_tool)
		decide_cost(base, cur, c);
}

char *comparable_note(const struct comparability *c, bool sites_missing)
{
	char *note = NULL, line[2600];
	if (!c->same_hardware) {
		/* the verdict stands on what does not follow the machine; a
		 * person needs to know what does, and how to move the baseline */
		snprintf(line, sizeof line, "hardware differs from the baseline's: %s: counts%s "
			 "compare; timing against it is information, not compared; `./gate "
			 "--update-baseline` records this machine's", c->hardware_why,
			 c->cost_comparable ? " and cost" : "");
		result_note_append(&note, line);
	} else if (c->identity_unknown) {
		snprintf(line, sizeof line, "the baseline records no CPU identity (an older "
			 "version): hardware compared by the CPU's name and cores alone; `./gate "
			 "--update-baseline` records this machine's (%s)", c->identity_now);
		result_note_append(&note, line);
	}
	if (*c->cost_why) {
		snprintf(line, sizeof line, "cost key changed since the baseline (%s): cost not "
			 "compared; rerun with --update-baseline", c->cost_why);
		result_note_append(&note, line);
	} else if (c->cost_comparable && !c->same_hardware) {
		result_note_append(&note, "cost compared: what ran under valgrind is the same (the cost key "
			 "matches)");
	}
	if (*c->cost_notes) {
		snprintf(line, sizeof line, "cost: %s", c->cost_notes);
		result_note_append(&note, line);
	}
	if (*c->software_why) {
		/* not a verdict: what a person should know when reading one */
		snprintf(line, sizeof line, "software differs from the baseline's: %s",
			 c->software_why);
		result_note_append(&note, line);
	}
	if (sites_missing)
		result_note_append(&note, "the baseline records no allocation sites (written by an older "
			 "version): sites not compared; rerun with --update-baseline");
	return note;
}
