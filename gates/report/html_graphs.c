/* html_graphs.c: the --html page's pictures (html_parts.h): each kernel's
 * wall-time chart (report_svg.h) and each variant's allocation flame graph
 * (flame_svg.h), inline SVG. */
#include <stdlib.h>
#include <string.h>

#include "report/html_parts.h"
#include "report/escape.h"
#include "report/flame_layout.h"
#include "report/flame_svg.h"
#include "report/report_svg.h"
#include "core/group_key.h"

/* Whether series I of R is the first of its kernel. */
static bool first_of_kernel(const struct run_result *r, size_t i)
{
	return group_key_first_series(r, i, GROUP_SCOPE_KERNEL, NULL, NULL);
}

bool html_has_plots(const struct run_result *r)
{
	for (size_t i = 0; i < r->series_count; i++)
		if (first_of_kernel(r, i) && report_svg_draws(r, r->series[i].kernel))
			return true;
	return false;
}

void html_plots(FILE *f, const struct run_result *r)
{
	if (!html_has_plots(r))
		return;
	fputs("<h2 id=\"plots\">Wall-time samples per kernel</h2>\n", f);
	for (size_t i = 0; i < r->series_count; i++) {
		const char *kernel = r->series[i].kernel;
		if (!first_of_kernel(r, i) || !report_svg_draws(r, kernel))
			continue;
		fputs("<figure>\n", f);
		report_svg_print_inline(f, r, kernel);
		fputs("</figure>\n", f);
	}
}

/* One variant's stacks on each side: ranges of R's sorted stacks. */
struct variant_stacks {
	const struct stack *after, *before;
	size_t after_count, before_count;
};

/* How many stacks of SET from I on are of the variant of stack S. */
static size_t run_of(const struct stacks *set, size_t i, const struct stack *s)
{
	size_t j = i;
	while (j < set->count &&
	       group_key_same(GROUP_KEY(&set->items[j]), GROUP_KEY(s), GROUP_SCOPE_VARIANT))
		j++;
	return j - i;
}

/* The next variant of R from *I (its stacks) and *J (the other side's,
 * when recorded), both in result_stack_order, into V; *I and *J move past
 * it. Returns false when none is left. */
static bool next_variant(const struct run_result *r, size_t *i, size_t *j,
			 struct variant_stacks *v)
{
	const struct stacks *a = &r->stacks, *b = &r->stacks_before;
	size_t b_count = b->recorded ? b->count : 0;
	if (*i >= a->count && *j >= b_count)
		return false;
	const struct stack *sa = *i < a->count ? &a->items[*i] : NULL;
	const struct stack *sb = *j < b_count ? &b->items[*j] : NULL;
	const struct stack *s = !sa ? sb
				: !sb || group_key_cmp(GROUP_KEY(sa), GROUP_KEY(sb)) <= 0 ? sa : sb;
	v->after = sa;
	v->after_count = run_of(a, *i, s);
	v->before = sb;
	v->before_count = sb ? run_of(b, *j, s) : 0;
	*i += v->after_count;
	*j += v->before_count;
	return true;
}

/* Whether a frame of V's differential calls graph changed (flame_layout.h:
 * calls are exact, any difference is a change). False on no memory. */
static bool calls_changed(const struct variant_stacks *v)
{
	const struct stack **p = malloc((v->after_count + v->before_count + 1) * sizeof *p);
	struct flame_tree t;
	bool changed = false;
	if (!p)
		return false;
	for (size_t k = 0; k < v->after_count; k++)
		p[k] = &v->after[k];
	for (size_t k = 0; k < v->before_count; k++)
		p[v->after_count + k] = &v->before[k];
	if (!flame_layout(&t, p, v->after_count, p + v->after_count, v->before_count,
			  FLAME_CALLS)) {
		for (size_t k = 0; k < t.count && !changed; k++)
			changed = flame_frame_change(&t.frames[k], FLAME_CALLS) != 0;
		flame_tree_free(&t);
	}
	free(p);
	return changed;
}

bool html_has_flames(const struct run_result *r)
{
	return r->stacks.count || (r->stacks_before.recorded && r->stacks_before.count);
}

/* One variant's graph N in a <details>, open when its calls changed. */
static void print_flame(FILE *f, const struct run_result *r, const struct variant_stacks *v,
			size_t n)
{
	bool differential = r->stacks_before.recorded;
	bool changed = differential && calls_changed(v);
	const struct stack *s = v->after_count ? v->after : v->before;
	char prefix[32];
	snprintf(prefix, sizeof prefix, "f%zu-", n);
	fprintf(f, "<details class=\"flame\"%s><summary>", changed ? " open" : "");
	escape_html(f, s->kernel);
	fputc('/', f);
	escape_html(f, s->variant);
	fputc('/', f);
	escape_html(f, s->params);
	fputs(changed ? ": allocation calls changed" : !differential ? ""
	      : v->after_count ? ": unchanged" : ": only before", f);
	fputs("</summary>\n", f);
	struct flame_ask ask = { .kernel = s->kernel, .variant = s->variant, .params = s->params,
				 .measure = FLAME_CALLS, .differential = differential,
				 .inline_svg = true, .id_prefix = prefix };
	if (changed) {
		/* the changed stacks alone first: a change in a path of a few calls
		 * beside many unchanged ones has no width in the whole graph */
		char changed_prefix[40];
		snprintf(changed_prefix, sizeof changed_prefix, "%sc-", prefix);
		struct flame_ask alone = ask;
		alone.changed_only = true;
		alone.id_prefix = changed_prefix;
		flame_svg_print(f, &r->stacks, &r->stacks_before, &alone);
	}
	flame_svg_print(f, &r->stacks, differential ? &r->stacks_before : NULL, &ask);
	fputs("</details>\n", f);
}

void html_flames(FILE *f, const struct run_result *r)
{
	struct variant_stacks v;
	size_t i = 0, j = 0, n = 0;
	if (!html_has_flames(r))
		return;
	fprintf(f, "<h2 id=\"flames\">Allocation flame graphs</h2>\n<p>Allocator calls by call "
		"stack, one graph per variant, the root at the bottom, a frame's width its share "
		"of the variant's calls%s.</p>\n", r->stacks_before.recorded
		? (r->comparison ? "; coloured by the change from A" : "; coloured by the change "
		   "from the baseline") : "");
	while (next_variant(r, &i, &j, &v))
		print_flame(f, r, &v, n++);
}
