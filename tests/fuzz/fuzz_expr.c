/* fuzz_expr.c: gates/decide/expr.c, the GATE_EXPECT expression parser and its
 * evaluator (every reference looks up a value, some fail: NaN paths). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decide/expr.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int lookup(const struct expr_ref *ref, void *arg, double *value)
{
	(void)arg;
	*value = (double)strlen(ref->variant) - 2.5 * (double)strlen(ref->metric);
	return ref->metric[0] == 'x' ? -1 : 0;
}

static int check_ref(const struct expr_ref *ref, void *arg)
{
	(void)arg;
	if (!ref->variant[0] || !ref->metric[0])
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256], *text = fuzz_string(data, size);
	struct expr e;

	if (!text)
		return 0;
	if (expr_parse(text, &e, err, sizeof err) == 0) {
		expr_each_ref(&e, check_ref, NULL);
		double l = expr_eval_side(e.lhs, lookup, NULL);
		double r = expr_eval_side(e.rhs, lookup, NULL);
		(void)expr_compare_holds(e.op, l, r);
		(void)expr_compare_name(e.op);
		expr_free(&e);
	} else if (!err[0]) {
		abort();
	}
	free(text);
	return 0;
}
