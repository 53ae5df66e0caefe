/* jw_print.c: the kernel of this example: printing arrays with the JSON
 * writer in src/, a shared library that allocates only through hooks.
 * The counted twin compiles this kernel with allocgate-counted's Cflags
 * but links the same library, whose calls it cannot see (heap_* stays at
 * the kernel's own, none); the interposer (proc_*) and the cost pass
 * (cost_*_calls, and the allocation sites at the library's lines) see
 * them. */
#include <allocgate/probe.h>
#include <stdio.h>

#include "jw.h"

/* Prints an array of N integers (STRINGS: as strings) once. */
static void print_array(const struct gate_params *p, int strings)
{
	size_t n = gate_param_size(p, "items", 1, 10000000);
	struct jw_array *a = jw_array_new();
	char text[32];
	if (!a)
		gate_fail("jw_array_new:");
	for (size_t i = 0; i < n; i++) {
		long long v = (long long)i * 7919;
		snprintf(text, sizeof text, "item %lld", v);
		if (strings ? jw_array_add_string(a, text) : jw_array_add_int(a, v))
			gate_fail("adding item %zu:", i);
	}
	gate_region_begin(NULL);
	char *out = jw_print(a);
	gate_region_end();
	if (!out)
		gate_fail("jw_print:");
	gate_consume(out);
	jw_free(out);
	jw_array_free(a);
}

static void ints(const struct gate_params *p)
{
	print_array(p, 0);
}

static void strings(const struct gate_params *p)
{
	print_array(p, 1);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("ints", ints, "jw_print of an array of integers"),
	GATE_VARIANT("strings", strings, "jw_print of an array of strings"),
	{ 0 },
};

static const struct gate_paramset paramsets[] = {
	{ "10k", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "items=10000" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	{ 0 },
};

GATE_KERNEL("jw_print", "a JSON writer's print buffer, allocated through hooks", variants,
	    paramsets, expects)
