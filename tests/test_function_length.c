/* test_function_length.c: no function of gates/ is longer than
 * FUNCTION_LINES_MAX lines (docs/STYLE, "functions that fit a screen"):
 * a longer one is split into the steps it takes. A function's lines run
 * from the line of its name to its closing brace. The sources are read
 * with their comments, strings, character constants and preprocessor
 * lines blanked, and a function is a brace at file level whose code before
 * it ends in ')'; the checker is tested on a text of known functions. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUNCTION_LINES_MAX 80

/* FILE's text, NUL-terminated, in a malloc'd buffer; NULL when unread. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t size = 0, cap = 4096;
	char *text = malloc(cap);
	size_t n;
	while (text && (n = fread(text + size, 1, cap - size - 1, f)) > 0) {
		size += n;
		if (size + 1 == cap) {
			char *grown = realloc(text, cap *= 2);
			if (!grown)
				free(text);
			text = grown;
		}
	}
	fclose(f);
	if (text)
		text[size] = '\0';
	return text;
}

/* Blanks S[*I] up to and including the END that closes it (a string or
 * character constant, a comment), newlines kept; *I moves past it. */
static void blank_until(char *s, size_t *i, const char *end, int escapes)
{
	size_t k = *i, n = strlen(end);
	while (s[k] && strncmp(s + k, end, n)) {
		if (escapes && s[k] == '\\' && s[k + 1])
			s[k++] = ' ';
		if (s[k] != '\n')
			s[k] = ' ';
		k++;
	}
	for (size_t j = 0; j < n && s[k]; j++)
		s[k++] = ' ';
	*i = k;
}

/* Blanks the comments, strings, character constants and preprocessor
 * lines of C source S in place, keeping its newlines. */
static void blank_non_code(char *s)
{
	size_t i = 0;
	int line_start = 1;
	while (s[i]) {
		if (!strncmp(s + i, "/*", 2)) {
			blank_until(s, &i, "*/", 0);
		} else if (!strncmp(s + i, "//", 2)) {
			while (s[i] && s[i] != '\n')
				s[i++] = ' ';
		} else if (s[i] == '"' || s[i] == '\'') {
			char end[2] = { s[i], 0 };
			s[i++] = ' ';
			blank_until(s, &i, end, 1);
		} else if (line_start && s[i] == '#') {
			/* to the end of the line, lines continued by '\\' with it */
			for (char prev = 0; s[i] && !(s[i] == '\n' && prev != '\\'); i++) {
				prev = s[i];
				if (s[i] != '\n')
					s[i] = ' ';
			}
		} else {
			if (!isspace((unsigned char)s[i]))
				line_start = 0;
			else if (s[i] == '\n')
				line_start = 1;
			i++;
		}
	}
}

/* The name of the function whose parameter list closes at CLOSE (a ')'
 * of S), into NAME; its line (1-based) into *LINE. Returns 0, or -1 when
 * none is found. */
static int function_name(const char *s, size_t close, char *name, size_t size, int *line)
{
	int depth = 0;
	size_t k = close + 1;
	while (k-- > 0) {
		depth += s[k] == ')';
		depth -= s[k] == '(';
		if (!depth)
			break;
	}
	while (k > 0 && isspace((unsigned char)s[k - 1]))
		k--;
	size_t end = k;
	while (k > 0 && (isalnum((unsigned char)s[k - 1]) || s[k - 1] == '_'))
		k--;
	if (k == end)
		return -1;
	snprintf(name, size, "%.*s", (int)(end - k), s + k);
	*line = 1;
	for (size_t j = 0; j < k; j++)
		*line += s[j] == '\n';
	return 0;
}

/* Appends "PATH:NAME (N lines)" for every function of source TEXT (blanked
 * here) longer than MAX lines to BAD (BAD_SIZE bytes) while it fits;
 * returns how many functions TEXT has. */
static size_t long_functions(char *text, const char *path, int max, char *bad, size_t bad_size)
{
	size_t functions = 0, last = 0;
	int depth = 0, line = 1, start = 0;
	char name[128] = "";
	blank_non_code(text);
	for (size_t i = 0; text[i]; i++) {
		char c = text[i];
		line += c == '\n';
		if (!isspace((unsigned char)c) && c != '{' && c != '}' && depth == 0)
			last = i;   /* the code before a brace at file level */
		if (c == '{' && depth++ == 0) {
			start = 0;
			if (text[last] == ')' && !function_name(text, last, name, sizeof name, &start))
				functions++;
		} else if (c == '}' && --depth == 0 && start) {
			char said[300];
			int lines = line - start + 1;
			snprintf(said, sizeof said, "%s:%s (%d lines)\n", path, name, lines);
			if (lines > max && strlen(bad) + strlen(said) < bad_size)
				strcat(bad, said);
			start = 0;
		}
	}
	return functions;
}

Test(function_length, the_checker_finds_a_long_function_and_only_it)
{
	char text[8192] = "/* a comment { with braces } */\n"
			  "#define BLOCK(x) { x }\n"
			  "static const struct pair pairs[] = {\n{ 1, 2 },\n};\n"
			  "static int\nshort_one(int a)\n{\n\treturn a ? '}' : '{';\n}\n";
	strcat(text, "#define LONG(x) \\\n\t{ x }\n");
	strcat(text, "int long_one(const char *s,\n\t     int n) // {\n{\n");
	strcat(text, "\tconst char *t = \"}}\";\n");
	for (int i = 0; i < 76; i++)   /* 4 lines above, 76 here, the brace: 81 */
		strcat(text, "\tn++;\n");
	strcat(text, "}\n");
	char bad[512] = "";
	cr_expect_eq(long_functions(text, "t.c", FUNCTION_LINES_MAX, bad, sizeof bad), 2);
	cr_expect_str_eq(bad, "t.c:long_one (81 lines)\n");
}

Test(function_length, no_function_of_gates_is_longer_than_80_lines)
{
	static const char *const folders[] = { "cli", "run", "report", "decide", "sample",
					       "store", "core", "os" };
	char bad[8192] = "";
	size_t files = 0, functions = 0;
	for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
		char dir[64];
		snprintf(dir, sizeof dir, "gates/%s", folders[i]);
		DIR *d = opendir(dir);
		cr_assert_not_null(d, "%s (run from the repository root)", dir);
		struct dirent *e;
		while ((e = readdir(d))) {
			char path[512];
			size_t n = strlen(e->d_name);
			if (n < 3 || strcmp(e->d_name + n - 2, ".c"))
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			char *text = read_text(path);
			cr_assert_not_null(text, "%s", path);
			functions += long_functions(text, path, FUNCTION_LINES_MAX, bad, sizeof bad);
			free(text);
			files++;
		}
		closedir(d);
	}
	cr_expect_gt(files, 150, "only %zu sources under gates/*/", files);
	cr_expect_gt(functions, 1200, "only %zu functions found", functions);
	cr_expect_str_empty(bad, "functions of more than %d lines (split them into the steps "
			    "they take):\n%s", FUNCTION_LINES_MAX, bad);
}
