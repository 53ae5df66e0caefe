/* discover.c: finds kernel executables (every regular executable file of
 * the kernel directory; the build puts only kernels there). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/discover.h"
#include "core/path_os.h"
#include "sample/allocator.h"

void discover_self_dir(const char *argv0, char *out, size_t size)
{
	const char *slash = path_os_last_separator(argv0);
	if (!slash)
		snprintf(out, size, ".");
	else
		snprintf(out, size, "%.*s", (int)(slash - argv0), argv0);
}

void discover_baseline_dir(const char *self_dir, char *out, size_t size)
{
	const char *slash = path_os_last_separator(self_dir);
	const char *last = slash ? slash + 1 : self_dir;
	if (strncmp(last, "build", 5))
		snprintf(out, size, "%s/baselines", self_dir);
	else if (!slash)
		snprintf(out, size, "baselines");
	else
		snprintf(out, size, "%.*s/baselines", (int)(slash - self_dir), self_dir);
}

const char *discover_interposer(const char *self_dir, char *out, size_t size)
{
	static const char *const places[] = { "%s/%s", "%s/../lib/%s" };
	const char *off = getenv("ALLOCGATE_INTERPOSE"), *file = allocator_os_interposer_file();
	static char none[4400];
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return "a sanitizer build (its kernels need the sanitizer's runtime first in the process)";
#endif
	if (off && !strcmp(off, "0"))
		return "ALLOCGATE_INTERPOSE=0";
	if (!file)
		return "no allocation interposer on this OS (the C runtime's malloc cannot be "
		       "preloaded)";
	/* the running gate's own directory first (an installed gate run
	 * through PATH or a link: its prefix's lib/), then ARGV0's */
	char exe[4096], exe_dir[4096] = "";
	if (!path_os_self_executable(exe, sizeof exe))
		discover_self_dir(exe, exe_dir, sizeof exe_dir);
	for (size_t i = 0; i < 2 * (sizeof places / sizeof places[0]); i++) {
		char path[4096];
		const char *dir = i < sizeof places / sizeof places[0] ? exe_dir : self_dir;
		if (!*dir)
			continue;
		snprintf(path, sizeof path, places[i % (sizeof places / sizeof places[0])], dir, file);
		if (access(path, R_OK) != 0)
			continue;
		/* absolute: the preload variable is read in the kernel's process */
		char cwd[2048] = "";
		if (path[0] != '/' && !getcwd(cwd, sizeof cwd))
			continue;
		int n = snprintf(out, size, "%s%s%s", cwd, *cwd ? "/" : "", path);
		if (n > 0 && (size_t)n < size)
			return NULL;
	}
	snprintf(none, sizeof none, "no %s next to the gate or in its prefix's lib/ (%s; "
		 "configure.py builds it on Linux and macOS)", file, *exe_dir ? exe_dir : self_dir);
	return none;
}

void discover_kernel_name(const char *path, char *out, size_t size)
{
	const char *base = path_os_last_separator(path);
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	if (len > 4 && !strcmp(base + len - 4, ".exe"))
		len -= 4;
	snprintf(out, size, "%.*s", (int)len, base);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_kernel(const char *path, const char *name)
{
	struct stat st;
	if (name[0] == '.' || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	size_t len = strlen(name);
	if (len > 2 && (!strcmp(name + len - 2, ".o") || !strcmp(name + len - 2, ".d")))
		return 0;
	return path_os_is_program(path, name);
}

int discover_kernels(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	char **list = NULL;
	int count = 0;
	struct dirent *ent;
	while ((ent = readdir(d))) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
		if (!is_kernel(path, ent->d_name))
			continue;
		char **grown = realloc(list, (count + 2) * sizeof *grown);
		if (!grown || !(grown[count] = strdup(path))) {
			list = grown ? grown : list;
			list[count] = NULL;
			closedir(d);
			discover_free(list);
			return -ENOMEM;
		}
		list = grown;
		list[++count] = NULL;
	}
	closedir(d);
	if (list)
		qsort(list, count, sizeof *list, by_name);
	*out = list;
	return count;
}

void discover_free(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}
