/* params.c: parses and prints the values of a parameter set (params.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/params.h"

static int params_is_key_char(char c, int first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
		return 1;
	return !first && c >= '0' && c <= '9';
}

/* Plain decimal integer of TEXT[0..len), optional sign; 0 or -EINVAL/-ERANGE. */
static int params_integer(const char *text, size_t len, long long *value)
{
	char buf[32];
	size_t i = text[0] == '-' || text[0] == '+';
	if (len == i || len >= sizeof buf)
		return len >= sizeof buf ? -ERANGE : -EINVAL;
	for (size_t k = i; k < len; k++) {
		if (text[k] < '0' || text[k] > '9')
			return -EINVAL;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	errno = 0;
	*value = strtoll(buf, NULL, 10);
	return errno == ERANGE ? -ERANGE : 0;
}

/* Parses one "key=integer" pair PAIR[0..len) into E; 0 or negative with ERR. */
static int params_pair(const char *pair, size_t len, struct params_entry *e,
		       char *err, size_t err_size)
{
	const char *eq = memchr(pair, '=', len);
	size_t key_len = eq ? (size_t)(eq - pair) : 0;
	int ret;

	for (size_t k = 0; k < key_len; k++) {
		if (!params_is_key_char(pair[k], k == 0))
			key_len = 0;
	}
	if (key_len == 0 || key_len >= PARAMS_KEY_SIZE) {
		snprintf(err, err_size, "bad parameter '%.*s' (expected key=integer, "
			 "key [A-Za-z_][A-Za-z0-9_]* of at most %d characters)",
			 (int)len, pair, PARAMS_KEY_SIZE - 1);
		return -EINVAL;
	}
	ret = params_integer(eq + 1, len - key_len - 1, &e->value);
	if (ret < 0) {
		snprintf(err, err_size, "bad parameter '%.*s' (%s)", (int)len, pair,
			 ret == -ERANGE ? "integer out of range" :
			 "value must be a plain decimal integer");
		return -EINVAL;
	}
	memcpy(e->key, pair, key_len);
	e->key[key_len] = '\0';
	return 0;
}

int params_parse(const char *values, struct gate_params *p, char *err,
		 size_t err_size)
{
	const char *s = values ? values : "";
	p->count = 0;
	for (;;) {
		long long dummy;
		s += strspn(s, " \t");
		if (*s == '\0')
			return 0;
		size_t len = strcspn(s, " \t");
		if (p->count == PARAMS_MAX) {
			snprintf(err, err_size, "too many parameters (at most %d) at '%.*s'",
				 PARAMS_MAX, (int)len, s);
			return -E2BIG;
		}
		struct params_entry *e = &p->entries[p->count];
		if (params_pair(s, len, e, err, err_size) < 0)
			return -EINVAL;
		if (params_find(p, e->key, &dummy) == 0) {
			snprintf(err, err_size, "parameter '%s' given twice", e->key);
			return -EINVAL;
		}
		p->count++;
		s += len;
	}
}

int params_find(const struct gate_params *p, const char *key, long long *value)
{
	for (size_t i = 0; i < p->count; i++) {
		if (strcmp(p->entries[i].key, key) == 0) {
			*value = p->entries[i].value;
			return 0;
		}
	}
	return -ENOENT;
}

int params_format(const struct gate_params *p, char *out, size_t out_size)
{
	size_t used = 0;
	if (out_size == 0)
		return -ENOSPC;
	out[0] = '\0';
	for (size_t i = 0; i < p->count; i++) {
		int n = snprintf(out + used, out_size - used, "%s%s=%lld", i ? " " : "",
				 p->entries[i].key, p->entries[i].value);
		if (n < 0 || (size_t)n >= out_size - used)
			return -ENOSPC;
		used += (size_t)n;
	}
	return 0;
}
