/* digest.h: a fingerprint of a kernel executable.
 *
 * The baseline keeps, per timing series, the batch medians of earlier
 * recordings of the same kernel executable on the same machine (history.h);
 * the digest tells "the same executable". It is FNV-1a, 64 bits (Fowler,
 * Noll, Vo; the parameters of draft-eastlake-fnv): a change detector, not a
 * cryptographic hash. Of an ELF file it covers the loaded part only
 * (digest_elf.h: not the debug information or the build ID, which change
 * with a comment); of any other file (a PE or Mach-O executable) all its
 * bytes. configure.py's builds are path-independent (-ffile-prefix-map);
 * a build that writes its source root into the executable (CMake's
 * absolute paths) digests alike at another root of the same length, the
 * root masked (digest_elf.h).
 */
#ifndef GATE_DIGEST_H
#define GATE_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a 64 of N bytes at P, continuing from STATE (start with
 * DIGEST_FNV1A64_OFFSET). */
#define DIGEST_FNV1A64_OFFSET 0xcbf29ce484222325ull
uint64_t digest_fnv1a64(uint64_t state, const void *p, size_t n);

/* Writes "fnv1a64:" and 16 lower-case hex digits of the contents of the
 * file at PATH into OUT (at least DIGEST_TEXT_SIZE bytes). Returns 0 or a
 * negative errno (OUT is then empty). */
#define DIGEST_TEXT_SIZE 29
int digest_file(const char *path, char *out, size_t out_size);

/* The digest of the executable at PATH: "fnv1a64-elf:" and 16 hex digits
 * of its loaded part when it is an ELF file with readable headers
 * (digest_elf.h), the source root ROOT (or NULL: none) masked in it,
 * otherwise digest_file's. Returns 0 or a negative errno (OUT is then
 * empty). */
#define DIGEST_ELF_PREFIX "fnv1a64-elf:"
int digest_executable(const char *path, const char *root, char *out, size_t out_size);

/* Whether digests A and B were made the same way (their text before the
 * ':'): two digests of one method differ only when the executables do. */
int digest_same_method(const char *a, const char *b);

#endif
