/* allocator_darwin.c: Homebrew's allocators on macOS. */
#include <string.h>

#include "sample/allocator.h"

int allocator_os_library(const char *name, const char **file, const char **package)
{
	if (!strcmp(name, "jemalloc")) {
		*file = "libjemalloc.2.dylib";
		*package = "jemalloc (brew install jemalloc)";
	} else if (!strcmp(name, "mimalloc")) {
		*file = "libmimalloc.dylib";
		*package = "mimalloc (brew install mimalloc)";
	} else if (!strcmp(name, "tcmalloc")) {
		*file = "libtcmalloc_minimal.dylib";
		*package = "gperftools (brew install gperftools)";
	} else {
		return -1;
	}
	return 0;
}

const char *allocator_os_unsupported(void)
{
	return NULL;
}

const char *const *allocator_os_dirs(void)
{
	static const char *const dirs[] = { "/opt/homebrew/lib", "/usr/local/lib", NULL };
	return dirs;
}

const char *allocator_os_preload_var(void)
{
	return "DYLD_INSERT_LIBRARIES";
}

const char *allocator_os_interposer_file(void)
{
	return "liballocgate-interpose.dylib";
}
