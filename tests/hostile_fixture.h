/* hostile_fixture.h: finding the processes of a test by a marker of its
 * own in their environment (CRASHY_MARKER=..., tests/kernels/crashy.c),
 * so that no other process of the machine counts. Linux (/proc). */
#ifndef TEST_HOSTILE_FIXTURE_H
#define TEST_HOSTILE_FIXTURE_H

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* "CRASHY_MARKER=<pid>-<time>-<name>" into OUT: unique to this test. */
static inline void hostile_marker(const char *name, char *out, size_t size)
{
	snprintf(out, size, "CRASHY_MARKER=%ld-%ld-%s", (long)getpid(), (long)time(NULL), name);
}

/* Whether /proc/PID/environ holds the entry MARKER whole. */
static inline int hostile_has_marker(const char *pid, const char *marker)
{
	char path[300], buf[65536];
	snprintf(path, sizeof path, "/proc/%s/environ", pid);
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (size_t at = 0; at < n; at += strlen(buf + at) + 1)
		if (!strcmp(buf + at, marker))
			return 1;
	return 0;
}

/* How many live processes carry MARKER (zombies have no environment). */
static inline int hostile_count(const char *marker)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)) != NULL)
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			n += hostile_has_marker(e->d_name, marker);
	if (d)
		closedir(d);
	return n;
}

/* The count after waiting up to a second for it to reach 0. */
static inline int hostile_count_after_a_second(const char *marker)
{
	int n = hostile_count(marker);
	for (int i = 0; i < 20 && n > 0; i++) {
		usleep(50 * 1000);
		n = hostile_count(marker);
	}
	return n;
}

/* Kills what a failed test left (so that it does not sleep 300 s). */
static inline void hostile_kill_all(const char *marker)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL)
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && hostile_has_marker(e->d_name, marker))
			kill((pid_t)atol(e->d_name), SIGKILL);
	if (d)
		closedir(d);
}

#endif
