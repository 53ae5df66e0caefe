/* exit_status.c: the words of an exit status (exit_status.h). */
#include "core/exit_status.h"

static const struct {
	const char *verdict, *word;
} exit_words[] = {
	[GATE_EXIT_OK] = { "pass", "PASS" },
	[GATE_EXIT_REGRESSION] = { "fail", "FAIL" },
	[GATE_EXIT_USAGE] = { "error", "ERROR" },
	[GATE_EXIT_NOTHING_MEASURED] = { "unmeasured", "UNMEASURED" },
	[GATE_EXIT_UNCHECKED] = { "error", "ERROR" },
};

/* The row of STATUS; an unknown status reads as an error. */
static int row(int status)
{
	return status >= 0 && status <= GATE_EXIT_UNCHECKED ? status : GATE_EXIT_UNCHECKED;
}

const char *gate_exit_verdict(int status)
{
	return exit_words[row(status)].verdict;
}

const char *gate_exit_word(int status)
{
	return exit_words[row(status)].word;
}
