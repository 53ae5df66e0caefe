/* exit_status.h: the gate's exit status, one constant per meaning
 * (README.md, "Exit status"), and the words every renderer and the result
 * file use for it. Which status a run ends with is decided in
 * decide/exit_decide.h. */
#ifndef GATE_EXIT_STATUS_H
#define GATE_EXIT_STATUS_H

enum gate_exit {
	GATE_EXIT_OK = 0,                /* every gated check holds */
	GATE_EXIT_REGRESSION = 1,        /* a regression or a violated expectation */
	GATE_EXIT_USAGE = 2,             /* usage or bad input, or a file asked for
					  * (report, baseline) could not be written */
	GATE_EXIT_NOTHING_MEASURED = 3,  /* no usable counter, nothing measured */
	GATE_EXIT_UNCHECKED = 4,         /* a kernel crashed, hung or printed garbage;
					  * --update-baseline refused to write */
};

/* The verdict word of STATUS as the result file writes it: "pass" (OK),
 * "fail" (REGRESSION), "unmeasured" (NOTHING_MEASURED), "error" (any other). */
const char *gate_exit_verdict(int status);

/* The same word in capitals, as the reports' summary lines print it
 * ("PASS", "FAIL", "UNMEASURED", "ERROR"). */
const char *gate_exit_word(int status);

#endif
