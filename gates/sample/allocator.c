/* allocator.c: --allocator, the portable part (see allocator.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/allocator.h"
#include "core/platform.h"

int allocator_is_default(const char *value)
{
	return !value || !*value || !strcmp(value, "glibc");
}

void allocator_key_name(const char *value, char *out, size_t size)
{
	const char *base = value ? strrchr(value, '/') : NULL;
	base = base ? base + 1 : value ? value : "glibc";
	size_t n = strcspn(base, ".");
	snprintf(out, size, "%.*s", (int)n, base);
}

static int allocator_exists(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	fclose(f);
	return 1;
}

int allocator_resolve(const char *value, char *path, size_t size, char *err, size_t err_size)
{
	const char *file, *package, *unsupported = allocator_os_unsupported();
	if (unsupported) {
		snprintf(path, size, "%s", value);
		snprintf(err, err_size, "%s", unsupported);
		return -EINVAL;
	}
	if (strchr(value, '/')) {
		snprintf(path, size, "%s", value);
		if (allocator_exists(path))
			return 0;
		snprintf(err, err_size, "%s: %s", value, strerror(errno));
		return -ENOENT;
	}
	if (allocator_os_library(value, &file, &package) < 0) {
		snprintf(err, err_size, "unknown allocator (expected glibc, jemalloc, mimalloc, "
			 "tcmalloc or a path to a shared library)");
		return -EINVAL;
	}
	for (const char *const *dir = allocator_os_dirs(); *dir; dir++) {
		snprintf(path, size, "%s/%s", *dir, file);
		if (allocator_exists(path))
			return 0;
	}
	snprintf(err, err_size, "%s not found in the library directories (install %s)", file,
		 package);
	return -ENOENT;
}

int allocator_preload_env(const char *path, char *out, size_t size)
{
	int n = snprintf(out, size, "%s=%s", allocator_os_preload_var(), path);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int allocator_context(struct context *ctx, const char *value)
{
	char name[256];
	/* the default is the C library's own malloc: glibc's on Linux, but
	 * msvcrt's or ucrt's on Windows (platform_context set ctx->libc) */
	allocator_key_name(allocator_is_default(value) ? (ctx->libc ? ctx->libc : "glibc") : value,
			   name, sizeof name);
	free(ctx->allocator);
	ctx->allocator = strdup(name);
	if (!ctx->allocator)
		return -ENOMEM;
	if (allocator_is_default(value))
		return 0;
	return platform_key_add_suffix(ctx, name);
}
