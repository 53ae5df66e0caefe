/* unavailable.c: grouping the counters a machine refused by cause. Two
 * reasons are one cause when they end with the same parenthesised
 * explanation ("not permitted (perf_event_paranoid=3; ...)", "no
 * tracepoint raw_syscalls:sys_enter (tracefs not mounted ...)"); the line
 * shows what their texts have in common. */
#include <stdlib.h>
#include <string.h>

#include "report/unavailable.h"

/* The part of REASON that names the cause: from its last " (" on, or all. */
static const char *cause_of(const char *reason)
{
	const char *p = strstr(reason, " (");
	for (const char *q = p; q; q = strstr(q + 1, " ("))
		p = q;
	return p ? p : reason;
}

static int is_run_wide(const struct problem *p)
{
	return !p->kernel && p->what && p->reason;
}

/* Length of the words REASON and OTHER start with alike (cut at a space). */
static size_t common_words(const char *reason, const char *other)
{
	size_t n = 0, cut = 0;
	while (reason[n] && reason[n] == other[n]) {
		if (reason[n] == ' ')
			cut = n;
		n++;
	}
	return reason[n] == other[n] ? n : cut;
}

/* Prints the group of run-wide problem I (the first of its cause). */
static void print_group(FILE *f, const struct run_result *r, size_t i)
{
	const char *reason = r->problems[i].reason, *cause = cause_of(reason);
	size_t head = strlen(reason) - strlen(cause);
	fprintf(f, "unavailable: %s", r->problems[i].what);
	for (size_t j = i + 1; j < r->problem_count; j++) {
		const struct problem *p = &r->problems[j];
		if (!is_run_wide(p) || strcmp(cause_of(p->reason), cause))
			continue;
		fprintf(f, ", %s", p->what);
		size_t same = common_words(reason, p->reason);
		head = same < head ? same : head;
	}
	fprintf(f, ": %.*s%s\n", (int)head, reason, cause);
}

/* Whether run-wide problem I's cause was met before I. */
static int seen_before(const struct run_result *r, size_t i)
{
	const char *cause = cause_of(r->problems[i].reason);
	for (size_t j = 0; j < i; j++)
		if (is_run_wide(&r->problems[j]) && !strcmp(cause_of(r->problems[j].reason), cause))
			return 1;
	return 0;
}

void unavailable_print(FILE *f, const struct run_result *r)
{
	int printed = 0;
	for (size_t i = 0; i < r->problem_count; i++) {
		if (!is_run_wide(&r->problems[i]) || seen_before(r, i))
			continue;
		print_group(f, r, i);
		printed = 1;
	}
	const char *have = r->ctx.counters ? strstr(r->ctx.counters, "available: ") : NULL;
	if (printed && have == r->ctx.counters && have) {
		const char *end = strchr(have, ';');
		int len = end ? (int)(end - have) - 11 : (int)strlen(have) - 11;
		fprintf(f, "measured instead: %.*s (what is unavailable is never gated)\n", len,
			have + 11);
	}
}
