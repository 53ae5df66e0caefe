/* page_parts.h: the pieces page.c and page_changes.c write a page with
 * (page.h), through its dialect. */
#ifndef GATE_PAGE_PARTS_H
#define GATE_PAGE_PARTS_H

#include "report/page.h"

/* The dialect's markup that opens, or closes, part K. */
void page_open(const struct page *p, enum page_part k);
void page_close(const struct page *p, enum page_part k);

/* The gate's words, printf-formatted (at most 1023 bytes). */
void page_words(const struct page *p, const char *fmt, ...);

/* "KERNEL/VARIANT/PARAMS", its names under the text rule. */
void page_group(const struct page *p, const char *kernel, const char *variant,
		const char *params);

/* "FILE:LINE" as code ("?" for a NULL FILE). */
void page_place(const struct page *p, const char *file, int line);

#endif
