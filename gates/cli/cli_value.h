/* cli_value.h: the values a flag takes, read the same way by every
 * subcommand (cli_value.c): integers, real numbers, the lists of a
 * repeatable flag, an allocator. Each refuses a bad value with
 * cli_refuse.h's wording, naming the flag and the value. */
#ifndef GATE_CLI_VALUE_H
#define GATE_CLI_VALUE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether TEXT is a decimal integer from LO to HI: an optional sign, then
 * digits and nothing else (no space, no fraction, no exponent, no
 * overflow); its value into *OUT when it is. */
bool cli_integer_parse(const char *text, long long lo, long long hi, long long *out);

/* FLAG's VALUE as such an integer into *OUT: 0, or -1 after "FLAG VALUE:
 * expected an integer from LO to HI". */
int cli_integer(const char *flag, const char *value, long long lo, long long hi,
		long long *out);

/* The same into an int (LO and HI within an int's range). */
int cli_int(const char *flag, const char *value, int lo, int hi, int *out);

/* FLAG's VALUE, a decimal number from LO to HI (a fraction and an
 * exponent allowed; nothing after it; not NaN), into *OUT: 0, or -1 after
 * "FLAG VALUE: expected a number from LO to HI". */
int cli_real(const char *flag, const char *value, double lo, double hi, double *out);

/* VALUE appended to the NULL-terminated *LIST of *COUNT entries (a
 * repeatable flag's): 0, or -1 after a message naming FLAG (no memory). */
int cli_list_add(const char ***list, size_t *count, const char *flag, const char *value);

/* FLAG's VALUE, an environment assignment KEY=VALUE for the kernel
 * processes (run/run_options.h's rules), appended to *LIST as
 * cli_list_add does: 0, or -1 after a message saying what is wrong. */
int cli_env_add(const char ***list, size_t *count, const char *flag, const char *value);

/* FLAG's VALUE, an allocator (sample/allocator.h: glibc, jemalloc,
 * mimalloc, tcmalloc or a library's path), as the assignment that
 * preloads it into PRELOAD (SIZE bytes; "" for the C library's own): 0,
 * or -1 after a message saying why it cannot be preloaded. */
int cli_allocator(const char *flag, const char *value, char *preload, size_t size);

#endif
