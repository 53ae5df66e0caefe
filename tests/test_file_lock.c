/* test_file_lock.c: gates/os/file_lock_posix.c, the one-writer-at-a-time lock
 * of a baseline. flock(2) locks belong to an open file description, so two
 * acquisitions in this one process contend exactly as two processes do. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/file_lock.h"

static char dir[256], path[320];

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/allocgate-lock-XXXXXX");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	snprintf(path, sizeof path, "%s/linux-x86_64-glibc.json", dir);
}

static void remove_dir(void)
{
	char sub[400];
	snprintf(sub, sizeof sub, "%s/new", dir);
	rmdir(sub);
	rmdir(dir);
}

TestSuite(file_lock, .init = make_dir, .fini = remove_dir);

Test(file_lock, second_writer_fails_after_the_wait_naming_the_file)
{
	struct file_lock a, b;
	char err[512] = "";

	cr_assert_eq(file_lock_acquire(&a, path, 0, err, sizeof err), 0, "%s", err);
	cr_assert_eq(file_lock_acquire(&b, path, 60, err, sizeof err), -EWOULDBLOCK);
	cr_expect(strstr(err, path) != NULL, "%s", err);
	cr_expect(strstr(err, "another process is writing it") != NULL, "%s", err);
	cr_expect_eq(b.fd, -1);
	file_lock_release(&a);
	cr_assert_eq(file_lock_acquire(&b, path, 0, err, sizeof err), 0, "%s", err);
	file_lock_release(&b);
	file_lock_release(&b); /* twice is harmless */
}

Test(file_lock, waiting_writer_gets_it_once_released)
{
	struct file_lock a, b;
	char err[512] = "";
	int ready[2];

	cr_assert_eq(pipe(ready), 0);
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		/* The holder: lock, say so, hold briefly, exit (the kernel releases). */
		close(ready[0]);
		if (file_lock_acquire(&a, path, 0, err, sizeof err))
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		usleep(200 * 1000);
		_exit(0);
	}
	close(ready[1]);
	char c;
	cr_assert_eq(read(ready[0], &c, 1), 1);
	close(ready[0]);
	cr_assert_eq(file_lock_acquire(&b, path, 20000, err, sizeof err), 0, "%s", err);
	file_lock_release(&b);
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

Test(file_lock, killed_holder_releases_the_lock)
{
	struct file_lock a, b;
	char err[512] = "";
	int ready[2];

	cr_assert_eq(pipe(ready), 0);
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		if (file_lock_acquire(&a, path, 0, err, sizeof err) == 0 &&
		    write(ready[1], "x", 1) == 1)
			pause();
		_exit(1);
	}
	close(ready[1]);
	char c;
	cr_assert_eq(read(ready[0], &c, 1), 1);
	close(ready[0]);
	cr_assert_eq(file_lock_acquire(&b, path, 0, err, sizeof err), -EWOULDBLOCK);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	cr_assert_eq(file_lock_acquire(&b, path, 0, err, sizeof err), 0, "%s", err);
	file_lock_release(&b);
}

Test(file_lock, missing_directory_is_created_one_level)
{
	struct file_lock a;
	char err[512] = "", sub[400];
	struct stat st;

	snprintf(sub, sizeof sub, "%s/new/base.json", dir);
	cr_assert_eq(file_lock_acquire(&a, sub, 0, err, sizeof err), 0, "%s", err);
	file_lock_release(&a);
	snprintf(sub, sizeof sub, "%s/new", dir);
	cr_expect(stat(sub, &st) == 0 && S_ISDIR(st.st_mode));
}

Test(file_lock, unreachable_directory_names_the_path)
{
	struct file_lock a;
	char err[512] = "", sub[400];

	snprintf(sub, sizeof sub, "%s/no/such/dir/base.json", dir);
	cr_assert_eq(file_lock_acquire(&a, sub, 0, err, sizeof err), -ENOENT);
	cr_expect(strstr(err, sub) != NULL, "%s", err);
}
