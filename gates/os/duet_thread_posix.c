/* duet_thread_posix.c: duet_run_pair with POSIX threads. Both sides wait
 * on one counter until both have arrived, then start at once (spinning:
 * a condition variable would wake the second thread tens of microseconds
 * after the first). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>

#include "sample/duet.h"

struct pair_side {
	void (*fn)(void *);
	void *arg;
	atomic_int *arrived;
};

static void *side_main(void *p)
{
	struct pair_side *s = p;
	atomic_fetch_add(s->arrived, 1);
	while (atomic_load(s->arrived) < 2)
		;
	s->fn(s->arg);
	return NULL;
}

int duet_run_pair(void (*fn)(void *), void *a, void *b)
{
	atomic_int arrived = 0;
	struct pair_side sa = { fn, a, &arrived }, sb = { fn, b, &arrived };
	pthread_t t;
	int err = pthread_create(&t, NULL, side_main, &sa);
	if (err)
		return -err;
	side_main(&sb);
	pthread_join(t, NULL);
	return 0;
}
