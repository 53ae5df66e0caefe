/* session.h: what `gate run` and `gate ab` share (session.c, the start;
 * session_finish.c, the end): the options, this
 * machine's context, the kernels asked for, the expectations, the exit
 * status and the reports written from the one result. */
#ifndef GATE_SESSION_H
#define GATE_SESSION_H

#include <stddef.h>

#include "cli/run_options.h"
#include "core/result.h"
#include "sample/kernel_info.h"

struct session {
	struct run_options o;
	struct runner_plan plan;       /* how samples are taken, from o (run_options_plan) */
	struct run_result r;           /* the run (gate ab: side B) */
	struct kernel_info *kernels;
	size_t kernel_count;
	char kernel_dir[4096];
	char default_baseline_dir[4096];
	char interposer[4096];         /* liballocgate-interpose.so, or "" */
	int sample_failures;
	double started;                /* session_now() at the start */
};

/* Seconds on a monotonic clock. */
double session_now(void);

/* Fills S->r.ctx (machine, software, environment control, commit),
 * S->r.policy and S->plan for the parsed options S->o and resolves the kernel and baseline directories
 * next to SELF_DIR. Returns 0, or 2 after a message. */
int session_context(struct session *s, const char *self_dir);

/* Asks every kernel in DIR that S->o selects for its --list into
 * *KERNELS / *COUNT; kernels that fail are problems of R. Returns 0, or 2
 * after a message (no such directory, unknown --kernel). */
int session_list_kernels(struct session *s, const char *dir, struct run_result *r,
			 struct kernel_info **kernels, size_t *count);

/* session_list_kernels for gate ab's side A, the base revision: a
 * directory that does not exist is no kernel at all (a base from before
 * the project had kernels: *MISSING set), and a --kernel that A lacks is
 * no error (B measures it alone). Returns 0, or 2 after a message. */
int session_list_kernels_of_base(struct session *s, const char *dir, struct run_result *r,
				 struct kernel_info **kernels, size_t *count, bool *missing);

/* Evaluates every declared expectation of S's kernels on S->r. */
void session_check_expectations(struct session *s);

/* 0 pass, 1 fail, 3 nothing measured, 4 kernel errors (commands.h). */
int session_exit_code(const struct session *s);

/* Sorts, prints the terminal report against BASE (may be NULL), writes
 * --json, --junit, --markdown, --svg. Returns the exit status. */
int session_report(struct session *s, const struct run_result *base);

/* Frees what S holds. */
void session_free(struct session *s);

#endif
