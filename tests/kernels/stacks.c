/* stacks.c: the test kernel of the allocation call stacks
 * (tests/test_e2e_stacks.c): known paths from the variant to malloc.
 *   helper  opens its region itself, then NODES times calls make_node,
 *           which mallocs a node and its payload (two calls a call: a
 *           caller, not a wrapper), so the stacks are helper -> make_node
 *           -> malloc at make_node's two lines; WRAPPED times calls
 *           xmalloc, an allocation wrapper (it only forwards to malloc),
 *           so that stack is helper alone, at the line that called
 *           xmalloc; and frees everything itself.
 */
#include <stdlib.h>

#include <allocgate/probe.h>

struct node {
	char *payload;
};

static struct node *make_node(size_t payload)
{
	struct node *n = malloc(sizeof *n);
	if (n)
		n->payload = malloc(payload);
	return n;
}

static void *xmalloc(size_t size)
{
	return malloc(size);
}

/* Called through volatile pointers, so that the compiler cannot inline
 * them and callgrind sees each function. */
static struct node *(*volatile make_node_call)(size_t) = make_node;
static void *(*volatile xmalloc_call)(size_t) = xmalloc;

static void v_helper(const struct gate_params *params)
{
	long long nodes = gate_param(params, "nodes"), wrapped = gate_param(params, "wrapped");
	gate_region_begin(NULL);
	for (long long i = 0; i < nodes; i++) {
		struct node *n = make_node_call(32 + (size_t)(i & 7));
		gate_consume(n);
		if (n)
			free(n->payload);
		free(n);
	}
	for (long long i = 0; i < wrapped; i++) {
		void *p = xmalloc_call(48);
		gate_consume(p);
		free(p);
	}
	gate_region_end();
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("helper", v_helper, "NODES make_node calls, WRAPPED xmalloc calls"),
	{ 0 },
};

/* Full tier only: the other end-to-end tests run the quick and default
 * tiers over every test kernel and need not meet this one. */
static const struct gate_paramset paramsets[] = {
	{ "small", GATE_TIER_FULL, "nodes=1000 wrapped=300" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	{ 0 },
};

GATE_KERNEL("stacks", "test kernel: known call stacks from the variant to malloc", variants,
	    paramsets, expects)
