/* platform_os.h: what platform.c gives the OS files (platform_linux.c,
 * platform_darwin.c, platform_windows.c) so that each keeps only what is
 * really OS-specific. Internal to platform. */
#ifndef GATE_PLATFORM_OS_H
#define GATE_PLATFORM_OS_H

#include "core/result.h"

/* Replaces *FIELD by a copy of VALUE; sets *FAILED on no memory. */
void platform_set(char **field, const char *value, int *failed);

/* Fills what every OS fills alike: compiler and flags the gate was built
 * with, its version, the start time (UTC, ISO 8601), and, from the fields
 * already set (os, arch, libc), the platform key. Returns 0 or -ENOMEM. */
int platform_finish(struct context *ctx, int failed);

#endif
