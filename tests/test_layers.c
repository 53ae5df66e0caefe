/* test_layers.c: the layers of gates/ (docs/architecture.md) as the
 * sources include them: every `#include "folder/file.h"` of a file in
 * gates/FOLDER/ names a folder its layer may use, so no decision or report
 * file reads the command line's options, no renderer but the terminal's
 * includes the terminal renderer, and no folder includes one above it. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Folder -> the folders its files may include (besides its own). */
static const struct {
	const char *folder;
	const char *may_use;
} layers[] = {
	{ "cli", " report decide sample store core " },
	{ "report", " decide store core " },
	{ "decide", " sample core " },
	{ "sample", " core " },
	{ "store", " core " },
	{ "core", " " },
	{ "os", " sample store core " },
};

static const char *allowed(const char *folder)
{
	for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
		if (!strcmp(layers[i].folder, folder))
			return layers[i].may_use;
	return NULL;
}

/* Calls CHECK on every quoted include of FILE (in gates/FOLDER). */
static size_t check_file(const char *folder, const char *file, char *bad, size_t bad_size)
{
	char path[512], line[1024];
	size_t includes = 0;
	snprintf(path, sizeof path, "gates/%s/%s", folder, file);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	while (fgets(line, sizeof line, f)) {
		char target[256];
		if (sscanf(line, "#include \"%255[^\"]\"", target) != 1)
			continue;
		includes++;
		char *slash = strchr(target, '/');
		if (!slash)
			continue;   /* perf/'s internal headers: -Iperf */
		*slash = '\0';
		char word[300];
		snprintf(word, sizeof word, " %s ", target);
		const char *may = allowed(folder);
		/* allocgate/: the kernel API of perf/ (-Iperf), below every layer */
		int ok = !strcmp(target, folder) || !strcmp(target, "allocgate") ||
			 (may && strstr(may, word));
		/* the terminal renderer's header: the terminal renderer and the CLI only */
		if (!strcmp(slash + 1, "report_term.h") && strcmp(folder, "cli") &&
		    strcmp(file, "report_term.c"))
			ok = 0;
		if (!ok && strlen(bad) + strlen(path) + strlen(line) + 4 < bad_size)
			strcat(strcat(strcat(bad, path), ": "), line);
	}
	fclose(f);
	return includes;
}

Test(layers, every_include_names_a_layer_below)
{
	char bad[8192] = "";
	size_t files = 0, includes = 0;
	for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++) {
		char dir[256];
		snprintf(dir, sizeof dir, "gates/%s", layers[i].folder);
		DIR *d = opendir(dir);
		cr_assert_not_null(d, "%s (run from the repository root)", dir);
		struct dirent *e;
		while ((e = readdir(d))) {
			size_t n = strlen(e->d_name);
			if (n < 3 || e->d_name[n - 2] != '.' || (e->d_name[n - 1] != 'c' &&
								 e->d_name[n - 1] != 'h'))
				continue;
			includes += check_file(layers[i].folder, e->d_name, bad, sizeof bad);
			files++;
		}
		closedir(d);
	}
	cr_expect_gt(files, 100, "only %zu files under gates/*/", files);
	cr_expect_gt(includes, 200, "only %zu includes", includes);
	cr_expect_str_empty(bad, "includes across the layers (docs/architecture.md):\n%s", bad);
}

Test(layers, no_source_outside_the_folders)
{
	DIR *d = opendir("gates");
	cr_assert_not_null(d);
	struct dirent *e;
	char stray[2048] = "";
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n > 2 && e->d_name[n - 2] == '.' && (e->d_name[n - 1] == 'c' ||
							 e->d_name[n - 1] == 'h') &&
		    strlen(stray) + n + 2 < sizeof stray)
			strcat(strcat(stray, e->d_name), " ");
	}
	closedir(d);
	cr_expect_str_empty(stray, "sources directly in gates/ (put them in a layer): %s", stray);
}
