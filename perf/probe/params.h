/* params.h: the values of a parameter set, "key=integer key=integer".
 *
 * Internal to the probe (perf/probe/), exposed for tests/test_counters.c.
 * Grammar: keys are [A-Za-z_][A-Za-z0-9_]* (at most PARAMS_KEY_SIZE - 1
 * characters), integers are plain decimal with an optional sign and fit a
 * long long ("2097152", "-1"; no suffixes, no hex), pairs are separated by
 * spaces, a key appears once.
 */
#ifndef GATE_PARAMS_H
#define GATE_PARAMS_H

#include <stddef.h>

#define PARAMS_MAX 32
#define PARAMS_KEY_SIZE 32

struct params_entry {
	char key[PARAMS_KEY_SIZE];
	long long value;
};

/* The parameter set a variant runs with (declared in probe.h). */
struct gate_params {
	const char *kernel;   /* kernel name, for messages */
	const char *name;     /* parameter set name */
	size_t count;
	struct params_entry entries[PARAMS_MAX];
};

/* Parses VALUES (NULL or "" for none) into P's entries; P->kernel and
 * P->name are left alone. Returns 0, or -EINVAL (malformed, duplicate key)
 * or -E2BIG (more than PARAMS_MAX keys) with a message quoting the bad
 * pair in ERR (ERR_SIZE bytes). */
int params_parse(const char *values, struct gate_params *p, char *err,
		 size_t err_size);

/* Value of KEY in P: returns 0 and sets *VALUE, or -ENOENT. */
int params_find(const struct gate_params *p, const char *key, long long *value);

/* Writes P's entries as "key=value key=value" (canonical: one space,
 * plain decimal) into OUT of OUT_SIZE bytes. Returns 0 or -ENOSPC. */
int params_format(const struct gate_params *p, char *out, size_t out_size);

#endif
