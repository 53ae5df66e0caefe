/* test_junit_consumers.c: the --junit file of a failing run read by a real
 * consumer from the platform's packages (python3-junitparser) and checked
 * against the attributes that both Jenkins' junit-10.xsd and Maven
 * Surefire's XSD allow (docs/robustness.md, "JUnit"): every case has a
 * time, the failures junitparser counts are the gate's own, and not
 * compared series are skipped cases. Skipped without python3-junitparser. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_fixture.h"
#include "sample/spawn.h"

static int gate(struct spawn_output *out, ...)
{
	char *argv[E2E_ARGV_MAX] = { gate_path, "run", "--kernel-dir", kernel_dir,
				     "--baseline-dir", tmpdir, "--no-color", "--no-cost",
				     "--best-of", "1", "--kernel", "toy", "--quick" };
	va_list ap;
	va_start(ap, out);
	int code = e2e_spawn(argv, 13, ap, NULL, 300, out);
	va_end(ap);
	return code;
}

static const char check[] =
	"import json, sys\n"
	"from junitparser import JUnitXml, Failure, Error, Skipped\n"
	"junit, result = sys.argv[1], json.load(open(sys.argv[2]))\n"
	"xml = JUnitXml.fromfile(junit)\n"
	"cases = [c for suite in xml for c in suite]\n"
	"fails = [c for c in cases if any(isinstance(r, Failure) for r in c.result)]\n"
	"skips = [c for c in cases if any(isinstance(r, Skipped) for r in c.result)]\n"
	"own = sum(s['verdict'] == 'fail' for s in result['series'])\n"
	"own += sum(e['verdict'] == 'fail' for e in result['expectations'])\n"
	"assert len(fails) == own and xml.failures == own, (len(fails), xml.failures, own)\n"
	"assert all(c.time is not None for c in cases), 'a case without time'\n"
	"notc = sum(s['verdict'] in ('not compared', 'new') for s in result['series'])\n"
	"assert len(skips) >= notc > 0, (len(skips), notc)\n"
	"import xml.etree.ElementTree as ET\n"
	"allowed = {'testsuites': {'name', 'tests', 'failures', 'errors', 'time'},\n"
	"           'testsuite': {'name', 'tests', 'failures', 'errors', 'skipped', 'time'},\n"
	"           'testcase': {'classname', 'name', 'time'},\n"
	"           'failure': {'message', 'type'}, 'error': {'message', 'type'},\n"
	"           'skipped': {'message'}, 'system-out': set()}\n"
	"for el in ET.parse(junit).iter():\n"
	"    extra = set(el.attrib) - allowed[el.tag]\n"
	"    assert not extra, (el.tag, extra)\n"
	"m = fails[0].result[0].message\n"
	"assert m.startswith('tests/kernels/toy.c:'), m\n";

Test(junit_consumers, junitparser_reads_the_gates_own_failures, .timeout = 300)
{
	struct spawn_output out;
	char junit[600], json[600], script[600], cmd[2000];
	e2e_prepare("junit");
	/* the platform's python (the package's), or another on PATH that has it */
	const char *py = system("/usr/bin/python3 -c 'import junitparser' 2>/dev/null") == 0
			 ? "/usr/bin/python3"
			 : system("python3 -c 'import junitparser' 2>/dev/null") == 0 ? "python3" : NULL;
	if (!py)
		e2e_skip("python3-junitparser is not installed (apt-get install python3-junitparser)");
	int code = gate(&out, "--update-baseline", "--runs", "1", NULL);
	cr_assert_eq(code, 0, "%s", out.out);
	spawn_output_free(&out);
	snprintf(junit, sizeof junit, "%s/junit.xml", tmpdir);
	snprintf(json, sizeof json, "%s/result.json", tmpdir);
	/* an extra malloc per operation: exact counts fail; the relabelled
	 * timing is not compared (the baseline's cores are rewritten) */
	snprintf(cmd, sizeof cmd, "sed -i 's/\"cpu_count\": [0-9]*/\"cpu_count\": 999/' "
		 "%s/linux-x86_64-glibc.json", tmpdir);
	cr_assert_eq(system(cmd), 0);
	code = gate(&out, "--env", "TOY_EXTRA_ALLOC=1", "--junit", junit, "--json", json, NULL);
	cr_expect_eq(code, 1, "%s", out.out);
	spawn_output_free(&out);
	snprintf(script, sizeof script, "%s/check.py", tmpdir);
	FILE *f = fopen(script, "w");
	cr_assert(f);
	fputs(check, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "%s %s %s %s", py, script, junit, json);
	cr_expect_eq(system(cmd), 0, "junitparser or the attribute check failed (files in %s)",
		     tmpdir);
	e2e_cleanup();
}
