/* fuzz_cost_dump.c: gates/sample/cost_dump.c, a callgrind output file as
 * the cost pass reads it (whatever valgrind, or a kernel writing into its
 * dump, left there): the totals and calls, the label and its regions, the
 * ifunc variants named. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "sample/cost_dump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_region(const char *region, void *arg)
{
	if (!region)
		abort();
	(*(size_t *)arg)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256] = "", *text = fuzz_string(data, size);
	struct cost_dump d;
	char *ifuncs = NULL;

	if (!text)
		return 0;
	if (cost_parse_dump(text, &d, err, sizeof err) == 0) {
		if (!memchr(d.label, '\0', sizeof d.label))
			abort();
		size_t regions = 0;
		cost_label_regions(d.label, count_region, &regions);
		(void)cost_label_has(d.label, "");
		(void)cost_estimated_cycles(d.events);
	} else if (!err[0]) {
		abort(); /* a rejection must say why */
	}
	if (cost_dump_ifuncs(text, &ifuncs) == 0 && ifuncs && strstr(ifuncs, ",,"))
		abort(); /* a set has no empty member */
	free(ifuncs);
	free(text);
	return 0;
}
