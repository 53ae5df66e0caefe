/* hang_free.c: a preloaded "allocator" that deadlocks, for the time-budget
 * tests (tests/test_e2e_budget.c, docs/robustness.md). LD_PRELOAD it into
 * the kernels: it forwards free() to glibc's __libc_free and, at the
 * HANG_FREE_AT-th call of the process (1: the first), blocks forever, as a
 * stuck allocator lock would. Without HANG_FREE_AT it only forwards. */
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

void __libc_free(void *p);
void free(void *p);

static atomic_long hang_calls;

void free(void *p)
{
	static long hang_at = -1;
	if (hang_at < 0) {
		const char *v = getenv("HANG_FREE_AT");
		hang_at = v ? atol(v) : 0;
	}
	if (hang_at > 0 && atomic_fetch_add(&hang_calls, 1) + 1 == hang_at)
		for (;;)
			pause();
	__libc_free(p);
}
