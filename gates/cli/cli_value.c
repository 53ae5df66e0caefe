/* cli_value.c: the values of flags, read alike by every subcommand
 * (cli_value.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli_refuse.h"
#include "cli/cli_value.h"
#include "run/run_options.h"
#include "sample/allocator.h"

/* Whether TEXT starts as a number is written: an optional sign, then a
 * digit (or '.' where FRACTION): strtoll and strtod would skip spaces. */
static bool starts_as_number(const char *text, bool fraction)
{
	const char *c = text + (*text == '-' || *text == '+');
	return isdigit((unsigned char)*c) || (fraction && *c == '.');
}

bool cli_integer_parse(const char *text, long long lo, long long hi, long long *out)
{
	char *end;
	if (!starts_as_number(text, false))
		return false;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

int cli_integer(const char *flag, const char *value, long long lo, long long hi,
		long long *out)
{
	char why[96];
	if (cli_integer_parse(value, lo, hi, out))
		return 0;
	snprintf(why, sizeof why, "expected an integer from %lld to %lld", lo, hi);
	return cli_refuse_value(flag, value, why);
}

int cli_int(const char *flag, const char *value, int lo, int hi, int *out)
{
	long long v;
	if (cli_integer(flag, value, lo, hi, &v))
		return -1;
	*out = (int)v;
	return 0;
}

int cli_real(const char *flag, const char *value, double lo, double hi, double *out)
{
	char *end, why[96];
	bool ok = starts_as_number(value, true);
	double v = 0;
	if (ok) {
		errno = 0;
		v = strtod(value, &end);
		ok = !errno && !*end && v >= lo && v <= hi;
	}
	if (ok) {
		*out = v;
		return 0;
	}
	snprintf(why, sizeof why, "expected a number from %g to %g", lo, hi);
	return cli_refuse_value(flag, value, why);
}

int cli_list_add(const char ***list, size_t *count, const char *flag, const char *value)
{
	const char **grown = realloc(*list, (*count + 2) * sizeof *grown);
	if (!grown)
		return cli_refuse_value(flag, value, "out of memory");
	*list = grown;
	grown[(*count)++] = value;
	grown[*count] = NULL;
	return 0;
}

int cli_env_add(const char ***list, size_t *count, const char *flag, const char *value)
{
	const char *why = run_options_env_problem(value);
	if (why)
		return cli_refuse_value(flag, value, why);
	return cli_list_add(list, count, flag, value);
}

int cli_allocator(const char *flag, const char *value, char *preload, size_t size)
{
	char path[4096], why[512] = "the library's path is too long to preload";
	*preload = '\0';
	if (allocator_is_default(value))
		return 0;
	if (allocator_resolve(value, path, sizeof path, why, sizeof why) ||
	    allocator_preload_env(path, preload, size))
		return cli_refuse_value(flag, value, why);
	return 0;
}
