/* fuzz_baseline.c: gates/store/baseline.c, the baseline and result JSON loader
 * (a file anyone can edit, commit or hand over). baseline_load opens a
 * path, so the input goes into a memory file reached through /proc
 * (Linux), without touching the disk. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "store/baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memory_file = -1;
static char memory_path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_result r;
	char err[1024];

	if (memory_file < 0) {
		memory_file = memfd_create("fuzz_baseline", 0);
		if (memory_file < 0)
			abort();
		snprintf(memory_path, sizeof memory_path, "/proc/self/fd/%d", memory_file);
	}
	if (ftruncate(memory_file, 0) < 0 || pwrite(memory_file, data, size, 0) != (ssize_t)size)
		abort();
	int rc = baseline_load(memory_path, &r, err, sizeof err);
	if (rc == 0) {
		for (size_t i = 0; i < r.series_count; i++)
			if (!r.series[i].kernel || !r.series[i].metric)
				abort();
		result_free(&r);
	} else if (rc == -ENOENT || !err[0]) {
		abort(); /* the file exists; a rejection must say why */
	}
	return 0;
}
