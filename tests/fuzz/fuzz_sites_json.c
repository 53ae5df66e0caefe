/* fuzz_sites_json.c: gates/store/sites_json.c, the "sites" and
 * "site_changes" arrays of baselines and result files. The input is any
 * JSON text; what jansson accepts goes to both readers, and sites read
 * back must be written and read again (the writer's output is the
 * reader's input). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/result.h"
#include "store/sites_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes R's sites and reads them back into a fresh result: the same count. */
static void round_trip(const struct run_result *r)
{
	struct run_result again;
	char err[512] = "";
	json_t *arr = sites_json(r);

	if (!arr)
		abort();
	memset(&again, 0, sizeof again);
	if (sites_json_load(arr, &again, err, sizeof err) != 0 || again.site_count != r->site_count)
		abort();
	json_decref(arr);
	result_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_result r;
	char err[512] = "";
	json_t *root = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);

	if (!root)
		return 0;
	memset(&r, 0, sizeof r);
	if (sites_json_load(root, &r, err, sizeof err) == 0)
		round_trip(&r);
	else if (!err[0])
		abort(); /* a rejection must say why */
	result_free(&r);
	memset(&r, 0, sizeof r);
	err[0] = '\0';
	if (site_changes_json_load(root, &r, err, sizeof err) != 0 && !err[0])
		abort();
	result_free(&r);
	json_decref(root);
	return 0;
}
