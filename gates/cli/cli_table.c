/* cli_table.c: a subcommand's option table read as its parser and its
 * --help (cli_table.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_refuse.h"
#include "cli/cli_table.h"

void cli_table_usage_row(void *fp, int width, const char *name, const char *value,
			 const char *help)
{
	FILE *f = fp;
	char shown[64];
	snprintf(shown, sizeof shown, "%s%s%s", name, value ? " " : "", value ? value : "");
	fprintf(f, "  %-*s ", width, shown);
	for (const char *line = help; *line;) {
		size_t n = strcspn(line, "\n");
		fprintf(f, "%*s%.*s\n", line == help ? 0 : width + 3, "", (int)n, line);
		line += n + (line[n] == '\n');
	}
}

void cli_table_usage(const struct cli_table *t, void *f)
{
	int width = t->width ? t->width : CLI_TABLE_WIDTH;
	fputs(t->head, f);
	for (size_t i = 0; i < t->count; i++) {
		const struct cli_flag *r = &t->flags[i];
		if (!r->shown)
			cli_table_usage_row(f, width, r->name, r->value, r->help);
		else if (*r->shown)   /* "": said on the row above's line */
			cli_table_usage_row(f, width, r->shown, NULL, r->help);
	}
	if (t->tail)
		fputs(t->tail, f);
}

/* The row of T, else of T's ALSO (and so on), named NAME that sets
 * something; *PLAN becomes the plan it sets, *TOP its index in T
 * (CLI_TABLE_ROWS_MAX: a row of an ALSO). NULL if none. */
static const struct cli_flag *find_row(const struct cli_table *t, const char *name, void **plan,
				       size_t *top)
{
	*top = CLI_TABLE_ROWS_MAX;
	for (const struct cli_table *at = t; at; at = at->also) {
		for (size_t i = 0; i < at->count; i++) {
			const struct cli_flag *r = &at->flags[i];
			if (r->set && !strcmp(r->name, name)) {
				*top = at == t ? i : CLI_TABLE_ROWS_MAX;
				return r;
			}
		}
		if (at->also)
			*plan = at->also_plan(*plan);
	}
	return NULL;
}

/* The flag ARGV[*I] and its value (after '=' in it, else the next
 * argument, *I moved past it) handed to its row's SET: 0, or -1 after a
 * message. *SEEN gains the bit of T's row given. */
static int take_flag(const struct cli_table *t, void *plan, int argc, char **argv, int *i,
		     uint64_t *seen)
{
	const char *arg = argv[*i], *eq = arg[1] == '-' ? strchr(arg, '=') : NULL, *value;
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg), top;
	const struct cli_flag *r = NULL;
	char name[48];
	if (n < sizeof name) {
		snprintf(name, sizeof name, "%.*s", (int)n, arg);
		r = find_row(t, name, &plan, &top);
	}
	if (!r || (!r->value && eq))
		return cli_refuse_unknown(t->command, arg);
	if (top < CLI_TABLE_ROWS_MAX)
		*seen |= (uint64_t)1 << top;
	if (!r->value)
		return r->set(plan, r->name, NULL);
	value = eq ? eq + 1 : *i + 1 < argc ? argv[++*i] : NULL;
	if (!value || !*value)
		return cli_refuse_missing_value(r->name, r->value);
	return r->set(plan, r->name, value);
}

/* T's required rows not in SEEN (the rows given, by index), named with
 * their values in one refusal: 0 when none. */
static int refuse_missing_rows(const struct cli_table *t, uint64_t seen)
{
	const struct cli_flag *missing[CLI_TABLE_ROWS_MAX];
	size_t n = 0, len = 0;
	char what[512] = "";
	for (size_t i = 0; i < t->count && i < CLI_TABLE_ROWS_MAX; i++)
		for (size_t k = 0; t->required && t->required[k]; k++)
			if (!strcmp(t->flags[i].name, t->required[k]) && !(seen >> i & 1))
				missing[n++] = &t->flags[i];
	for (size_t k = 0; k < n && len < sizeof what; k++)
		len += (size_t)snprintf(what + len, sizeof what - len, "%s%s %s",
					!k ? "" : k + 1 < n ? ", " : " and ", missing[k]->name,
					missing[k]->value);
	return n ? cli_refuse_missing(t->command, what) : 0;
}

enum cli_parse cli_table_parse(const struct cli_table *t, void *plan, int argc, char **argv)
{
	uint64_t seen = 0;
	for (int i = 0; i < argc; i++) {
		char *arg = argv[i];
		int bad;
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			cli_table_usage(t, stdout);
			return CLI_HELP_PRINTED;
		}
		if (arg[0] == '-')
			bad = take_flag(t, plan, argc, argv, &i, &seen);
		else
			bad = t->word ? t->word(plan, arg) : cli_refuse_unexpected(t->command, arg);
		if (bad)
			return CLI_BAD_USAGE;
	}
	return refuse_missing_rows(t, seen) ? CLI_BAD_USAGE : CLI_PARSED;
}
