/* fuzz_results_load.c: gates/store/results_load.c, a whole --json result
 * file read back by `gate merge` and `gate diff` (files from other
 * machines, other versions, other hands), read from a memory file. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "store/results_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_result r;
	char err[1024] = "";

	int rc = results_load(fuzz_memory_path(data, size), &r, err, sizeof err);
	if (rc == 0) {
		for (size_t i = 0; i < r.series_count; i++)
			if (!r.series[i].kernel || !r.series[i].metric)
				abort();
		for (size_t i = 0; i < r.site_count; i++)
			if (!r.sites[i].kernel || !r.sites[i].kind)
				abort();
		result_free(&r);
	} else if (rc == -ENOENT || !err[0]) {
		abort(); /* the file exists; a rejection must say why */
	}
	return 0;
}
