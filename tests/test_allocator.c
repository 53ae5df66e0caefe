/* test_allocator.c: gates/sample/allocator.c: names, keys and resolution. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_flags.h"
#include "sample/allocator.h"

Test(allocator, default_names)
{
	cr_expect(allocator_is_default(NULL));
	cr_expect(allocator_is_default(""));
	cr_expect(allocator_is_default("glibc"));
	cr_expect(!allocator_is_default("jemalloc"));
}

Test(allocator, key_names)
{
	char name[64];
	allocator_key_name("jemalloc", name, sizeof name);
	cr_expect_str_eq(name, "jemalloc");
	allocator_key_name("/opt/x/libhoard.so.1", name, sizeof name);
	cr_expect_str_eq(name, "libhoard");
}

/* glibc keeps today's key; another allocator gets its own. */
Test(allocator, platform_key)
{
	struct context ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.platform_key = strdup("linux-x86_64-glibc");
	cr_assert_eq(allocator_context(&ctx, NULL), 0);
	cr_expect_str_eq(ctx.platform_key, "linux-x86_64-glibc");
	cr_expect_str_eq(ctx.allocator, "glibc");
	cr_assert_eq(allocator_context(&ctx, "/opt/My.Alloc/libMy-Alloc.so"), 0);
	cr_expect_str_eq(ctx.platform_key, "linux-x86_64-glibc-libmy_alloc");
	cr_expect_str_eq(ctx.allocator, "libMy-Alloc");
	result_context_free(&ctx);
}

Test(allocator, resolve_errors)
{
	char path[256], err[256];
	cr_expect_eq(allocator_resolve("nosuch", path, sizeof path, err, sizeof err), -EINVAL);
	cr_expect(strstr(err, "jemalloc") != NULL, "%s", err);
	cr_expect_eq(allocator_resolve("/nonexistent/lib.so", path, sizeof path, err, sizeof err),
		     -ENOENT);
	cr_expect(strstr(err, "/nonexistent/lib.so") != NULL, "%s", err);
}

Test(allocator, preload_env)
{
	char env[64];
	cr_assert_eq(allocator_preload_env("/l/a.so", env, sizeof env), 0);
	cr_expect(strstr(env, "=/l/a.so") != NULL);
	cr_expect_eq(allocator_preload_env("/a/very/long/path/that/does/not/fit/in/here.so",
					   env, 16), -ENAMETOOLONG);
}

/* --allocator glibc preloads nothing; an unknown name is a usage error. */
Test(allocator, option, .init = cr_redirect_stderr)
{
	struct run_options o;
	char *glibc[] = { "--allocator", "glibc", NULL };
	char *bad[] = { "--allocator", "nosuch", NULL };
	run_options_defaults(&o);
	cr_assert_eq(run_options_parse(&o, 2, glibc), 0);
	cr_expect_null(o.allocator);
	cr_expect_eq(o.env_count, 0);
	free(o.env);
	run_options_defaults(&o);
	cr_expect_eq(run_options_parse(&o, 2, bad), CLI_BAD_USAGE);
	free(o.env);
	fflush(stderr);
	cr_expect_stderr_eq_str("gate: --allocator nosuch: unknown allocator (expected glibc, "
				"jemalloc, mimalloc, tcmalloc or a path to a shared library)\n");
}
