/* discover.h: where the kernel executables and baselines are. */
#ifndef GATE_DISCOVER_H
#define GATE_DISCOVER_H

#include <stddef.h>

/* Directory of the running gate binary, from ARGV0 ("." when it has no
 * directory part); written to OUT. */
void discover_self_dir(const char *argv0, char *out, size_t size);

/* Default baseline directory for a gate binary in SELF_DIR: the
 * "baselines" folder beside the build directory ("build" -> "baselines",
 * "/src/build" -> "/src/baselines"), else SELF_DIR/baselines; into OUT. */
void discover_baseline_dir(const char *self_dir, char *out, size_t size);

/* The allocation interposer (liballocgate-interpose.so: next to a built
 * gate, or in ../lib beside an installed gate's bin/; looked for from the
 * running program's own file (path_os_self_executable), links resolved,
 * then from SELF_DIR) into OUT as an absolute path; NULL,
 * or why there is none (static text): not found (it is built on Linux
 * only), ALLOCGATE_INTERPOSE=0, or a sanitizer build (its kernels need
 * their runtime first in the process; a library preloaded before it aborts
 * them). */
const char *discover_interposer(const char *self_dir, char *out, size_t size);

/* Lists the kernel executables in DIR: sorted, NULL-terminated array of
 * malloc'd paths in *OUT. Returns the count, or a negative errno. */
int discover_kernels(const char *dir, char ***out);

/* Frees a list from discover_kernels. */
void discover_free(char **list);

/* Kernel name of an executable path (its file name without ".exe"), into OUT. */
void discover_kernel_name(const char *path, char *out, size_t size);

#endif
