/* rng.h: deterministic pseudo-random numbers for the round order (the
 * runner's shuffles, the confirmation batches), seeded by --seed so that a
 * run repeats. xoshiro256** (Blackman & Vigna, "Scrambled linear
 * pseudorandom number generators", 2018), seeded by splitmix64. */
#ifndef GATE_RNG_H
#define GATE_RNG_H

#include <stddef.h>
#include <stdint.h>

struct rng { uint64_t s[4]; };

/* Seeds RNG from SEED (any value, zero included). */
void rng_seed(struct rng *rng, uint64_t seed);

/* The next 64 random bits. */
uint64_t rng_next(struct rng *rng);

/* Uniform integer in [0, bound), bound > 0, without modulo bias. */
uint64_t rng_below(struct rng *rng, uint64_t bound);

/* Fisher-Yates shuffle of N indices in place. */
void rng_shuffle(struct rng *rng, size_t *items, size_t n);

#endif
