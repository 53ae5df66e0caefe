/* cli_table.c: a subcommand's option table read as its parser and its
 * --help (cli_table.h). */
#include <stdio.h>
#include <string.h>

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

/* The row of T named FLAG that takes a value (VALUED) or is a switch, or NULL. */
static const struct cli_flag *find_flag(const struct cli_table *t, const char *flag, bool valued)
{
	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->flags[i].name, flag) && (t->flags[i].value != NULL) == valued)
			return &t->flags[i];
	return NULL;
}

/* ROW's SET with FLAG and VALUE, or, a row without one, T's OTHER with ARG. */
static int take(const struct cli_table *t, const struct cli_flag *row, void *plan,
		const char *flag, const char *value, char *arg)
{
	return row->set ? row->set(plan, flag, value) : t->other(plan, arg);
}

enum cli_parse cli_table_parse(const struct cli_table *t, void *plan, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		char *a = argv[i], flag[32];
		const char *eq = t->equals ? strchr(a, '=') : NULL, *value = NULL;
		const struct cli_flag *r;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cli_table_usage(t, stdout);
			return CLI_HELP_PRINTED;
		}
		if ((r = find_flag(t, a, false))) {
			if (take(t, r, plan, a, NULL, a))
				return CLI_BAD_USAGE;
			continue;
		}
		if (a[0] == '-' && a[1] == '-' && eq && (size_t)(eq - a) < sizeof flag) {
			snprintf(flag, sizeof flag, "%.*s", (int)(eq - a), a);
			value = eq + 1;
		} else {
			snprintf(flag, sizeof flag, "%s", a);
			eq = NULL;
		}
		if (!(r = find_flag(t, flag, true))) {
			if (t->other(plan, a))
				return CLI_BAD_USAGE;
			continue;
		}
		if (!eq)
			value = i + 1 < argc ? argv[++i] : NULL;
		if (take(t, r, plan, flag, value, a))
			return CLI_BAD_USAGE;
	}
	return CLI_PARSED;
}
