/* comparable.c: what of a run can be compared with a baseline
 * (comparable.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cost_key.h"
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

void comparable_decide(const struct context *base, const struct context *cur,
		       struct comparability *c)
{
	memset(c, 0, sizeof *c);
	c->same_hardware = platform_same_hardware(base, cur, c->hardware_why,
						  sizeof c->hardware_why);
	c->software_changed = platform_software_diff(base, cur, c->software_why,
						     sizeof c->software_why);
	if (cur->cost_tool && *cur->cost_tool)
		decide_cost(base, cur, c);
}

char *comparable_note(const struct comparability *c, bool sites_missing)
{
	char *note = NULL, line[2600];
	if (!c->same_hardware) {
		snprintf(line, sizeof line, "hardware changed since the baseline (%s): timing not "
			 "compared; rerun with --update-baseline", c->hardware_why);
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
