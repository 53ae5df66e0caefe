/* fuzz_record.c: gates/sample/record.c, a kernel's sample record, which the gate
 * reads from a process that may crash, print garbage or flood. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "sample/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256], *text = fuzz_string(data, size);
	struct record rec;

	if (!text)
		return 0;
	if (record_parse(text, &rec, err, sizeof err) == 0) {
		/* Touch everything a parsed record promises. */
		for (size_t i = 0; i < rec.metric_count; i++)
			if (!rec.metrics[i].name[0] || !rec.metrics[i].unit[0])
				abort();
		for (size_t i = 0; i < rec.unavailable_count; i++)
			if (!rec.unavailable[i].name[0])
				abort();
		record_free(&rec);
	} else if (!err[0]) {
		abort(); /* a rejection must say why */
	}
	free(text);
	return 0;
}
