/* fuzz_cost_sites.c: gates/sample/cost_sites.c, the call graph of
 * callgrind's dumps turned into allocation sites, and cost_stacks.c, its
 * contexts turned into call stacks. The input is one dump, added twice (a
 * sample's dumps share functions, files and calls), then the sites and
 * the stacks are taken. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "sample/cost_sites.h"
#include "sample/cost_stacks.h"
#include "sample/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct cost_sites g;
	struct cost_stacks contexts;
	struct stacks stacks;
	struct record rec;

	if (!text)
		return 0;
	memset(&g, 0, sizeof g);
	memset(&contexts, 0, sizeof contexts);
	memset(&stacks, 0, sizeof stacks);
	memset(&rec, 0, sizeof rec);
	if (cost_sites_add_dump(&g, text) == 0 && cost_sites_add_dump(&g, text) == 0 &&
	    cost_sites_record(&g, &rec) == 0) {
		for (size_t i = 0; i < rec.site_count; i++)
			if (!rec.sites[i].file || !rec.sites[i].function)
				abort();
	}
	if (cost_stacks_add_dump(&contexts, text) == 0 &&
	    cost_stacks_add_dump(&contexts, text) == 0 &&
	    cost_stacks_record(&contexts, &g, &stacks) == 0) {
		for (size_t i = 0; i < stacks.count; i++)
			if (!stacks.items[i].frame_count || (!stacks.items[i].file &&
							     stacks.items[i].line))
				abort();
	}
	result_stacks_free(&stacks);
	cost_stacks_free(&contexts);
	record_free(&rec);
	cost_sites_free(&g);
	free(text);
	return 0;
}
