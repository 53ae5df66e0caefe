/* escape.h: how text the gate did not write reaches each renderer. A
 * kernel's names, declarations and stderr, a source path, the environment
 * and a baseline file's fields are all untrusted: each renderer passes
 * them through its one rule here, and nothing of them reaches a report
 * raw (docs/robustness.md, "Hostile text and careless baselines").
 *
 * terminal  control characters (CR, LF, ESC, DEL, C1) and bytes that are
 *           not UTF-8 shown escaped ("\r", "\n", "\x1b", "\xff"), never
 *           emitted: no kernel text moves the cursor, colours the
 *           terminal or starts a line (a GitHub "::" command)
 * markdown  text: one line, | * \ ` escaped, < > & as entities (no HTML),
 *           "](" broken (no link, no image); code spans fenced by more
 *           backquotes than the text holds
 * XML       (JUnit, SVG) & < > " as entities, LF and CR as character
 *           references, other characters XML 1.0 forbids as "?", bytes
 *           that are not UTF-8 as U+FFFD
 * HTML      (--html) & < > " ' as entities, text and attribute values
 *           alike (no tag, no end of an attribute, no end of the page's
 *           script); control characters but TAB and LF shown as in the
 *           terminal ("\r", "\x1b", "\u009b"); bytes that are not UTF-8
 *           and the noncharacters U+FFFE, U+FFFF as U+FFFD
 * JSON      bytes that are not UTF-8 as U+FFFD (store/jsonout.c,
 *           core/utf8.h); jansson escapes the rest
 * GitHub    annotations: % CR LF escaped, other control characters as
 *           "\xNN", and : , in properties
 *           (report_github_escape)
 */
#ifndef GATE_ESCAPE_H
#define GATE_ESCAPE_H

#include <stdio.h>

#include "core/result.h"

/* S under the terminal's rule, in a malloc'd string; NULL on no memory. */
char *escape_term_dup(const char *s);

/* S under the markdown rule for text (a list item, a table cell) into F. */
void escape_md_text(FILE *f, const char *s);

/* S as one markdown code span (its backquotes included) into F, whatever
 * backquotes or control characters S holds. */
void escape_md_code(FILE *f, const char *s);

/* "FILE:LINE" as one markdown code span into F ("?" for a NULL FILE). */
void escape_md_place(FILE *f, const char *file, int line);

/* S under the XML rule (text and attribute values alike) into F. */
void escape_xml(FILE *f, const char *s);

/* S under the HTML rule (text and attribute values alike) into F. */
void escape_html(FILE *f, const char *s);

/* A copy of R for a renderer whose rule is RULE: every text R holds
 * (names, paths, notes, reasons, the context) replaced by RULE's
 * malloc'd copy, the rest shared with R (its samples, its history). The
 * baseline note, lines the gate joined, is escaped line by line. Returns
 * 0, or -ENOMEM with nothing to free. */
int escape_result(const struct run_result *r, char *(*rule)(const char *s),
		  struct run_result *out);

/* Frees what escape_result made (not what it shares with R). */
void escape_result_free(struct run_result *out);

#endif
