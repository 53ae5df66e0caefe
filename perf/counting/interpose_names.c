/* interpose_names.c: the proc_* metric names (interpose_read.h). */
#include "counting/interpose_read.h"

static const char *const names[INTERPOSE_IDS] = {
	[INTERPOSE_MALLOC] = "proc_malloc_calls",
	[INTERPOSE_CALLOC] = "proc_calloc_calls",
	[INTERPOSE_REALLOC] = "proc_realloc_calls",
	[INTERPOSE_FREE] = "proc_free_calls",
	[INTERPOSE_ALIGNED] = "proc_aligned_calls",
	[INTERPOSE_BYTES] = "proc_bytes_requested",
	[INTERPOSE_LIVE_BYTES] = "proc_live_bytes",
	[INTERPOSE_LIVE_BLOCKS] = "proc_live_blocks",
};

const char *interpose_name(enum interpose_id id)
{
	return names[id];
}

const char *interpose_unit(enum interpose_id id)
{
	return id == INTERPOSE_BYTES || id == INTERPOSE_LIVE_BYTES ? "bytes" : "count";
}

bool interpose_is_level(enum interpose_id id)
{
	return id == INTERPOSE_LIVE_BYTES || id == INTERPOSE_LIVE_BLOCKS;
}
