/* test_kernel_code.c: the digest of the code a kernel runs
 * (gates/sample/kernel_code.c) and the loader's list of what it loads
 * (gates/os/loaded_objects_linux.c), on the suite's test kernels copied
 * into two source roots, as a checkout and a worktree hold them. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/kernel_code.h"
#include "sample/loaded_objects.h"

static char tmp[] = "/tmp/allocgate-code-XXXXXX";

/* Copies test kernel NAME into TMP/ROOT/build/kernels/ as AS, with a .git
 * in ROOT; its kernel_info's path and source root into K. */
static void place(struct kernel_info *k, const char *root, const char *name, const char *as)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	char cmd[4000], path[1000], top[900];
	bd = bd && *bd ? bd : "build";
	snprintf(top, sizeof top, "%s/%s", tmp, root);
	snprintf(cmd, sizeof cmd, "mkdir -p %s/.git %s/build/kernels && cp %s/tests/kernels/%s "
		 "%s/build/kernels/%s", top, top, bd, name, top, as);
	cr_assert(system(cmd) == 0, "%s", cmd);
	snprintf(path, sizeof path, "%s/build/kernels/%s", top, as);
	memset(k, 0, sizeof *k);
	k->path = strdup(path);
	cr_assert(kernel_info_set_source_root(k, top) == 0);
}

static void setup(void)
{
	cr_assert(mkdtemp(tmp));
}

static void teardown(void)
{
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
	cr_expect(system(cmd) == 0);
}

TestSuite(kernel_code, .init = setup, .fini = teardown);

static int count_libc(const char *path, void *arg)
{
	*(int *)arg += strstr(path, "libc.so") != NULL;
	return 0;
}

Test(kernel_code, the_loader_lists_the_c_library)
{
	struct kernel_info k;
	int libc = 0;
	place(&k, "a", "toy", "toy");
	int ret = loaded_objects_each(k.path, count_libc, &libc);
	cr_assert_eq(ret, 0, "loaded_objects_each: %d", ret);
	cr_expect_eq(libc, 1, "the toy loads libc once");
	kernel_info_free(&k);
}

Test(kernel_code, the_same_build_in_two_roots_is_the_same_code)
{
	struct kernel_info a, b, c;
	char da[64], db[64], dc[64];
	place(&a, "checkout", "toy", "toy");
	place(&b, "worktree", "toy", "toy");
	place(&c, "other", "crashy", "toy");
	cr_assert_eq(kernel_code_digest(&a, da, sizeof da), 0);
	cr_assert_eq(kernel_code_digest(&b, db, sizeof db), 0);
	cr_assert_eq(kernel_code_digest(&c, dc, sizeof dc), 0);
	cr_expect_str_eq(da, db, "the same executable in a checkout and a worktree");
	cr_expect_str_neq(da, dc, "another program under the same name");
	kernel_info_free(&a);
	kernel_info_free(&b);
	kernel_info_free(&c);
}
