/* fuzz_policy_json.c: gates/store/policy_json.c, the "policy" object of
 * baselines and result files. The input is any JSON text; what jansson
 * accepts goes to the reader, and a policy read must be written and read
 * again to the same object (the writer's output is the reader's input). */
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "core/policy.h"
#include "store/policy_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_policy p, again;
	char why[512] = "";
	json_t *root = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);

	if (!root)
		return 0;
	if (policy_json_load(root, &p, why, sizeof why) == 0) {
		json_t *written = policy_json(&p);
		if (!written || policy_json_load(written, &again, why, sizeof why) != 0)
			abort();
		json_t *rewritten = policy_json(&again);
		if (!rewritten || !json_equal(written, rewritten))
			abort();
		json_decref(written);
		json_decref(rewritten);
	} else if (!why[0]) {
		abort(); /* a rejection must say why */
	}
	json_decref(root);
	return 0;
}
