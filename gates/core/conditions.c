/* conditions.c: where a declared expectation applies (conditions.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/conditions.h"

static const char *const os_names[] = { "linux", "windows", "darwin", NULL };

#define ALLOCATOR_PREFIX "allocator="

static const char *term_end(const char *p)
{
	const char *comma = strchr(p, ',');
	return comma ? comma : p + strlen(p);
}

static int term_is(const char *p, size_t n, const char *word)
{
	return n == strlen(word) && !strncmp(p, word, n);
}

static int is_os(const char *p, size_t n)
{
	for (const char *const *os = os_names; *os; os++)
		if (term_is(p, n, *os))
			return 1;
	return 0;
}

/* cores>=N with N a positive decimal; *NEED set. */
static int is_cores(const char *p, size_t n, int *need)
{
	size_t k = strlen("cores>=");
	if (n <= k || strncmp(p, "cores>=", k) || n - k > 6)
		return 0;
	int v = 0;
	for (size_t i = k; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return 0;
		v = v * 10 + (p[i] - '0');
	}
	*need = v;
	return v > 0;
}

static int is_allocator_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '+';
}

/* allocator=NAME[|NAME...], every NAME non-empty. */
static int is_allocator(const char *p, size_t n)
{
	size_t k = strlen(ALLOCATOR_PREFIX);
	if (n <= k || strncmp(p, ALLOCATOR_PREFIX, k))
		return 0;
	size_t run = 0;
	for (size_t i = k; i < n; i++) {
		if (p[i] == '|') {
			if (!run)
				return 0;
			run = 0;
		} else if (is_allocator_char(p[i])) {
			run++;
		} else {
			return 0;
		}
	}
	return run > 0;
}

int conditions_check(const char *conditions, char *err, size_t err_size)
{
	int need;
	for (const char *p = conditions; p && *p;) {
		const char *end = term_end(p);
		size_t n = (size_t)(end - p);
		if (!is_os(p, n) && !is_cores(p, n, &need) && !is_allocator(p, n)) {
			snprintf(err, err_size, "unknown condition '%.*s' (expected linux, windows, "
				 "darwin, cores>=N or allocator=NAME[|NAME])", (int)n, p);
			return -1;
		}
		if (!*end)
			break;
		p = end + 1;
		if (!*p) {
			snprintf(err, err_size, "empty condition after the last ','");
			return -1;
		}
	}
	return 0;
}

int conditions_allocator_is(const char *name, size_t n, const char *allocator)
{
	if (!allocator)
		return 0;
	if (n == strlen(allocator) && !strncmp(name, allocator, n))
		return 1;
	if (term_is(name, n, "crt"))
		return !strcmp(allocator, "msvcrt") || !strcmp(allocator, "ucrt");
	if (term_is(name, n, "libmalloc"))
		return !strcmp(allocator, "libsystem");
	return 0;
}

/* Whether one NAME of allocator=NAME|NAME (P, N: after the prefix) is T's. */
static int allocator_listed(const char *p, size_t n, const char *allocator)
{
	while (n) {
		const char *bar = memchr(p, '|', n);
		size_t k = bar ? (size_t)(bar - p) : n;
		if (conditions_allocator_is(p, k, allocator))
			return 1;
		if (!bar)
			break;
		n -= k + 1;
		p = bar + 1;
	}
	return 0;
}

void conditions_allocators(const char *conditions, char *buf, size_t size)
{
	size_t k = strlen(ALLOCATOR_PREFIX), used = 0;
	if (!size)
		return;
	buf[0] = '\0';
	for (const char *p = conditions; p && *p;) {
		const char *end = term_end(p);
		size_t n = (size_t)(end - p);
		if (is_allocator(p, n) && used < size) {
			int w = snprintf(buf + used, size - used, "%s%.*s", used ? "|" : "",
					 (int)(n - k), p + k);
			used = w < 0 ? size : used + (size_t)w;
		}
		if (!*end)
			break;
		p = end + 1;
	}
}

enum condition_outcome conditions_evaluate(const char *conditions,
					   const struct condition_target *t, char *why,
					   size_t why_size)
{
	int any_os = 0, os_match = 0, any_allocator = 0, allocator_match = 0, unmet = 0;
	char unmet_why[160] = "";
	size_t k = strlen(ALLOCATOR_PREFIX);
	for (const char *p = conditions; p && *p;) {
		const char *end = term_end(p);
		size_t n = (size_t)(end - p);
		int need;
		if (is_cores(p, n, &need)) {
			if (t->cores < need && !unmet++)
				snprintf(unmet_why, sizeof unmet_why, "declared for machines with at "
					 "least %d cores; this one has %d", need, t->cores);
		} else if (is_allocator(p, n)) {
			any_allocator = 1;
			allocator_match |= allocator_listed(p + k, n - k, t->allocator);
		} else {
			any_os = 1;
			os_match |= term_is(p, n, t->os ? t->os : "");
		}
		if (!*end)
			break;
		p = end + 1;
	}
	if (any_os && !os_match)
		return CONDITION_OTHER_OS;
	if (unmet) {
		if (why)
			snprintf(why, why_size, "%s", unmet_why);
		return CONDITION_UNMET;
	}
	if (any_allocator && !allocator_match) {
		if (why)
			conditions_allocators(conditions, why, why_size);
		return CONDITION_OTHER_ALLOCATOR;
	}
	return CONDITION_APPLIES;
}
