/* probe_threads.c: gate_parallel_region with POSIX threads, which Linux,
 * macOS and mingw-w64 (winpthreads) all have; an MSVC build needs its own. */
#include <pthread.h>
#include <stdlib.h>

#include "allocgate/probe.h"
#include "probe_internal.h"

int gate_parallel_region(const char *name, void *(*worker)(void *), void *jobs,
			 size_t job_size, int threads)
{
	pthread_t *handles = calloc(threads > 0 ? (size_t)threads : 1, sizeof *handles);
	int started = 0, err = 0;
	if (!handles)
		return -1;
	probe_threads_used(threads);
	gate_region_begin(name);
	for (; started < threads; started++) {
		err = pthread_create(&handles[started], NULL, worker,
				     (char *)jobs + (size_t)started * job_size);
		if (err)
			break;
	}
	for (int t = 0; t < started; t++)
		pthread_join(handles[t], NULL);
	gate_region_end();
	free(handles);
	return err;
}
