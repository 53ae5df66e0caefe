/* loaded_objects_linux.c: loaded_objects.h from glibc's loader: with
 * LD_TRACE_LOADED_OBJECTS=1 in its environment a dynamically linked program
 * prints "NAME => PATH (ADDRESS)" per object and exits before main (ld.so(8),
 * "LD_TRACE_LOADED_OBJECTS"; what ldd(1) runs). A static program, or another
 * C library's loader, prints no such line: nothing to list. */
#include <errno.h>
#include <string.h>

#include "sample/loaded_objects.h"
#include "sample/spawn.h"

/* The path of one line of the loader's list ("\tlibx.so.1 => /p/libx.so.1
 * (0x...)"), into OUT; 0 when the line names none (the vDSO, "not found"). */
static int line_path(const char *line, const char *end, char *out, size_t size)
{
	const char *arrow = strstr(line, " => ");
	if (!arrow || arrow > end)
		return 0;
	const char *p = arrow + 4, *q = p;
	while (q < end && *q != ' ' && *q != '\n')
		q++;
	if (q == p || *p != '/' || (size_t)(q - p) >= size)
		return 0;
	memcpy(out, p, (size_t)(q - p));
	out[q - p] = '\0';
	return 1;
}

int loaded_objects_each(const char *program, int (*fn)(const char *path, void *arg),
			void *arg)
{
	char *argv[] = { (char *)program, NULL };
	char *env[] = { "LD_TRACE_LOADED_OBJECTS=1", NULL };
	struct spawn_output out;
	int ret = spawn_run(argv, env, 30, &out);
	if (ret)
		return ret;
	if (out.status != SPAWN_EXITED || out.exit_code != 0 || !out.out) {
		spawn_output_free(&out);
		return -EIO;
	}
	char path[4096];
	for (const char *line = out.out; *line && !ret;) {
		const char *end = strchr(line, '\n');
		end = end ? end : line + strlen(line);
		if (line_path(line, end, path, sizeof path))
			ret = fn(path, arg);
		line = *end ? end + 1 : end;
	}
	spawn_output_free(&out);
	return ret;
}
