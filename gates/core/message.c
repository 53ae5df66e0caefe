/* message.c: the one form of the gate's messages (message.h). */
#include "core/message.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *program = "gate";

void message_set_program(const char *name)
{
	program = name;
}

const char *message_program(void)
{
	return program;
}

static void print(const char *kind, const char *fmt, va_list ap)
{
	int err = errno;
	size_t len = strlen(fmt);
	fprintf(stderr, "%s: %s", program, kind);
	vfprintf(stderr, fmt, ap);
	if (len && fmt[len - 1] == ':')
		fprintf(stderr, " %s", strerror(err));
	fputc('\n', stderr);
}

void message_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	print("", fmt, ap);
	va_end(ap);
}

void message_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	print("note: ", fmt, ap);
	va_end(ap);
}

void message_progress(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	print("", fmt, ap);
	va_end(ap);
}
