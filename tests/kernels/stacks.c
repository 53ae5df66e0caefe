/* stacks.c: the test kernel of the allocation call stacks
 * (tests/test_e2e_stacks.c): known paths from the variant to malloc.
 *   helper  opens its region itself, then NODES times calls make_node,
 *           which mallocs a node and its payload (two calls a call: a
 *           caller, not a wrapper), so the stacks are helper -> make_node
 *           -> malloc at make_node's two lines; WRAPPED times calls
 *           xmalloc, an allocation wrapper (it only forwards to malloc),
 *           so that stack is helper alone, at the line that called
 *           xmalloc; and frees everything itself.
 *   regions NODES / 10 make_node calls in region "build"; then region
 *           "drop" frees them, the first half with region "inner" open
 *           inside it, so that its stacks are of three sets of open
 *           regions: build, drop/inner, drop.
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

static void free_node(struct node *n)
{
	if (n)
		free(n->payload);
	free(n);
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

static void v_regions(const struct gate_params *params)
{
	enum { MAX_NODES = 1000 };
	static struct node *nodes[MAX_NODES];
	long long n = gate_param(params, "nodes") / 10;
	if (n > MAX_NODES)
		n = MAX_NODES;
	gate_region_begin("build");
	for (long long i = 0; i < n; i++)
		nodes[i] = make_node_call(16);
	gate_region_end();
	gate_region_begin("drop");
	gate_region_begin("inner");
	for (long long i = 0; i < n / 2; i++)
		free_node(nodes[i]);
	gate_region_end();
	for (long long i = n / 2; i < n; i++)
		free_node(nodes[i]);
	gate_region_end();
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("helper", v_helper, "NODES make_node calls, WRAPPED xmalloc calls"),
	GATE_VARIANT("regions", v_regions, "NODES/10 nodes built in one region, freed in another"),
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
