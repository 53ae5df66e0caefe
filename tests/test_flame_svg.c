/* test_flame_svg.c: gates/report/flame_layout.c, flame_svg.c and
 * flame_files.c: the layout of hand-built stacks (widths that sum to the
 * variant's total, siblings in alphabetical order, common prefixes merged,
 * rest and truncated stacks), the differential colours (the changed path
 * red or blue, unchanged frames grey), A-only paths listed, a hostile
 * function name escaped, the SVG parsed by python3's XML parser, labels cut
 * to fit, narrow frames left out, the written directory's file names, and
 * `gate diff --flame` (gates/run/run_diff.c, run_diff_flame) on two loaded
 * results. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/flame_layout.h"
#include "report/flame_svg.h"
#include "run/run.h"
#include "flame_fixture.h"
#include "report_fixture.h"

#include <criterion/redirect.h>

static const struct flame_ask ask_calls = { "toy", "single", "small", FLAME_CALLS, false,
					    false, "", false };

/* The stacks of SET as an array of pointers, for flame_layout. */
static const struct stack **pointers(const struct stacks *set)
{
	const struct stack **p = calloc(set->count + 1, sizeof *p);
	cr_assert_not_null(p);
	for (size_t i = 0; i < set->count; i++)
		p[i] = &set->items[i];
	return p;
}

/* The layout of the fixture's stacks, AFTER and BEFORE (A's values when
 * DIFF), under M into T; the caller frees the stacks after the tree (the
 * tree borrows their names). */
static void layout(struct flame_tree *t, struct stacks *after, struct stacks *before, bool diff,
		   enum flame_measure m)
{
	flame_fixture_build(after, before);
	const struct stack **a = pointers(after), **b = pointers(before);
	cr_assert_eq(flame_layout(t, a, after->count, b, diff ? before->count : 0, m), 0);
	free(a);
	free(b);
}

static void layout_free(struct flame_tree *t, struct stacks *after, struct stacks *before)
{
	flame_tree_free(t);
	result_stacks_free(after);
	result_stacks_free(before);
}

/* The index of the first frame of T named NAME, or T->count. */
static size_t find(const struct flame_tree *t, const char *name)
{
	size_t i = 0;
	while (i < t->count && strcmp(t->frames[i].name, name))
		i++;
	return i;
}

/* The graph ASK of AFTER and BEFORE as a string; *RC its return. */
static char *render(const struct stacks *after, const struct stacks *before,
		    const struct flame_ask *ask, int *rc)
{
	FILE *f = tmpfile();
	cr_assert_not_null(f);
	*rc = flame_svg_print(f, after, before, ask);
	long n = ftell(f);
	char *buf = calloc((size_t)n + 1, 1);
	cr_assert_not_null(buf);
	rewind(f);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* The fill of the frame whose tooltip starts with NAME and a line break,
 * into BUF ("" when there is none). */
static const char *fill_of(const char *svg, const char *name, char *buf, size_t size)
{
	char key[256];
	snprintf(key, sizeof key, "<title>%s&#10;", name);
	const char *p = strstr(svg, key);
	buf[0] = '\0';
	if (!p || !(p = strstr(p, "fill=\"")))
		return buf;
	p += 6;
	size_t n = strcspn(p, "\"");
	snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), p);
	return buf;
}

Test(flame_svg, widths_sum_to_the_variants_total)
{
	struct flame_tree t;
	struct stacks after, before;
	layout(&t, &after, &before, false, FLAME_CALLS);
	cr_assert_eq(t.frames[0].role, FLAME_ROLE_ALL);
	cr_expect_eq(t.frames[0].value, 160, "the root: %llu",
		     (unsigned long long)t.frames[0].value);
	/* every frame with children: they sum to it and lie side by side */
	for (size_t i = 0; i < t.count; i++) {
		uint64_t sum = 0, x = t.frames[i].x;
		size_t kids = 0;
		for (size_t j = i + 1; j < t.count && t.frames[j].depth > t.frames[i].depth; j++) {
			if (t.frames[j].parent != i)
				continue;
			cr_expect_eq(t.frames[j].x, x, "%s starts at %llu, not %llu",
				     t.frames[j].name, (unsigned long long)t.frames[j].x,
				     (unsigned long long)x);
			cr_expect_eq(t.frames[j].depth, t.frames[i].depth + 1);
			x += t.frames[j].value;
			sum += t.frames[j].value;
			kids++;
		}
		if (kids)
			cr_expect_eq(sum, t.frames[i].value, "%s: children %llu of %llu",
				     t.frames[i].name, (unsigned long long)sum,
				     (unsigned long long)t.frames[i].value);
	}
	cr_expect_eq(t.depth, 5, "all > single > parse > new_node > malloc: %zu", t.depth);
	layout_free(&t, &after, &before);
	layout(&t, &after, &before, false, FLAME_INSTRUCTIONS);
	cr_expect_eq(t.frames[0].value, 15000);
	cr_expect_eq(t.frames[find(&t, "grow")].value, 4000);
	layout_free(&t, &after, &before);
}

Test(flame_svg, siblings_in_alphabetical_order)
{
	struct flame_tree t;
	struct stacks after, before;
	layout(&t, &after, &before, false, FLAME_CALLS);
	size_t single = find(&t, "single");
	cr_assert_lt(single, t.count);
	const char *order[3];
	size_t n = 0;
	for (size_t j = single + 1; j < t.count && t.frames[j].depth > t.frames[single].depth; j++)
		if (t.frames[j].parent == single && n < 3)
			order[n++] = t.frames[j].name;
	cr_assert_eq(n, 3);
	cr_expect_str_eq(order[0], "emit");
	cr_expect_str_eq(order[1], "grow");
	cr_expect_str_eq(order[2], "parse");
	/* the root's: "(deeper)", "(other stacks)", then the function */
	cr_expect_str_eq(t.frames[1].name, FLAME_LABEL_DEEPER);
	cr_expect_lt(find(&t, FLAME_LABEL_REST), single);
	cr_expect_lt(t.frames[find(&t, FLAME_LABEL_REST)].x, t.frames[single].x);
	layout_free(&t, &after, &before);
}

Test(flame_svg, common_prefixes_merged)
{
	struct flame_tree t;
	struct stacks after, before;
	layout(&t, &after, &before, false, FLAME_CALLS);
	size_t singles = 0, new_nodes = 0;
	for (size_t i = 0; i < t.count; i++) {
		singles += !strcmp(t.frames[i].name, "single");
		new_nodes += !strcmp(t.frames[i].name, "new_node");
	}
	cr_expect_eq(singles, 1, "one frame for single");
	cr_expect_eq(new_nodes, 1, "one frame for new_node");
	size_t nn = find(&t, "new_node");
	cr_expect_eq(t.frames[nn].value, 120);
	/* its entry points on top: free and malloc, with their places */
	cr_assert_lt(nn + 2, t.count);
	cr_expect_eq(t.frames[nn + 1].role, FLAME_ROLE_ALLOCATOR);
	cr_expect_str_eq(t.frames[nn + 1].name, "free");
	cr_expect_eq(t.frames[nn + 1].line, 20);
	cr_expect_str_eq(t.frames[nn + 2].name, "malloc");
	cr_expect_eq(t.frames[nn + 2].line, 10);
	cr_expect(t.frames[nn + 2].bytes_known && t.frames[nn + 2].bytes == 60 * 24);
	cr_expect(!t.frames[nn + 1].bytes_known);
	layout_free(&t, &after, &before);
}

Test(flame_svg, rest_and_truncated_frames)
{
	struct flame_tree t;
	struct stacks after, before;
	layout(&t, &after, &before, false, FLAME_CALLS);
	size_t rest = find(&t, FLAME_LABEL_REST), deeper = find(&t, FLAME_LABEL_DEEPER);
	cr_assert_lt(rest, t.count);
	cr_expect_eq(t.frames[rest].role, FLAME_ROLE_REST);
	cr_expect_eq(t.frames[rest].depth, 1);
	cr_expect_eq(t.frames[rest].value, 5);
	cr_expect_str_eq(t.frames[rest].kind, "malloc");
	cr_expect(rest + 1 == t.count || t.frames[rest + 1].depth <= 1, "a rest has no frames");
	cr_assert_lt(deeper, t.count);
	cr_expect_eq(t.frames[deeper].depth, 1);
	size_t helper = find(&t, "deep_helper");
	cr_expect_eq(t.frames[helper].parent, deeper);
	cr_expect_eq(t.frames[find(&t, "leaf")].depth, 3);
	layout_free(&t, &after, &before);
}

Test(flame_svg, change_per_frame)
{
	struct flame_tree t;
	struct stacks after, before;
	layout(&t, &after, &before, true, FLAME_CALLS);
	cr_expect_eq(flame_frame_change(&t.frames[find(&t, "grow")], FLAME_CALLS), 1);
	cr_expect_eq(flame_frame_change(&t.frames[find(&t, "single")], FLAME_CALLS), -1);
	cr_expect_eq(flame_frame_change(&t.frames[find(&t, "parse")], FLAME_CALLS), 0);
	cr_expect_eq(flame_frame_change(&t.frames[find(&t, "emit")], FLAME_CALLS), 0);
	size_t old = find(&t, "old_path");
	cr_assert_lt(old, t.count);
	cr_expect(!t.frames[old].in_after && t.frames[old].value == 0 &&
		  t.frames[old].before == 30);
	layout_free(&t, &after, &before);
	/* calls are exact: one call is a change; instructions within 0.2% are not */
	struct flame_frame f = { .value = 100001, .before = 100000 };
	cr_expect_eq(flame_frame_change(&f, FLAME_CALLS), 1);
	cr_expect_eq(flame_frame_change(&f, FLAME_INSTRUCTIONS), 0);
	f.value = 100201;
	cr_expect_eq(flame_frame_change(&f, FLAME_INSTRUCTIONS), 1);
	f.value = 99799;
	cr_expect_eq(flame_frame_change(&f, FLAME_INSTRUCTIONS), -1);
}

Test(flame_svg, differential_colours_only_the_changed_path)
{
	struct stacks after, before;
	char fill[64];
	int rc;
	flame_fixture_build(&after, &before);
	struct flame_ask ask = ask_calls;
	ask.differential = true;
	char *svg = render(&after, &before, &ask, &rc);
	cr_assert_eq(rc, 0);
	/* grew: red (full red, less green and blue) */
	fill_of(svg, "grow", fill, sizeof fill);
	cr_expect(!strncmp(fill, "rgb(255,", 8) && strcmp(fill, "rgb(255,255,255)"), "grow: %s",
		  fill);
	fill_of(svg, "realloc", fill, sizeof fill);
	cr_expect(!strncmp(fill, "rgb(255,", 8), "realloc: %s", fill);
	/* shrank: blue */
	fill_of(svg, "single", fill, sizeof fill);
	cr_expect(strstr(fill, ",255)") && strncmp(fill, "rgb(255,", 8), "single: %s", fill);
	/* unchanged: the neutral grey, never red or blue */
	static const char *const same[] = { "parse", "new_node", "malloc", "free", "emit",
					    "(deeper)", "leaf" };
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
		cr_expect_str_eq(fill_of(svg, same[i], fill, sizeof fill), "rgb(224,224,224)",
				 "%s", same[i]);
	cr_expect(strstr(svg, "A 10 calls, B 20 calls: +10 (+100.0%)"), "grow's tooltip");
	cr_expect(strstr(svg, "A 60 calls, B 60 calls: unchanged"));
	cr_expect(strstr(svg, ", B against A"));
	free(svg);
	/* the same graph without A: green, no greys of "unchanged" */
	svg = render(&after, &before, &ask_calls, &rc);
	cr_assert_eq(rc, 0);
	cr_expect(!strstr(svg, "rgb(224,224,224)") && !strstr(svg, "unchanged"));
	fill_of(svg, "parse", fill, sizeof fill);
	int r = -1, g = -1, b = -1;
	cr_expect_eq(sscanf(fill, "rgb(%d,%d,%d)", &r, &g, &b), 3, "%s", fill);
	cr_expect(g > r && g > b, "green: %s", fill);
	free(svg);
	result_stacks_free(&after);
	result_stacks_free(&before);
}

Test(flame_svg, a_only_paths_listed_under_the_graph)
{
	struct stacks after, before;
	int rc;
	flame_fixture_build(&after, &before);
	struct flame_ask ask = ask_calls;
	ask.differential = true;
	char *svg = render(&after, &before, &ask, &rc);
	cr_assert_eq(rc, 0);
	cr_expect(strstr(svg, "only in A, no width in B:"), "%s", svg);
	cr_expect(strstr(svg, ">single &gt; old_path: 30 calls in A<"), "%s", svg);
	cr_expect(!strstr(svg, "<title>old_path"), "no frame drawn for it");
	free(svg);
	/* a variant only A has: drawn with no width, its paths listed */
	struct stacks none = { NULL, 0, true };
	svg = render(&none, &before, &ask, &rc);
	cr_expect_eq(rc, 0);
	cr_expect(strstr(svg, "B has no stacks of this variant"));
	cr_expect(strstr(svg, ">single: 170 calls in A<"), "%s", svg);
	free(svg);
	/* not asked for a differential: nothing to draw */
	svg = render(&none, &before, &ask_calls, &rc);
	cr_expect_eq(rc, -ENOENT);
	free(svg);
	struct flame_ask other = ask_calls;
	other.variant = "twice";
	svg = render(&after, &before, &other, &rc);
	cr_expect_eq(rc, -ENOENT);
	free(svg);
	result_stacks_free(&after);
	result_stacks_free(&before);
}

Test(flame_svg, differential_without_a_says_so)
{
	struct stacks after, before;
	int rc;
	flame_fixture_build(&after, &before);
	before.recorded = false;
	struct flame_ask ask = ask_calls;
	ask.differential = true;
	char *svg = render(&after, &before, &ask, &rc);
	cr_assert_eq(rc, 0);
	cr_expect(strstr(svg, "A has no call stacks recorded"));
	cr_expect(!strstr(svg, "rgb(224,224,224)"));
	free(svg);
	result_stacks_free(&after);
	result_stacks_free(&before);
}

/* The XML checks of python3 on SVG: an svg root, no script, every frame a
 * group of a title, a rect and a text; HOSTILE_TITLE: and one frame's
 * tooltip names the function "<script>..." (escaped, it reads back). */
#define XML_SCRIPT \
	"import sys, xml.etree.ElementTree as ET\n" \
	"ns = \"{http://www.w3.org/2000/svg}\"\n" \
	"root = ET.parse(sys.argv[1]).getroot()\n" \
	"assert root.tag == ns + \"svg\", root.tag\n" \
	"assert not root.findall(\".//\" + ns + \"script\")\n" \
	"groups = [g for g in root.iter(ns + \"g\") if g.find(ns + \"title\") is not None]\n" \
	"assert len(groups) >= 10, len(groups)\n" \
	"for g in groups:\n" \
	"    assert g.find(ns + \"rect\") is not None and g.find(ns + \"text\") is not None\n" \
	"titles = [g.find(ns + \"title\").text for g in groups]\n"
#define HOSTILE_TITLE "assert any(t.startswith(\"<script>\") for t in titles), titles\n"
static const char xml_script[] = XML_SCRIPT;

Test(flame_svg, hostile_names_escaped_and_valid_xml)
{
	static const char *const hostile[] = { "single", "<script>alert(\"x\")</script>",
					       "a&b'c\"d\nline", NULL };
	struct stacks after, before;
	int rc;
	flame_fixture_build(&after, &before);
	struct stack *s = flame_fixture_stack(&after, hostile, "malloc\x1b[31m", 70, 40, 4000);
	free(s->file);
	s->file = strdup("<img src=x>&.c");
	struct flame_ask ask = ask_calls;
	ask.differential = true;
	char *svg = render(&after, &before, &ask, &rc);
	cr_assert_eq(rc, 0);
	cr_expect(!strstr(svg, "<script"), "a raw <script");
	cr_expect(!strstr(svg, "<img"), "a raw <img");
	cr_expect(!strstr(svg, "\x1b"), "a raw ESC");
	cr_expect(strstr(svg, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"));
	cr_expect(strstr(svg, "a&amp;b'c&quot;d&#10;line"));
	cr_expect(strstr(svg, "&lt;img src=x&gt;&amp;.c:70"));
	cr_expect(strstr(svg, "A 0 calls, B 40 calls: new in B"), "the stack only B has");
	int st = fixture_python(XML_SCRIPT HOSTILE_TITLE, svg);
	if (st == -1)
		cr_skip_test("python3 is not installed: the XML parser check is skipped");
	cr_expect_eq(st, 0, "python3 rejected:\n%s", svg);
	free(svg);
	result_stacks_free(&after);
	result_stacks_free(&before);
}

Test(flame_svg, standalone_and_inline)
{
	struct stacks after, before;
	int rc;
	flame_fixture_build(&after, &before);
	char *svg = render(&after, &before, &ask_calls, &rc);
	cr_assert_eq(rc, 0);
	cr_expect(!strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44));
	cr_expect(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"flame\""));
	int st = fixture_python(xml_script, svg);
	if (st != -1)
		cr_expect_eq(st, 0, "python3 rejected:\n%s", svg);
	free(svg);
	struct flame_ask ask = ask_calls;
	ask.inline_svg = true;
	ask.id_prefix = "k1-\"";
	ask.measure = FLAME_INSTRUCTIONS;
	svg = render(&after, &before, &ask, &rc);
	cr_assert_eq(rc, 0);
	static const char head[] =
		"<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"k1-&quot;flame\"";
	cr_expect(!strncmp(svg, head, strlen(head)), "%.80s", svg);
	cr_expect(!strstr(svg, "<?xml"));
	cr_expect(!strstr(svg, "<style"), "no style sheet that would reach the page");
	cr_expect(strstr(svg, "instructions inside the allocator by call stack"));
	cr_expect(strstr(svg, "4,000 instructions (26.7%)"), "grow's share of 15,000");
	st = fixture_python(xml_script, svg);
	if (st != -1)
		cr_expect_eq(st, 0, "python3 rejected the inline graph:\n%s", svg);
	free(svg);
	result_stacks_free(&after);
	result_stacks_free(&before);
}

Test(flame_svg, labels_cut_and_narrow_frames_left_out)
{
	static const char *const long_name[] = {
		"single", "a_function_whose_name_is_much_too_long_for_its_narrow_frame_xyz", NULL };
	static const char *const tiny[] = { "single", "tiny_path", NULL };
	struct stacks after = { NULL, 0, true };
	int rc;
	flame_fixture_stack(&after, long_name, "malloc", 1, 50, 0);
	flame_fixture_stack(&after, (const char *const[]){ "single", "other", NULL }, "malloc",
			    2, 950, 0);
	flame_fixture_stack(&after, tiny, "malloc", 3, 1, 0);
	flame_fixture_stack(&after, (const char *const[]){ "single", "zzz", NULL }, "malloc",
			    4, 2000000, 0);
	char *svg = render(&after, NULL, &ask_calls, &rc);
	cr_assert_eq(rc, 0);
	/* 50 of 2,001,001 calls: about 0.03 px, not drawn; 950 calls, 0.56 px: drawn */
	cr_expect(!strstr(svg, "<title>a_function_whose"));
	cr_expect(strstr(svg, "<title>other&#10;"));
	cr_expect(!strstr(svg, "<title>tiny_path"));
	cr_expect(strstr(svg, "4 frames narrower than 0.5 px not drawn"), "%s", svg);
	free(svg);
	result_stacks_free(&after);
	/* a long name in a frame of about 100 px: its first characters and ".." */
	flame_fixture_stack(&after, long_name, "malloc", 1, 100, 0);
	flame_fixture_stack(&after, (const char *const[]){ "single", "zzz", NULL }, "malloc", 4,
			    1080, 0);
	svg = render(&after, NULL, &ask_calls, &rc);
	cr_assert_eq(rc, 0);
	const char *t = strstr(svg, "<title>a_function_whose");
	cr_assert_not_null(t);
	t = strstr(t, "<text");
	cr_assert_not_null(t);
	t = strchr(t, '>') + 1;
	size_t n = strcspn(t, "<");
	cr_expect(n >= 6 && n <= 14 && !strncmp(t + n - 2, "..", 2) &&
		  !strncmp(t, "a_function", n - 2 < 10 ? n - 2 : 10), "label: %.*s", (int)n, t);
	free(svg);
	result_stacks_free(&after);
}

/* Whether DIR/NAME exists; removes it. */
static int take(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int ok = access(path, R_OK) == 0;
	remove(path);
	return ok;
}

Test(flame_svg, the_written_directorys_file_names)
{
	char dir[] = "/tmp/allocgate-flame-XXXXXX", sub[64], err[256];
	cr_assert(mkdtemp(dir));
	snprintf(sub, sizeof sub, "%s/flame", dir);
	struct run_result r;
	memset(&r, 0, sizeof r);
	flame_fixture_build(&r.stacks, &r.stacks_before);
	/* a kernel name with a slash and a dot, an empty parameter set, two
	 * variants that differ by case only, and a variant A alone has */
	static const char *const f[] = { "f", NULL };
	result_add_stack(&r.stacks, "k/1", "v.x", "", "", "malloc", f, 1)->calls = 3;
	result_add_stack(&r.stacks, "a", "B", "p", "", "malloc", f, 1)->calls = 1;
	result_add_stack(&r.stacks, "a", "b", "p", "", "malloc", f, 1)->calls = 1;
	result_add_stack(&r.stacks_before, "gone", "v", "p", "", "free", f, 1)->calls = 2;
	int n = flame_svg_write_dir(sub, &r, err, sizeof err);
	cr_expect_eq(n, 4 * 4 + 2 + 5 * 2, "%d: %s", n, err);
	static const char *const names[] = {
		"toy.single.small.calls.svg", "toy.single.small.instructions.svg",
		"toy.single.small.calls.diff.svg", "toy.single.small.instructions.diff.svg",
		"k_1.v_x._.calls.svg", "k_1.v_x._.calls.diff.svg",
		"k_1.v_x._.instructions.svg", "k_1.v_x._.instructions.diff.svg",
		"a.B.p.calls.svg", "a.B.p.instructions.diff.svg",
		"a.b.p-2.calls.svg", "a.b.p-2.calls.diff.svg",
		"gone.v.p.calls.diff.svg", "gone.v.p.instructions.diff.svg",
		/* every variant here changed: its changed stacks alone too */
		"toy.single.small.calls.changed.svg", "toy.single.small.instructions.changed.svg",
		"k_1.v_x._.calls.changed.svg", "k_1.v_x._.instructions.changed.svg",
		"a.B.p.calls.changed.svg", "a.B.p.instructions.changed.svg",
		"a.b.p-2.calls.changed.svg", "a.b.p-2.instructions.changed.svg",
		"gone.v.p.calls.changed.svg", "gone.v.p.instructions.changed.svg",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		cr_expect(take(sub, names[i]), "%s missing", names[i]);
	cr_expect(!take(sub, "gone.v.p.calls.svg"), "B has no graph of a variant it lacks");
	/* the rest, then nothing else */
	static const char *const rest[] = { "a.B.p.instructions.svg", "a.B.p.calls.diff.svg",
					    "a.b.p-2.instructions.svg",
					    "a.b.p-2.instructions.diff.svg" };
	for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++)
		cr_expect(take(sub, rest[i]), "%s missing", rest[i]);
	cr_expect_eq(rmdir(sub), 0, "files left in %s", sub);
	/* without A: no differential files; not taken: none at all */
	result_stacks_free(&r.stacks_before);
	cr_expect_eq(flame_svg_write_dir(sub, &r, err, sizeof err), 4 * 2, "%s", err);
	r.stacks.recorded = false;
	cr_expect_eq(flame_svg_write_dir(dir, &r, err, sizeof err), 0);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
	result_free(&r);
}

static void redirect_output(void)
{
	cr_redirect_stdout();
	cr_redirect_stderr();
}

/* gate diff --flame DIR A.json B.json, past the loading: B's graphs and
 * their differentials; a side whose stacks were not taken, or two sides
 * without a stack, exit 2 with a message naming the file. */
Test(flame_svg, gate_diff_flame, .init = redirect_output)
{
	char dir[] = "/tmp/allocgate-flame-XXXXXX", sub[64], cmd[128];
	cr_assert(mkdtemp(dir));
	snprintf(sub, sizeof sub, "%s/out", dir);
	struct run_result a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	flame_fixture_build(&b.stacks, &a.stacks);
	cr_expect_eq(run_diff_flame(sub, &a, "a.json", &b, "b.json"), GATE_EXIT_OK);
	snprintf(cmd, sizeof cmd, "%s/toy.single.small.calls.diff.svg", sub);
	cr_expect_eq(access(cmd, R_OK), 0, "%s missing", cmd);
	b.stacks.recorded = false;
	cr_expect_eq(run_diff_flame(sub, &a, "a.json", &b, "b.json"), GATE_EXIT_USAGE);
	result_stacks_free(&b.stacks);
	result_stacks_free(&a.stacks);
	a.stacks.recorded = b.stacks.recorded = true;
	cr_expect_eq(run_diff_flame(sub, &a, "a.json", &b, "b.json"), GATE_EXIT_USAGE);
	fflush(stderr);
	cr_expect_stderr_eq_str(
		"gate: --flame: b.json has no call stacks: they are recorded by the cost pass of "
		"gate run or gate ab (on unless --no-cost) in its --json result, and a "
		"baseline or a result of an older version has none\n"
		"gate: --flame: neither a.json nor b.json has a call stack (no allocation in the "
		"cost pass's regions): nothing to draw\n");
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

/* The stacks that changed alone: grow's realloc (20 calls, 10 in A) and
 * old_path (A's alone) are drawn; parse's unchanged stacks are not, so a
 * change beside many unchanged calls has a width of its own. */
Test(flame_svg, the_changed_stacks_alone_leave_out_the_unchanged)
{
	struct stacks after = { 0 }, before = { 0 };
	flame_fixture_build(&after, &before);
	struct flame_ask ask = ask_calls;
	ask.differential = true;
	ask.changed_only = true;
	int rc;
	char *svg = render(&after, &before, &ask, &rc);
	cr_expect_eq(rc, 0);
	cr_expect(strstr(svg, ">grow<") && strstr(svg, "old_path"), "%s", svg);
	cr_expect_null(strstr(svg, "new_node"), "an unchanged stack drawn");
	cr_expect(strstr(svg, "the stacks that changed alone"));
	free(svg);
	/* nothing changed: nothing to draw */
	ask.changed_only = true;
	svg = render(&after, &after, &ask, &rc);
	cr_expect_eq(rc, -ENOENT);
	free(svg);
	result_stacks_free(&after);
	result_stacks_free(&before);
}

/* A variant of two named regions: a region frame of each above the root,
 * whose width is the region's calls, the functions above it; the same
 * function in both regions is two frames; a path moved from one region to
 * the other is coloured in both. */
Test(flame_svg, each_region_is_a_frame_above_the_root)
{
	static const char *const work[] = { "single", "work", NULL };
	struct stacks after = { 0 }, before = { 0 };
	after.recorded = before.recorded = true;
	for (int side = 0; side < 2; side++) {
		struct stacks *set = side ? &before : &after;
		struct stack *s = flame_fixture_stack(set, work, "malloc", 10, 30, 300);
		free(s->region);
		s->region = strdup("alloc");
		s = flame_fixture_stack(set, work, "free", 20, side ? 30 : 25, 100);
		free(s->region);
		s->region = strdup(side ? "alloc" : "free");   /* B frees in its own region */
	}
	const struct stack **a = pointers(&after), **b = pointers(&before);
	struct flame_tree t;
	cr_assert_eq(flame_layout(&t, a, after.count, b, before.count, FLAME_CALLS), 0);
	size_t alloc = find(&t, "alloc"), freed = 0;
	while (freed < t.count &&
	       (strcmp(t.frames[freed].name, "free") || t.frames[freed].role != FLAME_ROLE_REGION))
		freed++;
	cr_assert_lt(alloc, t.count);
	cr_expect_eq(t.frames[alloc].role, FLAME_ROLE_REGION);
	cr_expect_eq(t.frames[alloc].depth, 1);
	cr_expect_eq(t.frames[alloc].value, 30, "B's alloc region: the mallocs");
	cr_expect_eq(t.frames[alloc].before, 60, "A's: mallocs and frees");
	cr_assert_lt(freed, t.count);
	cr_expect_eq(t.frames[freed].depth, 1);
	cr_expect_eq(t.frames[freed].value, 25);
	cr_expect_eq(t.frames[t.frames[freed + 1].parent].role, FLAME_ROLE_REGION);
	cr_expect_str_eq(t.frames[freed + 1].name, "single", "the functions above the region");
	flame_tree_free(&t);
	free(a);
	free(b);
	struct flame_ask ask = ask_calls;
	ask.differential = true;
	int rc;
	char *svg = render(&after, &before, &ask, &rc), fill[64];
	cr_assert_eq(rc, 0);
	cr_expect(strstr(svg, ">region alloc</text>"), "the frame says it is a region");
	cr_expect(strstr(svg, "<title>region free&#10;the calls made while"));
	cr_expect(!strncmp(fill_of(svg, "region free", fill, sizeof fill), "rgb(255,", 8),
		  "new in B: red (%s)", fill);
	cr_expect(strstr(fill_of(svg, "region alloc", fill, sizeof fill), "255)") != NULL,
		  "alloc shrank: blue (%s)", fill);
	free(svg);
	result_stacks_free(&after);
	result_stacks_free(&before);
}
