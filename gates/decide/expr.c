/* expr.c: tokenizer, recursive-descent parser and evaluator for the
 * expectation grammar written out in expr.h.
 *
 * Error messages name the 1-based column (a byte offset: expectations are
 * ASCII) and what the grammar expected there, the token before it and the
 * one found: "column 11: expected a comparison (<, <=, >, >=, ==) after
 * 'a.wall_ns', found end of input". Expressions come from kernel sources,
 * but the parser still bounds its recursion (nesting of '(' and unary '-')
 * and the height of the tree (long chains of operators), so no input can
 * overflow the stack of the parser or of the tree walks below.
 */
#include "decide/expr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deepest nesting of '(' and unary '-' the parser follows. */
#define MAX_NESTING 64
/* Tallest tree accepted: bounds the recursion of evaluation and freeing
 * for sums like "a.x + a.x + ... + a.x". */
#define MAX_HEIGHT 256
/* Longest token text quoted in a message. */
#define QUOTE_MAX 40

enum node_kind { NODE_NUMBER, NODE_REF, NODE_NEG, NODE_ADD, NODE_SUB, NODE_MUL, NODE_DIV };

struct expr_node {
	enum node_kind kind;
	int height;              /* 1 for a leaf */
	double number;           /* NODE_NUMBER */
	struct expr_ref ref;     /* NODE_REF: both strings in one allocation at ref.variant */
	struct expr_node *a, *b; /* operands; b only for binary nodes */
};

enum token_kind {
	TOK_END, TOK_NUMBER, TOK_REF, TOK_PLUS, TOK_MINUS, TOK_STAR, TOK_SLASH,
	TOK_LPAREN, TOK_RPAREN, TOK_COMPARE,
};

struct token {
	enum token_kind kind;
	size_t start, len;       /* byte offset and length in the text */
	size_t dot;              /* TOK_REF: offset of the '.' after the variant */
	double number;           /* TOK_NUMBER */
	enum expr_compare op;    /* TOK_COMPARE */
};

struct parser {
	const char *text;
	struct token tok, prev;  /* current token and the one before it */
	int started, has_prev;   /* a token was read; PREV is valid */
	int nesting;
	char *err;
	size_t err_size;
};

static void set_error(struct parser *p, const char *fmt, ...)
#if defined(__MINGW_PRINTF_FORMAT)
	/* mingw-w64: printf checks msvcrt's formats, which lack %zu */
	__attribute__((format(__MINGW_PRINTF_FORMAT, 2, 3)))
#elif defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void set_error(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->err || !p->err_size)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err, p->err_size, fmt, ap);
	va_end(ap);
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of the run of [a-z0-9_] at S. */
static size_t name_length(const char *s)
{
	size_t n = 0;

	while (is_name_char(s[n]))
		n++;
	return n;
}

/* Length of the run of digits at S. */
static size_t digits_length(const char *s)
{
	size_t n = 0;

	while (is_digit(s[n]))
		n++;
	return n;
}

/* Length of the NUMBER at S (which starts with a digit): digits, then
 * "." digits, then e[+-]digits, each part only when complete. *EXP_GAP is
 * the offset where exponent digits were missing ("1e", "2e+"), else 0. */
static size_t number_length(const char *s, size_t *exp_gap)
{
	size_t n = digits_length(s), e;

	*exp_gap = 0;
	if (s[n] == '.' && is_digit(s[n + 1]))
		n += 1 + digits_length(s + n + 1);
	if (s[n] == 'e' || s[n] == 'E') {
		e = n + 1;
		if (s[e] == '+' || s[e] == '-')
			e++;
		if (is_digit(s[e]))
			n = e + digits_length(s + e);
		else
			*exp_gap = e;
	}
	return n;
}

/* Length of the REF at S (VARIANT "." METRIC), 0 when there is none;
 * then *BAD is the offset where a name or the '.' was missing. */
static size_t ref_length(const char *s, size_t *dot, size_t *bad)
{
	size_t n = name_length(s), seg;

	*dot = n;
	*bad = n;
	if (n == 0 || s[n] != '.')
		return 0;
	do {
		seg = name_length(s + n + 1);
		if (seg == 0) {
			*bad = n + 1;
			return 0;
		}
		n += 1 + seg;
	} while (s[n] == '.');
	return n;
}

/* Reports a word at START that is neither a NUMBER nor a REF. */
static int bad_word(struct parser *p, size_t start, size_t exp_gap, size_t bad)
{
	const char *s = p->text + start;
	int len = (int)(bad < QUOTE_MAX ? bad : QUOTE_MAX);

	if (exp_gap)
		set_error(p, "column %zu: expected a digit in the exponent of '%.*s'",
			  start + exp_gap + 1, (int)exp_gap, s);
	else if (s[bad - 1] == '.' && is_digit(s[0]) && name_length(s) == digits_length(s))
		set_error(p, "column %zu: expected a digit after '%.*s'", start + bad + 1, len, s);
	else if (s[bad - 1] == '.')
		set_error(p, "column %zu: expected a metric name after '%.*s'", start + bad + 1, len, s);
	else
		set_error(p, "column %zu: expected '.' and a metric name after '%.*s'"
			  " (a reference is variant.metric)", start + bad + 1, len, s);
	return -1;
}

/* Lexes a NUMBER or REF at T->start. A word is a NUMBER when the number
 * ends it; otherwise a REF ("2x.wall_ns" is variant "2x"). */
static int lex_word(struct parser *p, struct token *t)
{
	const char *s = p->text + t->start;
	size_t exp_gap = 0, n = is_digit(*s) ? number_length(s, &exp_gap) : 0, dot, bad;
	char *end;

	if (n && !exp_gap && !is_name_char(s[n]) && s[n] != '.') {
		errno = 0;
		t->number = strtod(s, &end);
		/* strtod follows LC_NUMERIC; the gate never calls setlocale,
		 * and a mismatch is reported rather than misread. */
		if (end != s + n)
			set_error(p, "column %zu: cannot read the number '%.*s'",
				  t->start + 1, (int)(n < QUOTE_MAX ? n : QUOTE_MAX), s);
		else if (isinf(t->number))
			set_error(p, "column %zu: the number '%.*s' is out of range",
				  t->start + 1, (int)(n < QUOTE_MAX ? n : QUOTE_MAX), s);
		t->kind = TOK_NUMBER;
		t->len = n;
		return end != s + n || isinf(t->number) ? -1 : 0;
	}
	t->len = ref_length(s, &dot, &bad);
	if (!t->len)
		return bad_word(p, t->start, exp_gap, bad);
	t->kind = TOK_REF;
	t->dot = dot;
	return 0;
}

/* Lexes a comparison at T->start ('<', '>' or '='). */
static int lex_compare(struct parser *p, struct token *t)
{
	const char *s = p->text + t->start;
	int eq = s[1] == '=';

	t->kind = TOK_COMPARE;
	t->len = eq ? 2 : 1;
	if (s[0] == '<')
		t->op = eq ? EXPR_LE : EXPR_LT;
	else if (s[0] == '>')
		t->op = eq ? EXPR_GE : EXPR_GT;
	else if (eq)
		t->op = EXPR_EQ;
	else {
		set_error(p, "column %zu: expected '==' (a single '=' is not a comparison)",
			  t->start + 1);
		return -1;
	}
	return 0;
}

/* Reports a byte that starts no token. */
static int bad_char(struct parser *p, size_t at)
{
	unsigned char c = (unsigned char)p->text[at];

	if (c == '.')
		set_error(p, "column %zu: expected a digit before '.'", at + 1);
	else if (isupper(c))
		set_error(p, "column %zu: unexpected character '%c' (references are"
			  " lowercase: [a-z0-9_])", at + 1, c);
	else if (isprint(c))
		set_error(p, "column %zu: unexpected character '%c'", at + 1, c);
	else
		set_error(p, "column %zu: unexpected byte 0x%02x", at + 1, c);
	return -1;
}

/* Lexes the token at or after byte AT into T. */
static int lex(struct parser *p, size_t at, struct token *t)
{
	static const char singles[] = "+-*/()";
	static const enum token_kind single_kinds[] = {
		TOK_PLUS, TOK_MINUS, TOK_STAR, TOK_SLASH, TOK_LPAREN, TOK_RPAREN,
	};
	const char *s = p->text, *hit;

	while (s[at] == ' ' || s[at] == '\t' || s[at] == '\n' || s[at] == '\r')
		at++;
	memset(t, 0, sizeof *t);
	t->start = at;
	if (s[at] == '\0') {
		t->kind = TOK_END;
		return 0;
	}
	hit = strchr(singles, s[at]);
	if (hit) {
		t->kind = single_kinds[hit - singles];
		t->len = 1;
		return 0;
	}
	if (s[at] == '<' || s[at] == '>' || s[at] == '=')
		return lex_compare(p, t);
	if (is_name_char(s[at]))
		return lex_word(p, t);
	return bad_char(p, at);
}

/* Moves to the next token. */
static int advance(struct parser *p)
{
	size_t at = 0;

	if (p->started) {
		p->prev = p->tok;
		p->has_prev = 1;
		at = p->tok.start + p->tok.len;
	}
	p->started = 1;
	return lex(p, at, &p->tok);
}

/* Reports that WHAT was expected at the current token; NOTE (may be "")
 * is appended to explain. */
static void *expected(struct parser *p, const char *what, const char *note)
{
	char found[QUOTE_MAX + 24], after[QUOTE_MAX + 16] = "";
	const struct token *t = &p->tok, *b = &p->prev;

	if (t->kind == TOK_END)
		snprintf(found, sizeof found, "end of input");
	else
		snprintf(found, sizeof found, "'%.*s'",
			 (int)(t->len < QUOTE_MAX ? t->len : QUOTE_MAX), p->text + t->start);
	if (p->has_prev)
		snprintf(after, sizeof after, " after '%.*s'",
			 (int)(b->len < QUOTE_MAX ? b->len : QUOTE_MAX), p->text + b->start);
	set_error(p, "column %zu: expected %s%s, found %s%s", t->start + 1, what, after, found, note);
	return NULL;
}

static void free_node(struct expr_node *n)
{
	if (!n)
		return;
	free_node(n->a);
	free_node(n->b);
	if (n->kind == NODE_REF)
		free((char *)n->ref.variant);
	free(n);
}

/* New node of KIND over A and B (taken over: freed on failure). AT is the
 * byte offset of its operator, for the message when the tree grows too tall. */
static struct expr_node *new_node(struct parser *p, enum node_kind kind,
				  struct expr_node *a, struct expr_node *b, size_t at)
{
	struct expr_node *n;
	int height = 1 + (a ? a->height : 0);

	if (b && 1 + b->height > height)
		height = 1 + b->height;
	if (height > MAX_HEIGHT) {
		set_error(p, "column %zu: expression too long (more than %d operators deep)",
			  at + 1, MAX_HEIGHT);
		n = NULL;
	} else if (!(n = calloc(1, sizeof *n))) {
		set_error(p, "column %zu: out of memory", at + 1);
	}
	if (!n) {
		free_node(a);
		free_node(b);
		return NULL;
	}
	n->kind = kind;
	n->height = height;
	n->a = a;
	n->b = b;
	return n;
}

/* Leaf for the current NUMBER or REF token. */
static struct expr_node *leaf(struct parser *p)
{
	const struct token *t = &p->tok;
	struct expr_node *n = new_node(p, t->kind == TOK_NUMBER ? NODE_NUMBER : NODE_REF,
				       NULL, NULL, t->start);
	char *names;

	if (!n || t->kind == TOK_NUMBER) {
		if (n)
			n->number = t->number;
		return n;
	}
	/* "variant\0metric\0" in one block */
	names = malloc(t->len + 1);
	if (!names) {
		free(n);
		set_error(p, "column %zu: out of memory", t->start + 1);
		return NULL;
	}
	memcpy(names, p->text + t->start, t->len);
	names[t->len] = '\0';
	names[t->dot] = '\0';
	n->ref.variant = names;
	n->ref.metric = names + t->dot + 1;
	return n;
}

static struct expr_node *parse_sum(struct parser *p);

/* Enters one level of '(' or unary '-' at the current token. */
static int enter(struct parser *p)
{
	if (++p->nesting <= MAX_NESTING)
		return 0;
	set_error(p, "column %zu: nested deeper than %d levels of '(' and unary '-'",
		  p->tok.start + 1, MAX_NESTING);
	return -1;
}

/* "(" sum ")", the current token being the '('. */
static struct expr_node *parse_group(struct parser *p)
{
	size_t open = p->tok.start;
	struct expr_node *inner;
	char note[64];

	if (enter(p) < 0 || advance(p) < 0)
		return NULL;
	inner = parse_sum(p);
	if (!inner)
		return NULL;
	if (p->tok.kind != TOK_RPAREN) {
		snprintf(note, sizeof note, " (to close the '(' at column %zu)", open + 1);
		free_node(inner);
		return expected(p, "')'", note);
	}
	p->nesting--;
	if (advance(p) < 0) {
		free_node(inner);
		return NULL;
	}
	return inner;
}

/* primary := NUMBER | REF | "(" sum ")" */
static struct expr_node *parse_primary(struct parser *p)
{
	struct expr_node *n;

	if (p->tok.kind == TOK_LPAREN)
		return parse_group(p);
	if (p->tok.kind != TOK_NUMBER && p->tok.kind != TOK_REF)
		return expected(p, "a number, a reference or '('", "");
	n = leaf(p);
	if (n && advance(p) < 0) {
		free_node(n);
		return NULL;
	}
	return n;
}

/* unary := "-" unary | primary */
static struct expr_node *parse_unary(struct parser *p)
{
	size_t at = p->tok.start;
	struct expr_node *operand;

	if (p->tok.kind != TOK_MINUS)
		return parse_primary(p);
	if (enter(p) < 0 || advance(p) < 0)
		return NULL;
	operand = parse_unary(p);
	if (!operand)
		return NULL;
	p->nesting--;
	return new_node(p, NODE_NEG, operand, NULL, at);
}

/* product := unary (("*" | "/") unary)* */
static struct expr_node *parse_product(struct parser *p)
{
	struct expr_node *left = parse_unary(p), *right;
	enum node_kind kind;
	size_t at;

	while (left && (p->tok.kind == TOK_STAR || p->tok.kind == TOK_SLASH)) {
		kind = p->tok.kind == TOK_STAR ? NODE_MUL : NODE_DIV;
		at = p->tok.start;
		if (advance(p) < 0 || !(right = parse_unary(p))) {
			free_node(left);
			return NULL;
		}
		left = new_node(p, kind, left, right, at);
	}
	return left;
}

/* sum := product (("+" | "-") product)* */
static struct expr_node *parse_sum(struct parser *p)
{
	struct expr_node *left = parse_product(p), *right;
	enum node_kind kind;
	size_t at;

	while (left && (p->tok.kind == TOK_PLUS || p->tok.kind == TOK_MINUS)) {
		kind = p->tok.kind == TOK_PLUS ? NODE_ADD : NODE_SUB;
		at = p->tok.start;
		if (advance(p) < 0 || !(right = parse_product(p))) {
			free_node(left);
			return NULL;
		}
		left = new_node(p, kind, left, right, at);
	}
	return left;
}

#define COMPARISONS "a comparison (<, <=, >, >=, ==)"

/* expectation := sum COMPARE sum, then the end of the text. */
static int parse_expectation(struct parser *p, struct expr *out)
{
	const char *note = "";

	if (advance(p) < 0 || !(out->lhs = parse_sum(p)))
		return -1;
	if (p->tok.kind != TOK_COMPARE) {
		if (p->tok.kind == TOK_RPAREN)
			note = " (this ')' has no matching '(')";
		expected(p, COMPARISONS, note);
		return -1;
	}
	out->op = p->tok.op;
	if (advance(p) < 0 || !(out->rhs = parse_sum(p)))
		return -1;
	if (p->tok.kind == TOK_END)
		return 0;
	if (p->tok.kind == TOK_COMPARE)
		note = " (an expectation has one comparison)";
	else if (p->tok.kind == TOK_RPAREN)
		note = " (this ')' has no matching '(')";
	expected(p, "an operator (+, -, *, /) or the end", note);
	return -1;
}

int expr_parse(const char *text, struct expr *out, char *err, size_t err_size)
{
	struct parser p;

	memset(&p, 0, sizeof p);
	p.text = text ? text : "";
	p.err = err;
	p.err_size = err_size;
	if (err && err_size)
		err[0] = '\0';
	out->lhs = out->rhs = NULL;
	out->op = EXPR_EQ;
	if (parse_expectation(&p, out) == 0)
		return 0;
	expr_free(out);
	return -1;
}

void expr_free(struct expr *e)
{
	if (!e)
		return;
	free_node(e->lhs);
	free_node(e->rhs);
	e->lhs = e->rhs = NULL;
}

static int each_ref(const struct expr_node *n,
		    int (*fn)(const struct expr_ref *ref, void *arg), void *arg)
{
	int ret;

	if (!n)
		return 0;
	if (n->kind == NODE_REF)
		return fn(&n->ref, arg);
	/* left operand first: that is the order of the text */
	ret = each_ref(n->a, fn, arg);
	return ret ? ret : each_ref(n->b, fn, arg);
}

int expr_each_ref(const struct expr *e,
		  int (*fn)(const struct expr_ref *ref, void *arg), void *arg)
{
	int ret = each_ref(e->lhs, fn, arg);

	return ret ? ret : each_ref(e->rhs, fn, arg);
}

double expr_eval_side(const struct expr_node *side, expr_lookup_fn lookup, void *arg)
{
	double a, b, value;

	if (!side)
		return NAN;
	switch (side->kind) {
	case NODE_NUMBER:
		return side->number;
	case NODE_REF:
		return lookup && lookup(&side->ref, arg, &value) == 0 ? value : NAN;
	case NODE_NEG:
		return -expr_eval_side(side->a, lookup, arg);
	default:
		break;
	}
	a = expr_eval_side(side->a, lookup, arg);
	b = expr_eval_side(side->b, lookup, arg);
	switch (side->kind) {
	case NODE_ADD:
		return a + b;
	case NODE_SUB:
		return a - b;
	case NODE_MUL:
		return a * b;
	case NODE_DIV:
		return b == 0.0 ? NAN : a / b;
	default:
		return NAN;
	}
}

int expr_compare_holds(enum expr_compare op, double lhs, double rhs)
{
	/* Every comparison with NaN is false: a missing value never passes. */
	switch (op) {
	case EXPR_LT:
		return lhs < rhs;
	case EXPR_LE:
		return lhs <= rhs;
	case EXPR_GT:
		return lhs > rhs;
	case EXPR_GE:
		return lhs >= rhs;
	case EXPR_EQ:
		return lhs == rhs;
	}
	return 0;
}

const char *expr_compare_name(enum expr_compare op)
{
	switch (op) {
	case EXPR_LT:
		return "<";
	case EXPR_LE:
		return "<=";
	case EXPR_GT:
		return ">";
	case EXPR_GE:
		return ">=";
	case EXPR_EQ:
		return "==";
	}
	return "?";
}
