/* test_platform.c: gates/core/platform.c (key, software comparison) and
 * platform_context on the machine running the tests. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "core/platform.h"

struct key_case {
	char os[32], arch[32], libc[32];
	char want[64];
};

ParameterizedTestParameters(platform, key_is_sanitised)
{
	static struct key_case cases[] = {
		{ "Linux", "x86_64", "glibc", "linux-x86_64-glibc" },
		{ "windows", "x86_64", "msvcrt", "windows-x86_64-msvcrt" },
		{ "macos", "arm64", "libSystem", "macos-arm64-libsystem" },
		{ "linux", "../../etc", "musl", "linux-______etc-musl" },
		{ "Linux", "aarch64 be", "glibc-2.36", "linux-aarch64_be-glibc_2_36" },
		{ "", "x86_64", "", "unknown-x86_64-unknown" },
	};
	return cr_make_param_array(struct key_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct key_case *c, platform, key_is_sanitised)
{
	char key[64];
	const char *p;

	cr_assert_eq(platform_key(c->os, c->arch, c->libc, key, sizeof(key)), 0);
	cr_expect_str_eq(key, c->want);
	for (p = key; *p; p++)
		cr_expect(strchr("abcdefghijklmnopqrstuvwxyz0123456789_-", *p) != NULL,
			  "character '%c' in key %s", *p, key);
}

Test(platform, key_never_holds_a_slash_or_dot)
{
	char key[64];

	cr_assert_eq(platform_key("../../etc", "a/b.c", "\\x.", key, sizeof(key)), 0);
	cr_expect_null(strchr(key, '/'));
	cr_expect_null(strchr(key, '.'));
	cr_expect_null(strchr(key, '\\'));
}

Test(platform, key_too_long_is_refused)
{
	char key[12];

	cr_expect_eq(platform_key("linux", "x86_64", "glibc", key, sizeof(key)), -ENAMETOOLONG);
	cr_expect_str_eq(key, "");
	cr_expect_eq(platform_key("linux", "x86_64", "glibc", key, 0), -ENAMETOOLONG);
	/* exactly fits: 18 characters and the terminator */
	{
		char exact[19];
		cr_expect_eq(platform_key("linux", "x86_64", "glibc", exact, sizeof(exact)), 0);
		cr_expect_str_eq(exact, "linux-x86_64-glibc");
	}
}

Test(platform, context_of_this_machine)
{
	struct context c = { 0 };
	struct utsname uts;
	char key[128];

	cr_assert_eq(platform_context(&c), 0);
	cr_assert_eq(uname(&uts), 0);
	cr_expect_str_eq(c.os, "linux");
	cr_expect_str_eq(c.arch, uts.machine);
	cr_expect_str_eq(c.kernel_release, uts.release);
	cr_expect_gt(c.cpu_count, 0);
	cr_expect_gt(c.page_size, 0);
	cr_assert_not_null(c.cpu_model);
	cr_expect_gt(strlen(c.cpu_model), 0);
	/* the identity: /proc/cpuinfo's processors, and on x86 CPUID answers
	 * what the kernel does not say (a hypervisor's name, or "none") */
	cr_expect_geq(c.cpu_threads, c.cpu_count);
	cr_expect_leq(c.cpu_cores, c.cpu_threads);
#if defined(__x86_64__) || defined(__i386__)
	cr_expect_not_null(c.cpu_vendor);
	cr_expect_not_null(c.cpu_family);
	cr_expect_not_null(c.cpu_model_number);
	cr_expect_not_null(c.cpu_stepping);
	cr_expect_not_null(c.cpu_hypervisor);
	cr_expect_gt(c.cpu_cores, 0);
#endif
	cr_assert_not_null(c.libc);
	cr_assert_not_null(c.libc_version);
	cr_assert_not_null(c.thp);
	cr_assert_not_null(c.compiler);
	cr_assert_not_null(c.gate_version);
	cr_assert_eq(platform_key(c.os, c.arch, c.libc, key, sizeof(key)), 0);
	cr_expect_str_eq(c.platform_key, key);
	cr_expect_eq(strncmp(c.platform_key, "linux-", 6), 0);
	/* 2024-05-01T12:34:56Z */
	cr_assert_not_null(c.started_at);
	cr_expect_eq(strlen(c.started_at), 20);
	cr_expect_eq(c.started_at[10], 'T');
	cr_expect_eq(c.started_at[19], 'Z');
	result_context_free(&c);
}

Test(platform, context_replaces_earlier_values)
{
	struct context c = { 0 };

	c.os = strdup("stale");
	c.commit = strdup("abc123");
	cr_assert_eq(platform_context(&c), 0);
	cr_expect_str_eq(c.os, "linux");
	cr_expect_str_eq(c.commit, "abc123"); /* not a machine fact: left alone */
	result_context_free(&c);
}

Test(platform_software, diff_names_each_changed_field)
{
	struct context a = { 0 }, b = { 0 };
	char why[512];
	a.libc_version = "2.36";
	b.libc_version = "2.37";
	a.thp = b.thp = "madvise";
	a.env = "";
	b.env = "LD_PRELOAD=/x/libjemalloc.so.2";
	cr_expect_eq(platform_software_diff(&a, &b, why, sizeof why), 2);
	cr_expect_str_eq(why, "libc \"2.36\" -> \"2.37\"; kernel environment \"\" -> "
			      "\"LD_PRELOAD=/x/libjemalloc.so.2\"");
	cr_expect_eq(platform_software_diff(&a, &a, why, sizeof why), 0);
	cr_expect_str_eq(why, "");
}

Test(platform_software, diff_names_another_seed)
{
	struct context a = { 0 }, b = { 0 };
	char why[256];
	a.seed = 1;
	b.seed = 5;
	cr_expect_eq(platform_software_diff(&a, &b, why, sizeof why), 1);
	cr_expect_str_eq(why, "seed (counts drawn from it differ) \"1\" -> \"5\"");
}

Test(platform, key_suffix_is_cleaned_like_the_key)
{
	struct context ctx = { 0 };
	cr_assert_eq(platform_key_add_suffix(&ctx, "bpf"), 0, "no key: nothing to add to");
	cr_expect_null(ctx.platform_key);
	ctx.platform_key = strdup("linux-x86_64-glibc");
	cr_assert_not_null(ctx.platform_key);
	cr_assert_eq(platform_key_add_suffix(&ctx, "My/../Alloc"), 0);
	cr_expect_str_eq(ctx.platform_key, "linux-x86_64-glibc-my____alloc");
	cr_assert_eq(platform_key_add_suffix(&ctx, "bpf"), 0);
	cr_expect_str_eq(ctx.platform_key, "linux-x86_64-glibc-my____alloc-bpf");
	free(ctx.platform_key);
}

Test(platform_software, microcode_where_both_record_it)
{
	struct context a = { 0 }, b = { 0 };
	char why[256];
	a.cpu_microcode = "0xd0003a5";
	cr_expect_eq(platform_software_diff(&a, &b, why, sizeof why), 0, "%s", why);
	b.cpu_microcode = "0xd0003b9";
	cr_expect_eq(platform_software_diff(&a, &b, why, sizeof why), 1);
	cr_expect_str_eq(why, "CPU microcode \"0xd0003a5\" -> \"0xd0003b9\"");
}
