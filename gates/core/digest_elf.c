/* digest_elf.c: FNV-1a 64 of an ELF file's loaded part (see digest_elf.h).
 *
 * Field offsets are those of the System V ABI's ELF header, program header
 * and section header (the gABI, "Object Files", ELF32 and ELF64 layouts).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/digest.h"
#include "core/digest_elf.h"

#define SHF_ALLOC_FLAG 0x2u
#define SHT_NOBITS_TYPE 8u
#define SHN_XINDEX_VALUE 0xffffu
#define BUILD_ID_SECTION ".note.gnu.build-id"

struct elf_file {
	FILE *f;
	uint64_t size; /* of the file, in bytes */
	int is64, big;
	const char *root;   /* the source root masked in section contents, or NULL */
	size_t root_len;
};

/* The N-byte (1 to 8) unsigned field at P in the file's byte order. */
static uint64_t field(const struct elf_file *e, const unsigned char *p, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[e->big ? n - 1 - i : i] << (8 * i);
	return v;
}

/* Whether N bytes at OFF lie inside the file. */
static int inside(const struct elf_file *e, uint64_t off, uint64_t n)
{
	return off <= e->size && n <= e->size - off;
}

/* Reads N bytes at OFF into BUF: 1 done, 0 outside the file, -EIO. */
static int read_at(const struct elf_file *e, uint64_t off, void *buf, size_t n)
{
	if (!inside(e, off, n) || off > (uint64_t)LONG_MAX)
		return 0;
	if (fseek(e->f, (long)off, SEEK_SET) || fread(buf, 1, n, e->f) != n)
		return ferror(e->f) ? -EIO : 0;
	return 1;
}

/* Hashes V as 8 little-endian bytes: the digest does not depend on the
 * width or byte order a field has in the file. */
static uint64_t hash_value(uint64_t h, uint64_t v)
{
	unsigned char b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	return digest_fnv1a64(h, b, sizeof b);
}

/* Hashes N bytes of the file at OFF: 1, 0 outside the file, -EIO. */
static int hash_range(const struct elf_file *e, uint64_t off, uint64_t n, uint64_t *h)
{
	unsigned char buf[65536];

	if (!inside(e, off, n))
		return 0;
	while (n) {
		size_t chunk = n < sizeof buf ? (size_t)n : sizeof buf;
		int ret = read_at(e, off, buf, chunk);
		if (ret <= 0)
			return ret;
		*h = digest_fnv1a64(*h, buf, chunk);
		off += chunk;
		n -= chunk;
	}
	return 1;
}

/* Overwrites each occurrence of E's root in BUF (N bytes) that a path
 * separator, a NUL or the buffer's end follows with '\1' bytes: the same
 * source built in a checkout and in a worktree at a path of the same length
 * then reads the same (digest_elf.h). */
static void mask_root(const struct elf_file *e, unsigned char *buf, size_t n)
{
	size_t len = e->root_len;
	for (size_t i = 0; len && i + len <= n; i++) {
		unsigned char *p = memchr(buf + i, (unsigned char)e->root[0], n - i);
		if (!p || (size_t)(p - buf) + len > n)
			break;
		i = (size_t)(p - buf);
		size_t end = i + len;
		if (!memcmp(p, e->root, len) &&
		    (end == n || buf[end] == '/' || buf[end] == '\\' || buf[end] == '\0')) {
			memset(p, 1, len);
			i = end - 1;
		}
	}
}

/* Hashes the N bytes of a section's contents at OFF with the root masked:
 * 1, 0 outside the file, -EIO, -ENOMEM. */
static int hash_contents(const struct elf_file *e, uint64_t off, uint64_t n, uint64_t *h)
{
	if (!e->root_len)
		return hash_range(e, off, n, h);
	if (!inside(e, off, n) || n > (uint64_t)SIZE_MAX)
		return 0;
	unsigned char *buf = malloc(n ? (size_t)n : 1);
	if (!buf)
		return -ENOMEM;
	int ret = n ? read_at(e, off, buf, (size_t)n) : 1;
	if (ret > 0) {
		mask_root(e, buf, (size_t)n);
		*h = digest_fnv1a64(*h, buf, (size_t)n);
	}
	free(buf);
	return ret;
}

/* The section table's fields, in the file's layout. */
struct sh_view {
	uint32_t name, type;
	uint64_t flags, addr, offset, size;
};

static struct sh_view section_at(const struct elf_file *e, const unsigned char *p)
{
	struct sh_view s;
	s.name = (uint32_t)field(e, p, 4);
	s.type = (uint32_t)field(e, p + 4, 4);
	if (e->is64) {
		s.flags = field(e, p + 8, 8);
		s.addr = field(e, p + 16, 8);
		s.offset = field(e, p + 24, 8);
		s.size = field(e, p + 32, 8);
	} else {
		s.flags = field(e, p + 8, 4);
		s.addr = field(e, p + 12, 4);
		s.offset = field(e, p + 16, 4);
		s.size = field(e, p + 20, 4);
	}
	return s;
}

/* Hashes the allocated sections of the table TABLE (COUNT entries of
 * ENTSIZE bytes), their names from NAMES (NAMES_SIZE bytes). */
static int hash_sections(const struct elf_file *e, const unsigned char *table, size_t count,
			 size_t entsize, const char *names, size_t names_size, uint64_t *h)
{
	for (size_t i = 0; i < count; i++) {
		struct sh_view s = section_at(e, table + i * entsize);
		if (!(s.flags & SHF_ALLOC_FLAG))
			continue;
		if (s.name >= names_size || !memchr(names + s.name, '\0', names_size - s.name))
			return 0;
		const char *name = names + s.name;
		if (!strcmp(name, BUILD_ID_SECTION))
			continue;
		*h = digest_fnv1a64(*h, name, strlen(name) + 1);
		*h = hash_value(*h, s.type);
		*h = hash_value(*h, s.flags);
		*h = hash_value(*h, s.addr);
		*h = hash_value(*h, s.size);
		if (s.type != SHT_NOBITS_TYPE) {
			int ret = hash_contents(e, s.offset, s.size, h);
			if (ret <= 0)
				return ret;
		}
	}
	return 1;
}

/* Reads the section table and its name table and hashes the sections. */
static int hash_section_table(const struct elf_file *e, uint64_t shoff, size_t shnum,
			      size_t shentsize, size_t shstrndx, uint64_t *h)
{
	unsigned char *table = NULL;
	char *names = NULL;
	size_t table_size = shnum * shentsize;
	int ret = 0;

	if (!inside(e, shoff, table_size) || !(table = malloc(table_size)))
		goto out;
	if ((ret = read_at(e, shoff, table, table_size)) <= 0)
		goto out;
	struct sh_view strtab = section_at(e, table + shstrndx * shentsize);
	ret = 0;
	if (strtab.type == SHT_NOBITS_TYPE || !inside(e, strtab.offset, strtab.size) ||
	    strtab.size > (uint64_t)SIZE_MAX || !(names = malloc(strtab.size + 1)))
		goto out;
	if ((ret = read_at(e, strtab.offset, names, (size_t)strtab.size)) <= 0)
		goto out;
	names[strtab.size] = '\0';
	ret = hash_sections(e, table, shnum, shentsize, names, (size_t)strtab.size + 1, h);
out:
	free(table);
	free(names);
	return ret;
}

/* Where the ELF header's fields lie: e_entry, e_phoff and e_shoff (WORD
 * bytes each), then e_phentsize, e_phnum, e_shentsize, e_shnum and
 * e_shstrndx, 2 bytes each from PHENTSIZE on. */
struct ehdr_layout {
	unsigned char entry, phoff, shoff, word, phentsize;
};
static const struct ehdr_layout ehdr64 = { 24, 32, 40, 8, 54 };
static const struct ehdr_layout ehdr32 = { 24, 28, 32, 4, 42 };

int digest_elf(FILE *f, const char *root, uint64_t *h)
{
	unsigned char hdr[64];
	struct elf_file e = { .f = f };
	if (root && strlen(root) >= 2) {   /* not the root directory "/" */
		e.root = root;
		e.root_len = strlen(root);
		if (e.root[e.root_len - 1] == '/')
			e.root_len--;
	}
	long size;

	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0)
		return ferror(f) ? -EIO : 0;
	e.size = (uint64_t)size;
	if (e.size < 52 || read_at(&e, 0, hdr, e.size < 64 ? 52 : 64) <= 0)
		return ferror(f) ? -EIO : 0;
	if (memcmp(hdr, "\177ELF", 4) || (hdr[4] != 1 && hdr[4] != 2) ||
	    (hdr[5] != 1 && hdr[5] != 2))
		return 0;
	e.is64 = hdr[4] == 2;
	e.big = hdr[5] == 2;
	if (e.is64 && e.size < 64)
		return 0;

	const struct ehdr_layout *l = e.is64 ? &ehdr64 : &ehdr32;
	uint64_t entry = field(&e, hdr + l->entry, l->word);
	uint64_t phoff = field(&e, hdr + l->phoff, l->word);
	uint64_t shoff = field(&e, hdr + l->shoff, l->word);
	size_t phentsize = field(&e, hdr + l->phentsize, 2);
	size_t phnum = field(&e, hdr + l->phentsize + 2, 2);
	size_t shentsize = field(&e, hdr + l->phentsize + 4, 2);
	size_t shnum = field(&e, hdr + l->phentsize + 6, 2);
	size_t shstrndx = field(&e, hdr + l->phentsize + 8, 2);
	/* shnum 0 with a nonzero offset and shstrndx SHN_XINDEX are the
	 * extended numbering of files of 65,280 sections or more: the whole
	 * file is digested instead. */
	if (shentsize != (e.is64 ? 64u : 40u) || !shnum || shstrndx >= shnum ||
	    shstrndx == SHN_XINDEX_VALUE || (phnum && phentsize != (e.is64 ? 56u : 32u)))
		return 0;

	uint64_t state = *h;
	state = digest_fnv1a64(state, hdr + 4, 2); /* class, byte order */
	state = hash_value(state, field(&e, hdr + 16, 2)); /* e_type */
	state = hash_value(state, field(&e, hdr + 18, 2)); /* e_machine */
	state = hash_value(state, entry);
	int ret = phnum ? hash_range(&e, phoff, (uint64_t)phnum * phentsize, &state) : 1;
	if (ret > 0)
		ret = hash_section_table(&e, shoff, shnum, shentsize, shstrndx, &state);
	if (ret > 0)
		*h = state;
	return ret;
}
