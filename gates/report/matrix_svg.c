/* matrix_svg.c: `gate matrix --svg DIR`: DIR/matrix.svg, the claims x
 * allocators table as a heat map (one row per claim and parameter set,
 * one column per allocator; the colour is the verdict, strong where the
 * claim is declared for that allocator, pale where it is information; the
 * number is the estimate). Plain SVG 1.1, no script. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/matrix_report.h"

#define ROW_PX 22
#define LABEL_PX 620
#define CELL_PX 150
#define TOP_PX 64

static const char *fill(const struct matrix_cell *c)
{
	if (!c->measured)
		return "#e0e0e0";
	switch (c->verdict) {
	case VERDICT_PASS: return c->declared ? "#2e7d32" : "#a5d6a7";
	case VERDICT_FAIL: return c->declared ? "#c62828" : "#ef9a9a";
	case VERDICT_INCONCLUSIVE: return c->declared ? "#f9a825" : "#fff59d";
	default: return "#bdbdbd";
	}
}

static const char *ink(const struct matrix_cell *c)
{
	return c->measured && c->declared && c->verdict != VERDICT_INCONCLUSIVE ? "#ffffff"
										: "#212121";
}

void matrix_svg_print(FILE *f, const struct matrix *m)
{
	size_t width = LABEL_PX + CELL_PX * m->allocator_count + 10;
	size_t height = TOP_PX + ROW_PX * (m->claim_count + 2);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%zu\" height=\"%zu\" "
		"font-family=\"monospace\" font-size=\"12\">\n", width, height);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	fputs("<text x=\"6\" y=\"18\" font-size=\"14\" font-weight=\"bold\">allocgate matrix: ", f);
	format_xml_text(f, m->ctx.platform_key ? m->ctx.platform_key : "?");
	fprintf(f, ", %s tier</text>\n", m->ctx.tier ? m->ctx.tier : "?");
	fputs("<text x=\"6\" y=\"36\" fill=\"#555555\">strong: declared for that allocator "
	      "(gated by gate run); pale: information. green holds, red fails, yellow "
	      "inconclusive; the number is the estimate</text>\n", f);
	for (size_t a = 0; a < m->allocator_count; a++) {
		fprintf(f, "<text x=\"%zu\" y=\"%d\" font-weight=\"bold\">", LABEL_PX + CELL_PX * a + 6,
			TOP_PX - 8);
		format_xml_text(f, m->allocators[a].name);
		fputs("</text>\n", f);
	}
	for (size_t i = 0; i < m->claim_count; i++) {
		const struct matrix_claim *c = &m->claims[i];
		size_t y = TOP_PX + ROW_PX * i;
		char label[600];
		snprintf(label, sizeof label, "%s %s :%d %s", c->kernel, c->params, c->line, c->expr);
		if (strlen(label) > 84)
			memcpy(label + 81, "...", 4);
		fprintf(f, "<text x=\"6\" y=\"%zu\">", y + 15);
		format_xml_text(f, label);
		fputs("<title>", f);
		format_xml_text(f, c->file);
		fprintf(f, ":%d ", c->line);
		format_xml_text(f, c->expr);
		fputs("</title></text>\n", f);
		for (size_t a = 0; a < m->allocator_count; a++) {
			const struct matrix_cell *cell = &c->cells[a];
			size_t x = LABEL_PX + CELL_PX * a;
			fprintf(f, "<rect x=\"%zu\" y=\"%zu\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
				x + 1, y + 1, CELL_PX - 2, ROW_PX - 2, fill(cell));
			char est[64], interval[128];
			matrix_cell_estimate(cell, interval, sizeof interval);
			if (cell->measured && isfinite(cell->estimate))
				snprintf(est, sizeof est, "%s %.3g", matrix_cell_word(cell),
					 cell->estimate);
			else
				snprintf(est, sizeof est, "%s", matrix_cell_word(cell));
			fprintf(f, "<text x=\"%zu\" y=\"%zu\" fill=\"%s\">%s<title>%s %s</title></text>\n",
				x + 6, y + 15, ink(cell), est, matrix_cell_word(cell), interval);
		}
	}
	fputs("</svg>\n", f);
}
