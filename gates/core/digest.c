/* digest.c: FNV-1a 64 of a file or of an executable (see digest.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/digest.h"
#include "core/digest_elf.h"

uint64_t digest_fnv1a64(uint64_t state, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		state ^= b[i];
		state *= 0x100000001b3ull;
	}
	return state;
}

/* Empties OUT and opens PATH: the file, or NULL with *ERR a negative errno. */
static FILE *digest_open(const char *path, char *out, size_t out_size, int *err)
{
	if (out_size)
		out[0] = '\0';
	if (out_size < DIGEST_TEXT_SIZE) {
		*err = -ENOBUFS;
		return NULL;
	}
	FILE *f = fopen(path, "rb");
	if (!f)
		*err = errno ? -errno : -EIO;
	return f;
}

int digest_file(const char *path, char *out, size_t out_size)
{
	unsigned char buf[65536];
	uint64_t h = DIGEST_FNV1A64_OFFSET;
	size_t got;
	int ret = 0;

	FILE *f = digest_open(path, out, out_size, &ret);
	if (!f)
		return ret;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0)
		h = digest_fnv1a64(h, buf, got);
	if (ferror(f))
		ret = -EIO;
	fclose(f);
	if (!ret)
		snprintf(out, out_size, "fnv1a64:%016" PRIx64, h);
	return ret;
}

int digest_executable(const char *path, const char *root, char *out, size_t out_size)
{
	uint64_t h = DIGEST_FNV1A64_OFFSET;
	int ret = 0;

	FILE *f = digest_open(path, out, out_size, &ret);
	if (!f)
		return ret;
	ret = digest_elf(f, root, &h);
	fclose(f);
	if (ret < 0)
		return ret;
	if (!ret)
		return digest_file(path, out, out_size);
	snprintf(out, out_size, DIGEST_ELF_PREFIX "%016" PRIx64, h);
	return 0;
}

int digest_same_method(const char *a, const char *b)
{
	const char *ca = strchr(a, ':'), *cb = strchr(b, ':');
	if (!ca || !cb)
		return !ca && !cb;
	return ca - a == cb - b && !strncmp(a, b, (size_t)(ca - a));
}
