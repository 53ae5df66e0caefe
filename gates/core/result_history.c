/* result_history.c: the runs of a history (result_history.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result_history.h"

/* Grows *ITEMS (of SIZE bytes each, *COUNT used) by one zeroed item;
 * returns it, or NULL on no memory. Capacity doubles from 16. */
static void *grow(void **items, size_t *count, size_t size)
{
	size_t n = *count;
	if ((n & (n - 1)) == 0 && (n == 0 || n >= 16)) {   /* 0, 16, 32, ...: full */
		size_t cap = n ? 2 * n : 16;
		void *p = realloc(*items, cap * size);
		if (!p)
			return NULL;
		*items = p;
	}
	char *item = (char *)*items + n * size;
	memset(item, 0, size);
	++*count;
	return item;
}

struct history_run *result_history_add_run(struct result_history *h)
{
	return grow((void **)&h->runs, &h->count, sizeof *h->runs);
}

int result_history_add_value(struct history_run *run, const struct history_value *v)
{
	struct history_value *d = grow((void **)&run->values, &run->count, sizeof *run->values);
	if (!d)
		return -ENOMEM;
	*d = *v;
	d->kernel = strdup(v->kernel);
	d->variant = strdup(v->variant);
	d->params = strdup(v->params);
	d->metric = strdup(v->metric);
	d->unit = strdup(v->unit);
	if (!d->kernel || !d->variant || !d->params || !d->metric || !d->unit)
		return -ENOMEM;   /* freed with the run */
	return 0;
}

/* NULL as "" for comparisons. */
static const char *text(const char *s)
{
	return s ? s : "";
}

static int run_order(const void *pa, const void *pb)
{
	const struct history_run *a = pa, *b = pb;
	int c = strcmp(text(a->time), text(b->time));
	if (!c)
		c = strcmp(text(a->commit), text(b->commit));
	if (!c)
		c = strcmp(text(a->run_at), text(b->run_at));
	return c ? c : strcmp(text(a->file), text(b->file));
}

void result_history_sort(struct result_history *h)
{
	if (h->count > 1)
		qsort(h->runs, h->count, sizeof *h->runs, run_order);
}

void result_history_run_free(struct history_run *run)
{
	for (size_t i = 0; i < run->count; i++) {
		struct history_value *v = &run->values[i];
		free(v->kernel);
		free(v->variant);
		free(v->params);
		free(v->metric);
		free(v->unit);
	}
	free(run->values);
	free(run->file);
	free(run->commit);
	free(run->time);
	free(run->run_at);
	free(run->platform);
	free(run->cpu.model);
	free(run->cpu.vendor);
	free(run->cpu.family);
	free(run->cpu.model_number);
	free(run->cpu.stepping);
	memset(run, 0, sizeof *run);
}

void result_history_free(struct result_history *h)
{
	for (size_t i = 0; i < h->count; i++)
		result_history_run_free(&h->runs[i]);
	free(h->runs);
	memset(h, 0, sizeof *h);
}

/* Whether the N bytes at S are hexadecimal digits (N > 0). */
static bool hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return n > 0;
}

void result_history_rev(const char *commit, char *out, size_t size)
{
	size_t n = strlen(text(commit));
	const char *s = text(commit);
	if (n >= 6 && !strcmp(s + n - 6, "-dirty"))
		n -= 6;
	/* git describe: TAG-N-gHEX, the abbreviated commit after "-g" */
	for (size_t i = n; i-- > 2;)   /* I: where the digits start */
		if (s[i - 1] == 'g' && s[i - 2] == '-' && hex(s + i, n - i)) {
			s += i;
			n -= i;
			break;
		}
	snprintf(out, size, "%.*s", (int)n, s);
}

void result_history_short(const char *commit, char *out, size_t size)
{
	char rev[128];
	result_history_rev(commit, rev, sizeof rev);
	if (hex(rev, strlen(rev)) && strlen(rev) > 7)
		rev[7] = '\0';
	snprintf(out, size, "%s", rev);
}

bool result_history_same_commit(const char *a, const char *b)
{
	char ra[128], rb[128];
	result_history_rev(a, ra, sizeof ra);
	result_history_rev(b, rb, sizeof rb);
	size_t na = strlen(ra), nb = strlen(rb), n = na < nb ? na : nb;
	if (!strcmp(ra, rb))
		return true;
	return n >= 7 && hex(ra, na) && hex(rb, nb) && !strncmp(ra, rb, n);
}

/* Whether the optional texts A and B are equal. */
static bool same_text(const char *a, const char *b)
{
	return !strcmp(text(a), text(b));
}

bool result_history_cpu_same(const struct history_cpu *a, const struct history_cpu *b)
{
	return same_text(a->model, b->model) && same_text(a->vendor, b->vendor) &&
	       same_text(a->family, b->family) && same_text(a->model_number, b->model_number) &&
	       same_text(a->stepping, b->stepping) && a->count == b->count;
}

void result_history_cpu_describe(const struct history_cpu *cpu, char *buf, size_t size)
{
	char id[256] = "";
	if (cpu->vendor || cpu->family || cpu->model_number || cpu->stepping)
		snprintf(id, sizeof id, "%s family %s model %s stepping %s, ",
			 cpu->vendor ? cpu->vendor : "?", cpu->family ? cpu->family : "?",
			 cpu->model_number ? cpu->model_number : "?",
			 cpu->stepping ? cpu->stepping : "?");
	if (!cpu->model && !*id && !cpu->count) {
		snprintf(buf, size, "unknown CPU");
		return;
	}
	snprintf(buf, size, "%s (%s%d CPUs)", cpu->model ? cpu->model : "unnamed CPU", id,
		 cpu->count);
}

bool result_history_time_valid(const char *s)
{
	static const char form[] = "dddd-dd-ddTdd:dd:ddZ";
	if (!s || strlen(s) != sizeof form - 1)
		return false;
	for (size_t i = 0; form[i]; i++)
		if (form[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != form[i])
			return false;
	return true;
}
