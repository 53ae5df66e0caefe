/* platform.h: what machine and software this is.
 *
 * The platform key names the baseline file: "<os>-<arch>-<libc>", e.g.
 * "linux-x86_64-glibc", "windows-x86_64-msvcrt", "macos-arm64-libsystem".
 * Only [a-z0-9_-] appear in a key. The OS-specific parts live in
 * platform_<os>.c, chosen by configure.py.
 */
#ifndef GATE_PLATFORM_H
#define GATE_PLATFORM_H

#include <stddef.h>
#include "core/result.h"

/* Fills CTX with this machine's facts (OS, arch, libc and version, kernel
 * release, CPU model and identity (core/cpu_identity.h), cores, page size,
 * THP, platform key, compiler and flags it was built with, gate version).
 * Returns 0 or -ENOMEM. */
int platform_context(struct context *ctx);

/* Builds a key from its parts, replacing any character outside [a-z0-9_]
 * by '_' and lower-casing, into OUT. Returns 0 or -ENAMETOOLONG. */
int platform_key(const char *os, const char *arch, const char *libc,
		 char *out, size_t out_size);

/* Appends "-SUFFIX" to CTX's platform key (the allocator's or backend's
 * name, which keeps apart the baselines measured under it), SUFFIX
 * lower-cased and every character outside [a-z0-9_] replaced by '_'.
 * Nothing when CTX has no key. Returns 0, -ENOMEM or -ENAMETOOLONG. */
int platform_key_add_suffix(struct context *ctx, const char *suffix);

/* Writes to WHY what differs in the software part of two contexts (libc
 * version, kernel release, THP, ASLR, malloc tunables, kernel environment,
 * pinning, compiler, CPU microcode where both record it), e.g. "libc 2.36 -> 2.37; THP madvise -> always", and
 * returns how many fields differ (0: WHY is empty). */
int platform_software_diff(const struct context *from, const struct context *to,
			   char *why, size_t why_size);

#endif
