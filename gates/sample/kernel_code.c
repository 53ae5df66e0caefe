/* kernel_code.c: the digest of the code a kernel runs (kernel_code.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sample/kernel_code.h"
#include "core/digest.h"
#include "sample/loaded_objects.h"

struct code_state {
	const struct kernel_info *k;
	uint64_t h;
	int objects;
};

/* Adds the file at PATH, named NAME, to the digest: KNOWN, its digest
 * when already taken (the kernel's, at its listing), else its own. 0 or a
 * negative errno. */
static int add_file(struct code_state *st, const char *name, const char *path,
		    const char *known)
{
	char own[64];
	const char *d = known;
	if (!d || !*d) {
		int ret = digest_executable(path, st->k->source_root, own, sizeof own);
		if (ret)
			return ret;
		d = own;
	}
	st->h = digest_fnv1a64(st->h, name, strlen(name) + 1);
	st->h = digest_fnv1a64(st->h, d, strlen(d) + 1);
	return 0;
}

/* One loaded object: the project's own (below the source root) count. */
static int add_object(const char *path, void *arg)
{
	struct code_state *st = arg;
	const char *name = kernel_info_source_file(st->k, path);
	if (name == path)
		return 0;   /* the system's: the same file for both sides */
	st->objects++;
	return add_file(st, name, path, NULL);
}

int kernel_code_digest(const struct kernel_info *k, char *out, size_t size)
{
	struct code_state st = { k, DIGEST_FNV1A64_OFFSET, 0 };
	char twin[4096];
	if (size < DIGEST_TEXT_SIZE || !k->path || !k->source_root)
		return -EINVAL;
	out[0] = '\0';
	int ret = add_file(&st, "kernel", k->path, k->digest);
	if (!ret)
		ret = loaded_objects_each(k->path, add_object, &st);
	if (!ret && !kernel_info_counted_path(k, twin, sizeof twin)) {
		ret = add_file(&st, "counted", twin, NULL);
		if (!ret)
			ret = loaded_objects_each(twin, add_object, &st);
	}
	if (ret)
		return ret < 0 ? ret : -EIO;
	snprintf(out, size, "fnv1a64:%016" PRIx64, st.h);
	return 0;
}
