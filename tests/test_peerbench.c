/* test_peerbench.c: ci/peerbench.py, the side-by-side benchmark of gate ab
 * and its peers (docs/noise.md, "Measuring it on your machine"). Its pure
 * parts are checked against known values by tests/test_peerbench_stats.py;
 * the smoke run (--smoke) must give a decision of every procedure on every
 * case and print the table. What the decisions are is never asserted: they
 * are timing. Skipped where python3, or a peer's tools, are missing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/spawn.h"

/* The peers' tools, as ci/deps.sh installs them: hyperfine, Google
 * Benchmark's library and compare.py, scipy for compare.py, g++. */
#define PEER_TOOLS                                                                       \
	"command -v hyperfine && command -v g++ && [ -f /usr/include/benchmark/benchmark.h ] " \
	"&& [ -f /usr/share/benchmark/compare.py ] && "                                      \
	"{ /usr/bin/python3 -c 'import scipy' || python3 -c 'import scipy'; }"

static void run_python(char *const argv[], double timeout, struct spawn_output *out)
{
	if (system("python3 -c '' >/dev/null 2>&1") != 0)
		cr_skip_test("python3 is not installed: ci/peerbench.py cannot run");
	cr_assert_eq(spawn_run(argv, NULL, timeout, out), 0);
	cr_assert_eq(out->status, SPAWN_EXITED, "%s\n%s", out->out, out->err);
}

Test(peerbench, its_statistics_and_table_hold_known_values, .timeout = 60)
{
	char *argv[] = { "/usr/bin/env", "python3", "tests/test_peerbench_stats.py", NULL };
	struct spawn_output out;
	run_python(argv, 50, &out);
	cr_expect_eq(out.exit_code, 0, "%s\n%s", out.out, out.err);
	spawn_output_free(&out);
}

/* The row of procedure LABEL on CASE in the table of OUT: its runs and
 * errors; 0 when there is no such row. */
static int table_row(const char *out, const char *label, const char *kase, int *runs,
		     int *errors)
{
	for (const char *line = out; *line;) {
		const char *end = strchr(line, '\n'), *at = strstr(line, kase);
		int slower, faster, other;
		if (strncmp(line, label, strlen(label)) == 0 && at && (!end || at < end))
			return sscanf(at + strlen(kase), "%d %d %d %d %d", runs, &slower, &faster,
				      &other, errors) == 5;
		if (!end)
			break;
		line = end + 1;
	}
	return 0;
}

Test(peerbench, the_smoke_run_decides_every_case_with_every_procedure, .timeout = 300)
{
	if (system("{ " PEER_TOOLS "; } >/dev/null 2>&1") != 0)
		cr_skip_test("no hyperfine, g++, libbenchmark-dev, libbenchmark-tools or "
			     "python3-scipy (ci/deps.sh installs them as root)");
	char *argv[] = { "/usr/bin/env", "python3", "ci/peerbench.py", "--smoke", NULL };
	static const char *const labels[] = { "gate ab ", "hyperfine @1s", "gbench+compare @1s",
					      "benchstat-style @1s" };
	static const char *const cases[] = { " unchanged ", " +3% " };
	struct spawn_output out;
	run_python(argv, 280, &out);
	cr_assert_eq(out.exit_code, 0, "%s\n%s", out.out, out.err);
	cr_expect(strstr(out.out, "machine: "), "%s", out.out);
	cr_expect(strstr(out.out, "\ntarget (+3%): "), "%s", out.out);
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
			int runs = 0, errors = -1;
			cr_expect(table_row(out.out, labels[i], cases[c], &runs, &errors),
				  "no row %s%s in:\n%s", labels[i], cases[c], out.out);
			cr_expect_eq(runs, 2, "%s%s: %d runs\n%s", labels[i], cases[c], runs, out.out);
			cr_expect_eq(errors, 0, "%s%s: %d without a decision\n%s\n%s", labels[i],
				     cases[c], errors, out.out, out.err);
		}
	}
	spawn_output_free(&out);
}
