/* error.c: the one form of the gate's messages (error.h). */
#include "core/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *program = "gate";

void gate_error_program(const char *name)
{
	program = name;
}

const char *gate_program_name(void)
{
	return program;
}

static void message(const char *kind, const char *fmt, va_list ap)
{
	int err = errno;
	size_t len = strlen(fmt);
	fprintf(stderr, "%s: %s", program, kind);
	vfprintf(stderr, fmt, ap);
	if (len && fmt[len - 1] == ':')
		fprintf(stderr, " %s", strerror(err));
	fputc('\n', stderr);
}

void gate_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message("", fmt, ap);
	va_end(ap);
}

void gate_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message("note: ", fmt, ap);
	va_end(ap);
}

void gate_progress(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message("", fmt, ap);
	va_end(ap);
}
