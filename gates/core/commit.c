/* commit.c: which commit a run measured (commit.h). */
#include "core/commit.h"
#include "core/commit_os.h"
#include "core/path_os.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int commit_current(char *out, size_t size)
{
	const char *env = getenv("ALLOCGATE_COMMIT");
	if (!env || !*env)
		env = getenv("GITHUB_SHA");
	if (env && *env) {
		snprintf(out, size < 65 ? size : 65, "%s", env);
		return 0;
	}
	if (commit_git_describe(out, size < 65 ? size : 65) == 0 && *out)
		return 0;
	if (size)
		*out = '\0';
	return -1;
}

int commit_git_describe(char *out, size_t size)
{
	if (!size)
		return -1;
	*out = '\0';
	FILE *p = commit_os_open_describe();
	if (!p)
		return -1;
	int got = fgets(out, (int)size, p) != NULL;
	int status = commit_os_close(p);
	out[strcspn(out, "\r\n")] = '\0';
	if (!got || status != 0 || !*out) {
		*out = '\0';
		return -1;
	}
	/* -dirty as git describe --dirty says it, baselines/ left out */
	FILE *c = commit_os_open_changes();
	if (c) {
		char line[16];
		int changed = fgets(line, (int)sizeof line, c) != NULL;
		if (commit_os_close(c) == 0 && changed && strlen(out) + 7 < size)
			strcat(out, "-dirty");
	}
	return 0;
}

/* Whether REF may go to git as a revision: not an option, no quoting. */
static int ref_usable(const char *ref)
{
	if (!*ref || *ref == '-' || strlen(ref) > 200)
		return 0;
	for (const char *c = ref; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-~^", *c))
			return 0;
	return 1;
}

int commit_dir_revision(const char *dir, char *out, size_t size)
{
	char root[4096], line[128] = "";
	FILE *p;
	if (!size)
		return -1;
	*out = '\0';
	if (path_os_source_root(dir, root, sizeof root) || !(p = commit_os_open_revision(root)))
		return -1;
	int got = fgets(line, (int)sizeof line, p) != NULL;
	if (commit_os_close(p) != 0 || !got)
		return -1;
	line[strcspn(line, "\r\n")] = '\0';
	if (!*line || !ref_usable(line))   /* hex digits and "-dirty" only */
		return -1;
	snprintf(out, size, "%s", line);
	return 0;
}

/* PATH's directory (".") into DIR and its name into *NAME; 0, or -1 when
 * it is too long. */
static int split_path(const char *path, char *dir, size_t size, const char **name)
{
	const char *sep = path_os_last_separator(path);

	*name = sep ? sep + 1 : path;
	if (!sep)
		return snprintf(dir, size, ".") < 0 ? -1 : 0;
	if ((size_t)(sep - path) + 2 > size)
		return -1;
	/* "/x.json": the root */
	snprintf(dir, size, "%.*s", sep == path ? 1 : (int)(sep - path), path);
	return 0;
}

/* The merge base of HEAD and REF in the checkout holding DIR into OUT;
 * 0 or -1. */
static int merge_base(const char *dir, const char *ref, char *out, size_t size)
{
	char line[128] = "";
	FILE *p;
	int got;

	if (!ref_usable(ref) || !(p = commit_os_open_merge_base(dir, ref)))
		return -1;
	got = fgets(line, (int)sizeof line, p) != NULL;
	if (commit_os_close(p) != 0 || !got)
		return -1;
	line[strcspn(line, "\r\n")] = '\0';
	if (!*line || !ref_usable(line))
		return -1;
	snprintf(out, size, "%s", line);
	return 0;
}

int commit_file_at(const char *rev, const char *path, size_t max, char **text, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf, *grown, dir[4096];
	const char *name;
	FILE *p;

	if (!ref_usable(rev) || split_path(path, dir, sizeof dir, &name) < 0 ||
	    !(p = commit_os_open_show(dir, rev, name)))
		return -1;
	if (!(buf = malloc(cap)))
		goto fail;
	while ((got = fread(buf + n, 1, cap - n, p)) > 0) {
		n += got;
		if (n > max)
			goto fail;
		if (n == cap) {
			if (!(grown = realloc(buf, cap *= 2)))
				goto fail;
			buf = grown;
		}
	}
	if (commit_os_close(p) != 0) {
		free(buf);
		return -1;
	}
	*text = buf;
	*len = n;
	return 0;
fail:
	free(buf);
	commit_os_close(p);   /* git may still be writing: pclose waits for it */
	return -1;
}

/* Whether the file PATH differs from TEXT (LEN bytes), or cannot be read. */
static int file_differs(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t off = 0, got;
	int differs = 0;

	if (!f)
		return 1;
	while (!differs && (got = fread(buf, 1, sizeof buf, f)) > 0) {
		differs = off + got > len || memcmp(buf, text + off, got) != 0;
		off += got;
	}
	differs |= off != len || ferror(f);
	fclose(f);
	return differs;
}

int commit_base_revision(const char *path, size_t max, char *rev, size_t size, char *why,
			 size_t why_size)
{
	const char *own = getenv("ALLOCGATE_BASE_REF"), *gh = getenv("GITHUB_BASE_REF"), *name;
	char ref[256], dir[4096];
	char *text;
	size_t len;
	int differs;

	if (split_path(path, dir, sizeof dir, &name) < 0)
		return -1;
	if (own && *own) {
		snprintf(why, why_size, "the merge base with %s (ALLOCGATE_BASE_REF)", own);
		return merge_base(dir, own, rev, size);
	}
	if (gh && *gh) {
		snprintf(ref, sizeof ref, "origin/%s", gh);
		snprintf(why, why_size, "the merge base with %s (GITHUB_BASE_REF)", ref);
		if (merge_base(dir, ref, rev, size) == 0)
			return 0;
		snprintf(why, why_size, "the merge base with %s (GITHUB_BASE_REF)", gh);
		return merge_base(dir, gh, rev, size);
	}
	if (commit_file_at("HEAD", path, max, &text, &len) != 0)
		return -1;
	differs = file_differs(path, text, len);
	free(text);
	snprintf(rev, size, "%s", differs ? "HEAD" : "HEAD~1");
	snprintf(why, why_size, "%s", differs ? "an edit not committed yet" :
		 "the last commit's change");
	return 0;
}

/* The first line git prints for PIPE into OUT of SIZE (trailing newline
 * removed); 0, or -1 when git printed nothing or failed. */
static int first_line(FILE *pipe, char *out, size_t size)
{
	if (!pipe || !size)
		return pipe ? (commit_os_close(pipe), -1) : -1;
	int got = fgets(out, (int)size, pipe) != NULL;
	if (commit_os_close(pipe) != 0 || !got) {
		*out = '\0';
		return -1;
	}
	out[strcspn(out, "\r\n")] = '\0';
	return 0;
}

int commit_subject(const char *rev, char *out, size_t size)
{
	if (size)
		*out = '\0';
	return ref_usable(rev) ? first_line(commit_os_open_log(rev, 's'), out, size) : -1;
}

/* SECONDS since 1970-01-01T00:00:00Z as "YYYY-MM-DDTHH:MM:SSZ" into OUT:
 * the proleptic Gregorian calendar by days (H. Hinnant, "chrono-Compatible
 * Low-Level Date Algorithms", civil_from_days), without the C library's
 * time zones (gmtime_r is not everywhere). */
static void utc_text(long long seconds, char *out, size_t size)
{
	long long days = seconds / 86400, sod = seconds % 86400;
	if (sod < 0) {
		sod += 86400;
		days--;
	}
	long long z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
	long long doe = z - era * 146097;
	long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
	long long day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9;
	long long year = yoe + era * 400 + (month <= 2);
	snprintf(out, size, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", year, month, day,
		 sod / 3600, sod / 60 % 60, sod % 60);
}

int commit_time_utc(const char *rev, char *out, size_t size)
{
	char line[64], *end;
	if (size)
		*out = '\0';
	if (!ref_usable(rev) || first_line(commit_os_open_log(rev, 't'), line, sizeof line))
		return -1;
	long long seconds = strtoll(line, &end, 10);
	if (end == line || *end || seconds < 0 || seconds > 253402300799LL)   /* to 9999 */
		return -1;
	utc_text(seconds, out, size);
	return 0;
}

int commit_count_range(const char *a, const char *b, long *count)
{
	char line[64], *end;
	if (!ref_usable(a) || !ref_usable(b) ||
	    first_line(commit_os_open_rev_count(a, b), line, sizeof line))
		return -1;
	long n = strtol(line, &end, 10);
	if (end == line || *end || n < 0)
		return -1;
	*count = n;
	return 0;
}
