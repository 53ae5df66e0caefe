/* test_kernel_info.c: gates/sample/kernel_info.c, the strict parser of a kernel's
 * `--list` output (docs/protocol.md, "--list"), its comma lists and tiers. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "allocgate/probe.h"
#include "sample/kernel_info.h"

#define PATH "build/kernels/resize"
#define HEADER "allocgate-list 1\n"
#define KERNEL "kernel resize Seed 000: resizing a block in small steps\n"
#define VARIANT "variant lossful_grow free() then malloc() of the larger size, data lost\n"
#define PARAMS "params 2MB quick,default start=2097152 span=1048576 step=1024\n"

/* The example of docs/protocol.md, with a second variant and parameter set. */
static const char protocol_example[] =
	HEADER KERNEL VARIANT
	"variant realloc_grow realloc() to the larger size\n"
	PARAMS
	"params 64MB full start=67108864 span=1048576 step=65536\n"
	"expect kernels/resize.c 120 * * realloc_shrink.wall_ns < 0.1 * copy_shrink.wall_ns\n"
	"expect kernels/resize.c 121 windows 2MB,64MB realloc_grow.wall_ns > 10 * lossful_grow.wall_ns\n"
	"end\n";

Test(kernel_info, protocol_example_parses)
{
	struct kernel_info k;
	char err[256] = "";

	cr_assert_eq(kernel_info_parse(PATH, protocol_example, &k, err, sizeof err), 0, "%s", err);
	cr_expect_str_eq(k.path, PATH);
	cr_expect_str_eq(k.name, "resize");
	cr_expect_str_eq(k.summary, "Seed 000: resizing a block in small steps");

	cr_assert_eq(k.variant_count, 2);
	cr_expect_str_eq(k.variants[0], "lossful_grow");
	cr_expect_str_eq(k.variants[1], "realloc_grow");

	cr_assert_eq(k.paramset_count, 2);
	cr_expect_str_eq(k.paramsets[0].name, "2MB");
	cr_expect_eq(k.paramsets[0].tiers, (unsigned)(GATE_TIER_QUICK | GATE_TIER_DEFAULT));
	cr_expect_str_eq(k.paramsets[0].values, "start=2097152 span=1048576 step=1024");
	cr_expect_str_eq(k.paramsets[1].name, "64MB");
	cr_expect_eq(k.paramsets[1].tiers, (unsigned)GATE_TIER_FULL);
	cr_expect_str_eq(k.paramsets[1].values, "start=67108864 span=1048576 step=65536");

	cr_assert_eq(k.expect_count, 2);
	cr_expect_str_eq(k.expects[0].file, "kernels/resize.c");
	cr_expect_eq(k.expects[0].line, 120);
	cr_expect_null(k.expects[0].conditions, "'*' means everywhere");
	cr_expect_null(k.expects[0].params, "'*' means every parameter set");
	cr_expect_str_eq(k.expects[0].expr, "realloc_shrink.wall_ns < 0.1 * copy_shrink.wall_ns");
	cr_expect_eq(k.expects[1].line, 121);
	cr_expect_str_eq(k.expects[1].conditions, "windows");
	cr_expect_str_eq(k.expects[1].params, "2MB,64MB");
	cr_expect_str_eq(k.expects[1].expr, "realloc_grow.wall_ns > 10 * lossful_grow.wall_ns");

	kernel_info_free(&k);
	cr_expect_null(k.name);
	cr_expect_null(k.variants);
	cr_expect_eq(k.variant_count, 0);
	cr_expect_eq(k.paramset_count, 0);
	cr_expect_eq(k.expect_count, 0);
}

Test(kernel_info, minimal_list_without_expectations)
{
	struct kernel_info k;
	char err[256] = "";

	cr_assert_eq(kernel_info_parse(PATH, HEADER "kernel k\nvariant a\nparams p full\nend",
				       &k, err, sizeof err), 0, "%s", err);
	cr_expect_str_eq(k.name, "k");
	cr_expect_str_eq(k.summary, "");
	cr_expect_eq(k.variant_count, 1);
	cr_expect_eq(k.paramsets[0].tiers, (unsigned)GATE_TIER_FULL);
	cr_expect_str_eq(k.paramsets[0].values, "");
	cr_expect_eq(k.expect_count, 0);
	cr_expect_null(k.expects);
	kernel_info_free(&k);
}

/* ---- source lines of the kernel and its variants ---- */

static const char with_sources[] =
	HEADER KERNEL
	"source kernels/resize.c 247\n"
	VARIANT
	"variant-source lossful_grow kernels/resize.c 199\n"
	"variant realloc_grow realloc() to the larger size\n"
	"variant copy_grow malloc(), memcpy(), free()\n"
	"variant-source copy_grow kernels/resize_copy.c 12\n"
	PARAMS "end\n";

Test(kernel_info, source_lines_are_parsed)
{
	struct kernel_info k;
	char err[256] = "";

	cr_assert_eq(kernel_info_parse(PATH, with_sources, &k, err, sizeof err), 0, "%s", err);
	cr_expect_str_eq(k.file, "kernels/resize.c");
	cr_expect_eq(k.line, 247);
	cr_assert_eq(k.variant_count, 3);
	cr_expect_str_eq(k.variant_files[0], "kernels/resize.c");
	cr_expect_eq(k.variant_lines[0], 199);
	cr_expect_null(k.variant_files[1], "realloc_grow has no variant-source line");
	cr_expect_eq(k.variant_lines[1], 0);
	cr_expect_str_eq(k.variant_files[2], "kernels/resize_copy.c");
	cr_expect_eq(k.variant_lines[2], 12);
	kernel_info_free(&k);
	cr_expect_null(k.file);
	cr_expect_null(k.variant_files);
	cr_expect_null(k.variant_lines);
}

Test(kernel_info, variant_source_falls_back_to_the_kernel_line)
{
	struct kernel_info k;
	char err[256] = "";
	int line = -1;

	cr_assert_eq(kernel_info_parse(PATH, with_sources, &k, err, sizeof err), 0, "%s", err);
	cr_expect_str_eq(kernel_info_variant_source(&k, 0, &line), "kernels/resize.c");
	cr_expect_eq(line, 199);
	cr_expect_str_eq(kernel_info_variant_source(&k, 1, &line), "kernels/resize.c");
	cr_expect_eq(line, 247, "the kernel's GATE_KERNEL line");
	cr_expect_str_eq(kernel_info_variant_source(&k, 2, &line), "kernels/resize_copy.c");
	cr_expect_eq(line, 12);
	cr_expect_str_eq(kernel_info_variant_source(&k, 3, &line), "kernels/resize.c",
			 "an index past the variants gets the kernel's line");
	cr_expect_eq(line, 247);
	kernel_info_free(&k);
}

Test(kernel_info, variant_source_is_null_without_any_source_line)
{
	struct kernel_info k;
	char err[256] = "";
	int line = -1;

	cr_assert_eq(kernel_info_parse(PATH, protocol_example, &k, err, sizeof err), 0, "%s", err);
	cr_expect_null(k.file);
	cr_expect_null(kernel_info_variant_source(&k, 0, &line));
	cr_expect_eq(line, 0);
	kernel_info_free(&k);
}

/* ---- invalid outputs ---- */

struct bad_list {
	/* Arrays, not pointers: Criterion may run each case in a fresh
	 * process, where the addresses of string literals differ. */
	char what[48];
	char text[320];
	char error[256]; /* the whole message */
};

static struct bad_list bad_lists[] = {
	{ "empty output", "",
	  PATH " --list: line 1: expected 'allocgate-list 1'" },
	{ "missing header", KERNEL VARIANT PARAMS "end\n",
	  PATH " --list: line 1: expected 'allocgate-list 1'" },
	{ "wrong version", "allocgate-list 2\n" KERNEL VARIANT PARAMS "end\n",
	  PATH " --list: line 1: expected 'allocgate-list 1'" },
	{ "unknown tier", HEADER KERNEL VARIANT "params 2MB quick,huge a=1\nend\n",
	  PATH " --list: line 4: cannot parse 'params 2MB quick,huge a=1'" },
	{ "tier in uppercase", HEADER KERNEL VARIANT "params 2MB Quick a=1\nend\n",
	  PATH " --list: line 4: cannot parse 'params 2MB Quick a=1'" },
	{ "params without tiers", HEADER KERNEL VARIANT "params 2MB\nend\n",
	  PATH " --list: line 4: cannot parse 'params 2MB'" },
	{ "params name with '/'", HEADER KERNEL VARIANT "params 2/MB quick a=1\nend\n",
	  PATH " --list: line 4: cannot parse 'params 2/MB quick a=1'" },
	{ "variant name in uppercase", HEADER KERNEL "variant Lossful_grow x\n" PARAMS "end\n",
	  PATH " --list: line 3: cannot parse 'variant Lossful_grow x'" },
	{ "variant name with a dot", HEADER KERNEL "variant lossful.grow x\n" PARAMS "end\n",
	  PATH " --list: line 3: cannot parse 'variant lossful.grow x'" },
	{ "variant without a name", HEADER KERNEL "variant\n" PARAMS "end\n",
	  PATH " --list: line 3: cannot parse 'variant'" },
	{ "kernel name in uppercase", HEADER "kernel Resize x\n" VARIANT PARAMS "end\n",
	  PATH " --list: line 2: cannot parse 'kernel Resize x'" },
	{ "kernel line twice", HEADER KERNEL "kernel other x\n" VARIANT PARAMS "end\n",
	  PATH " --list: line 3: cannot parse 'kernel other x'" },
	{ "expect with a non-numeric line",
	  HEADER KERNEL VARIANT PARAMS "expect kernels/resize.c twelve * * a.x < b.x\nend\n",
	  PATH " --list: line 5: cannot parse 'expect kernels/resize.c twelve * * a.x < b.x'" },
	{ "expect with a line over 1000000",
	  HEADER KERNEL VARIANT PARAMS "expect k.c 1000001 * * a.x < b.x\nend\n",
	  PATH " --list: line 5: cannot parse 'expect k.c 1000001 * * a.x < b.x'" },
	{ "expect without an expression", HEADER KERNEL VARIANT PARAMS "expect k.c 12 * *\nend\n",
	  PATH " --list: line 5: cannot parse 'expect k.c 12 * *'" },
	{ "misspelt OS in the conditions",
	  HEADER KERNEL VARIANT PARAMS "expect k.c 12 linx * a.x < b.x\nend\n",
	  PATH " --list: line 5: cannot parse 'expect k.c 12 linx * a.x < b.x': unknown condition "
	  "'linx' (expected linux, windows, darwin, cores>=N or allocator=NAME[|NAME])" },
	{ "allocator condition without a name",
	  HEADER KERNEL VARIANT PARAMS "expect k.c 12 allocator= * a.x < b.x\nend\n",
	  PATH " --list: line 5: cannot parse 'expect k.c 12 allocator= * a.x < b.x': unknown "
	  "condition 'allocator=' (expected linux, windows, darwin, cores>=N or "
	  "allocator=NAME[|NAME])" },
	{ "unknown keyword", HEADER KERNEL VARIANT PARAMS "hello\nend\n",
	  PATH " --list: line 5: cannot parse 'hello'" },
	{ "empty line", HEADER KERNEL VARIANT PARAMS "\nend\n",
	  PATH " --list: line 5: cannot parse ''" },
	{ "end with a field", HEADER KERNEL VARIANT PARAMS "end now\n",
	  PATH " --list: line 5: cannot parse 'end now'" },
	{ "truncated", HEADER KERNEL VARIANT PARAMS,
	  PATH " --list: no 'end' line (truncated output)" },
	{ "text after end", HEADER KERNEL VARIANT PARAMS "end\nvariant late x\n",
	  PATH " --list: output after 'end'" },
	{ "no variant", HEADER KERNEL PARAMS "end\n",
	  PATH " --list: no kernel name, variant or parameter set" },
	{ "no parameter set", HEADER KERNEL VARIANT "end\n",
	  PATH " --list: no kernel name, variant or parameter set" },
	{ "no kernel line", HEADER VARIANT PARAMS "end\n",
	  PATH " --list: no kernel name, variant or parameter set" },
	{ "source twice", HEADER KERNEL "source k.c 1\nsource k.c 2\n" VARIANT PARAMS "end\n",
	  PATH " --list: line 4: cannot parse 'source k.c 2'" },
	{ "source with a non-numeric line", HEADER KERNEL "source k.c one\n" VARIANT PARAMS "end\n",
	  PATH " --list: line 3: cannot parse 'source k.c one'" },
	{ "source with a line over 10000000", HEADER KERNEL "source k.c 10000001\n" VARIANT PARAMS
	  "end\n", PATH " --list: line 3: cannot parse 'source k.c 10000001'" },
	{ "source with a field after the line", HEADER KERNEL "source k.c 1 2\n" VARIANT PARAMS
	  "end\n", PATH " --list: line 3: cannot parse 'source k.c 1 2'" },
	{ "source without a line", HEADER KERNEL "source k.c\n" VARIANT PARAMS "end\n",
	  PATH " --list: line 3: cannot parse 'source k.c'" },
	{ "variant-source before its variant",
	  HEADER KERNEL "variant-source lossful_grow k.c 9\n" VARIANT PARAMS "end\n",
	  PATH " --list: line 3: cannot parse 'variant-source lossful_grow k.c 9'" },
	{ "variant-source of an unknown variant",
	  HEADER KERNEL VARIANT "variant-source other k.c 9\n" PARAMS "end\n",
	  PATH " --list: line 4: cannot parse 'variant-source other k.c 9'" },
	{ "variant-source twice",
	  HEADER KERNEL VARIANT "variant-source lossful_grow k.c 9\n"
	  "variant-source lossful_grow k.c 10\n" PARAMS "end\n",
	  PATH " --list: line 5: cannot parse 'variant-source lossful_grow k.c 10'" },
	{ "variant-source without a line",
	  HEADER KERNEL VARIANT "variant-source lossful_grow k.c\n" PARAMS "end\n",
	  PATH " --list: line 4: cannot parse 'variant-source lossful_grow k.c'" },
};

ParameterizedTestParameters(kernel_info, invalid_lists_are_rejected)
{
	return cr_make_param_array(struct bad_list, bad_lists, sizeof bad_lists / sizeof *bad_lists);
}

ParameterizedTest(struct bad_list *c, kernel_info, invalid_lists_are_rejected)
{
	struct kernel_info k;
	char err[256] = "";

	cr_assert_eq(kernel_info_parse(PATH, c->text, &k, err, sizeof err), -EINVAL,
		     "%s: must be rejected", c->what);
	cr_expect_str_eq(err, c->error, "%s", c->what);
	cr_expect_null(k.path, "%s: nothing is kept", c->what);
	cr_expect_null(k.name, "%s", c->what);
	cr_expect_eq(k.variant_count, 0, "%s", c->what);
	cr_expect_eq(k.paramset_count, 0, "%s", c->what);
	cr_expect_eq(k.expect_count, 0, "%s", c->what);
}

Test(kernel_info, long_bad_line_is_quoted_shortened)
{
	struct kernel_info k;
	char err[512] = "";
	char text[512];
	char line[201];

	memset(line, 'x', 200);
	line[200] = '\0';
	snprintf(text, sizeof text, HEADER "%s\nend\n", line);
	cr_assert_eq(kernel_info_parse(PATH, text, &k, err, sizeof err), -EINVAL);
	/* The line is quoted through an 80-byte buffer: 79 characters. */
	char want[256];
	snprintf(want, sizeof want, PATH " --list: line 2: cannot parse '%.79s'", line);
	cr_expect_str_eq(err, want);
}

/* ---- comma lists and tiers ---- */

Test(kernel_info, list_has_null_means_every_name)
{
	cr_expect(kernel_info_list_has(NULL, "resize"));
	cr_expect(kernel_info_list_has(NULL, ""));
}

Test(kernel_info, list_has_single_name)
{
	cr_expect(kernel_info_list_has("linux", "linux"));
	cr_expect_not(kernel_info_list_has("linux", "windows"));
	cr_expect_not(kernel_info_list_has("", "linux"));
}

Test(kernel_info, list_has_comma_lists)
{
	cr_expect(kernel_info_list_has("linux,darwin,windows", "linux"));
	cr_expect(kernel_info_list_has("linux,darwin,windows", "darwin"));
	cr_expect(kernel_info_list_has("linux,darwin,windows", "windows"));
	cr_expect_not(kernel_info_list_has("linux,darwin,windows", "freebsd"));
}

Test(kernel_info, list_has_never_matches_prefixes)
{
	cr_expect_not(kernel_info_list_has("smaller", "small"));
	cr_expect_not(kernel_info_list_has("small", "smaller"));
	cr_expect_not(kernel_info_list_has("smaller,large", "small"));
	cr_expect_not(kernel_info_list_has("large,smaller", "small"));
	cr_expect_not(kernel_info_list_has("small,large", "smal"));
	cr_expect_not(kernel_info_list_has("xsmall", "small"), "nor suffixes");
	cr_expect(kernel_info_list_has("smaller,small", "small"));
}

Test(kernel_info, tier_bits)
{
	cr_expect_eq(kernel_info_tier_bit("quick"), (unsigned)GATE_TIER_QUICK);
	cr_expect_eq(kernel_info_tier_bit("default"), (unsigned)GATE_TIER_DEFAULT);
	cr_expect_eq(kernel_info_tier_bit("full"), (unsigned)GATE_TIER_FULL);
	cr_expect_eq(kernel_info_tier_bit("Full"), 0u);
	cr_expect_eq(kernel_info_tier_bit("quicker"), 0u);
	cr_expect_eq(kernel_info_tier_bit(""), 0u);
}

Test(kernel_info, parameter_values_by_key)
{
	struct kernel_paramset p = { .name = "threads_2", .values = "threads=2 ops=100000 best_of=4" };
	cr_expect_eq(kernel_info_param(&p, "threads", 1), 2);
	cr_expect_eq(kernel_info_param(&p, "ops", 0), 100000);
	cr_expect_eq(kernel_info_best_of(&p), 4);
	cr_expect_eq(kernel_info_param(&p, "thread", 7), 7, "a key is matched whole");
	cr_expect_eq(kernel_info_param(&p, "s", 7), 7);
	struct kernel_paramset none = { .name = "plain", .values = NULL };
	cr_expect_eq(kernel_info_param(&none, "threads", 1), 1);
	cr_expect_eq(kernel_info_best_of(&none), 1);
}

/* A project's own files are named from its source root (a checkout's or a
 * worktree's top), whatever directory its build ran in; a library's or the
 * system's keep their names. */
Test(kernel_info, files_named_from_the_source_root)
{
	struct kernel_info k = { 0 };
	k.file = strdup("/tmp/allocgate-base-x/kernels/k.c");
	k.variant_count = 1;
	k.variants = calloc(1, sizeof *k.variants);
	k.variant_files = calloc(1, sizeof *k.variant_files);
	k.variant_lines = calloc(1, sizeof *k.variant_lines);
	cr_assert(k.variants && k.variant_files && k.variant_lines);
	k.variants[0] = strdup("v");
	k.variant_files[0] = strdup("/tmp/allocgate-base-x/kernels/k.c");
	cr_assert_eq(kernel_info_set_source_root(&k, "/tmp/allocgate-base-x"), 0);
	cr_expect_str_eq(k.file, "kernels/k.c");
	cr_expect_str_eq(k.variant_files[0], "kernels/k.c");
	cr_expect_str_eq(kernel_info_source_file(&k, "/tmp/allocgate-base-x/src/value.c:43 f"),
			 "src/value.c:43 f");
	cr_expect_str_eq(kernel_info_source_file(&k, "/tmp/allocgate-base-xy/src/a.c"),
			 "/tmp/allocgate-base-xy/src/a.c", "another directory with the same prefix");
	cr_expect_str_eq(kernel_info_source_file(&k, "/usr/include/stdlib.h"),
			 "/usr/include/stdlib.h");
	cr_expect_str_eq(kernel_info_source_file(&k, "kernels/k.c"), "kernels/k.c");
	kernel_info_free(&k);
}

/* Sites name files of the repository whatever the build wrote: CMake's
 * absolute names, a prefix map's "./src/x.c" and "build/src/x.c" (a name
 * relative to the source root joined to the build directory), Meson's
 * "../src/x.c"; a library's or the system's names stay as they are. */
Test(kernel_info, a_build_directory_in_a_name_is_no_file_of_the_repository)
{
	char root[] = "/tmp/allocgate-root-XXXXXX", cmd[300], abs_name[200];
	cr_assert_not_null(mkdtemp(root));
	snprintf(cmd, sizeof cmd, "mkdir -p %s/src %s/build/src %s/malloc.c.d && "
		 "touch %s/src/x.c %s/malloc.c", root, root, root, root, root);
	cr_assert_eq(system(cmd), 0);
	struct kernel_info k;
	memset(&k, 0, sizeof k);
	cr_assert_eq(kernel_info_set_source_root(&k, root), 0);
	snprintf(abs_name, sizeof abs_name, "%s/src/x.c", root);
	cr_expect_str_eq(kernel_info_source_file(&k, abs_name), "src/x.c");
	cr_expect_str_eq(kernel_info_source_file(&k, "./src/x.c"), "src/x.c");
	cr_expect_str_eq(kernel_info_source_file(&k, "build/src/x.c"), "src/x.c");
	cr_expect_str_eq(kernel_info_source_file(&k, "../src/x.c"), "src/x.c");
	snprintf(abs_name, sizeof abs_name, "%s/build/./src/x.c", root);
	cr_expect_str_eq(kernel_info_source_file(&k, abs_name), "src/x.c");
	cr_expect_str_eq(kernel_info_source_file(&k, "malloc/malloc.c"), "malloc/malloc.c",
			 "glibc's name: malloc/ is no directory of the root");
	cr_expect_str_eq(kernel_info_source_file(&k, "/usr/include/stdlib.h"),
			 "/usr/include/stdlib.h");
	cr_expect_str_eq(kernel_info_source_file(&k, "src/gone.c"), "src/gone.c");
	kernel_info_free(&k);
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	cr_expect_eq(system(cmd), 0);
}
