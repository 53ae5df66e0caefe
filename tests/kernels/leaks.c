/* leaks.c: a test kernel that frees everything it allocates in its region,
 * or on purpose does not, for tests/test_e2e_leaks.c:
 *   list  builds a linked list of NODES nodes and frees it, in one region.
 *         LEAKS_KEEP=K (environment, 0 to NODES) leaves the last K nodes
 *         made still allocated at the region's end: a leak of K blocks as
 *         the region sees it. They are freed after the region, so that a
 *         leak checker at the process's exit (ASan's) finds nothing.
 * It declares that nothing is left: the claims below fail under
 * LEAKS_KEEP, and against a baseline taken without it the live counts
 * rise from 0 (docs/counters.md, heap_live_bytes).
 */
#include <stdlib.h>

#include <allocgate/probe.h>

struct node {
	struct node *next;
	unsigned char payload[40];
};

/* LEAKS_KEEP as a count of nodes, at most NODES. */
static long long keep_from_env(long long nodes)
{
	const char *v = getenv("LEAKS_KEEP");
	long long keep = v ? strtoll(v, NULL, 10) : 0;
	return keep < 0 ? 0 : keep > nodes ? nodes : keep;
}

static void list(const struct gate_params *params)
{
	long long nodes = gate_param(params, "nodes"), keep = keep_from_env(nodes);
	struct node *head = NULL;
	gate_region_begin(NULL);
	for (long long i = 0; i < nodes; i++) {
		struct node *n = malloc(sizeof *n);
		if (!n)
			gate_fail("malloc:");
		n->next = head;
		n->payload[0] = (unsigned char)i;
		head = n;
	}
	gate_consume(head);
	/* the first KEEP nodes of the list (the last made) stay */
	struct node *kept = head;
	for (long long i = 0; i < keep; i++)
		head = head->next;
	while (head) {
		struct node *next = head->next;
		free(head);
		head = next;
	}
	gate_region_end();
	for (long long i = 0; i < keep; i++) {
		struct node *next = kept->next;
		free(kept);
		kept = next;
	}
	gate_metric("nodes", "count", GATE_EXACT, (uint64_t)nodes);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("list", list, "build a linked list and free it (LEAKS_KEEP=K: keep K nodes)"),
	{ 0 },
};

static const struct gate_paramset paramsets[] = {
	{ "small", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "nodes=1000" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	/* the counted build's wrappers: the kernel's own calls */
	GATE_EXPECT("list.heap_live_bytes == 0"),
	/* the interposer: every call of the process (Linux) */
	GATE_EXPECT_ON("linux", "list.proc_live_blocks == 0"),
	{ 0 },
};

GATE_KERNEL("leaks", "frees what it allocates in its region, or leaks under LEAKS_KEEP",
	    variants, paramsets, expects)
