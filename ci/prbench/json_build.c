/* json_build.c: building and printing JSON with jansson, whose every
 * allocation goes through its own hooks (memory.c's function pointers). */
#include <allocgate/probe.h>
#include <stdio.h>

#include "jansson.h"

static void append(const struct gate_params *p)
{
	size_t n = gate_param_size(p, "items", 1, 10000000);
	json_t *a = json_array();
	gate_region_begin(NULL);
	for (size_t i = 0; i < n; i++)
		if (json_array_append_new(a, json_integer((json_int_t)i)))
			gate_fail("append %zu:", i);
	gate_region_end();
	gate_consume(a);
	json_decref(a);
}

static void dumps(const struct gate_params *p)
{
	size_t n = gate_param_size(p, "items", 1, 10000000);
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string("item"));
	gate_region_begin(NULL);
	char *text = json_dumps(a, JSON_COMPACT);
	gate_region_end();
	if (!text)
		gate_fail("json_dumps:");
	gate_consume(text);
	free(text);
	json_decref(a);
}

static void object(const struct gate_params *p)
{
	size_t n = gate_param_size(p, "items", 1, 10000000);
	char key[32];
	json_t *o = json_object();
	gate_region_begin(NULL);
	for (size_t i = 0; i < n; i++) {
		snprintf(key, sizeof key, "k%zu", i);
		json_object_set_new(o, key, json_integer((json_int_t)i));
	}
	gate_region_end();
	gate_consume(o);
	json_decref(o);
}

static void parse(const struct gate_params *p)
{
	size_t n = gate_param_size(p, "items", 1, 10000000);
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)i));
	char *text = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	gate_region_begin(NULL);
	json_t *back = json_loads(text, 0, NULL);
	gate_region_end();
	if (!back)
		gate_fail("json_loads:");
	gate_consume(back);
	json_decref(back);
	free(text);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("append", append, "json_array_append_new of N integers"),
	GATE_VARIANT("dumps", dumps, "json_dumps of an array of N strings"),
	GATE_VARIANT("object", object, "json_object_set_new of N keys"),
	GATE_VARIANT("parse", parse, "json_loads of an array of N integers"),
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

GATE_KERNEL("json_build", "jansson's arrays, objects and buffers, allocated through its hooks",
	    variants, paramsets, expects)
