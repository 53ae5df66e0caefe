/* crashy.c: a kernel that misbehaves on request, to test containment.
 * CRASHY_MODE (read by variant "victim" only):
 *   segv     dies of SIGSEGV inside the region
 *   hang     never returns
 *   exit3    exits with status 3
 *   garbage  prints a line that is not the protocol
 *   flood    prints more than the runner accepts
 * Variant "steady" always works, so the rest of the run can be checked.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <allocgate/probe.h>

static void work(const struct gate_params *params)
{
	long long n = gate_param(params, "ops");
	gate_region_begin(NULL);
	for (long long i = 0; i < n; i++) {
		void *p = malloc(48);
		gate_consume(p);
		free(p);
	}
	gate_region_end();
}

/* About 9 MB of protocol-like lines, written a block at a time: wine's C
 * runtime makes one WriteFile per line of printf, 25 s for this under the
 * gate there, against 1 s in blocks. */
static void flood(void)
{
	static char block[1 << 16];
	size_t n = 0;
	for (int i = 0; n + 64 < sizeof block; i++)
		n += (size_t)snprintf(block + n, sizeof block - n, "metric flood timing ns %d\n", i);
	for (int i = 0; i < 140; i++)
		fwrite(block, 1, n, stdout);
}

static void misbehave(const char *mode)
{
	if (!strcmp(mode, "segv")) {
#ifdef _WIN32
		/* a real access violation (0xC0000005): the C runtime's raise()
		 * would only exit with status 3 */
		int *volatile nowhere = NULL;
		*nowhere = 1;
#else
		/* the default action, even where a sanitizer installed a handler */
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
#endif
	}
	if (!strcmp(mode, "hang"))
		for (;;)
			sleep(60);  /* pause() is POSIX only */
	if (!strcmp(mode, "exit3"))
		exit(3);
	if (!strcmp(mode, "garbage")) {
		printf("this is not a sample record\n");
		fflush(stdout);
	}
	if (!strcmp(mode, "flood"))
		flood();
}

static void victim(const struct gate_params *params)
{
	const char *mode = getenv("CRASHY_MODE");
	if (mode)
		misbehave(mode);
	work(params);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("steady", work, "malloc/free loop"),
	GATE_VARIANT("victim", victim, "misbehaves as CRASHY_MODE says"),
	{ 0 },
};

static const struct gate_paramset paramsets[] = {
	{ "small", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "ops=20000" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	{ 0 },
};

GATE_KERNEL("crashy", "test kernel: crashes, hangs or prints garbage on request",
	    variants, paramsets, expects)
