/* test_conditions.c: gates/core/conditions.c, where a declared
 * expectation applies: OS, cores and allocator terms, the allocator
 * aliases, and the strict syntax check of --list's CONDITIONS field. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/conditions.h"

static enum condition_outcome on(const char *conditions, const char *os, const char *allocator,
				 int cores, char *why, size_t size)
{
	struct condition_target t = { os, allocator, cores };
	return conditions_evaluate(conditions, &t, why, size);
}

Test(conditions, os_lists_and_core_conditions)
{
	char why[160] = "";
	cr_expect_eq(on(NULL, "linux", "glibc", 2, why, sizeof why), CONDITION_APPLIES);
	cr_expect_eq(on("linux,windows", "linux", "glibc", 2, why, sizeof why), CONDITION_APPLIES);
	cr_expect_eq(on("windows", "linux", "glibc", 2, why, sizeof why), CONDITION_OTHER_OS);
	cr_expect_eq(on("cores>=4", "linux", "glibc", 4, why, sizeof why), CONDITION_APPLIES);
	cr_expect_eq(on("cores>=4", "linux", "glibc", 2, why, sizeof why), CONDITION_UNMET);
	cr_expect_str_eq(why, "declared for machines with at least 4 cores; this one has 2");
	cr_expect_eq(on("windows,cores>=4", "linux", "glibc", 2, NULL, 0), CONDITION_OTHER_OS,
		     "another OS is not a skipped condition");
	cr_expect_eq(on("linux,cores>=8", "linux", "glibc", 16, NULL, 0), CONDITION_APPLIES);
}

Test(conditions, allocator_terms)
{
	char why[160] = "";
	cr_expect_eq(on("allocator=glibc", "linux", "glibc", 2, why, sizeof why), CONDITION_APPLIES);
	cr_expect_eq(on("allocator=glibc", "linux", "jemalloc", 2, why, sizeof why),
		     CONDITION_OTHER_ALLOCATOR);
	cr_expect_str_eq(why, "glibc", "WHY names what it is declared for");
	cr_expect_eq(on("allocator=glibc|crt", "linux", "mimalloc", 2, why, sizeof why),
		     CONDITION_OTHER_ALLOCATOR);
	cr_expect_str_eq(why, "glibc|crt");
	cr_expect_eq(on("allocator=glibc|mimalloc", "linux", "mimalloc", 2, NULL, 0),
		     CONDITION_APPLIES);
	cr_expect_eq(on("allocator=glibc,allocator=tcmalloc", "linux", "tcmalloc", 2, NULL, 0),
		     CONDITION_APPLIES, "two allocator terms are alternatives");
	cr_expect_eq(on("allocator=libfoo", "linux", "libfoo", 2, NULL, 0), CONDITION_APPLIES,
		     "a preloaded library by its key name");
	cr_expect_eq(on("allocator=glib", "linux", "glibc", 2, NULL, 0), CONDITION_OTHER_ALLOCATOR,
		     "no prefix match");
}

Test(conditions, kinds_combine)
{
	char why[160] = "";
	cr_expect_eq(on("linux,allocator=glibc", "windows", "msvcrt", 2, NULL, 0),
		     CONDITION_OTHER_OS, "another OS first: not evaluated at all");
	cr_expect_eq(on("allocator=glibc,cores>=4", "linux", "jemalloc", 2, why, sizeof why),
		     CONDITION_UNMET, "a machine too small is skipped whatever the allocator");
	cr_expect_str_eq(why, "declared for machines with at least 4 cores; this one has 2");
	cr_expect_eq(on("linux,allocator=jemalloc,cores>=2", "linux", "jemalloc", 2, NULL, 0),
		     CONDITION_APPLIES);
}

Test(conditions, allocator_aliases)
{
	cr_expect(conditions_allocator_is("crt", 3, "msvcrt"));
	cr_expect(conditions_allocator_is("crt", 3, "ucrt"));
	cr_expect_not(conditions_allocator_is("crt", 3, "glibc"));
	cr_expect(conditions_allocator_is("libmalloc", 9, "libsystem"), "macOS's default");
	cr_expect(conditions_allocator_is("glibc", 5, "glibc"));
	cr_expect_not(conditions_allocator_is("glibc", 5, NULL));
	cr_expect_eq(on("allocator=crt", "windows", "ucrt", 4, NULL, 0), CONDITION_APPLIES);
}

Test(conditions, the_allocators_a_claim_is_declared_for)
{
	char buf[64];
	conditions_allocators("linux,allocator=glibc|crt,cores>=2,allocator=musl", buf, sizeof buf);
	cr_expect_str_eq(buf, "glibc|crt|musl");
	conditions_allocators("linux,cores>=4", buf, sizeof buf);
	cr_expect_str_eq(buf, "", "no allocator term");
	conditions_allocators(NULL, buf, sizeof buf);
	cr_expect_str_eq(buf, "");
	conditions_allocators("allocator=jemalloc|mimalloc", buf, 9);
	cr_expect_str_eq(buf, "jemalloc", "cut at the buffer's size");
}

Test(conditions, syntax)
{
	char err[200];
	cr_expect_eq(conditions_check(NULL, err, sizeof err), 0);
	cr_expect_eq(conditions_check("linux,windows,darwin", err, sizeof err), 0);
	cr_expect_eq(conditions_check("cores>=4,allocator=glibc|crt", err, sizeof err), 0);
	cr_expect_eq(conditions_check("allocator=libfoo-2", err, sizeof err), 0);
	static const char *const bad[] = { "linx", "cores>=", "cores>=x", "cores>=0",
		"allocator=", "allocator=glibc|", "allocator=|glibc", "allocator=a b",
		"allocator=a/b", "linux,", "Linux", NULL };
	for (const char *const *b = bad; *b; b++) {
		err[0] = '\0';
		cr_expect_eq(conditions_check(*b, err, sizeof err), -1, "'%s' accepted", *b);
		cr_expect(strlen(err) > 0, "no message for '%s'", *b);
	}
	conditions_check("linx", err, sizeof err);
	cr_expect_str_eq(err, "unknown condition 'linx' (expected linux, windows, darwin, "
		"cores>=N or allocator=NAME[|NAME])");
}
