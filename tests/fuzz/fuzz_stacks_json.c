/* fuzz_stacks_json.c: gates/store/stacks_json.c, the "stacks" and
 * "stacks_before" arrays of baselines and result files. The input is any
 * JSON text; what jansson accepts goes to the reader, and stacks read back
 * must be written and read again (the writer's output is the reader's
 * input). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/result.h"
#include "store/stacks_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes SET and reads it back: the same count. */
static void round_trip(const struct stacks *set)
{
	struct stacks again;
	char err[512] = "";
	json_t *arr = stacks_json(set);

	if (!arr)
		abort();
	memset(&again, 0, sizeof again);
	if (stacks_json_load(arr, "stacks", &again, err, sizeof err) != 0 ||
	    again.count != set->count)
		abort();
	json_decref(arr);
	result_stacks_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stacks set;
	char err[512] = "";
	json_t *root = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);

	if (!root)
		return 0;
	memset(&set, 0, sizeof set);
	if (stacks_json_load(root, "stacks", &set, err, sizeof err) == 0)
		round_trip(&set);
	else if (!err[0])
		abort(); /* a rejection must say why */
	result_stacks_free(&set);
	json_decref(root);
	return 0;
}
