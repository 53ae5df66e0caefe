/* message.c: the one form of the gate's messages (message.h). */
#include "core/message.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "core/utf8.h"

static const char *program = "gate";

void message_set_program(const char *name)
{
	program = name;
}

const char *message_program(void)
{
	return program;
}

/* Writes TEXT to stderr with its control characters and bytes that are
 * not UTF-8 shown escaped (as \r, \x1b, \xff): a message quotes
 * file names, a file's fields and a kernel's output, and none of them
 * may move the cursor or start a line of the log (a GitHub "::" command). */
static void put_escaped(const char *text)
{
	uint32_t cp;
	size_t n;

	for (; *text; text += n ? n : 1) {
		n = utf8_sequence(text, &cp);
		if (!n)
			fprintf(stderr, "\\x%02x", (unsigned char)*text);
		else if (cp == '\r')
			fputs("\\r", stderr);
		else if (cp == '\n')
			fputs("\\n", stderr);
		else if ((cp < 0x20 && cp != '\t') || cp == 0x7f)
			fprintf(stderr, "\\x%02x", (unsigned)cp);
		else if (cp >= 0x80 && cp < 0xa0)
			fprintf(stderr, "\\u%04x", (unsigned)cp);
		else
			fwrite(text, 1, n, stderr);
	}
}

static void print(const char *kind, const char *fmt, va_list ap)
{
	int err = errno;
	size_t len = strlen(fmt);
	char text[4096];

	vsnprintf(text, sizeof text, fmt, ap);
	fprintf(stderr, "%s: %s", program, kind);
	put_escaped(text);
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
