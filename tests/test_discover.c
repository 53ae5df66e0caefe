/* test_discover.c: gates/run/discover.c, where the gate finds its kernels and
 * baselines: path arithmetic on known paths, and a listing of a temporary
 * directory (under /tmp, never the repository). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/discover.h"

/* ---- discover_self_dir ---- */

static void expect_self_dir(const char *argv0, const char *want)
{
	char out[256];

	discover_self_dir(argv0, out, sizeof out);
	cr_expect_str_eq(out, want, "argv0 '%s'", argv0);
}

Test(discover, self_dir_of_known_paths)
{
	expect_self_dir("build/gate", "build");
	expect_self_dir("/a/b/build/gate", "/a/b/build");
	expect_self_dir("/a/b/build-asan/gate", "/a/b/build-asan");
	expect_self_dir("/x/bin/gate", "/x/bin");
	expect_self_dir("./gate", ".");
	expect_self_dir("gate", ".");
}

Test(discover, self_dir_is_truncated_to_the_buffer)
{
	char out[6];

	discover_self_dir("/a/b/build/gate", out, sizeof out);
	cr_expect_str_eq(out, "/a/b/");
}

/* ---- discover_baseline_dir ---- */

static void expect_baseline_dir(const char *self_dir, const char *want)
{
	char out[256];

	discover_baseline_dir(self_dir, out, sizeof out);
	cr_expect_str_eq(out, want, "self dir '%s'", self_dir);
}

Test(discover, baseline_dir_beside_a_build_directory)
{
	expect_baseline_dir("build", "baselines");
	expect_baseline_dir("/a/b/build", "/a/b/baselines");
	expect_baseline_dir("/a/b/build-asan", "/a/b/baselines");
	expect_baseline_dir("../build-perf", "../baselines");
}

Test(discover, baseline_dir_inside_any_other_directory)
{
	expect_baseline_dir("/x/bin", "/x/bin/baselines");
	expect_baseline_dir(".", "./baselines");
	expect_baseline_dir("/a/build/bin", "/a/build/bin/baselines");
}

Test(discover, baseline_dir_of_each_argv0)
{
	/* argv0 -> self dir -> baselines, as main does it. */
	const char *argv0[] = { "build/gate", "/a/b/build/gate", "/a/b/build-asan/gate",
				"/x/bin/gate", "gate" };
	const char *want[] = { "baselines", "/a/b/baselines", "/a/b/baselines",
			       "/x/bin/baselines", "./baselines" };
	for (size_t i = 0; i < sizeof argv0 / sizeof *argv0; i++) {
		char self[256], out[256];
		discover_self_dir(argv0[i], self, sizeof self);
		discover_baseline_dir(self, out, sizeof out);
		cr_expect_str_eq(out, want[i], "argv0 '%s'", argv0[i]);
	}
}

/* ---- discover_kernel_name ---- */

static void expect_kernel_name(const char *path, const char *want)
{
	char out[256];

	discover_kernel_name(path, out, sizeof out);
	cr_expect_str_eq(out, want, "path '%s'", path);
}

Test(discover, kernel_name_strips_directories_and_exe)
{
	expect_kernel_name("build/kernels/resize", "resize");
	expect_kernel_name("/a/b/kernels/churn.exe", "churn");
	expect_kernel_name("resize.exe", "resize");
	expect_kernel_name("resize", "resize");
	expect_kernel_name(".exe", ".exe");
	expect_kernel_name("a.exe.txt", "a.exe.txt");
	expect_kernel_name("dir.exe/resize", "resize");
}

Test(discover, kernel_name_is_truncated_to_the_buffer)
{
	char out[4];

	discover_kernel_name("build/kernels/resize.exe", out, sizeof out);
	cr_expect_str_eq(out, "res");
}

/* ---- discover_kernels ---- */

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/allocgate-discover-XXXXXX");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
}

static void make_file(const char *name, mode_t mode)
{
	char path[128];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	cr_assert_eq(write(fd, "#!/bin/sh\n", 10), 10);
	close(fd);
	cr_assert_eq(chmod(path, mode), 0, "chmod %s", path);
}

static void remove_dir(void)
{
	const char *files[] = { "zeta", "alpha", "notes.txt", ".hidden", "probe.o", "probe.d",
				"sub/inner" };
	char path[128];

	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/sub", dir);
	rmdir(path);
	rmdir(dir);
}

Test(discover, kernels_are_the_executable_regular_files_sorted, .init = make_dir,
     .fini = remove_dir)
{
	char path[128], **list = NULL;

	make_file("zeta", 0755);
	make_file("alpha", 0700);
	make_file("notes.txt", 0644);
	make_file(".hidden", 0755);
	make_file("probe.o", 0755);
	make_file("probe.d", 0755);
	snprintf(path, sizeof path, "%s/sub", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	make_file("sub/inner", 0755);

	int n = discover_kernels(dir, &list);
	cr_assert_eq(n, 2, "found %d", n);
	cr_assert_not_null(list);
	snprintf(path, sizeof path, "%s/alpha", dir);
	cr_expect_str_eq(list[0], path);
	snprintf(path, sizeof path, "%s/zeta", dir);
	cr_expect_str_eq(list[1], path);
	cr_expect_null(list[2], "NULL-terminated");
	discover_free(list);
}

Test(discover, empty_directory_has_no_kernels, .init = make_dir, .fini = remove_dir)
{
	char **list = (char **)1;

	cr_expect_eq(discover_kernels(dir, &list), 0);
	cr_expect_null(list);
	discover_free(list);
}

Test(discover, missing_directory_is_enoent, .init = make_dir, .fini = remove_dir)
{
	char path[128], **list = NULL;

	snprintf(path, sizeof path, "%s/absent", dir);
	cr_expect_eq(discover_kernels(path, &list), -ENOENT);
	cr_expect_null(list);
}

/* ---- the running program, and the interposer in a prefix's lib/ ---- */

#include "core/path_os.h"

Test(discover, self_executable_is_this_program_with_links_resolved)
{
	char self[4096], want[4096], tiny[4];
	cr_assert_eq(path_os_self_executable(self, sizeof self), 0);
	cr_expect_eq(self[0], '/', "absolute: %s", self);
	const char *base = strrchr(self, '/');
	cr_expect_str_eq(base + 1, "unit", "the suite's own executable: %s", self);
	cr_assert(realpath(self, want));
	cr_expect_str_eq(self, want, "no link left in %s", self);
	cr_expect_eq(path_os_self_executable(tiny, sizeof tiny), -ENAMETOOLONG);
}

Test(discover, interposer_in_the_prefix_lib_beside_bin)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	cr_skip_test("a sanitizer build uses no interposer");
#endif
	char prefix[] = "/tmp/allocgate-prefix-XXXXXX", path[600], bin[300], out[4096];
	cr_assert(mkdtemp(prefix));
	snprintf(bin, sizeof bin, "%s/bin", prefix);
	snprintf(path, sizeof path, "%s/lib", prefix);
	cr_assert_eq(mkdir(bin, 0755), 0);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/lib/liballocgate-interpose.so", prefix);
	int fd = open(path, O_CREAT | O_WRONLY, 0644);
	cr_assert(fd >= 0);
	close(fd);
	unsetenv("ALLOCGATE_INTERPOSE");
	const char *why = discover_interposer(bin, out, sizeof out);
	cr_expect_null(why, "%s", why ? why : "");
	snprintf(path, sizeof path, "%s/bin/../lib/liballocgate-interpose.so", prefix);
	cr_expect_str_eq(out, path);
	snprintf(path, sizeof path, "rm -rf '%s'", prefix);
	cr_expect_eq(system(path), 0);
}
