/* fuzz_cost_sites.c: gates/sample/cost_sites.c, the call graph of
 * callgrind's dumps turned into allocation sites. The input is one dump,
 * added twice (a sample's dumps share functions, files and calls), then
 * the sites are taken. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "sample/cost_sites.h"
#include "sample/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct cost_sites g;
	struct record rec;

	if (!text)
		return 0;
	memset(&g, 0, sizeof g);
	memset(&rec, 0, sizeof rec);
	if (cost_sites_add_dump(&g, text) == 0 && cost_sites_add_dump(&g, text) == 0 &&
	    cost_sites_record(&g, &rec) == 0) {
		for (size_t i = 0; i < rec.site_count; i++)
			if (!rec.sites[i].file || !rec.sites[i].function)
				abort();
	}
	record_free(&rec);
	cost_sites_free(&g);
	free(text);
	return 0;
}
