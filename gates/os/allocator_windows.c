/* allocator_windows.c: --allocator on Windows. There is no preload
 * mechanism like LD_PRELOAD for a CRT's malloc, so allocator_resolve
 * refuses every non-default value with allocator_os_unsupported's words;
 * the other functions only keep the header's contract. The default (the
 * CRT's own malloc) needs none of this. */
#include <stddef.h>

#include "sample/allocator.h"

/* No preload mechanism for the CRT's malloc: every --allocator is refused. */
const char *allocator_os_unsupported(void)
{
	return "--allocator is not supported on Windows (kernels use the C runtime's malloc)";
}

int allocator_os_library(const char *name, const char **file, const char **package)
{
	/* Windows: --allocator is not supported (no preload variable). */
	(void)name;
	*file = NULL;
	*package = "nothing: --allocator is not supported on Windows (kernels always use the "
		   "C runtime's malloc)";
	return -1;
}

const char *const *allocator_os_dirs(void)
{
	static const char *const dirs[] = { NULL };
	return dirs;
}

const char *allocator_os_preload_var(void)
{
	/* Not read by any Windows loader; kept so the header's contract holds. */
	return "GATE_UNSUPPORTED_PRELOAD";
}

/* No interposer: the CRT's malloc cannot be replaced by preloading. */
const char *allocator_os_interposer_file(void)
{
	return NULL;
}
