/* cjson.c: printing and parsing with cJSON, whose print buffer grows by
 * its hooks (cJSON.c's ensure). */
#include <allocgate/probe.h>
#include <stdlib.h>

#include "cJSON.h"

static cJSON *numbers(size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)i));
	return a;
}

static void print(const struct gate_params *p)
{
	cJSON *a = numbers(gate_param_size(p, "items", 1, 10000000));
	gate_region_begin(NULL);
	char *text = cJSON_PrintUnformatted(a);
	gate_region_end();
	if (!text)
		gate_fail("cJSON_PrintUnformatted:");
	gate_consume(text);
	cJSON_free(text);
	cJSON_Delete(a);
}

static void parse(const struct gate_params *p)
{
	cJSON *a = numbers(gate_param_size(p, "items", 1, 10000000));
	char *text = cJSON_PrintUnformatted(a);
	cJSON_Delete(a);
	gate_region_begin(NULL);
	cJSON *back = cJSON_Parse(text);
	gate_region_end();
	if (!back)
		gate_fail("cJSON_Parse:");
	gate_consume(back);
	cJSON_Delete(back);
	cJSON_free(text);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("print", print, "cJSON_PrintUnformatted of N numbers"),
	GATE_VARIANT("parse", parse, "cJSON_Parse of N numbers"),
	{ 0 },
};

static const struct gate_paramset paramsets[] = {
	{ "1k", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "items=1000" },
	{ "10k", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "items=10000" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	{ 0 },
};

GATE_KERNEL("cjson", "cJSON print and parse", variants, paramsets, expects)
