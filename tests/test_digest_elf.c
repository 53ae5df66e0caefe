/* test_digest_elf.c: gates/core/digest_elf.c and digest_executable, the
 * kernel digest that a comment edit or a new build ID leaves alone and a
 * code change does not: real executables built by the C compiler, and
 * hand-made ELF files for the bounds checks (a section outside the file,
 * a section table past its end, an unknown layout, either byte order). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/digest.h"
#include "core/digest_elf.h"

static char dir[] = "/tmp/allocgate-elf-XXXXXX";

static void make_dir(void)
{
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
}

static void remove_dir(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(digest_elf, .init = make_dir, .fini = remove_dir);

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	cr_assert_eq(fwrite(p, 1, n, f), n);
	cr_assert_eq(fclose(f), 0);
}

/* Compiles SOURCE with -g and the linker's build ID ID into DIR/NAME. */
static void build(const char *name, const char *source, const char *id, char *out, size_t size)
{
	const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
	char src[256], cmd[1024];
	snprintf(src, sizeof src, "%s/%s.c", dir, name);
	snprintf(out, size, "%s/%s", dir, name);
	write_file(src, source, strlen(source));
	snprintf(cmd, sizeof cmd, "%s -g -O1 -Wl,--build-id=%s -o '%s' '%s'", cc, id, out, src);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

static void digests(const char *path, char *whole, char *loaded)
{
	cr_assert_eq(digest_file(path, whole, DIGEST_TEXT_SIZE), 0);
	cr_assert_eq(digest_executable(path, NULL, loaded, DIGEST_TEXT_SIZE), 0);
}

Test(digest_elf, a_comment_a_build_id_or_stripped_debug_information_leave_it_a_code_change_does_not)
{
	char a[300], b[300], c[300], s[300], cmd[700];
	char whole_a[DIGEST_TEXT_SIZE], whole_b[DIGEST_TEXT_SIZE], whole_c[DIGEST_TEXT_SIZE],
		whole_s[DIGEST_TEXT_SIZE];
	char elf_a[DIGEST_TEXT_SIZE], elf_b[DIGEST_TEXT_SIZE], elf_c[DIGEST_TEXT_SIZE],
		elf_s[DIGEST_TEXT_SIZE];

	build("a", "static volatile int v = 1;\nint main(void) { return v; }\n", "0x01", a,
	      sizeof a);
	/* a comment above moves main two lines down (the debug information's
	 * line table) and the build ID differs: the loaded image is the same */
	build("b", "/* a comment\n * of two lines */\nstatic volatile int v = 1;\n"
		   "int main(void) { return v; }\n", "0x02", b, sizeof b);
	build("c", "static volatile int v = 2;\nint main(void) { return v; }\n", "0x01", c,
	      sizeof c);
	snprintf(s, sizeof s, "%s/a-stripped", dir);
	snprintf(cmd, sizeof cmd, "objcopy --strip-debug '%s' '%s'", a, s);
	cr_assert_eq(system(cmd), 0, "%s", cmd);

	digests(a, whole_a, elf_a);
	digests(b, whole_b, elf_b);
	digests(c, whole_c, elf_c);
	digests(s, whole_s, elf_s);
	cr_expect(!strncmp(elf_a, DIGEST_ELF_PREFIX, strlen(DIGEST_ELF_PREFIX)), "%s", elf_a);
	cr_expect_str_neq(whole_a, whole_b, "the files themselves differ");
	cr_expect_str_neq(whole_a, whole_s, "the files themselves differ");
	cr_expect_str_eq(elf_a, elf_b, "a comment and a build ID changed the digest");
	cr_expect_str_eq(elf_a, elf_s, "stripping the debug information changed the digest");
	cr_expect_str_neq(elf_a, elf_c, "a changed initial value (.data) kept the digest");
	cr_expect(digest_same_method(elf_a, elf_c));
	cr_expect(!digest_same_method(elf_a, whole_a));
}

/* ---- hand-made ELF files ---- */

/* Stores V as N bytes at P, big-endian when BIG. */
static void put(unsigned char *p, size_t n, unsigned long long v, int big)
{
	for (size_t i = 0; i < n; i++)
		p[big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* A minimal ELF64 file: the header, a name table, a 16-byte allocated
 * section ".text" (TEXT_SIZE as its recorded size), a non-allocated
 * ".comment" and the section table (null, .shstrtab, .text, .comment).
 * Returns its size. */
enum { EH = 64, NAMES = 64, TEXT = 96, COMMENT = 112, SHDRS = 128, SHENT = 64, SHNUM = 4 };
static const char names[] = "\0.shstrtab\0.text\0.comment";

static size_t make_elf(unsigned char *f, int big, unsigned long long text_size,
		       unsigned char text_byte, unsigned char comment_byte)
{
	memset(f, 0, SHDRS + SHNUM * SHENT);
	memcpy(f, "\177ELF", 4);
	f[4] = 2;       /* ELFCLASS64 */
	f[5] = big ? 2 : 1;
	f[6] = 1;       /* EV_CURRENT */
	put(f + 16, 2, 2, big);       /* ET_EXEC */
	put(f + 18, 2, 62, big);      /* EM_X86_64 */
	put(f + 20, 4, 1, big);
	put(f + 24, 8, 0x401000, big);  /* e_entry */
	put(f + 40, 8, SHDRS, big);     /* e_shoff */
	put(f + 52, 2, EH, big);
	put(f + 58, 2, SHENT, big);
	put(f + 60, 2, SHNUM, big);
	put(f + 62, 2, 1, big);         /* e_shstrndx */
	memcpy(f + NAMES, names, sizeof names);
	memset(f + TEXT, text_byte, 16);
	memset(f + COMMENT, comment_byte, 16);
	struct { unsigned name, type; unsigned long long flags, addr, off, size; } sh[SHNUM] = {
		{ 0, 0, 0, 0, 0, 0 },
		{ 1, 3, 0, 0, NAMES, sizeof names },           /* .shstrtab, SHT_STRTAB */
		{ 11, 1, 0x6, 0x401000, TEXT, text_size },      /* .text, PROGBITS, AX */
		{ 17, 1, 0x30, 0, COMMENT, 16 },                /* .comment, not allocated */
	};
	for (int i = 0; i < SHNUM; i++) {
		unsigned char *s = f + SHDRS + i * SHENT;
		put(s, 4, sh[i].name, big);
		put(s + 4, 4, sh[i].type, big);
		put(s + 8, 8, sh[i].flags, big);
		put(s + 16, 8, sh[i].addr, big);
		put(s + 24, 8, sh[i].off, big);
		put(s + 32, 8, sh[i].size, big);
	}
	return SHDRS + SHNUM * SHENT;
}

/* digest_executable of the N bytes at F, written to DIR/NAME. */
static void digest_of(const char *name, const unsigned char *f, size_t n, char *out)
{
	char path[300];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	write_file(path, f, n);
	cr_assert_eq(digest_executable(path, NULL, out, DIGEST_TEXT_SIZE), 0, "%s", name);
}

static int is_elf_digest(const char *d)
{
	return !strncmp(d, DIGEST_ELF_PREFIX, strlen(DIGEST_ELF_PREFIX));
}

Test(digest_elf, hand_made_files_allocated_sections_only_and_bounds_checked)
{
	unsigned char f[SHDRS + SHNUM * SHENT];
	char base[DIGEST_TEXT_SIZE], d[DIGEST_TEXT_SIZE];

	size_t n = make_elf(f, 0, 16, 0x90, 'a');
	digest_of("base", f, n, base);
	cr_expect(is_elf_digest(base), "%s", base);

	make_elf(f, 0, 16, 0x90, 'b');
	digest_of("comment", f, n, d);
	cr_expect_str_eq(d, base, "a non-allocated section changed the digest");

	make_elf(f, 0, 16, 0xcc, 'a');
	digest_of("text", f, n, d);
	cr_expect(is_elf_digest(d) && strcmp(d, base), "a changed .text kept the digest: %s", d);

	make_elf(f, 1, 16, 0x90, 'a');
	digest_of("big-endian", f, n, d);
	cr_expect(is_elf_digest(d) && strcmp(d, base), "big-endian: %s", d);

	/* a section that claims more bytes than the file has: the whole file */
	make_elf(f, 0, 1ull << 40, 0x90, 'a');
	digest_of("text-past-the-end", f, n, d);
	cr_expect(!is_elf_digest(d) && !strncmp(d, "fnv1a64:", 8), "%s", d);

	/* the section table cut off */
	make_elf(f, 0, 16, 0x90, 'a');
	digest_of("truncated", f, SHDRS + SHENT, d);
	cr_expect(!is_elf_digest(d), "%s", d);

	/* an unknown section header size, a name index outside the table */
	make_elf(f, 0, 16, 0x90, 'a');
	put(f + 58, 2, 32, 0);
	digest_of("shentsize", f, n, d);
	cr_expect(!is_elf_digest(d), "%s", d);
	make_elf(f, 0, 16, 0x90, 'a');
	put(f + SHDRS + 2 * SHENT, 4, 5000, 0);
	digest_of("name-outside", f, n, d);
	cr_expect(!is_elf_digest(d), "%s", d);
	make_elf(f, 0, 16, 0x90, 'a');
	put(f + 62, 2, SHNUM, 0);
	digest_of("shstrndx", f, n, d);
	cr_expect(!is_elf_digest(d), "%s", d);
}

Test(digest_elf, other_files_digest_whole_and_errors_are_reported)
{
	char path[300], d[DIGEST_TEXT_SIZE];

	digest_of("text-file", (const unsigned char *)"foobar", 6, d);
	cr_expect_str_eq(d, "fnv1a64:85944171f73967e8", "not ELF: the whole file's digest");
	/* four bytes of magic and no header: the whole file, as digest_file */
	char whole[DIGEST_TEXT_SIZE];
	digest_of("tiny", (const unsigned char *)"\177ELF", 4, d);
	snprintf(path, sizeof path, "%s/tiny", dir);
	cr_assert_eq(digest_file(path, whole, sizeof whole), 0);
	cr_expect_str_eq(d, whole);

	snprintf(path, sizeof path, "%s/missing", dir);
	cr_expect_eq(digest_executable(path, NULL, d, sizeof d), -ENOENT);
	cr_expect_str_eq(d, "");
	cr_expect_eq(digest_executable(path, NULL, d, 8), -ENOBUFS);
}

/* Compiles DIR/ROOT/src/k.c, which prints its own __FILE__ and links a
 * RUNPATH into ROOT/build, by its absolute path as CMake does, into
 * DIR/ROOT/build/k; the root's absolute path into TOP. */
static void build_at(const char *root, char *top, size_t top_size, char *out, size_t size)
{
	const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
	static const char source[] = "#include <stdio.h>\n"
				     "int main(void) { puts(__FILE__); return 0; }\n";
	char src[400], cmd[2000];
	snprintf(top, top_size, "%s/%s", dir, root);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/src' '%s/build'", top, top);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	snprintf(src, sizeof src, "%s/src/k.c", top);
	write_file(src, source, sizeof source - 1);
	snprintf(out, size, "%s/build/k", top);
	snprintf(cmd, sizeof cmd, "%s -g -O1 -Wl,-rpath,'%s/build' -o '%s' '%s'", cc, top, out,
		 src);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

Test(digest_elf, a_source_root_in_the_image_is_masked_at_roots_of_one_length)
{
	char ta[400], tb[400], tc[400], a[500], b[500], c[500];
	char da[64], db[64], dc[64], ra[64], rb[64];
	build_at("checkout", ta, sizeof ta, a, sizeof a);
	build_at("worktree", tb, sizeof tb, b, sizeof b);   /* as long as "checkout" */
	build_at("wt", tc, sizeof tc, c, sizeof c);
	cr_assert_eq(digest_executable(a, NULL, ra, sizeof ra), 0);
	cr_assert_eq(digest_executable(b, NULL, rb, sizeof rb), 0);
	cr_expect_str_neq(ra, rb, "unmasked, the roots in __FILE__ and RUNPATH differ");
	cr_assert_eq(digest_executable(a, ta, da, sizeof da), 0);
	cr_assert_eq(digest_executable(b, tb, db, sizeof db), 0);
	cr_expect_str_eq(da, db, "each side's root masked: the same code");
	char slash[420];
	snprintf(slash, sizeof slash, "%s/", tb);
	cr_assert_eq(digest_executable(b, slash, db, sizeof db), 0);
	cr_expect_str_eq(da, db, "a root given with its trailing '/'");
	cr_assert_eq(digest_executable(c, tc, dc, sizeof dc), 0);
	cr_expect_str_neq(da, dc, "a root of another length moves what follows it");
	cr_assert_eq(digest_executable(b, ta, db, sizeof db), 0);
	cr_expect_str_eq(db, rb, "another root than the one in the file masks nothing");
}
