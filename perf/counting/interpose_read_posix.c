/* interpose_read_posix.c: the probe's side of the allocation interposer
 * (perf/interpose/): present when the counted pass preloaded it (the
 * OS's preload variable, interpose_read_<os>.c), found by name in the
 * process with dlsym. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "interpose/interpose.h"
#include "counting/interpose_read.h"

static void (*read_totals)(uint64_t *, size_t);
static void (*set_counting)(int);
static size_t (*read_libraries)(struct interpose_library *, size_t, uint64_t *);
static const char *(*read_live_off)(void);
static bool looked;

bool interpose_present(void)
{
	if (!looked) {
		looked = true;
		/* only when preloaded: a dlsym that finds nothing allocates its
		 * error message, which moves the heap layout of every timed and
		 * cost sample (seen: free_cost n_100k's free +4-8% instructions) */
		const char *preload = getenv(interpose_os_preload_var());
		if (preload && strstr(preload, "liballocgate-interpose")) {
			read_totals = (void (*)(uint64_t *, size_t))dlsym(
				RTLD_DEFAULT, "allocgate_interpose_totals");
			set_counting = (void (*)(int))dlsym(RTLD_DEFAULT,
							    "allocgate_interpose_counting");
			read_libraries = (size_t (*)(struct interpose_library *, size_t,
						     uint64_t *))dlsym(
				RTLD_DEFAULT, "allocgate_interpose_libraries");
			read_live_off = (const char *(*)(void))dlsym(
				RTLD_DEFAULT, "allocgate_interpose_live_off");
		}
	}
	return read_totals != NULL;
}

void interpose_read(uint64_t *out)
{
	if (interpose_present()) {
		/* an interposer of another version may fill fewer totals */
		memset(out, 0, INTERPOSE_IDS * sizeof *out);
		read_totals(out, INTERPOSE_IDS);
	}
}

const char *interpose_live_off(void)
{
	if (!interpose_present())
		return NULL;
	return read_live_off ? read_live_off()
			     : "the interposer loaded keeps no live totals (another version)";
}

void interpose_counting(int on)
{
	if (interpose_present() && set_counting)
		set_counting(on);
}

size_t interpose_libraries(struct interpose_library *out, size_t max, uint64_t *unattributed)
{
	*unattributed = 0;
	return interpose_present() && read_libraries ? read_libraries(out, max, unattributed) : 0;
}
