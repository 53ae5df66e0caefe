/* test_backend.c: the counter backends that wrap a sample
 * (gates/os/backend_posix.c). The instructions under callgrind are the cost
 * pass now (tests/test_cost_pass.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "sample/backend.h"

Test(backend, perf_leaves_the_command_alone)
{
	char *argv[] = { "k", "--variant", "v", NULL };
	struct backend_run b;
	char why[128];
	cr_assert_eq(backend_prepare(&b, NULL, argv, NULL, why, sizeof why), 0);
	cr_expect_str_eq(b.argv[0], "k");
	cr_expect_str_eq(b.argv[2], "v");
	cr_expect_null(b.argv[3]);
	cr_expect(backend_known("bpf") && backend_known("perf"));
	cr_expect(!backend_known("pmu"));
	cr_expect(!backend_known("callgrind"), "replaced by the cost pass");
}
