/*
 * rng.h - the program's two pseudo-random generators, written once.
 *
 * splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014)
 * makes the Zobrist keys, self-play's random choices, the book's choice among its moves, the
 * trainer's initial weights and shuffles, and the seeds of matches and the tuner; its output
 * function alone (rng_mix64) spreads a number such as a seed or an index over 64 bits, and its
 * finaliser (rng_finalise64) picks the trainer's held-out games.
 * xorshift64 (Marsaglia, "Xorshift RNGs", 2003, the 13/7/17 triple) drives `player --random` and
 * the database speed test. Both are fixed forever: keys, games replayed from a seed and the bench
 * signature depend on their exact sequences.
 */
#pragma once

#include <stdint.h>

/* splitmix64's finaliser (Stafford's "Mix13" variant of MurmurHash3's): a bijection that mixes
 * every bit of X into every other. */
static inline uint64_t rng_finalise64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* The splitmix64 output function of X: the golden-ratio step, then the finaliser. */
static inline uint64_t rng_mix64(uint64_t x)
{
    return rng_finalise64(x + 0x9E3779B97F4A7C15ull);
}

/* The next splitmix64 number of the sequence whose state is *STATE (any value), which it
 * advances. */
static inline uint64_t rng_splitmix64(uint64_t *state)
{
    uint64_t x = *state;
    *state += 0x9E3779B97F4A7C15ull;
    return rng_mix64(x);
}

/* The next xorshift64 number after *STATE, which becomes it. A state of 0 stays 0: seed it with
 * anything else. */
static inline uint64_t rng_xorshift64(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}
