/* callgrind.h: the callgrind backend's pure parts: the valgrind command
 * line of a sample and the instruction count of its output file
 * (docs/counters.md). */
#ifndef GATE_CALLGRIND_H
#define GATE_CALLGRIND_H

#include <stddef.h>
#include <stdint.h>

/* Arguments put before a kernel's argv to run it under callgrind with
 * collection off until the probe's client request switches it on; OUT_ARG
 * is "--callgrind-out-file=PATH". Fills PREFIX (at least 6 slots) and
 * returns how many it used. */
size_t callgrind_prefix(const char *valgrind, const char *out_arg, char **prefix);

/* Instructions executed (event Ir) in TEXT, a callgrind output file: the
 * "summary:" line, else the "totals:" line, at the position of Ir in the
 * "events:" line. Returns 0, or -EINVAL with ERR saying what is missing. */
int callgrind_parse_instructions(const char *text, uint64_t *ir, char *err, size_t err_size);

#endif
