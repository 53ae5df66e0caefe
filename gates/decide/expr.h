/* expr.h: declared expectations as expressions.
 *
 * Grammar (whitespace between tokens is free):
 *   expectation := sum COMPARE sum
 *   COMPARE     := "<" | "<=" | ">" | ">=" | "=="
 *   sum         := product (("+" | "-") product)*
 *   product     := unary (("*" | "/") unary)*
 *   unary       := "-" unary | primary
 *   primary     := NUMBER | REF | "(" sum ")"
 *   NUMBER      := decimal, optional fraction and exponent (1, 0.1, 1e6)
 *   REF         := VARIANT "." METRIC, where VARIANT is [a-z0-9_]+ and
 *                  METRIC is [a-z0-9_]+ ("." [a-z0-9_]+)* (region.counter)
 * Example: "realloc_shrink.wall_ns < 0.1 * copy_shrink.wall_ns".
 */
#ifndef GATE_EXPR_H
#define GATE_EXPR_H

#include <stddef.h>

enum expr_compare { EXPR_LT, EXPR_LE, EXPR_GT, EXPR_GE, EXPR_EQ };

struct expr_node;

struct expr {
	struct expr_node *lhs, *rhs;
	enum expr_compare op;
};

/* A metric reference found in an expression. */
struct expr_ref {
	const char *variant;
	const char *metric;
};

/* Parses TEXT into OUT. Returns 0, or -1 with ERR (size ERR_SIZE) set to a
 * message naming the column (1-based) and what was expected there. */
int expr_parse(const char *text, struct expr *out, char *err, size_t err_size);

/* Releases what expr_parse allocated. */
void expr_free(struct expr *e);

/* Calls FN once per metric reference, in the order they appear; stops and
 * returns FN's value when it is non-zero; 0 otherwise. */
int expr_each_ref(const struct expr *e,
		  int (*fn)(const struct expr_ref *ref, void *arg), void *arg);

/* Looks up a reference's value for evaluation: 0 and *value, or -1 when
 * there is no value (then the evaluation result is NaN). */
typedef int (*expr_lookup_fn)(const struct expr_ref *ref, void *arg, double *value);

/* Evaluates one side (lhs or rhs) of E; NaN when a lookup fails or on
 * division by zero. */
double expr_eval_side(const struct expr_node *side, expr_lookup_fn lookup, void *arg);

/* Whether LHS op RHS holds. */
int expr_compare_holds(enum expr_compare op, double lhs, double rhs);

/* Text of a comparison operator ("<", "<=", ...). */
const char *expr_compare_name(enum expr_compare op);

#endif
