/* session.h: what `gate run` and `gate ab` share (session.c, the start;
 * session_finish.c, the end): the options, this machine's context, the
 * kernels asked for, the expectations, and the reports written from the
 * one result. */
#ifndef GATE_SESSION_H
#define GATE_SESSION_H

#include <stddef.h>

#include "run/run_options.h"
#include "core/result.h"
#include "sample/kernel_info.h"

struct session {
	struct run_options options;    /* what the command line asked for */
	struct runner_plan plan;       /* how samples are taken, from options (run_options_plan) */
	struct run_result result;      /* the run (gate ab: side B) */
	struct kernel_info *kernels;
	size_t kernel_count;
	char kernel_dir[4096];
	char default_baseline_dir[4096];
	char interposer[4096];         /* liballocgate-interpose.so, or "" */
	int sample_failures;
	double started;                /* runner_now() at the start, in seconds */
};

/* Fills S->result.ctx (machine, software, environment control, commit),
 * S->result.policy and S->plan for the parsed options S->options and
 * resolves the kernel and baseline directories next to SELF_DIR. Returns
 * GATE_EXIT_OK, or GATE_EXIT_USAGE after a message. */
int session_context(struct session *s, const char *self_dir);

/* Asks every kernel in DIR that S->options selects for its --list into
 * *KERNELS / *COUNT; kernels that fail are problems of R. Returns
 * GATE_EXIT_OK, or GATE_EXIT_USAGE after a message (no such directory,
 * unknown --kernel). */
int session_list_kernels(struct session *s, const char *dir, struct run_result *r,
			 struct kernel_info **kernels, size_t *count);

/* session_list_kernels for gate ab's side A, the base revision: a
 * directory that does not exist is no kernel at all (a base from before
 * the project had kernels: *MISSING set), and a --kernel that A lacks is
 * no error (B measures it alone). Returns GATE_EXIT_OK, or GATE_EXIT_USAGE after a message. */
int session_list_kernels_of_base(struct session *s, const char *dir, struct run_result *r,
				 struct kernel_info **kernels, size_t *count, bool *missing);

/* Evaluates every declared expectation of S's kernels on S->result. */
void session_check_expectations(struct session *s);

/* Concludes S's decided run: sorts it, records its wall time and
 * counters, and decides its exit status (exit_decide_run) into
 * S->result.exit_code, which a step after it (--update-baseline) may
 * still change (exit_decide.h) before session_report. */
void session_conclude(struct session *s);

/* Writes --json, --junit, --markdown, --svg and prints the terminal report
 * against BASE (may be NULL), all with the final exit status (reports.h).
 * Returns it. */
int session_report(struct session *s, const struct run_result *base);

/* Frees what S holds. */
void session_free(struct session *s);

#endif
