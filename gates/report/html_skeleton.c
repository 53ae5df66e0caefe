/* html_skeleton.c: the --html page's start and end, its styles and its one
 * script (html_parts.h). Both are written here by hand and stay small: the
 * page loads nothing (its Content-Security-Policy forbids it), so that it
 * reads the same offline, from an artifact, as where it was made. */
#include <stdio.h>

#include "report/html_parts.h"
#include "report/escape.h"
#include "report/page.h"

/* No load of any kind: styles and scripts only inline, images only as
 * data: URLs. */
#define HTML_POLICY "default-src 'none'; style-src 'unsafe-inline'; " \
		    "script-src 'unsafe-inline'; img-src data:"

/* Verdict colours as the SVG charts' (report_svg.c): fail red, improved
 * green, inconclusive amber. The series table scrolls in a box of its own
 * under a header that stays, so that the charts and flame graphs below
 * it are a scroll away, not a table's length. */
static const char html_style[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1b1b1b;"
	"max-width:1240px;margin:0 auto;padding:0 18px 48px}\n"
	"h1{font-size:22px;margin:18px 0 10px;padding:10px 14px;border-radius:6px}\n"
	"h1.pass{background:#e7f4ea;color:#1e6b34}h1.fail{background:#fdeceb;color:#a4161a}\n"
	"h2{font-size:17px;margin:26px 0 8px;padding-bottom:3px;border-bottom:1px solid #ddd}\n"
	"p.head{color:#333}p.note{background:#fff7e0;border-left:4px solid #e0a100;"
	"padding:6px 10px}\n"
	"nav{margin:10px 0;font-size:13px}nav a{margin-right:14px}\n"
	"code{font:12.5px ui-monospace,'SFMono-Regular',Menlo,Consolas,monospace;"
	"background:#f2f2f2;padding:0 3px;border-radius:3px;overflow-wrap:anywhere}\n"
	"ul{padding-left:22px}li{margin:2px 0}details{margin:10px 0}summary{cursor:pointer}\n"
	".scroll{max-height:70vh;overflow:auto;border:1px solid #ddd;border-radius:4px}\n"
	"table{border-collapse:collapse;width:100%;font-size:12.5px}\n"
	"th,td{padding:2px 7px;text-align:left;vertical-align:top;border-bottom:1px solid #eee}\n"
	"th{position:sticky;top:0;background:#f4f4f4;white-space:nowrap}\n"
	"td{overflow-wrap:break-word}td:last-child{white-space:nowrap}\n"
	"table.series td:nth-child(n+5):nth-child(-n+8),table.claims td:nth-child(n+5):"
	"nth-child(-n+7),th.n{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}\n"
	".hint{display:none;color:#555;font-size:13px}body[data-ready] .hint{display:block}\n"
	"body[data-ready] table.sortable th{cursor:pointer}\n"
	"th[aria-sort=ascending]::after{content:' \\25B2'}"
	"th[aria-sort=descending]::after{content:' \\25BC'}\n"
	".fail,.error{color:#b71c1c;font-weight:600}.improved{color:#1b5e20;font-weight:600}"
	".inconclusive,.moved{color:#8a5300}\n"
	"tr:hover td{background:#f7f9fc}\n"
	"figure{margin:10px 0}svg{max-width:100%;height:auto}\n";

/* Sorts every table.sortable by the column whose title is clicked (or
 * given Enter or Space), again to reverse; a column of class n by the
 * numbers in its cells' data-v, cells without one last either way; the
 * others as text, numbers inside it compared as numbers ("2k" before
 * "16k"). Then marks <body> data-ready: its absence says the script
 * broke. */
static const char html_script[] =
	"(function () {\n"
	"\"use strict\";\n"
	"function value(cell, numeric) {\n"
	"\tif (!numeric)\n"
	"\t\treturn cell ? cell.textContent : \"\";\n"
	"\tvar v = cell ? cell.getAttribute(\"data-v\") : null;\n"
	"\treturn v === null ? NaN : parseFloat(v);\n"
	"}\n"
	"function order(x, y, numeric) {\n"
	"\tif (!numeric)\n"
	"\t\treturn x.localeCompare(y, undefined, { numeric: true });\n"
	"\treturn x < y ? -1 : x > y ? 1 : 0;\n"
	"}\n"
	"function sort(table, th) {\n"
	"\tvar heads = th.parentNode.cells, col = th.cellIndex;\n"
	"\tvar numeric = th.classList.contains(\"n\");\n"
	"\tvar up = th.getAttribute(\"aria-sort\") !== \"ascending\";\n"
	"\tvar body = table.tBodies[0];\n"
	"\tvar rows = Array.prototype.slice.call(body.rows);\n"
	"\trows.sort(function (a, b) {\n"
	"\t\tvar x = value(a.cells[col], numeric), y = value(b.cells[col], numeric);\n"
	"\t\tif (numeric && (isNaN(x) || isNaN(y)))\n"
	"\t\t\treturn isNaN(x) - isNaN(y);\n"
	"\t\treturn (up ? 1 : -1) * order(x, y, numeric);\n"
	"\t});\n"
	"\tfor (var i = 0; i < heads.length; i++)\n"
	"\t\theads[i].removeAttribute(\"aria-sort\");\n"
	"\tth.setAttribute(\"aria-sort\", up ? \"ascending\" : \"descending\");\n"
	"\tvar keep = document.createDocumentFragment();\n"
	"\trows.forEach(function (row) { keep.appendChild(row); });\n"
	"\tbody.appendChild(keep);\n"
	"}\n"
	"function sortable(table) {\n"
	"\tvar heads = table.tHead.rows[0].cells;\n"
	"\tArray.prototype.forEach.call(heads, function (th) {\n"
	"\t\tth.tabIndex = 0;\n"
	"\t\tth.title = \"sort by \" + th.textContent;\n"
	"\t\tth.addEventListener(\"click\", function () { sort(table, th); });\n"
	"\t\tth.addEventListener(\"keydown\", function (e) {\n"
	"\t\t\tif (e.key === \"Enter\" || e.key === \" \") {\n"
	"\t\t\t\te.preventDefault();\n"
	"\t\t\t\tsort(table, th);\n"
	"\t\t\t}\n"
	"\t\t});\n"
	"\t});\n"
	"}\n"
	"Array.prototype.forEach.call(document.querySelectorAll(\"table.sortable\"), sortable);\n"
	"document.body.setAttribute(\"data-ready\", \"\");\n"
	"})();\n";

void html_open(FILE *f, const struct run_result *r)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"" HTML_POLICY "\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>allocgate: ", f);
	escape_html(f, gate_exit_word(r->exit_code));
	if (page_nothing_moved(r))
		fputs(": nothing changed", f);
	fputs("</title>\n<style>\n", f);
	fputs(html_style, f);
	fputs("</style>\n</head>\n<body>\n", f);
}

void html_close(FILE *f)
{
	fputs("<script>\n", f);
	fputs(html_script, f);
	fputs("</script>\n</body>\n</html>\n", f);
}

void html_contents(FILE *f, const struct run_result *r)
{
	fputs("<nav>", f);
	if (html_has_flames(r))
		fputs("<a href=\"#flames\">flame graphs</a>", f);
	if (r->series_count)
		fputs("<a href=\"#series\">every series</a>", f);
	if (r->expect_count)
		fputs("<a href=\"#expectations\">every expectation</a>", f);
	if (html_has_plots(r))
		fputs("<a href=\"#plots\">wall-time charts</a>", f);
	fputs("</nav>\n", f);
}
