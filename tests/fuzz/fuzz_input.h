/* fuzz_input.h: turning libFuzzer's bytes into what the parsers take: a C
 * string (the runner hands them a kernel's whole stdout, a dump file's
 * whole text), a path (the loaders open a file), or a jansson value. */
#ifndef GATE_FUZZ_INPUT_H
#define GATE_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* DATA as a malloc'd NUL-terminated string (cut at an embedded NUL, as a
 * C caller would see it); NULL on no memory. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

/* A path whose file holds exactly DATA: one memory file (memfd, Linux)
 * reached through /proc, rewritten for each input, so that fuzzing a
 * loader that opens a path never touches the disk. Aborts when the memory
 * file cannot be made or written (the harness is broken, not the parser). */
static inline const char *fuzz_memory_path(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("fuzz_input", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	return path;
}

#endif
