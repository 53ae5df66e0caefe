/* test_cost_key.c: gates/core/cost_key.c and gates/decide/comparable.c on
 * ld.so's diagnostics under valgrind 3.19 from two real hosts
 * (tests/data/cost_key/: the CPU and version lines of `valgrind --tool=none
 * /lib64/ld-linux-x86-64.so.2 --list-diagnostics` on an AMD EPYC VM of
 * family 0x1a model 0x02, and on one of family 0x19 model 0x11; both Debian
 * 12, glibc 2.36; valgrind presents family 6 model 0x3c on both). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/cost_key.h"
#include "decide/comparable.h"
#include "sample/cost_dump.h"

#define DATA "tests/data/cost_key/"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	char *buf = calloc(1, 1 << 16);
	cr_assert_not_null(buf);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* TEXT with the value of the line named NAME replaced by VALUE. */
static char *edit(const char *text, const char *name, const char *value)
{
	char *out = calloc(1, strlen(text) + strlen(value) + 2);
	const char *at = strstr(text, name);
	cr_assert_not_null(at, "%s", name);
	const char *eq = strchr(at, '='), *nl = strchr(at, '\n');
	memcpy(out, text, (size_t)(eq + 1 - text));
	strcat(out, value);
	strcat(out, nl);
	return out;
}

Test(cost_key, two_hosts_give_the_same_key)
{
	char *a = slurp(DATA "amd-epyc-1a-02.txt"), *b = slurp(DATA "amd-epyc-19-11.txt");
	char sa[128], sb[128], key[512], outside[512];
	int out = -1;
	cr_assert(strcmp(a, b) != 0, "the fixtures differ (RDSEED passes through)");
	cost_key_summary(a, sa, sizeof sa);
	cost_key_summary(b, sb, sizeof sb);
	cr_expect_str_eq(sa, sb);
	cr_expect(strstr(sa, "isa_1 0x7") && strstr(sa, "key lines of 114"), "%s", sa);
	cr_expect_eq(cost_key_diff_cpu(a, b, key, sizeof key, outside, sizeof outside, &out), 0,
		     "%s", key);
	cr_expect_eq(out, 2);
	cr_expect(strstr(outside, "x86.cpu_features.features[0x1].cpuid[0x1] 0x27aa -> 0x427aa"),
		  "%s", outside);
	free(a);
	free(b);
}

Test(cost_key, a_key_line_that_differs_is_named)
{
	char *a = slurp(DATA "amd-epyc-1a-02.txt");
	char *b = edit(a, "x86.cpu_features.rep_movsb_threshold=", "0x4000");
	char *c = edit(a, "x86.cpu_features.preferred.Prefer_No_AVX512=", "0x0");
	char sa[128], sb[128], key[512], outside[512];
	int out = -1;
	cost_key_summary(a, sa, sizeof sa);
	cost_key_summary(b, sb, sizeof sb);
	cr_expect_str_neq(sa, sb);
	cr_expect_eq(cost_key_diff_cpu(a, b, key, sizeof key, outside, sizeof outside, &out), 1);
	cr_expect_str_eq(key, "x86.cpu_features.rep_movsb_threshold 0x2000 -> 0x4000");
	cr_expect_eq(out, 0);
	cr_expect_eq(cost_key_diff_cpu(a, c, key, sizeof key, outside, sizeof outside, &out), 1);
	cr_expect(strstr(key, "preferred.Prefer_No_AVX512 0x1 -> 0x0"), "%s", key);
	free(a);
	free(b);
	free(c);
}

Test(cost_key, a_line_on_one_side_only_differs)
{
	char key[256], outside[256];
	int out = -1;
	cr_expect_eq(cost_key_diff_cpu("x86.cpu_features.isa_1=0x7\n", "", key, sizeof key, outside,
				       sizeof outside, &out), 1);
	cr_expect_str_eq(key, "x86.cpu_features.isa_1 0x7 -> (none)");
	cr_expect_eq(cost_key_diff_cpu("", "x86.cpu_features.isa_1=0x7\n", key, sizeof key, outside,
				       sizeof outside, &out), 1);
	cr_expect_str_eq(key, "x86.cpu_features.isa_1 (none) -> 0x7");
}

Test(cost_key, cpu_lines_leave_the_environment_out)
{
	char *lines = cost_key_cpu_lines("env[0x0]=\"GITHUB_TOKEN=x\"\nversion.version=\"2.36\"\n"
					 "uname.nodename=\"vm\"\nx86.cpu_features.isa_1=0x7\n");
	cr_assert_not_null(lines);
	cr_expect_str_eq(lines, "version.version=\"2.36\"\nx86.cpu_features.isa_1=0x7\n");
	free(lines);
}

Test(cost_key, ifunc_variants_by_name)
{
	static const char *yes[] = { "__memcpy_avx_unaligned_erms", "__strlen_avx2",
				     "__strcasecmp_l_avx2", "__memmove_erms", "__strchr_sse2",
				     "__wcsnlen_sse4_1", "__memcmp_evex_movbe" };
	static const char *no[] = { "memcpy", "memcpy@@GLIBC_2.14", "__libc_malloc",
				    "__memcpy_chk", "__GI___tunables_init", "___avx2", "__x_avx2@x" };
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		cr_expect(cost_key_is_ifunc_variant(yes[i], strlen(yes[i])), "%s", yes[i]);
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		cr_expect(!cost_key_is_ifunc_variant(no[i], strlen(no[i])), "%s", no[i]);
}

Test(cost_key, variant_set_is_sorted_without_repeats)
{
	char *set = NULL;
	const char *names[] = { "__strlen_avx2", "__memcpy_avx_unaligned_erms", "__strlen_avx2",
				"__memset_avx2_unaligned_erms", "__a_sse2", "__z_sse2" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		cr_assert_eq(cost_key_set_add(&set, names[i], strlen(names[i])), 0);
	cr_expect_str_eq(set, "__a_sse2,__memcpy_avx_unaligned_erms,__memset_avx2_unaligned_erms,"
			      "__strlen_avx2,__z_sse2");
	free(set);
}

Test(cost_key, a_function_that_ran_another_variant_is_named)
{
	char why[512];
	const char *a = "__memcpy_avx_unaligned_erms,__strlen_avx2";
	cr_expect_eq(cost_key_diff_ifuncs(a, a, why, sizeof why), 0);
	/* a run of fewer kernels: strlen not seen, memset only in B */
	cr_expect_eq(cost_key_diff_ifuncs(a, "__memcpy_avx_unaligned_erms,__memset_avx2_unaligned_erms",
					  why, sizeof why), 0);
	cr_expect_eq(cost_key_diff_ifuncs(a, "__memcpy_evex_unaligned_erms,__strlen_avx2", why,
					  sizeof why), 1);
	cr_expect_str_eq(why, "memcpy: __memcpy_avx_unaligned_erms -> __memcpy_evex_unaligned_erms");
}

Test(cost_key, the_variants_of_a_dump)
{
	char *set = NULL;
	const char *dump = "ob=/usr/lib/x86_64-linux-gnu/libc.so.6\nfn=__strlen_avx2\n0 12\n"
			   "cfn=__memcpy_avx_unaligned_erms\ncalls=1 0\n0 40\nfn=main\n"
			   "cfn=memcpy@@GLIBC_2.14\n";
	cr_assert_eq(cost_dump_ifuncs(dump, &set), 0);
	cr_expect_str_eq(set, "__memcpy_avx_unaligned_erms,__strlen_avx2");
	free(set);
}

/* A context of the cost pass with the CPU lines DIAG and the variants IFUNCS. */
static struct context ctx(char *diag, char *ifuncs)
{
	struct context c = { 0 };
	c.libc = "glibc";
	c.libc_version = "2.36";
	c.cpu_model = diag ? "AMD EPYC" : "Intel(R) Xeon(R) Processor";
	c.cpu_count = 2;
	c.allocator = "glibc";
	c.cost_tool = "valgrind-3.19.0";
	c.cost_cpu = diag ? "fnv1a64:1 (isa_1 0x7)" : "fnv1a64:2 (model 0x3c)";
	c.cost_diagnostics = diag;
	c.cost_libc = diag ? "libc.so.6 fnv1a64-elf:1" : NULL;
	c.cost_tunables = diag ? "glibc.cpu.x86_rep_movsb_threshold=8192" : NULL;
	c.cost_ifuncs = ifuncs;
	return c;
}

Test(comparable, another_cpu_model_compares_cost_with_a_note)
{
	char *a = slurp(DATA "amd-epyc-1a-02.txt"), *b = slurp(DATA "amd-epyc-19-11.txt");
	struct context base = ctx(a, "__memcpy_avx_unaligned_erms"),
		       cur = ctx(b, "__memcpy_avx_unaligned_erms");
	struct comparability c;
	cur.cpu_model = "AMD EPYC 9B14";
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.same_hardware);
	cr_expect(c.cost_comparable, "%s", c.cost_why);
	cr_expect(strstr(c.cost_notes, "differs in 2 lines outside the cost key"), "%s",
		  c.cost_notes);
	char *note = comparable_note(&c, false);
	cr_assert_not_null(note);
	cr_expect(strstr(note, "hardware differs from the baseline's: AMD EPYC -> AMD EPYC 9B14: "
			  "counts and cost compare; timing against it is information"), "%s", note);
	cr_expect(strstr(note, "cost compared"), "%s", note);
	cr_expect(!strstr(note, "cost not compared"), "%s", note);
	free(note);
	free(a);
	free(b);
}

Test(comparable, another_variant_or_build_is_not_compared_and_named)
{
	char *a = slurp(DATA "amd-epyc-1a-02.txt");
	struct context base = ctx(a, "__memcpy_avx_unaligned_erms"),
		       cur = ctx(a, "__memcpy_evex_unaligned_erms");
	struct comparability c;
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.cost_comparable);
	cr_expect(strstr(c.cost_why, "ifunc variants that ran: memcpy: "
				     "__memcpy_avx_unaligned_erms -> __memcpy_evex_unaligned_erms"),
		  "%s", c.cost_why);
	cur = ctx(a, "__memcpy_avx_unaligned_erms");
	cur.cost_libc = "libc.so.6 fnv1a64-elf:2";
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.cost_comparable);
	cr_expect(strstr(c.cost_why, "libc build"), "%s", c.cost_why);
	free(a);
}

Test(comparable, an_older_baseline_is_not_compared_and_named)
{
	char *b = slurp(DATA "amd-epyc-19-11.txt");
	struct context base = ctx(NULL, NULL), cur = ctx(b, "__memcpy_avx_unaligned_erms");
	struct comparability c;
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.cost_comparable);
	cr_expect(strstr(c.cost_why, "taken by an older allocgate"), "%s", c.cost_why);
	cur.libc_version = "2.41";
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.cost_comparable);
	cr_expect(strstr(c.cost_why, "libc version \"2.36\" -> \"2.41\""), "%s", c.cost_why);
	free(b);
}

Test(comparable, a_run_without_the_cost_pass_compares_no_cost)
{
	struct context base = ctx(NULL, NULL), cur = ctx(NULL, NULL);
	struct comparability c;
	cur.cost_tool = "";
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.cost_comparable);
	cr_expect_str_eq(c.cost_why, "");
}
