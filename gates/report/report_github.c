/* report_github.c: GitHub Actions annotations (report_github.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_github.h"
#include "decide/sites.h"
#include "report/format.h"

void report_github_escape(const char *s, int property, char *buf, size_t size)
{
	size_t n = 0;
	if (!size)
		return;
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		char hex[8];
		const char *rep = c == '%' ? "%25" : c == '\r' ? "%0D" : c == '\n' ? "%0A"
				  : property && c == ':' ? "%3A" : property && c == ',' ? "%2C"
				  : NULL;
		/* any other control character (ESC, BEL, DEL...) shown as \xNN,
		 * never emitted into the log (escape.h, the terminal's rule) */
		if (!rep && (c < 0x20 || c == 0x7f)) {
			snprintf(hex, sizeof hex, "\\x%02x", c);
			rep = hex;
		}
		size_t len = rep ? strlen(rep) : 1;
		if (n + len >= size)
			break;
		if (rep)
			memcpy(buf + n, rep, len);
		else
			buf[n] = *s;
		n += len;
	}
	buf[n] = '\0';
}

/* The annotations of one run, counted first and printed second: GitHub
 * shows REPORT_GITHUB_MAX per step, so past that the last one printed says
 * how many more the step summary lists. */
struct emit {
	FILE *f;          /* NULL: only count */
	size_t total;     /* annotations the run has */
	size_t printed;
	size_t limit;     /* print at most this many */
};

/* One command: LEVEL (error, warning, notice) at FILE:LINE (FILE may be NULL). */
static void command(struct emit *o, const char *level, const char *file, int line,
		    const char *title, const char *message)
{
	char ef[1024], et[512], em[4096];
	o->total++;
	if (!o->f || o->printed >= o->limit)
		return;
	o->printed++;
	report_github_escape(title, 1, et, sizeof et);
	report_github_escape(message, 0, em, sizeof em);
	if (file && *file) {
		report_github_escape(file, 1, ef, sizeof ef);
		fprintf(o->f, "::%s file=%s,line=%d,title=%s::%s\n", level, ef, line > 0 ? line : 1,
			et, em);
	} else {
		fprintf(o->f, "::%s title=%s::%s\n", level, et, em);
	}
}

static void expectations(struct emit *o, const struct run_result *r)
{
	char text[2048], title[512];
	for (size_t i = 0; i < r->expect_count; i++) {
		const struct expect_result *e = &r->expects[i];
		/* not gated (declared for another allocator): no annotation */
		/* gate ab: a claim that fails before and after is a warning (not
		 * the change's), one that holds now a notice */
		const char *level = !e->gated ? NULL
				    : e->verdict == VERDICT_INCONCLUSIVE ||
				      e->verdict == VERDICT_FAIL_BOTH ? "warning"
				    : e->verdict == VERDICT_IMPROVED ? "notice"
				    : e->verdict == VERDICT_FAIL || e->verdict == VERDICT_ERROR
					    ? "error" : NULL;
		if (!level)
			continue;
		format_expect(e, r->ctx.allocator, text, sizeof text);
		snprintf(title, sizeof title, "allocgate: %s/%s expectation %s", e->kernel, e->params,
			 e->verdict == VERDICT_FAIL ? "violated"
			 : e->verdict == VERDICT_FAIL_BOTH ? "fails before and after"
			 : e->verdict == VERDICT_IMPROVED ? "holds now"
			 : result_verdict_name(e->verdict));
		command(o, level, e->file, e->line, title, text);
	}
}

/* Whether FILE:LINE is a line of the repository: a path relative to its
 * source root (kernel_info_source_file), not a library's object nor a
 * file outside it; GitHub shows an annotation only at such a line. */
static int in_repository(const char *file, int line)
{
	return line > 0 && file && *file && file[0] != '/' && file[0] != '\\' &&
	       strncmp(file, "../", 3) && !strchr(file, ':');
}

/* The places of group I (a regressed group's first series) whose
 * allocation calls changed, at lines of the repository that the change
 * touched (gate ab: a file that reads the same on both sides is no place to
 * point at; the group's variant line is), into SH (room for
 * REPORT_GITHUB_SHIFTS). Returns how many. */
static size_t group_places(const struct run_result *r, size_t i, struct site_shift *sh)
{
	const struct series *s = &r->series[i];
	if (!sites_explain_failure(r, s->kernel, s->variant, s->params))
		return 0;
	size_t n = sites_shifts(r, s->kernel, s->variant, s->params, sh, REPORT_GITHUB_SHIFTS);
	size_t m = 0;
	for (size_t k = 0; k < n; k++)
		if (in_repository(sh[k].file, sh[k].line) && !sh[k].file_same)
			sh[m++] = sh[k];
	return m;
}

/* Whether a regressed group before I changed the calls of SH's line. */
static int said_before(const struct run_result *r, size_t i, const struct site_shift *sh)
{
	struct site_shift other[REPORT_GITHUB_SHIFTS];
	for (size_t j = 0; j < i; j++) {
		if (!format_group_first(r, j, true))
			continue;
		size_t m = group_places(r, j, other);
		for (size_t q = 0; q < m; q++)
			if (other[q].line == sh->line && !strcmp(other[q].file, sh->file))
				return 1;
	}
	return 0;
}

/* The error at SH's line: every regressed group from I on that changed
 * the calls of that line, with what it changed. */
static void place_annotation(struct emit *o, const struct run_result *r, size_t i,
			     const struct site_shift *sh)
{
	char text[4000], title[512], calls[700], via[1200];
	struct site_shift other[REPORT_GITHUB_SHIFTS];
	size_t used = 0, groups = 0;
	text[0] = '\0';
	for (size_t j = i; j < r->series_count; j++) {
		if (!format_group_first(r, j, true))
			continue;
		size_t m = group_places(r, j, other);
		for (size_t q = 0; q < m; q++) {
			if (other[q].line != sh->line || strcmp(other[q].file, sh->file))
				continue;
			const struct series *g = &r->series[j];
			format_site_shift_calls(&other[q], calls, sizeof calls);
			if (used < sizeof text)
				used += (size_t)snprintf(text + used, sizeof text - used, "%s%s/%s/%s: %s",
							 used ? "; " : "", g->kernel, g->variant, g->params,
							 calls);
			groups++;
		}
	}
	format_site_shift(sh, via, sizeof via);
	const char *v = strstr(via, " (via ");
	if (v && used < sizeof text)
		snprintf(text + used, sizeof text - used, "%s", v);
	snprintf(title, sizeof title, "allocgate: allocation calls of %s changed (%zu regressed "
		 "group%s)", sh->function ? sh->function : sh->file, groups, groups == 1 ? "" : "s");
	command(o, "error", sh->file, sh->line, title, text);
}

/* One error per line whose allocation calls changed in a regressed group,
 * naming each group it changed; one error per regressed group that no such
 * line explains, at its variant's line, with its decisive figures. */
static void regressions(struct emit *o, const struct run_result *r)
{
	char text[4000], title[512];
	struct site_shift sh[REPORT_GITHUB_SHIFTS];
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!format_group_first(r, i, true))
			continue;
		size_t n = group_places(r, i, sh);
		for (size_t k = 0; k < n; k++)
			if (!said_before(r, i, &sh[k]))
				place_annotation(o, r, i, &sh[k]);
		if (n)
			continue;
		size_t left = format_moved_brief(r, i, true, 4, text, sizeof text);
		if (left)
			snprintf(text + strlen(text), sizeof text - strlen(text),
				 "; %zu more in the step summary", left);
		snprintf(title, sizeof title, "allocgate: regression %s/%s/%s", s->kernel, s->variant,
			 s->params);
		command(o, "error", s->file, s->line, title, text);
	}
}

static void problems(struct emit *o, const struct run_result *r)
{
	char text[2048], title[512];
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		if (!p->kernel)
			continue;
		snprintf(title, sizeof title, "allocgate: %s could not be checked", p->kernel);
		snprintf(text, sizeof text, "%s%s%s%s%s %s: %s", p->kernel, p->variant ? "/" : "",
			 p->variant ? p->variant : "", p->params ? "/" : "", p->params ? p->params : "",
			 p->what, p->reason);
		command(o, "error", NULL, 0, title, text);
	}
}

static void all(struct emit *o, const struct run_result *r)
{
	expectations(o, r);
	regressions(o, r);
	problems(o, r);
}

size_t report_github_print(FILE *f, const struct run_result *r)
{
	struct emit count = { NULL, 0, 0, 0 };
	all(&count, r);
	struct emit out = { f, 0, 0, count.total > REPORT_GITHUB_MAX ? REPORT_GITHUB_MAX - 1
								      : REPORT_GITHUB_MAX };
	all(&out, r);
	if (out.total > out.printed) {
		char text[200];
		snprintf(text, sizeof text, "%zu more findings than GitHub shows per step: the step "
			 "summary (and the markdown report) lists them all", out.total - out.printed);
		out.limit++;
		command(&out, "warning", NULL, 0, "allocgate: more findings", text);
	}
	fflush(f);
	return out.printed;
}

int report_github_enabled(void)
{
	const char *v = getenv("GITHUB_ACTIONS");
	return v && !strcmp(v, "true");
}
