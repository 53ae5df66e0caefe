/* message.h: how the gate tells a person what went wrong, in one form:
 *
 *   gate ab: --json: /x/r.json: No such file or directory
 *
 * the program name (the subcommand's: "gate", "gate ab", "gate merge"),
 * the message, and, when the format ends in ':', the text of errno. Only
 * the CLI (cli/) prints errors; the layers below return them in ERR
 * buffers or codes (no exit() below the CLI). */
#ifndef GATE_MESSAGE_H
#define GATE_MESSAGE_H

#if defined(__GNUC__) || defined(__clang__)
#define GATE_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GATE_PRINTF(f, a)
#endif

/* The name messages start with; "gate" until set. NAME must outlive the
 * messages (a string literal). */
void message_set_program(const char *name);

/* That name, for progress lines in the same voice ("gate ab: [1/3] ..."). */
const char *message_program(void);

/* Prints "PROGRAM: MESSAGE\n" to stderr; a FMT ending in ':' is followed
 * by " " and strerror(errno) (errno as it was on entry). */
void message_error(const char *fmt, ...) GATE_PRINTF(1, 2);

/* The same with "note: " before the message: something a person should
 * know that is not an error ("the baseline was replaced during this run"). */
void message_note(const char *fmt, ...) GATE_PRINTF(1, 2);

/* A progress line in the same form ("gate ab: [2/9] refcount threads_2"). */
void message_progress(const char *fmt, ...) GATE_PRINTF(1, 2);

#endif
