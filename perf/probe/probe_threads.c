/* probe_threads.c: gate_parallel_region with POSIX threads, which Linux,
 * macOS and mingw-w64 (winpthreads) all have; an MSVC build needs its own.
 *
 * The threads start together: each waits at a start line until all have
 * arrived there. Under the cost pass the waiting itself is not
 * counted, neither at the start line nor in the joins: how often a wait
 * blocks follows the schedule (about 94 instructions each time a join
 * blocks, glibc 2.36), while the threads' work, start and exit are the
 * same in every run (docs/cost.md, "Determinism"). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "allocgate/probe.h"
#include "counters/sched_wait.h"
#include "probe/probe_cost.h"
#include "probe/probe_state.h"

/* The start line: each thread arrives and waits until GO is set; the
 * region's thread sets it once all have arrived. Under valgrind the
 * threads then also wait until all are awake, so that every one of them
 * holds its turn of valgrind's lock before any begins its work: the turns
 * then come in the same rotation every run. */
struct start_line {
	pthread_mutex_t lock;
	pthread_cond_t arrived_one, opened;
	int arrived, threads, go;
	atomic_int awake;
};

struct start {
	struct start_line *line;
	void *(*worker)(void *);
	void *job;
};

/* A thread of the region: waits at the start line, then runs the worker.
 * Named probe_*: the cost pass's call graph knows the function it calls
 * for the kernel's own (gates/sample/cost_sites.h, cost_stacks.h: the
 * worker is never a wrapper, and it is its call stacks' root). */
static void *probe_thread_start(void *arg)
{
	const struct start *s = arg;
	struct start_line *line = s->line;
	probe_cost_wait_begin();
	pthread_mutex_lock(&line->lock);
	line->arrived++;
	pthread_cond_signal(&line->arrived_one);
	while (!line->go)
		pthread_cond_wait(&line->opened, &line->lock);
	int threads = line->threads;
	pthread_mutex_unlock(&line->lock);
	if (probe_cost_pass_running()) {
		atomic_fetch_add(&line->awake, 1);
		while (atomic_load(&line->awake) < threads)
			sched_yield();
	}
	probe_cost_wait_end();
	void *ret = s->worker(s->job);
	/* its run-queue wait ends with it: the region's reading adds it (not
	 * under the cost pass, which would count the reading's instructions) */
	if (!probe_cost_pass_running())
		sched_wait_thread_done();
	return ret;
}

int gate_parallel_region(const char *name, void *(*worker)(void *), void *jobs,
			 size_t job_size, int threads)
{
	size_t n = threads > 0 ? (size_t)threads : 1;
	pthread_t *handles = calloc(n, sizeof *handles);
	struct start *starts = calloc(n, sizeof *starts);
	struct start_line line = { .lock = PTHREAD_MUTEX_INITIALIZER,
				   .arrived_one = PTHREAD_COND_INITIALIZER,
				   .opened = PTHREAD_COND_INITIALIZER };
	int started = 0, err = 0;
	if (!handles || !starts) {
		free(handles);
		free(starts);
		return -1;
	}
	probe_threads_used(threads);
	gate_region_begin(name);
	for (; started < threads; started++) {
		starts[started] = (struct start){ &line, worker,
						  (char *)jobs + (size_t)started * job_size };
		err = pthread_create(&handles[started], NULL, probe_thread_start,
				     &starts[started]);
		if (err)
			break;
	}
	probe_cost_wait_begin();
	pthread_mutex_lock(&line.lock);
	while (line.arrived < started)
		pthread_cond_wait(&line.arrived_one, &line.lock);
	line.threads = started;
	line.go = 1;
	pthread_cond_broadcast(&line.opened);
	pthread_mutex_unlock(&line.lock);
	for (int t = 0; t < started; t++)
		pthread_join(handles[t], NULL);
	probe_cost_wait_end();
	gate_region_end();
	free(handles);
	free(starts);
	return err;
}
