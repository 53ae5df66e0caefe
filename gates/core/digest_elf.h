/* digest_elf.h: the part of an ELF executable that decides what it runs.
 *
 * Two builds of a kernel that differ only in a comment of a header it
 * includes have different bytes: the debug information (.debug_line's line
 * numbers) and the linker's build ID (a hash of the whole output) change,
 * the loaded image does not (measured: docs/measurements.md, "Figures
 * behind the code's rules"). The drift history of a timing series is kept only across the same
 * executable (history.h), so a digest of the whole file would restart every
 * history on such an edit.
 *
 * This digest covers what the loader maps and the program runs: the ELF
 * header's class, byte order, type, machine and entry point; the program
 * header table; and every allocated section (SHF_ALLOC) but the build-ID
 * note: its name, type, flags, address and size, and its contents unless it
 * occupies no file space (SHT_NOBITS, .bss). Sections that are not loaded
 * (.debug_*, .symtab, .strtab, .comment, .shstrtab) are left out. The file
 * is read from its ELF header's own offsets, with bounds checked; ELF32 and
 * ELF64, either byte order, on any host (no <elf.h>: the Windows build
 * compiles this too).
 *
 * A build system that compiles with absolute paths (CMake does) writes its
 * source root into the loaded image: `__FILE__` of every assert, counted
 * allocation and GATE_VARIANT line, and a RUNPATH into its build directory.
 * A pull request's base built in a worktree then differs from the checkout
 * by those bytes alone. Given the source root, each occurrence of it in a
 * section's contents is masked (its bytes replaced by 0x01) before it is
 * hashed, so that two builds of one source at two roots of the same length
 * digest alike; roots of different lengths move the data that follows the
 * path, and the code that addresses it, so nothing masks that (the action
 * places the base's worktree at a path of the checkout's length:
 * ci/worktree.sh).
 */
#ifndef GATE_DIGEST_ELF_H
#define GATE_DIGEST_ELF_H

#include <stdint.h>
#include <stdio.h>

/* Continues the FNV-1a 64 state *H (digest.h) over the loaded part of the
 * ELF file F (opened "rb", at any position), ROOT (a directory, or NULL)
 * masked where it stands in a section's contents followed by a separator,
 * a NUL or the section's end. Returns 1 when F is an ELF
 * file whose headers lie inside it (*H then holds the digest), 0 when it is
 * not one or its header, program header table or section table is out of
 * bounds or of an unknown layout (*H unchanged: the caller digests the
 * whole file), -EIO on a read error or -ENOMEM. */
int digest_elf(FILE *f, const char *root, uint64_t *h);

#endif
