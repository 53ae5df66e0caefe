/* allocator_linux.c: where Debian/Ubuntu (and other multiarch or plain
 * lib64 layouts) put the allocators --allocator knows. */
#include <string.h>

#include "sample/allocator.h"

static const struct {
	const char *name, *file, *package;
} allocator_libraries[] = {
	{ "jemalloc", "libjemalloc.so.2", "libjemalloc2 (apt-get install libjemalloc2)" },
	{ "mimalloc", "libmimalloc.so.2", "libmimalloc2.0 (apt-get install libmimalloc2.0)" },
	{ "tcmalloc", "libtcmalloc_minimal.so.4",
	  "libtcmalloc-minimal4 (apt-get install libtcmalloc-minimal4)" },
};

int allocator_os_library(const char *name, const char **file, const char **package)
{
	for (size_t i = 0; i < sizeof allocator_libraries / sizeof allocator_libraries[0]; i++) {
		if (!strcmp(name, allocator_libraries[i].name)) {
			*file = allocator_libraries[i].file;
			*package = allocator_libraries[i].package;
			return 0;
		}
	}
	return -1;
}

const char *allocator_os_unsupported(void)
{
	return NULL;
}

const char *const *allocator_os_dirs(void)
{
	static const char *const dirs[] = {
		"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
		"/usr/lib/riscv64-linux-gnu", "/usr/lib/i386-linux-gnu", "/usr/lib64",
		"/usr/lib", "/usr/local/lib", "/lib/x86_64-linux-gnu", NULL,
	};
	return dirs;
}

const char *allocator_os_preload_var(void)
{
	return "LD_PRELOAD";
}

const char *allocator_os_interposer_file(void)
{
	return "liballocgate-interpose.so";
}
