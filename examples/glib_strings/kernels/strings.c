/* strings.c: write-up 003 (docs/kernels.md, "refcount") on the library its
 * own program used: GLib. Returning a string by g_strdup/g_free against
 * handing out one shared string by g_atomic_int reference counting, one
 * thread. Every allocation here happens inside libglib-2.0.so, which was
 * not compiled with the counting include: the compile-time heap_* counts
 * see none of them, the interposer's proc_* counts (the counted pass
 * preloads it) see every one (docs/counters.md). */
#include <glib.h>

#include <allocgate/probe.h>

struct shared {
	gint refs;
	char text[8];
};

static void strdup_free(const struct gate_params *p)
{
	size_t ops = gate_param_size(p, "ops", 1, 1000000000);
	gate_region_begin(NULL);
	for (size_t i = 0; i < ops; i++) {
		char *s = g_strdup("foobar");
		gate_consume(s);
		g_free(s);
	}
	gate_region_end();
}

static void refcount(const struct gate_params *p)
{
	size_t ops = gate_param_size(p, "ops", 1, 1000000000);
	struct shared *s = g_new0(struct shared, 1);   /* before the region */
	g_strlcpy(s->text, "foobar", sizeof s->text);
	s->refs = 1;
	gate_region_begin(NULL);
	for (size_t i = 0; i < ops; i++) {
		g_atomic_int_inc(&s->refs);
		gate_consume(s->text);
		if (g_atomic_int_dec_and_test(&s->refs))
			g_free(s);
	}
	gate_region_end();
	g_free(s);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("strdup_free", strdup_free, "g_strdup a string, g_free it"),
	GATE_VARIANT("refcount", refcount, "g_atomic_int_inc and _dec_and_test on one shared string"),
	{ 0 },
};

static const struct gate_paramset paramsets[] = {
	{ "100k", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "ops=100000" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	/* one malloc and one free inside libglib per string: counted exactly */
	GATE_EXPECT_ON("linux", "strdup_free.proc_malloc_calls == 100000"),
	GATE_EXPECT_ON("linux", "strdup_free.proc_free_calls == 100000"),
	/* the wrappers see none of them (glib's own code is not counted): a
	 * claim on strdup_free.heap_* would be an error, its zeros no
	 * measurement (docs/kernels.md, "What is not measured is never a pass") */
	/* reference counting allocates nothing in the region */
	GATE_EXPECT_ON("linux", "refcount.proc_malloc_calls == 0"),
	{ 0 },
};

GATE_KERNEL("glib_strings", "write-up 003 on GLib: g_strdup/g_free against g_atomic_int "
	    "reference counting", variants, paramsets, expects)
