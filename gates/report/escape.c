/* escape.c: one escaping rule per renderer (escape.h). */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "core/utf8.h"
#include "store/jsonout.h"

/* The terminal's form of the control character C (below 0x20 or DEL). */
static void term_control(unsigned char c, char out[8])
{
	if (c == '\r')
		memcpy(out, "\\r", 3);
	else if (c == '\n')
		memcpy(out, "\\n", 3);
	else if (c == '\t')
		memcpy(out, "\\t", 3);
	else
		snprintf(out, 8, "\\x%02x", c);
}

char *escape_term_dup(const char *s)
{
	/* the longest form: "\u009b" (6 bytes) for a 2-byte C1 character,
	 * "\xff" (4) for one byte */
	char *out = malloc(4 * strlen(s) + 1), *o = out, form[8];
	uint32_t cp;
	size_t n;

	if (!out)
		return NULL;
	while (*s) {
		n = utf8_sequence(s, &cp);
		if (n == 0) {
			o += sprintf(o, "\\x%02x", (unsigned char)*s);
			s++;
		} else if (cp < 0x20 || cp == 0x7f) {
			term_control((unsigned char)cp, form);
			o += sprintf(o, "%s", form);
			s++;
		} else if (cp >= 0x80 && cp < 0xa0) {
			/* C1 controls: 0x9b is a CSI to some terminals */
			o += sprintf(o, "\\u%04x", (unsigned)cp);
			s += n;
		} else {
			memcpy(o, s, n);
			o += n, s += n;
		}
	}
	*o = '\0';
	return out;
}

/* Writes the character at S (N bytes, code point CP; N 0 for a byte that
 * is not UTF-8) for markdown: U+FFFD for the byte, a control character
 * visible as in the terminal, the rest as it is. Returns the bytes used. */
static size_t md_char(FILE *f, const char *s, size_t n, uint32_t cp)
{
	char form[8];

	if (n == 0) {
		fputs("\xef\xbf\xbd", f);
		return 1;
	}
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
		/* a line break would end the list item or row: a space, as
		 * before; the rest shown */
		if (cp == '\n' || cp == '\r' || cp == '\t')
			fputc(' ', f);
		else if (cp < 0x80)
			term_control((unsigned char)cp, form), fputs(form, f);
		else
			fprintf(f, "\\u%04x", (unsigned)cp);
		return n;
	}
	fwrite(s, 1, n, f);
	return n;
}

void escape_md_text(FILE *f, const char *s)
{
	uint32_t cp;
	size_t n;

	while (s && *s) {
		n = utf8_sequence(s, &cp);
		if (n == 1 && (*s == '|' || *s == '`' || *s == '*' || *s == '\\'))
			fputc('\\', f), fputc(*s, f), s++;
		else if (n == 1 && *s == ']' && s[1] == '(')
			fputs("\\]", f), s++;   /* "[x](url)", "![x](url)": text */
		else if (n == 1 && *s == '<')
			fputs("&lt;", f), s++;
		else if (n == 1 && *s == '>')
			fputs("&gt;", f), s++;
		else if (n == 1 && *s == '&')
			fputs("&amp;", f), s++;
		else
			s += md_char(f, s, n, cp);
	}
}

void escape_md_code(FILE *f, const char *s)
{
	size_t run = 0, longest = 0, len = s ? strlen(s) : 0, k;
	uint32_t cp;
	size_t n;
	int pad;

	for (k = 0; k < len; k++) {
		run = s[k] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	/* CommonMark: a span opened by N backquotes ends at the next run of
	 * exactly N; one space inside each end is stripped when both have
	 * one, so a text that starts or ends with ` or space is padded */
	pad = len && (s[0] == '`' || s[len - 1] == '`' || s[0] == ' ' || s[len - 1] == ' ');
	for (k = 0; k <= longest; k++)
		fputc('`', f);
	if (pad || !len)
		fputc(' ', f);
	while (s && *s) {
		n = utf8_sequence(s, &cp);
		s += md_char(f, s, n, cp);
	}
	if (pad || !len)
		fputc(' ', f);
	for (k = 0; k <= longest; k++)
		fputc('`', f);
}

void escape_md_place(FILE *f, const char *file, int line)
{
	size_t size = (file ? strlen(file) : 1) + 16;
	char *place = malloc(size);

	if (!place) {
		fputs("`?`", f);
		return;
	}
	snprintf(place, size, "%s:%d", file ? file : "?", line);
	escape_md_code(f, place);
	free(place);
}

void escape_xml(FILE *f, const char *s)
{
	uint32_t cp;
	size_t n;

	while (s && *s) {
		n = utf8_sequence(s, &cp);
		if (n == 0) {
			fputs("\xef\xbf\xbd", f);
			s++;
			continue;
		}
		if (cp == '&')
			fputs("&amp;", f);
		else if (cp == '<')
			fputs("&lt;", f);
		else if (cp == '>')
			fputs("&gt;", f);
		else if (cp == '"')
			fputs("&quot;", f);
		else if (cp == '\n')
			fputs("&#10;", f);
		else if (cp == '\r')
			fputs("&#13;", f);
		else if ((cp < 0x20 && cp != '\t') || cp == 0xfffe || cp == 0xffff)
			fputc('?', f);
		else
			fwrite(s, 1, n, f);
		s += n;
	}
}

/* The HTML rule's form of a character of N bytes (0: a byte that is not
 * UTF-8) and code point CP, or NULL when it is written as it is. */
static const char *html_form(size_t n, uint32_t cp, char out[8])
{
	if (n == 0 || cp == 0xfffe || cp == 0xffff)
		return "\xef\xbf\xbd";
	switch (cp) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	case '\t': case '\n': return NULL;
	default: break;
	}
	if (cp < 0x20 || cp == 0x7f) {
		term_control((unsigned char)cp, out);
		return out;
	}
	if (cp >= 0x80 && cp < 0xa0) {
		snprintf(out, 8, "\\u%04x", (unsigned)cp);
		return out;
	}
	return NULL;
}

void escape_html(FILE *f, const char *s)
{
	uint32_t cp;
	size_t n;
	char form[8];
	const char *rep;

	while (s && *s) {
		n = utf8_sequence(s, &cp);
		if ((rep = html_form(n, cp, form)))
			fputs(rep, f);
		else
			fwrite(s, 1, n, f);
		s += n ? n : 1;
	}
}

/* The text fields of each element of the result's arrays. */
static const size_t series_texts[] = {
	offsetof(struct series, kernel), offsetof(struct series, variant),
	offsetof(struct series, params), offsetof(struct series, metric),
	offsetof(struct series, unit), offsetof(struct series, file),
	offsetof(struct series, kernel_digest), offsetof(struct series, note),
};
static const size_t expect_texts[] = {
	offsetof(struct expect_result, kernel), offsetof(struct expect_result, params),
	offsetof(struct expect_result, file), offsetof(struct expect_result, expr),
	offsetof(struct expect_result, conditions), offsetof(struct expect_result, note),
};
static const size_t problem_texts[] = {
	offsetof(struct problem, kernel), offsetof(struct problem, variant),
	offsetof(struct problem, params), offsetof(struct problem, what),
	offsetof(struct problem, reason),
};
static const size_t site_texts[] = {
	offsetof(struct site, kernel), offsetof(struct site, variant),
	offsetof(struct site, params), offsetof(struct site, file),
	offsetof(struct site, function), offsetof(struct site, kind),
	offsetof(struct site, via),
};
static const size_t site_change_texts[] = {
	offsetof(struct site_change, kernel), offsetof(struct site_change, variant),
	offsetof(struct site_change, params), offsetof(struct site_change, file),
	offsetof(struct site_change, function), offsetof(struct site_change, kind),
	offsetof(struct site_change, via_before), offsetof(struct site_change, via_after),
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The text at BASE + OFF replaced by RULE's copy (NULL stays NULL). */
static int escape_field(char *base, size_t off, char *(*rule)(const char *s))
{
	char **p = (char **)(base + off);

	if (*p && !(*p = rule(*p)))
		return -ENOMEM;
	return 0;
}

/* Frees the texts at OFFS of the COUNT elements of SIZE at ARR, and ARR. */
static void free_array(void *arr, size_t count, size_t size, const size_t *offs, size_t nofs)
{
	for (size_t i = 0; arr && i < count; i++)
		for (size_t k = 0; k < nofs; k++)
			free(*(char **)((char *)arr + i * size + offs[k]));
	free(arr);
}

/* *DST: a copy of the COUNT elements of SIZE at SRC with the texts at
 * OFFS escaped; on failure nothing is left to free. */
static int escape_array(void **dst, const void *src, size_t count, size_t size,
			const size_t *offs, size_t nofs, char *(*rule)(const char *s))
{
	char *arr;

	*dst = NULL;
	if (!src || !count)
		return 0;
	if (!(arr = calloc(count, size)))
		return -ENOMEM;
	for (size_t i = 0; i < count; i++) {
		memcpy(arr + i * size, (const char *)src + i * size, size);
		for (size_t k = 0; k < nofs; k++) {
			if (escape_field(arr + i * size, offs[k], rule) < 0) {
				/* the texts before this one are copies, the rest R's */
				for (size_t j = k + 1; j < nofs; j++)
					*(char **)(arr + i * size + offs[j]) = NULL;
				free_array(arr, i + 1, size, offs, nofs);
				return -ENOMEM;
			}
		}
	}
	*dst = arr;
	return 0;
}

/* The baseline note NOTE escaped line by line (its line breaks are the
 * gate's); NULL on no memory. */
static char *escape_lines(const char *note, char *(*rule)(const char *s))
{
	size_t len = strlen(note), used = 0;
	char *copy = malloc(len + 1), *out = NULL, *line, *next, *esc, *grown;

	if (!copy)
		return NULL;
	memcpy(copy, note, len + 1);
	for (line = copy; line; line = next) {
		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		if (!(esc = rule(line)))
			goto fail;
		grown = realloc(out, used + strlen(esc) + 2);
		if (!grown) {
			free(esc);
			goto fail;
		}
		out = grown;
		used += (size_t)sprintf(out + used, "%s%s", esc, next ? "\n" : "");
		free(esc);
	}
	free(copy);
	return out ? out : calloc(1, 1);
fail:
	free(copy);
	free(out);
	return NULL;
}

/* The context's texts (jsonout's table of its fields) escaped in place of
 * C's, a copy of R's; on failure the rest are NULL. */
static int escape_context(struct context *c, char *(*rule)(const char *s))
{
	size_t i, k;

	for (i = 0; i < jsonout_context_field_count; i++) {
		if (jsonout_context_fields[i].kind != JSONOUT_STRING)
			continue;
		if (escape_field((char *)c, jsonout_context_fields[i].offset, rule) < 0) {
			for (k = i + 1; k < jsonout_context_field_count; k++)
				if (jsonout_context_fields[k].kind == JSONOUT_STRING)
					*(char **)((char *)c + jsonout_context_fields[k].offset) = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

int escape_result(const struct run_result *r, char *(*rule)(const char *s),
		  struct run_result *out)
{
	void *p[5];
	int bad = 0;

	*out = *r;
	out->series = NULL, out->expects = NULL, out->problems = NULL;
	out->sites = NULL, out->site_changes = NULL;
	out->baseline_path = out->baseline_note = out->comparison = out->baseline_written = NULL;
	bad |= escape_array(&p[0], r->series, r->series_count, sizeof *r->series, series_texts,
			    COUNT(series_texts), rule);
	out->series = p[0];
	bad |= escape_array(&p[1], r->expects, r->expect_count, sizeof *r->expects, expect_texts,
			    COUNT(expect_texts), rule);
	out->expects = p[1];
	bad |= escape_array(&p[2], r->problems, r->problem_count, sizeof *r->problems,
			    problem_texts, COUNT(problem_texts), rule);
	out->problems = p[2];
	bad |= escape_array(&p[3], r->sites, r->site_count, sizeof *r->sites, site_texts,
			    COUNT(site_texts), rule);
	out->sites = p[3];
	bad |= escape_array(&p[4], r->site_changes, r->site_change_count, sizeof *r->site_changes,
			    site_change_texts, COUNT(site_change_texts), rule);
	out->site_changes = p[4];
	bad |= escape_context(&out->ctx, rule);
	if (r->baseline_path)
		bad |= !(out->baseline_path = rule(r->baseline_path));
	if (r->baseline_written)
		bad |= !(out->baseline_written = rule(r->baseline_written));
	if (r->baseline_note)
		bad |= !(out->baseline_note = escape_lines(r->baseline_note, rule));
	if (r->comparison)
		bad |= !(out->comparison = rule(r->comparison));
	if (bad) {
		escape_result_free(out);
		return -ENOMEM;
	}
	return 0;
}

void escape_result_free(struct run_result *out)
{
	free_array(out->series, out->series ? out->series_count : 0, sizeof *out->series,
		   series_texts, COUNT(series_texts));
	free_array(out->expects, out->expects ? out->expect_count : 0, sizeof *out->expects,
		   expect_texts, COUNT(expect_texts));
	free_array(out->problems, out->problems ? out->problem_count : 0, sizeof *out->problems,
		   problem_texts, COUNT(problem_texts));
	free_array(out->sites, out->sites ? out->site_count : 0, sizeof *out->sites, site_texts,
		   COUNT(site_texts));
	free_array(out->site_changes, out->site_changes ? out->site_change_count : 0,
		   sizeof *out->site_changes, site_change_texts, COUNT(site_change_texts));
	for (size_t i = 0; i < jsonout_context_field_count; i++)
		if (jsonout_context_fields[i].kind == JSONOUT_STRING)
			free(*(char **)((char *)&out->ctx + jsonout_context_fields[i].offset));
	free(out->baseline_path);
	free(out->baseline_written);
	free(out->baseline_note);
	free(out->comparison);
	memset(out, 0, sizeof *out);
}
