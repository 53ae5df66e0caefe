/* interpose_count.c: the counts of the allocation interposer
 * (interpose.h), whatever replaces the allocator on this OS
 * (interpose_linux.c: RTLD_NEXT; interpose_darwin.c: dyld's __interpose
 * section): totals since the process started, and per caller library
 * while the probe's regions are open. No allocation of its own, no
 * thread-local storage (in a preloaded library its first use in a thread
 * may allocate). */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "interpose/interpose.h"
#include "interpose/interpose_count.h"

static _Atomic uint64_t totals[INTERPOSE_IDS];
static _Atomic(const char *) live_off;

void allocgate_interpose_totals(uint64_t *out, size_t n)
{
	for (size_t i = 0; i < n && i < INTERPOSE_IDS; i++)
		out[i] = atomic_load_explicit(&totals[i], memory_order_relaxed);
}

const char *allocgate_interpose_live_off(void)
{
	return atomic_load(&live_off);
}

void interpose_live_stop(const char *why)
{
	atomic_store(&live_off, why);
}

/* Unsigned adds wrap: a free is the add of -size modulo 2^64. */
void interpose_count_live(int64_t bytes, int64_t blocks)
{
	if (atomic_load_explicit(&live_off, memory_order_relaxed))
		return;
	atomic_fetch_add_explicit(&totals[INTERPOSE_LIVE_BYTES], (uint64_t)bytes,
				  memory_order_relaxed);
	atomic_fetch_add_explicit(&totals[INTERPOSE_LIVE_BLOCKS], (uint64_t)blocks,
				  memory_order_relaxed);
}

/* ---- per caller library (interpose.h) ----
 *
 * Which shared object a call came from: dladdr of the return address,
 * which takes the loader's (recursive) lock and allocates nothing, once
 * per return address; a direct-mapped cache of addresses to library slots
 * answers the later calls. No thread-local storage: in a preloaded
 * library its first use in a thread may allocate. */
struct library_slot {
	_Atomic(const char *) name;        /* NULL: free; else the file name */
	_Atomic uint64_t calls[INTERPOSE_IDS], bytes[INTERPOSE_IDS];
};

#define CACHE_SLOTS 1024
#define NOT_A_LIBRARY (-1)                 /* unknown to dladdr, or the table is full */
#define THE_EXECUTABLE (-2)                /* counted at its source lines instead */

static struct library_slot libraries[INTERPOSE_LIBRARIES];
static _Atomic uint64_t unattributed_calls;
static _Atomic uintptr_t cache_addr[CACHE_SLOTS];
static _Atomic int cache_slot[CACHE_SLOTS];
static atomic_int counting_on;
static _Atomic(const char *) main_name;   /* dladdr's name of the executable */

void allocgate_interpose_counting(int on)
{
	if (!atomic_load(&main_name)) {
		Dl_info info;
		/* the caller is the probe, linked into the kernel executable */
		if (dladdr(__builtin_return_address(0), &info) && info.dli_fname)
			atomic_store(&main_name, info.dli_fname);
	}
	atomic_store(&counting_on, on);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* The library slot of the object that holds ADDR; THE_EXECUTABLE, or
 * NOT_A_LIBRARY for an address dladdr does not know or a full table. */
static int library_of(uintptr_t addr)
{
	size_t c = (addr >> 4) % CACHE_SLOTS;
	if (atomic_load_explicit(&cache_addr[c], memory_order_acquire) == addr) {
		int slot = atomic_load_explicit(&cache_slot[c], memory_order_acquire);
		if (atomic_load_explicit(&cache_addr[c], memory_order_acquire) == addr)
			return slot;
	}
	Dl_info info;
	int slot = NOT_A_LIBRARY;
	const char *main = atomic_load(&main_name);
	int known = dladdr((void *)addr, &info) && info.dli_fname;
	if (known && main && (!*info.dli_fname || !strcmp(info.dli_fname, main))) {
		slot = THE_EXECUTABLE;
	} else if (known && *info.dli_fname) {
		const char *name = base_name(info.dli_fname);
		for (int i = 0; i < INTERPOSE_LIBRARIES && slot == NOT_A_LIBRARY; i++) {
			const char *have = atomic_load(&libraries[i].name);
			if (!have && atomic_compare_exchange_strong(&libraries[i].name, &have, name))
				slot = i;
			else if (have && !strcmp(have, name))
				slot = i;
		}
	}
	atomic_store_explicit(&cache_addr[c], 0, memory_order_release);
	atomic_store_explicit(&cache_slot[c], slot, memory_order_release);
	atomic_store_explicit(&cache_addr[c], addr, memory_order_release);
	return slot;
}

static void count_library(void *caller, enum interpose_id id, size_t bytes)
{
	int slot = library_of((uintptr_t)caller);
	if (slot == THE_EXECUTABLE)
		return;
	if (slot == NOT_A_LIBRARY) {   /* said, never lost: sites-dropped */
		atomic_fetch_add_explicit(&unattributed_calls, 1, memory_order_relaxed);
		return;
	}
	atomic_fetch_add_explicit(&libraries[slot].calls[id], 1, memory_order_relaxed);
	if (bytes)
		atomic_fetch_add_explicit(&libraries[slot].bytes[id], bytes, memory_order_relaxed);
}

size_t allocgate_interpose_libraries(struct interpose_library *out, size_t max,
				     uint64_t *unattributed)
{
	size_t n = 0;
	for (int i = 0; i < INTERPOSE_LIBRARIES && n < max; i++) {
		const char *name = atomic_load(&libraries[i].name);
		if (!name)
			continue;
		out[n].name = name;
		for (int k = 0; k < INTERPOSE_IDS; k++) {
			out[n].calls[k] = atomic_load_explicit(&libraries[i].calls[k],
							       memory_order_relaxed);
			out[n].bytes[k] = atomic_load_explicit(&libraries[i].bytes[k],
							       memory_order_relaxed);
		}
		n++;
	}
	*unattributed = atomic_load_explicit(&unattributed_calls, memory_order_relaxed);
	return n;
}

void interpose_count_call(void *caller, enum interpose_id id, size_t bytes)
{
	atomic_fetch_add_explicit(&totals[id], 1, memory_order_relaxed);
	if (bytes)
		atomic_fetch_add_explicit(&totals[INTERPOSE_BYTES], bytes, memory_order_relaxed);
	if (atomic_load_explicit(&counting_on, memory_order_relaxed))
		count_library(caller, id, bytes);
}

