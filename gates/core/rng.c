/* rng.c: xoshiro256** seeded by splitmix64 (rng.h). */
#include "core/rng.h"

/* splitmix64 (Steele, Lea & Flood): spreads one 64-bit seed into the
 * xoshiro state, as Blackman & Vigna recommend. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void rng_seed(struct rng *rng, uint64_t seed)
{
	int i;

	/* splitmix64 is a bijection of its counter, so four consecutive
	 * outputs are never all zero: the state is always valid. */
	for (i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
}

uint64_t rng_next(struct rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *rng, uint64_t bound)
{
	/* Rejection below 2^64 mod bound leaves a whole number of copies of
	 * [0, bound) (as OpenBSD's arc4random_uniform); portable, unlike the
	 * 128-bit multiply of Lemire's method. Fewer than half the draws are
	 * rejected in the worst case. */
	uint64_t threshold, r;

	if (bound == 0)
		return 0;
	threshold = (0 - bound) % bound;
	do
		r = rng_next(rng);
	while (r < threshold);
	return r % bound;
}

void rng_shuffle(struct rng *rng, size_t *items, size_t n)
{
	size_t i, j, tmp;

	/* Fisher-Yates, Durstenfeld's form (Knuth, TAOCP 2, 3.4.2 P). */
	for (i = n; i > 1; i--) {
		j = (size_t)rng_below(rng, i);
		tmp = items[i - 1];
		items[i - 1] = items[j];
		items[j] = tmp;
	}
}
