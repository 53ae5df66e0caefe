/* test_atomic_file.c: an interrupted run's writers (gates/store/atomic_file.c,
 * atomic_file_remove_open, called by the gate on SIGINT, SIGTERM, SIGHUP):
 * the temporary file of an open writer is removed at once, the file it
 * would replace is left as it was, and no writer creates or renames again. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/atomic_file.h"

static char dir[] = "/tmp/allocgate-atomic-XXXXXX";

static void cleanup(void)
{
	char cmd[100];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect(system(cmd) == 0);
}

TestSuite(atomic_file, .fini = cleanup);

Test(atomic_file, interrupted_writer_leaves_no_temporary_file_and_the_old_contents)
{
	char path[200], err[300], text[64] = "";
	struct atomic_file af, later;
	cr_assert(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/report.json", dir);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs("old\n", f);
	fclose(f);

	cr_assert_eq(atomic_file_open(&af, path, err, sizeof err), 0, "%s", err);
	fputs("half of the new", af.fp);
	fflush(af.fp);
	cr_assert_eq(access(af.tmp_path, F_OK), 0, "no temporary file to begin with");
	char tmp[300];
	snprintf(tmp, sizeof tmp, "%s", af.tmp_path);

	atomic_file_remove_open();
	cr_expect_neq(access(tmp, F_OK), 0, "%s is still there", tmp);
	cr_expect_eq(atomic_file_commit(&af, err, sizeof err), -EINTR, "%s", err);
	cr_expect_eq(atomic_file_open(&later, path, err, sizeof err), -EINTR);

	f = fopen(path, "r");
	cr_assert(f);
	cr_expect(fgets(text, sizeof text, f));
	fclose(f);
	cr_expect_str_eq(text, "old\n");
	cr_expect_eq(atomic_file_remove_stale(path), 0, "a temporary file was left");
}
