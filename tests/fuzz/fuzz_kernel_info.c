/* fuzz_kernel_info.c: gates/sample/kernel_info.c, a kernel's `--list` output. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "sample/kernel_info.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256], *text = fuzz_string(data, size);
	struct kernel_info k;
	int line;

	if (!text)
		return 0;
	if (kernel_info_parse("build/kernels/fuzz", text, &k, err, sizeof err) == 0) {
		for (size_t v = 0; v < k.variant_count; v++)
			(void)kernel_info_variant_source(&k, v, &line);
		for (size_t e = 0; e < k.expect_count; e++)
			(void)kernel_info_list_has(k.expects[e].params, "p");
		kernel_info_free(&k);
	} else if (!err[0]) {
		abort();
	}
	free(text);
	return 0;
}
