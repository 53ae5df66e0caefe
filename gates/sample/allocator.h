/* allocator.h: --allocator NAME|PATH, the malloc the kernels run with.
 *
 * glibc (the default) preloads nothing. jemalloc, mimalloc and tcmalloc
 * are found in this OS's library directories (allocator_<os>.c; Debian
 * packages libjemalloc2, libmimalloc2.0, libtcmalloc-minimal4); any other
 * value is a path to a shared library. The library is preloaded into every
 * kernel process (LD_PRELOAD, DYLD_INSERT_LIBRARIES on macOS), recorded in
 * the context, and appended to the platform key, so each allocator has its
 * own baseline: baselines/linux-x86_64-glibc-jemalloc.json.
 */
#ifndef GATE_ALLOCATOR_H
#define GATE_ALLOCATOR_H

#include <stddef.h>

#include "core/result.h"

/* The name used in the key for VALUE: "glibc", "jemalloc", ... or, for a
 * path, its file name up to the first '.' ("libfoo"). Into OUT. */
void allocator_key_name(const char *value, char *out, size_t size);

/* Whether VALUE is the default allocator (NULL, "" or "glibc"). */
int allocator_is_default(const char *value);

/* Resolves VALUE to the library to preload into PATH. Returns 0; -ENOENT
 * with ERR saying which package provides it; -EINVAL for an unknown name. */
int allocator_resolve(const char *value, char *path, size_t size, char *err, size_t err_size);

/* Records VALUE (NULL: glibc) in CTX->allocator and, for a non-default
 * allocator, appends "-NAME" to CTX->platform_key. Returns 0 or -ENOMEM. */
int allocator_context(struct context *ctx, const char *value);

/* The environment assignment that preloads PATH ("LD_PRELOAD=PATH"), into OUT. */
int allocator_preload_env(const char *path, char *out, size_t size);

/* OS part: why no allocator can be preloaded on this OS (static text,
 * allocator_resolve's error: Windows has no preload mechanism for the C
 * runtime's malloc), or NULL where one can. */
const char *allocator_os_unsupported(void);

/* OS part: the file name of allocator NAME's library and the package that
 * provides it; -1 when this OS knows no such allocator. */
int allocator_os_library(const char *name, const char **file, const char **package);

/* OS part: library directories to search, NULL-terminated. */
const char *const *allocator_os_dirs(void);

/* OS part: the preload variable ("LD_PRELOAD"). */
const char *allocator_os_preload_var(void);

/* OS part: the file name of the allocation interposer built next to the
 * gate ("liballocgate-interpose.so", ".dylib" on macOS); NULL where there
 * is none (Windows). */
const char *allocator_os_interposer_file(void);

#endif
