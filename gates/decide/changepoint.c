/* changepoint.c: the step rule and E-divisive means (changepoint.h). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "decide/changepoint.h"
#include "decide/stats.h"
#include "core/policy.h"
#include "core/rng.h"

void changepoint_defaults(struct change_settings *s)
{
	s->alpha = CHANGEPOINT_ALPHA;
	s->permutations = CHANGEPOINT_PERMUTATIONS;
	s->min_segment = CHANGEPOINT_MIN_SEGMENT;
	s->min_effect = POLICY_MIN_EFFECT_AB;
	s->seed = CHANGEPOINT_SEED;
}

/* AFTER / BEFORE - 1: 0 from 0 to 0, +inf (or -inf) from 0 to another. */
static double relative_change(double before, double after)
{
	if (before == 0)
		return after == 0 ? 0 : after > 0 ? INFINITY : -INFINITY;
	return after / before - 1;
}

/* Appends a change point at AT to *OUT (*COUNT used, *CAP allocated);
 * 0 or -ENOMEM. */
static int append(struct change_point **out, size_t *count, size_t *cap, size_t at)
{
	if (*count == *cap) {
		size_t grown = *cap ? 2 * *cap : 8;
		struct change_point *p = realloc(*out, grown * sizeof *p);
		if (!p)
			return -ENOMEM;
		*out = p;
		*cap = grown;
	}
	struct change_point *c = &(*out)[(*count)++];
	memset(c, 0, sizeof *c);
	c->at = at;
	c->p_value = NAN;
	c->between = -1;
	return 0;
}

int changepoint_steps(const double *v, size_t n, double tolerance, struct change_point **out,
		      size_t *count)
{
	size_t cap = 0;
	*out = NULL;
	*count = 0;
	if (!n)
		return 0;
	double level = v[0];
	for (size_t i = 1; i < n; i++) {
		bool moved = tolerance > 0 ? fabs(v[i] - level) > tolerance * fabs(level) ||
						     (level == 0 && v[i] != 0)
					   : v[i] != level;
		if (!moved)
			continue;
		if (append(out, count, &cap, i)) {
			free(*out);
			*out = NULL;
			*count = 0;
			return -ENOMEM;
		}
		(*out)[*count - 1].before = level;
		(*out)[*count - 1].after = v[i];
		(*out)[*count - 1].change = relative_change(level, v[i]);
		level = v[i];
	}
	return 0;
}

/* A Fenwick tree (Fenwick 1994) over ranks 0..n-1: how many values were
 * added below a rank and their sum, in O(log n). */
struct fenwick {
	size_t n;
	double *count, *sum;   /* 1-based */
};

static void fen_clear(struct fenwick *f)
{
	memset(f->count, 0, (f->n + 1) * sizeof *f->count);
	memset(f->sum, 0, (f->n + 1) * sizeof *f->sum);
}

static void fen_add(struct fenwick *f, size_t rank, double value)
{
	for (size_t i = rank + 1; i <= f->n; i += i & (~i + 1)) {
		f->count[i] += 1;
		f->sum[i] += value;
	}
}

/* The count and sum of the values added with a rank below RANK. */
static void fen_below(const struct fenwick *f, size_t rank, double *count, double *sum)
{
	*count = *sum = 0;
	for (size_t i = rank; i > 0; i -= i & (~i + 1)) {
		*count += f->count[i];
		*sum += f->sum[i];
	}
}

/* A value and its position, sorted to rank the values. */
struct ranked {
	double v;
	size_t i;
};

/* What one Q curve needs, for segments of up to N points. */
struct work {
	size_t n;
	struct fenwick fen;
	double *left, *right;    /* n + 1: within-sums of the prefix / suffix */
	double *centred;         /* the segment, less its first value */
	size_t *rank;            /* of each point in the segment */
	double *perm_v;          /* a shuffled segment ... */
	size_t *perm_rank;       /* ... and its ranks */
	size_t *idx;             /* the shuffle */
	struct ranked *sorted;
};

static void work_free(struct work *w)
{
	free(w->fen.count);
	free(w->fen.sum);
	free(w->left);
	free(w->right);
	free(w->centred);
	free(w->rank);
	free(w->perm_v);
	free(w->perm_rank);
	free(w->idx);
	free(w->sorted);
}

static int work_init(struct work *w, size_t n)
{
	memset(w, 0, sizeof *w);
	w->n = w->fen.n = n;
	w->fen.count = malloc((n + 1) * sizeof(double));
	w->fen.sum = malloc((n + 1) * sizeof(double));
	w->left = malloc((n + 1) * sizeof(double));
	w->right = malloc((n + 1) * sizeof(double));
	w->centred = malloc(n * sizeof(double));
	w->rank = malloc(n * sizeof(size_t));
	w->perm_v = malloc(n * sizeof(double));
	w->perm_rank = malloc(n * sizeof(size_t));
	w->idx = malloc(n * sizeof(size_t));
	w->sorted = malloc(n * sizeof *w->sorted);
	if (w->fen.count && w->fen.sum && w->left && w->right && w->centred && w->rank &&
	    w->perm_v && w->perm_rank && w->idx && w->sorted)
		return 0;
	work_free(w);
	return -ENOMEM;
}

static int by_value(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* The segment V[0..N) into W->centred (less V[0], so that the sums stay
 * small against their differences) and the ranks of its values (ties by
 * position: equal values add 0 to a |difference| whichever comes first). */
static void load_segment(struct work *w, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		w->centred[i] = v[i] - v[0];
		w->sorted[i].v = w->centred[i];
		w->sorted[i].i = i;
	}
	qsort(w->sorted, n, sizeof *w->sorted, by_value);
	for (size_t r = 0; r < n; r++)
		w->rank[w->sorted[r].i] = r;
}

/* The sum of |Z - Y| over the values Y in F (COUNT of them, summing to
 * TOTAL), Z's rank being RANK. */
static double distance_sum(const struct fenwick *f, size_t rank, double z, double count,
			   double total)
{
	double below, sum_below;
	fen_below(f, rank, &below, &sum_below);
	return z * below - sum_below + (total - sum_below) - z * (count - below);
}

/* W->left[t]: the sum of |Z_i - Z_j| over the pairs i < j < t; W->right[t]:
 * over the pairs t <= i < j < N. */
static void within_sums(struct work *w, const double *z, const size_t *rank, size_t n)
{
	double total = 0;
	fen_clear(&w->fen);
	w->left[0] = 0;
	for (size_t t = 0; t < n; t++) {
		w->left[t + 1] = w->left[t] + distance_sum(&w->fen, rank[t], z[t], (double)t, total);
		fen_add(&w->fen, rank[t], z[t]);
		total += z[t];
	}
	total = 0;
	fen_clear(&w->fen);
	w->right[n] = 0;
	for (size_t t = n; t-- > 0;) {
		w->right[t] = w->right[t + 1] +
			      distance_sum(&w->fen, rank[t], z[t], (double)(n - 1 - t), total);
		fen_add(&w->fen, rank[t], z[t]);
		total += z[t];
	}
}

/* The largest Q over the splits of Z[0..N) (changepoint.h), its split in
 * *TAU. */
static double best_q(struct work *w, const double *z, const size_t *rank, size_t n,
		     size_t min_segment, size_t *tau)
{
	double best = -INFINITY;
	within_sums(w, z, rank, n);
	for (size_t t = min_segment; t + min_segment <= n; t++) {
		double m = (double)t, k = (double)(n - t);
		double between = w->left[n] - w->left[t] - w->right[t];
		double q = m * k / (double)n *
			   (2 * between / (m * k) - 2 * w->left[t] / (m * (m - 1)) -
			    2 * w->right[t] / (k * (k - 1)));
		if (q > best) {
			best = q;
			*tau = t;
		}
	}
	return best;
}

int changepoint_best_split(const double *v, size_t n, size_t min_segment, size_t *tau,
			   double *q)
{
	struct work w;
	if (min_segment < 2 || n < 2 * min_segment)
		return -EDOM;
	if (work_init(&w, n))
		return -ENOMEM;
	load_segment(&w, v, n);
	*q = best_q(&w, w.centred, w.rank, n, min_segment, tau);
	work_free(&w);
	return 0;
}

/* The permutation test of a split whose Q is Q_SEEN on the segment loaded
 * in W (N points): p, or a p above S->alpha as soon as more shuffles than
 * a significant p allows reached Q_SEEN. */
static double permutation_p(struct work *w, size_t n, double q_seen,
			    const struct change_settings *s, struct rng *rng)
{
	/* p = (1 + e) / (1 + R) <= alpha  <=>  e <= alpha (1 + R) - 1 */
	double most = floor(s->alpha * (double)(s->permutations + 1) - 1 + 1e-9);
	size_t exceed = 0, tau;
	for (size_t r = 0; r < s->permutations; r++) {
		for (size_t i = 0; i < n; i++)
			w->idx[i] = i;
		rng_shuffle(rng, w->idx, n);
		for (size_t i = 0; i < n; i++) {
			w->perm_v[i] = w->centred[w->idx[i]];
			w->perm_rank[i] = w->rank[w->idx[i]];
		}
		/* a tie counts against the split (ties of rounding too) */
		if (best_q(w, w->perm_v, w->perm_rank, n, s->min_segment, &tau) >=
		    q_seen - 1e-9 * fabs(q_seen))
			exceed++;
		if ((double)exceed > most)
			return (double)(1 + exceed) / (double)(1 + r + 1);
	}
	return (double)(1 + exceed) / (double)(1 + s->permutations);
}

struct divide {
	const double *v;
	const struct change_settings *s;
	struct rng rng;
	struct work w;
	struct change_point *found;
	size_t count, cap;
};

/* Recursive bisection of V[START..END): its best split when significant,
 * then each side's. 0 or -ENOMEM. */
static int divide(struct divide *d, size_t start, size_t end)
{
	size_t n = end - start, tau = 0, L = d->s->min_segment;
	if (n < 2 * L)
		return 0;
	load_segment(&d->w, d->v + start, n);
	double q = best_q(&d->w, d->w.centred, d->w.rank, n, L, &tau);
	if (!(q > 0))
		return 0;   /* a constant segment, or no split better than none */
	double p = permutation_p(&d->w, n, q, d->s, &d->rng);
	if (p > d->s->alpha)
		return 0;
	if (append(&d->found, &d->count, &d->cap, start + tau))
		return -ENOMEM;
	d->found[d->count - 1].p_value = p;
	int rc = divide(d, start, start + tau);
	return rc ? rc : divide(d, start + tau, end);
}

static int by_position(const void *pa, const void *pb)
{
	const struct change_point *a = pa, *b = pb;
	return a->at < b->at ? -1 : a->at > b->at;
}

/* The levels around every change point of D (the medians of the segments
 * between its neighbours); returns the index of the one with the smallest
 * |change|, or D->count when there is none. */
static size_t levels(struct divide *d, size_t n)
{
	size_t weakest = d->count;
	for (size_t i = 0; i < d->count; i++) {
		struct change_point *c = &d->found[i];
		size_t from = i ? d->found[i - 1].at : 0;
		size_t to = i + 1 < d->count ? d->found[i + 1].at : n;
		c->before = stats_median(d->v + from, c->at - from);
		c->after = stats_median(d->v + c->at, to - c->at);
		c->change = relative_change(c->before, c->after);
		if (weakest == d->count || fabs(c->change) < fabs(d->found[weakest].change))
			weakest = i;
	}
	return weakest;
}

/* Removes the change points of D below the minimum effect, the weakest
 * first, the levels around the others taken again each time. */
static void keep_effects(struct divide *d, size_t n)
{
	if (d->count > 1)
		qsort(d->found, d->count, sizeof *d->found, by_position);
	for (;;) {
		size_t weakest = levels(d, n);
		if (weakest == d->count || !(fabs(d->found[weakest].change) < d->s->min_effect))
			return;
		if (weakest + 1 < d->count)
			memmove(&d->found[weakest], &d->found[weakest + 1],
				(d->count - weakest - 1) * sizeof *d->found);
		d->count--;
	}
}

int changepoint_edivisive(const double *v, size_t n, const struct change_settings *s,
			  struct change_point **out, size_t *count)
{
	struct divide d;
	*out = NULL;
	*count = 0;
	if (s->min_segment < 2 || n < 2 * s->min_segment)
		return 0;
	memset(&d, 0, sizeof d);
	d.v = v;
	d.s = s;
	rng_seed(&d.rng, s->seed);
	if (work_init(&d.w, n))
		return -ENOMEM;
	int rc = divide(&d, 0, n);
	work_free(&d.w);
	if (rc) {
		free(d.found);
		return rc;
	}
	keep_effects(&d, n);
	if (!d.count) {
		free(d.found);
		d.found = NULL;
	}
	*out = d.found;
	*count = d.count;
	return 0;
}
