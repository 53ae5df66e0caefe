/* test_callgrind.c: the callgrind output parser and command line
 * (gates/callgrind.c) on hand-written files in callgrind's format. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "callgrind.h"

Test(callgrind, reads_ir_from_summary)
{
	const char *text = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n"
			   "cmd: build/tests/kernels/allocs --variant counted\npart: 1\n"
			   "events: Ir\nsummary: 151401\n\nfl=(1) ???\nfn=(1) f\n0 3\n"
			   "totals: 151401\n";
	uint64_t ir = 0;
	char err[128];
	cr_assert_eq(callgrind_parse_instructions(text, &ir, err, sizeof err), 0, "%s", err);
	cr_expect_eq(ir, 151401);
}

Test(callgrind, reads_ir_from_totals_at_its_column)
{
	/* --cache-sim=yes puts more events on the line; Ir need not be first */
	const char *text = "events: Dr Ir Dw\nfn=(1) f\n0 1 2 3\ntotals: 10 2000 30\n";
	uint64_t ir = 0;
	char err[128];
	cr_assert_eq(callgrind_parse_instructions(text, &ir, err, sizeof err), 0, "%s", err);
	cr_expect_eq(ir, 2000);
}

Test(callgrind, says_what_is_missing)
{
	uint64_t ir = 7;
	char err[128];
	cr_expect_eq(callgrind_parse_instructions("summary: 5\n", &ir, err, sizeof err), -EINVAL);
	cr_expect(strstr(err, "events:"), "%s", err);
	cr_expect_eq(callgrind_parse_instructions("events: Ir\n", &ir, err, sizeof err), -EINVAL);
	cr_expect(strstr(err, "summary:"), "%s", err);
	cr_expect_eq(callgrind_parse_instructions("events: Dr\nsummary: 5\n", &ir, err,
						  sizeof err), -EINVAL);
	cr_expect_eq(callgrind_parse_instructions("events: Dr Ir\nsummary: 5\n", &ir, err,
						  sizeof err), -EINVAL);
	cr_expect_eq(ir, 7, "no value on failure");
}

Test(callgrind, command_line_starts_with_collection_off)
{
	char *prefix[8];
	size_t n = callgrind_prefix("/usr/bin/valgrind", "--callgrind-out-file=/tmp/x", prefix);
	cr_assert_geq(n, 4);
	cr_expect_str_eq(prefix[0], "/usr/bin/valgrind");
	cr_expect_str_eq(prefix[1], "--tool=callgrind");
	cr_expect_str_eq(prefix[2], "--collect-atstart=no");
	cr_expect_str_eq(prefix[3], "--callgrind-out-file=/tmp/x");
}
