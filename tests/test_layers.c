/* test_layers.c: the layers of gates/ (docs/architecture.md, "The layers
 * of gates/") as the sources include them: every `#include "folder/file.h"`
 * of a file in gates/FOLDER/ names its own folder, a folder its layer may
 * use, or one of the few headers it may use of a folder it may not (the
 * renderers read decide/diff.h, decide/sites.h and decide/bisect.h, the
 * records they render; the decisions what a
 * kernel declared); so no decision or report file reads the command line's
 * options, no renderer but the terminal's includes the terminal renderer,
 * and no folder includes one above it: the command line (cli/) hands a plan
 * to the run (run/) and never reads the decisions (decide/), so no rule
 * lives in it. The OS differences stay in gates/os/
 * (one file per OS, chosen by its name's suffix): no file elsewhere tests
 * _WIN32 or carries an OS suffix, and gates/os/ has no header of its own.
 * Only the CLI and the run speak to the person: no file below gates/run/
 * writes a message to stderr or stdout, but the few the architecture names.
 * Kernels and parameter sets are ordered and compared by one key
 * (core/group_key.h): no file but core/group_key.c passes a kernel or
 * params member to strcmp.
 *
 * perf/ (docs/architecture.md, "The folders of perf/") has walls of its
 * own: the probe (probe/) uses the counters and the allocation counts but
 * never the interposer's or gate-bpf's sources, the interposer and gate-bpf
 * use nothing outside their folders, and nothing in perf/ includes gates/. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Folder -> what its files may include besides their own folder: whole
 * folders ("core") and single headers ("decide/diff.h"). */
static const struct {
	const char *folder;
	const char *may_use;
} layers[] = {
	/* the command line parses and hands a plan to run/: it decides
	 * nothing, so it never reads decide/ */
	{ "cli", " run report sample store core " },
	{ "run", " report decide sample store core " },
	{ "report", " decide/diff.h decide/sites.h decide/bisect.h store core " },
	{ "decide", " sample/groups.h sample/kernel_info.h core " },
	{ "sample", " core " },
	{ "store", " core " },
	{ "core", " " },
	{ "os", " sample store core " },
};

#define LAYERS (sizeof layers / sizeof layers[0])

/* The files below gates/run/ that may write to the person themselves
 * (docs/architecture.md, "The layers of `gates/`":
 * only the CLI and the run speak to the person): the one form of a message, the runner's -v lines, the Windows
 * spawner's note that --pin-cpu could not be had (it goes on unpinned),
 * and the POSIX spawner's child, whose lines before exec go to the
 * sample's stderr (the pipe the gate reads), not to the person. */
static const char *const speakers[] = { "gates/core/message.c", "gates/sample/runner.c",
					"gates/os/spawn_windows.c", "gates/os/spawn_posix.c" };

/* What a file speaking to the person calls or names (a renderer writes to
 * the FILE it is handed, which is no speaking). */
static const char *const speech[] = { "message_error(", "message_note(", "message_progress(",
				      "printf(", "puts(", "stdout", "stderr" };

/* The suffixes configure.py picks OS files by (OS_SUFFIXES). */
static const char *const os_suffixes[] = { "_linux.c", "_posix.c", "_windows.c", "_darwin.c" };

static const char *allowed(const char *folder)
{
	for (size_t i = 0; i < LAYERS; i++)
		if (!strcmp(layers[i].folder, folder))
			return layers[i].may_use;
	return NULL;
}

/* Appends "PATH: WHAT" to BAD (BAD_SIZE bytes) while it fits. */
static void note(char *bad, size_t bad_size, const char *path, const char *what)
{
	if (strlen(bad) + strlen(path) + strlen(what) + 4 < bad_size)
		strcat(strcat(strcat(bad, path), ": "), what);
}

/* Whether MAY (" a b/c.h ") lists WORD whole. */
static int lists(const char *may, const char *word)
{
	char padded[300];
	snprintf(padded, sizeof padded, " %s ", word);
	return may && strstr(may, padded) != NULL;
}

/* Whether the quoted include TARGET ("folder/file.h") of a file FILE in
 * gates/FOLDER keeps the layers. */
static int include_ok(const char *folder, const char *file, const char *target)
{
	char top[256];
	const char *slash = strchr(target, '/');
	/* the one generated header, in the build directory (configure.py's
	 * version edge), read by core/version.c alone */
	if (!strcmp(target, "gate_version.h"))
		return !strcmp(folder, "core") && !strcmp(file, "version.c");
	if (!slash)
		return 0;   /* includes name the folder (-Igates, -Iperf) */
	snprintf(top, sizeof top, "%.*s", (int)(slash - target), target);
	/* the terminal renderer's header: the terminal renderer, the CLI and
	 * the run (run/reports.c prints the terminal report) only */
	if (!strcmp(target, "report/report_term.h") && strcmp(folder, "cli") &&
	    strcmp(folder, "run") && strcmp(file, "report_term.c"))
		return 0;
	/* allocgate/: the kernel API of perf/ (-Iperf), below every layer */
	return !strcmp(top, folder) || !strcmp(top, "allocgate") ||
	       lists(allowed(folder), top) || lists(allowed(folder), target);
}

/* Checks every quoted include of gates/FOLDER/FILE, and that it names
 * _WIN32 only in gates/os/; returns how many includes it has. */
static size_t check_file(const char *folder, const char *file, char *bad, size_t bad_size)
{
	char path[512], line[1024];
	size_t includes = 0;
	snprintf(path, sizeof path, "gates/%s/%s", folder, file);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	while (fgets(line, sizeof line, f)) {
		char target[256];
		if (strstr(line, "_WIN32") && strcmp(folder, "os"))
			note(bad, bad_size, path, line);
		if (sscanf(line, " # include \"%255[^\"]\"", target) != 1)
			continue;
		includes++;
		if (!include_ok(folder, file, target))
			note(bad, bad_size, path, line);
	}
	fclose(f);
	return includes;
}

/* Whether NAME ends in one of configure.py's OS suffixes. */
static int has_os_suffix(const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < sizeof os_suffixes / sizeof os_suffixes[0]; i++) {
		size_t s = strlen(os_suffixes[i]);
		if (n > s && !strcmp(name + n - s, os_suffixes[i]))
			return 1;
	}
	return 0;
}

/* Where gates/FOLDER/NAME is misplaced: a header in os/, a file of os/
 * without an OS suffix, or one with it elsewhere; NULL when it is not. */
static const char *misplaced(const char *folder, const char *name)
{
	int in_os = !strcmp(folder, "os");
	if (in_os && name[strlen(name) - 1] == 'h')
		return "a header in gates/os/ (contracts live in the layer they serve)\n";
	if (in_os && !has_os_suffix(name))
		return "no OS suffix (configure.py would build it on every OS)\n";
	if (!in_os && has_os_suffix(name))
		return "an OS file outside gates/os/\n";
	return NULL;
}

/* Whether NAME is a C source or header. */
static int is_source(const char *name)
{
	size_t n = strlen(name);
	return n > 2 && name[n - 2] == '.' && (name[n - 1] == 'c' || name[n - 1] == 'h');
}

Test(layers, every_include_names_a_layer_below)
{
	char bad[8192] = "";
	size_t files = 0, includes = 0;
	for (size_t i = 0; i < LAYERS; i++) {
		char dir[256];
		snprintf(dir, sizeof dir, "gates/%s", layers[i].folder);
		DIR *d = opendir(dir);
		cr_assert_not_null(d, "%s (run from the repository root)", dir);
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!is_source(e->d_name))
				continue;
			includes += check_file(layers[i].folder, e->d_name, bad, sizeof bad);
			files++;
		}
		closedir(d);
	}
	cr_expect_gt(files, 100, "only %zu files under gates/*/", files);
	cr_expect_gt(includes, 200, "only %zu includes", includes);
	cr_expect_str_empty(bad, "includes across the layers, or _WIN32 outside gates/os/ "
			    "(docs/architecture.md):\n%s", bad);
}

/* Whether LINE of a source calls one of SPEECH (not in a comment's words:
 * a line that starts a comment, or continues one, is not code). */
static int speaks(const char *line)
{
	const char *code = line + strspn(line, " \t");
	if (!strncmp(code, "/*", 2) || !strncmp(code, "*", 1) || !strncmp(code, "//", 2))
		return 0;
	for (size_t i = 0; i < sizeof speech / sizeof speech[0]; i++) {
		const char *at = strstr(code, speech[i]);
		/* snprintf, vfprintf, fprintf(f, ...): not to the person */
		if (at && !(at > code && (at[-1] == 'n' || at[-1] == 'v' || at[-1] == 'f' ||
					  at[-1] == 's' || at[-1] == '_')))
			return 1;
	}
	return 0;
}

/* Whether LINE compares a kernel or a parameter set name by hand: one of
 * its strcmp( calls has an argument that names a member kernel or params
 * ("a->kernel", "s.params"; not "kernel_digest", not "&p->kernel" outside
 * the call). */
static int compares_group_by_hand(const char *line)
{
	static const char *const members[] = { "kernel", "params" };
	for (const char *at = strstr(line, "strcmp("); at; at = strstr(at + 1, "strcmp(")) {
		const char *args = at + 7, *end = args;
		for (int depth = 1; *end && depth; end++)
			depth += (*end == '(') - (*end == ')');
		for (const char *m = args; m < end; m++) {
			const char *name = *m == '.' ? m + 1 : !strncmp(m, "->", 2) ? m + 2 : NULL;
			for (size_t k = 0; name && k < sizeof members / sizeof members[0]; k++) {
				size_t n = strlen(members[k]);
				if (name + n <= end && !strncmp(name, members[k], n) &&
				    !isalnum((unsigned char)name[n]) && name[n] != '_')
					return 1;
			}
		}
	}
	return 0;
}

Test(layers, kernels_and_parameter_sets_are_compared_by_the_group_key)
{
	char bad[4096] = "";
	size_t files = 0;
	for (size_t i = 0; i < LAYERS; i++) {
		char dir[256], path[512], line[1024];
		snprintf(dir, sizeof dir, "gates/%s", layers[i].folder);
		DIR *d = opendir(dir);
		cr_assert_not_null(d, "%s (run from the repository root)", dir);
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!is_source(e->d_name))
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			if (!strcmp(path, "gates/core/group_key.c"))
				continue;
			FILE *f = fopen(path, "r");
			cr_assert_not_null(f, "%s", path);
			while (fgets(line, sizeof line, f))
				if (compares_group_by_hand(line))
					note(bad, sizeof bad, path, line);
			fclose(f);
			files++;
		}
		closedir(d);
	}
	cr_expect_gt(files, 150, "only %zu files under gates/*/", files);
	cr_expect_str_empty(bad, "a kernel or parameter set compared by hand (use "
			    "core/group_key.h):\n%s", bad);
}

/* The rule itself refuses what it should: an include above the layer,
 * one without its folder, the terminal renderer's header elsewhere, and
 * the generated version header anywhere but core/version.c. */
Test(layers, gates_layers_refuse_what_they_should)
{
	cr_expect(include_ok("cli", "main.c", "report/report_term.h"));
	cr_expect(include_ok("cli", "run_cmd.c", "run/run.h"));
	cr_expect(!include_ok("cli", "run_cmd.c", "decide/compare.h"));
	cr_expect(include_ok("run", "run_gate.c", "decide/compare.h"));
	cr_expect(!include_ok("run", "run_gate.c", "cli/run_flags.h"));
	cr_expect(!include_ok("decide", "compare.c", "run/session.h"));
	cr_expect(!include_ok("decide", "compare.c", "cli/session.h"));
	cr_expect(!include_ok("core", "result.c", "store/jsonout.h"));
	cr_expect(!include_ok("report", "report_json.c", "report/report_term.h"));
	cr_expect(!include_ok("core", "result.c", "result.h"));
	cr_expect(include_ok("core", "version.c", "gate_version.h"));
	cr_expect(!include_ok("core", "platform.c", "gate_version.h"));
	cr_expect(!include_ok("cli", "version.c", "gate_version.h"));
	cr_expect(compares_group_by_hand("\tif (strcmp(s->kernel, kernel) || x)\n"));
	cr_expect(compares_group_by_hand("\t    !strcmp(a.params, b) && !strcmp(c, d))\n"));
	cr_expect(compares_group_by_hand("c = strcmp(x->variant, y) ?: strcmp(x->kernel, y);"));
	cr_expect(!compares_group_by_hand("\tif (strcmp(now->kernel_digest, old->kernel_digest))"));
	cr_expect(!compares_group_by_hand("\t  : !strcmp(flag, \"--kernel\") ? &p->kernel\n"));
	cr_expect(!compares_group_by_hand("\tif (!strncmp(s->kernel, k, n))\n"));
}

Test(layers, only_the_cli_speaks_to_the_person)
{
	char bad[4096] = "";
	size_t files = 0;
	for (size_t i = 0; i < LAYERS; i++) {
		char dir[256], path[512], line[1024];
		if (!strcmp(layers[i].folder, "cli") || !strcmp(layers[i].folder, "run"))
			continue;
		snprintf(dir, sizeof dir, "gates/%s", layers[i].folder);
		DIR *d = opendir(dir);
		cr_assert_not_null(d, "%s (run from the repository root)", dir);
		struct dirent *e;
		while ((e = readdir(d))) {
			int allowed_speaker = 0;
			size_t n = strlen(e->d_name);
			if (!is_source(e->d_name) || e->d_name[n - 1] != 'c')
				continue;   /* a header declares, its source speaks */
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			for (size_t k = 0; k < sizeof speakers / sizeof speakers[0]; k++)
				allowed_speaker |= !strcmp(path, speakers[k]);
			FILE *f = fopen(path, "r");
			cr_assert_not_null(f, "%s", path);
			while (!allowed_speaker && fgets(line, sizeof line, f))
				if (speaks(line))
					note(bad, sizeof bad, path, line);
			fclose(f);
			files++;
		}
		closedir(d);
	}
	cr_expect_gt(files, 60, "only %zu sources below gates/run/", files);
	cr_expect_str_empty(bad, "speaking to the person below gates/run/ "
			    "(docs/architecture.md):\n%s", bad);
}

Test(layers, os_files_are_in_gates_os_and_named_by_their_os)
{
	char bad[4096] = "";
	size_t os_files = 0;
	for (size_t i = 0; i < LAYERS; i++) {
		char dir[256], path[512];
		snprintf(dir, sizeof dir, "gates/%s", layers[i].folder);
		DIR *d = opendir(dir);
		cr_assert_not_null(d, "%s (run from the repository root)", dir);
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!is_source(e->d_name))
				continue;
			const char *why = misplaced(layers[i].folder, e->d_name);
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			if (why)
				note(bad, sizeof bad, path, why);
			os_files += !strcmp(layers[i].folder, "os");
		}
		closedir(d);
	}
	cr_expect_gt(os_files, 10, "only %zu files in gates/os/", os_files);
	cr_expect_str_empty(bad, "%s", bad);
}

Test(layers, every_folder_is_a_layer)
{
	DIR *d = opendir("gates");
	cr_assert_not_null(d);
	struct dirent *e;
	char stray[2048] = "";
	while ((e = readdir(d))) {
		char path[512];
		struct stat st;
		size_t n = strlen(e->d_name);
		snprintf(path, sizeof path, "gates/%s", e->d_name);
		int folder = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
		if (e->d_name[0] != '.' && (is_source(e->d_name) || (folder && !allowed(e->d_name))) &&
		    strlen(stray) + n + 2 < sizeof stray)
			strcat(strcat(stray, e->d_name), " ");
	}
	closedir(d);
	cr_expect_str_empty(stray, "in gates/ but not a layer of test_layers.c (put sources "
			    "in a layer; a new layer needs its row here and in "
			    "docs/architecture.md): %s", stray);
}

/* perf/FOLDER -> what its files may include besides their own folder, as
 * for gates/ above; gate-bpf also includes what configure.py generates
 * into build/bpf/ (the kernel's BTF types, the program's skeleton). */
static const struct {
	const char *folder;
	const char *may_use;
} perf_walls[] = {
	{ "allocgate", " " },
	{ "probe", " allocgate counters counting " },
	{ "counters", " allocgate " },
	{ "counting", " allocgate interpose/interpose.h " },
	{ "interpose", " " },
	{ "bpf", " vmlinux.h bpf_alloc.skel.h " },
};

#define PERF_WALLS (sizeof perf_walls / sizeof perf_walls[0])

static const char *perf_allowed(const char *folder)
{
	for (size_t i = 0; i < PERF_WALLS; i++)
		if (!strcmp(perf_walls[i].folder, folder))
			return perf_walls[i].may_use;
	return NULL;
}

/* Whether the quoted include TARGET of a file in perf/FOLDER keeps the walls. */
static int perf_include_ok(const char *folder, const char *target)
{
	char top[256];
	const char *slash = strchr(target, '/');
	if (!slash)
		return lists(perf_allowed(folder), target);   /* generated headers */
	snprintf(top, sizeof top, "%.*s", (int)(slash - target), target);
	return !strcmp(top, folder) || lists(perf_allowed(folder), top) ||
	       lists(perf_allowed(folder), target);
}

Test(layers, perf_folders_keep_their_walls)
{
	char bad[8192] = "";
	size_t files = 0, includes = 0;
	for (size_t i = 0; i < PERF_WALLS; i++) {
		char dir[256];
		snprintf(dir, sizeof dir, "perf/%s", perf_walls[i].folder);
		DIR *d = opendir(dir);
		cr_assert_not_null(d, "%s (run from the repository root)", dir);
		struct dirent *e;
		while ((e = readdir(d))) {
			char path[512], line[1024], target[256];
			if (!is_source(e->d_name))
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			FILE *f = fopen(path, "r");
			cr_assert_not_null(f, "%s", path);
			while (fgets(line, sizeof line, f)) {
				if (sscanf(line, " # include \"%255[^\"]\"", target) != 1)
					continue;
				includes++;
				if (!perf_include_ok(perf_walls[i].folder, target))
					note(bad, sizeof bad, path, line);
			}
			fclose(f);
			files++;
		}
		closedir(d);
	}
	cr_expect_gt(files, 40, "only %zu files under perf/*/", files);
	cr_expect_gt(includes, 60, "only %zu includes", includes);
	cr_expect_str_empty(bad, "includes across perf/'s walls (docs/architecture.md, "
			    "\"The folders of perf/\"):\n%s", bad);
}

Test(layers, every_perf_folder_has_walls)
{
	DIR *d = opendir("perf");
	cr_assert_not_null(d);
	struct dirent *e;
	char stray[2048] = "";
	while ((e = readdir(d))) {
		char path[512];
		struct stat st;
		size_t n = strlen(e->d_name);
		snprintf(path, sizeof path, "perf/%s", e->d_name);
		int folder = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
		if (e->d_name[0] != '.' &&
		    (is_source(e->d_name) || (folder && !perf_allowed(e->d_name))) &&
		    strlen(stray) + n + 2 < sizeof stray)
			strcat(strcat(stray, e->d_name), " ");
	}
	closedir(d);
	cr_expect_str_empty(stray, "in perf/ but not a folder of perf_walls in test_layers.c "
			    "(put sources in a folder; a new folder needs its row here and "
			    "in docs/architecture.md): %s", stray);
}

/* The checker itself: what it must refuse. */
Test(layers, perf_walls_refuse_what_they_should)
{
	cr_expect(!perf_include_ok("probe", "interpose/interpose.h"));
	cr_expect(!perf_include_ok("probe", "bpf/bpf_alloc.h"));
	cr_expect(!perf_include_ok("probe", "core/result.h"));
	cr_expect(!perf_include_ok("counters", "probe/probe_state.h"));
	cr_expect(!perf_include_ok("interpose", "counting/interpose_read.h"));
	cr_expect(!perf_include_ok("counting", "interpose/interpose_count.h"));
	cr_expect(!perf_include_ok("probe", "vmlinux.h"));
	cr_expect(perf_include_ok("probe", "counters/counters.h"));
	cr_expect(perf_include_ok("counting", "interpose/interpose.h"));
	cr_expect(perf_include_ok("bpf", "vmlinux.h"));
}
