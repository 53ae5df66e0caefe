/* kernel_code.h: whether two builds of a kernel run the same code.
 *
 * A pull request that does not change what a kernel runs (docs, tests, CI
 * files, another module) gives gate ab two kernels that differ only in
 * their debug information and the paths in it (a checkout and a worktree):
 * timing them against each other can only find noise. The code of a kernel
 * is its executable's loaded image (core/digest_elf.h: code and data, not
 * the debug sections or the build ID), its counted twin's, and those of the
 * shared objects either loads from its own project (below its source root:
 * the project's libraries, not the system's, which are the same file for
 * both sides). */
#ifndef GATE_KERNEL_CODE_H
#define GATE_KERNEL_CODE_H

#include <stddef.h>

#include "sample/kernel_info.h"

/* The digest of the code kernel K runs, into OUT ("fnv1a64:" and 16 hex
 * digits; DIGEST_TEXT_SIZE bytes at least), each project object named by
 * its path below the source root, so that a worktree's build and a
 * checkout's compare. Returns 0; -ENOTSUP where the loaded objects cannot
 * be listed (sample/loaded_objects.h), or another negative errno: then the
 * code is unknown and the kernel is measured. */
int kernel_code_digest(const struct kernel_info *k, char *out, size_t size);

#endif
