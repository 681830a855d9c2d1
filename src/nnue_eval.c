/*
 * nnue_eval.c - the quantised inference of a network (see nnue.h, docs/nnue.md): features of a
 * board, then the accumulator, two hidden layers and the output, in integers only.
 *
 * Two paths compute the same integers. The portable one is plain C. The AVX2 one sums the
 * accumulator 16 int16
 * lanes at a time and computes the hidden neurons, eight at a time, with vpmaddubsw (uint8
 * activation x int8 weight, two products summed into int16) then vpmaddwd into int32 lanes. Those
 * int16 pair sums cannot saturate: |127 * 128 * 2| = 32512 < 32767, so they are exact; the
 * accumulator's int16 additions wrap in both paths alike (a trained net's clips keep them from
 * wrapping at all). Each hidden neuron's dot product fits int32 (at most 127 * 128 * 1024 < 2^24);
 * the portable path adds its bias in int64, the AVX2 one eight neurons at a time in int32 lanes
 * after clamping the bias to +-2^25, which changes no activation (layer_avx2); the output is summed
 * in int64. No file can make either path overflow.
 *
 * With AVX-512 (BW and VL) the AVX2 path's first and hidden layers run on 512-bit registers
 * instead: the same integers, the hidden layers' lane sums folded to 256 bits before the same
 * horizontal sums, bias, shift and clamp.
 *
 * Which path runs: with __AVX2__ (the release build's -march=native on a CPU that has it) the
 * AVX2 one, or its AVX-512 form when the compiler targets that too, always (a build for AVX-512
 * also has the AVX2 form, which nnue_evaluate_path offers the tests). Otherwise, on x86 with GCC or
 * Clang (the sanitizer build, the CheckerBoard library and DLL: built for any x86-64), both forms
 * are compiled for their targets alone (__attribute__((target(...)))) and the fastest one the CPU
 * and the system support is chosen at run time (__builtin_cpu_supports): AVX-512 when it has
 * AVX-512 F, BW, VL and VNNI, else AVX2, else the portable path; elsewhere the portable path.
 * (MinGW's gcc realigns the stack for the _Alignas arrays but not for spilled vector registers,
 * of which this file has none today; the DLL is assembled with unaligned vector moves anyway, so
 * one could never fault: mk/cbengine.mk.)
 *
 * A pairwise network (NNUE_ACT_PAIR) multiplies the clamped accumulator's lane j by lane j + n1/2
 * before the second layer: c0 * c1 (at most 127 * 127 = 16129, an int16) times 258, rounded and
 * shifted by 15 (vpmulhrsw), which is round(c0 * c1 / 127.008), 0..127 at the activations'
 * scale; every path computes that same integer.
 *
 * The search's evaluations recompute the accumulator from the position's features (at most 24 in
 * a game position, about 40 with the mobility set). nnue_acc_* keep it up to date move by move
 * instead (both seats' blocks, from the difference of two boards); wired into the search, eagerly
 * or lazily, they measured slower than the recomputation (docs/nnue.md), so the search does not use
 * them yet.
 */
#include "nnue.h"

#include "bitboard.h"
#include "nnue_hook.h"
#include "score.h"

#include <string.h>

#include <stdatomic.h>

#if defined(__AVX2__)
#define NNUE_AVX2 1
#define AVX2_FN
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#define NNUE_AVX512 1
#define AVX512_FN
#ifdef __AVX512VNNI__
#define NNUE_VNNI512 1
#endif
#endif
#elif (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
/* Built for any x86: both SIMD forms for their targets alone, chosen at run time (cpu_path). The
 * AVX-512 one is chosen only with VNNI too (every AVX-512 CPU since 2019 has it). */
#define NNUE_AVX2 1
#define NNUE_AVX512 1
#define NNUE_VNNI512 1
#define NNUE_DISPATCH 1
#define AVX2_FN __attribute__((target("avx2")))
#define AVX512_FN __attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vnni")))
#endif
#ifdef NNUE_AVX2
#include <immintrin.h>
#endif

int nnue_bucket(const Board *b, int buckets)
{
    int pieces = __builtin_popcount(b->pieces[BLACK] | b->pieces[WHITE]);
    int k = (pieces - 1) * buckets / 24;
    return k < 0 ? 0 : k > buckets - 1 ? buckets - 1 : k;
}

/* A hidden neuron's activation from its int64 sum at scale 127 * 64. */
static inline uint8_t hidden(int64_t s)
{
    return s <= 0 ? 0 : s >= (int64_t)NNUE_QA << 6 ? NNUE_QA : (uint8_t)(s >> 6);
}

/* The score from the output sum (scale 127 * 256). */
static inline int final_score(const NnueNet *n, int64_t out)
{
    int64_t s = out * n->scale / (NNUE_QA * NNUE_QO);
    const int64_t lim = SCORE_DECISIVE - 1;
    return (int)(s > lim ? lim : s < -lim ? -lim : s);
}

/* The output layer, shared by both paths (n3 multiply-adds). */
static inline int64_t output(const NnueNet *n, int k, const uint8_t *h3)
{
    const int16_t *w4 = n->w4 + (size_t)k * (size_t)n->n3;
    int32_t dot = 0;
    for (int i = 0; i < n->n3; i++)
        dot += (int32_t)h3[i] * w4[i];
    return (int64_t)n->b4[k] + dot;
}

/* The first layer of bucket K (a split net has one per bucket): its weights into *W1, its
 * biases returned. */
static inline const int16_t *l1_of_bucket(const NnueNet *n, int k, const int16_t **w1)
{
    size_t set = (size_t)nnue_l1_set(n->l1_sets, k);
    *w1 = n->w1 + set * (size_t)n->features * (size_t)n->n1;
    return n->b1 + set * (size_t)n->n1;
}

/* ---- portable ---------------------------------------------------------------------------------
 */

/* The pairwise activation of a multiplier pair: round(C0 * C1 / 127.008), 0..127 (see the top). */
static inline uint8_t pair_of(uint8_t c0, uint8_t c1)
{
    return (uint8_t)(((int32_t)c0 * c1 * 258 + 16384) >> 15);
}

/* OUT[j] = pair_of(H1[j], H1[j + M]) for j < M. */
static void pair_portable(const uint8_t *h1, int m, uint8_t *out)
{
    for (int j = 0; j < m; j++)
        out[j] = pair_of(h1[j], h1[j + m]);
}

/* OUT[i] = hidden(B[i] + W[i] . IN) for NOUT neurons of NIN inputs. */
static void layer_portable(const uint8_t *in, int nin, const int8_t *w, const int32_t *b, int nout,
                           uint8_t *out)
{
    for (int i = 0; i < nout; i++) {
        const int8_t *row = w + (size_t)i * (size_t)nin;
        int32_t dot = 0;
        for (int j = 0; j < nin; j++)
            dot += (int32_t)in[j] * row[j];
        out[i] = hidden((int64_t)b[i] + dot);
    }
}

/* The portable score of the NF features FEAT in bucket K. */
static int score_portable(const NnueNet *n, const uint16_t *feat, int nf, int k)
{
    int n1 = n->n1, n2 = n->n2, n3 = n->n3;
    const int16_t *w1, *b1 = l1_of_bucket(n, k, &w1);
    uint16_t acc[NNUE_N1_MAX];
    uint8_t h1[NNUE_N1_MAX], h2[NNUE_N23_MAX], h3[NNUE_N23_MAX];
    /* int16 sums with the wrap-around of the SIMD lanes: unsigned arithmetic, then reinterpret. */
    for (int j = 0; j < n1; j++)
        acc[j] = (uint16_t)b1[j];
    for (int f = 0; f < nf; f++) {
        const int16_t *w = w1 + (size_t)feat[f] * (size_t)n1;
        for (int j = 0; j < n1; j++)
            acc[j] = (uint16_t)(acc[j] + (uint16_t)w[j]);
    }
    for (int j = 0; j < n1; j++) {
        int16_t a = (int16_t)acc[j];
        h1[j] = a <= 0 ? 0 : a >= NNUE_QA ? NNUE_QA : (uint8_t)a;
    }
    int m = nnue_l2_inputs(n->act, n1);
    if (n->act == NNUE_ACT_PAIR)
        pair_portable(h1, m, h1);
    layer_portable(h1, m, n->w2 + (size_t)k * n2 * m, n->b2 + (size_t)k * n2, n2, h2);
    layer_portable(h2, n2, n->w3 + (size_t)k * n3 * n2, n->b3 + (size_t)k * n3, n3, h3);
    return final_score(n, output(n, k, h3));
}

int nnue_evaluate_portable(const NnueNet *n, const Board *b)
{
    uint16_t feat[NNUE_MAX_ACTIVE];
    int nf = nnue_features_of(n->features, b, feat);
    return score_portable(n, feat, nf, nnue_bucket(b, n->buckets));
}

/* ---- AVX2 -------------------------------------------------------------------------------------
 */

#ifdef NNUE_AVX2

/* ACC + the products of X's 32 uint8 and W's 32 int8, summed by fours into eight int32 lanes:
 * one vpdpbusd with AVX-512 VNNI, else vpmaddubsw (pairs into int16, exact: see the top) and
 * vpmaddwd (pairs of those into int32). The same integers either way. */
static inline AVX2_FN __m256i dot_add(__m256i acc, __m256i x, __m256i w)
{
#if defined(__AVX512VNNI__) && defined(__AVX512VL__)
    return _mm256_dpbusd_epi32(acc, x, w);
#else
    return _mm256_add_epi32(acc,
                            _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1)));
#endif
}

/* The eight int32 lane sums of S[0..7], in order, in one register. */
static inline AVX2_FN __m256i sum8(const __m256i *s)
{
    __m256i t0 = _mm256_hadd_epi32(_mm256_hadd_epi32(s[0], s[1]), _mm256_hadd_epi32(s[2], s[3]));
    __m256i t1 = _mm256_hadd_epi32(_mm256_hadd_epi32(s[4], s[5]), _mm256_hadd_epi32(s[6], s[7]));
    return _mm256_add_epi32(_mm256_permute2x128_si256(t0, t1, 0x20),
                            _mm256_permute2x128_si256(t0, t1, 0x31));
}

/* OUT[0..7] = hidden(B[k] + DOT[k]) from eight int32 dot products, the bias clamped to
 * +-2^25 first (see layer_avx2 for why this changes no activation). */
static inline AVX2_FN void activations8(__m256i dot, const int32_t *b, uint8_t *out)
{
    const __m256i lim = _mm256_set1_epi32(1 << 25), zero = _mm256_setzero_si256();
    __m256i bias = _mm256_loadu_si256((const __m256i *)b);
    bias = _mm256_max_epi32(_mm256_min_epi32(bias, lim), _mm256_sub_epi32(zero, lim));
    __m256i v = _mm256_srai_epi32(_mm256_add_epi32(dot, bias), 6);
    v = _mm256_min_epi32(_mm256_max_epi32(v, zero), _mm256_set1_epi32(NNUE_QA));
    /* Eight values 0..127 to bytes: packs/packus work within each 128-bit half. */
    __m256i p = _mm256_packus_epi16(_mm256_packs_epi32(v, v), zero);
    uint32_t lo = (uint32_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(p));
    uint32_t hi = (uint32_t)_mm_cvtsi128_si32(_mm256_extracti128_si256(p, 1));
    memcpy(out, &lo, 4);
    memcpy(out + 4, &hi, 4);
}

/* layer_portable() with dot_add(), eight neurons at a time (NIN, NOUT multiples of 32; IN and
 * W's rows 32-byte aligned). The activations are computed in int32 lanes, the same integers as
 * hidden(): a dot product has |dot| <= 127 * 128 * 1024 < 2^24 (NIN <= n1 <= 1024), so a bias
 * clamped to +-2^25 changes no activation (beyond that bound the sum is >= 2^24, or <= 0,
 * whatever the dot product) and bias + dot fits int32; then (bias + dot) >> 6 (arithmetic)
 * clamped to 0..127 is hidden() of the int64 sum. */
static AVX2_FN void layer_avx2(const uint8_t *in, int nin, const int8_t *w, const int32_t *b,
                               int nout, uint8_t *out)
{
    for (int i = 0; i < nout; i += 8) {
        const int8_t *r0 = w + (size_t)i * (size_t)nin;
        __m256i s[8];
        for (int k = 0; k < 8; k++)
            s[k] = _mm256_setzero_si256();
        for (int j = 0; j < nin; j += 32) {
            __m256i x = _mm256_load_si256((const __m256i *)(in + j));
            for (int k = 0; k < 8; k++)
                s[k] = dot_add(s[k], x, _mm256_load_si256((const __m256i *)(r0 + k * nin + j)));
        }
        activations8(sum8(s), b + i, out + i);
    }
}

/* The accumulator of FEAT (first layer W1, B1 of N1 neurons) clamped to 0..127 into H1[0, END)
 * (END a multiple of 64), 64 lanes (4 registers) at a time so the sums stay in registers while
 * the features' rows stream past. */
static AVX2_FN void first_layer_avx2(const int16_t *w1, const int16_t *b1, int n1,
                                     const uint16_t *feat, int nf, uint8_t *h1, int end)
{
    const __m256i top = _mm256_set1_epi16(NNUE_QA);
    for (int j = 0; j < end; j += 64) {
        const __m256i *bias = (const __m256i *)(b1 + j);
        __m256i a0 = _mm256_load_si256(bias), a1 = _mm256_load_si256(bias + 1);
        __m256i a2 = _mm256_load_si256(bias + 2), a3 = _mm256_load_si256(bias + 3);
        for (int f = 0; f < nf; f++) {
            const __m256i *w = (const __m256i *)(w1 + (size_t)feat[f] * (size_t)n1 + j);
            a0 = _mm256_add_epi16(a0, _mm256_load_si256(w));
            a1 = _mm256_add_epi16(a1, _mm256_load_si256(w + 1));
            a2 = _mm256_add_epi16(a2, _mm256_load_si256(w + 2));
            a3 = _mm256_add_epi16(a3, _mm256_load_si256(w + 3));
        }
        /* min(a, 127), then packus clamps below at 0; packus interleaves the 128-bit halves,
         * which the permute puts back in order. */
        __m256i p0 = _mm256_packus_epi16(_mm256_min_epi16(a0, top), _mm256_min_epi16(a1, top));
        __m256i p1 = _mm256_packus_epi16(_mm256_min_epi16(a2, top), _mm256_min_epi16(a3, top));
        _mm256_store_si256((__m256i *)(h1 + j), _mm256_permute4x64_epi64(p0, 0xd8));
        _mm256_store_si256((__m256i *)(h1 + j + 32), _mm256_permute4x64_epi64(p1, 0xd8));
    }
}

/* n1 is a multiple of 32 but not always of 64: the last 32 lanes of an odd count. */
static AVX2_FN void first_layer_tail_avx2(const int16_t *w1, const int16_t *b1, int n1,
                                          const uint16_t *feat, int nf, uint8_t *h1, int j)
{
    const __m256i top = _mm256_set1_epi16(NNUE_QA);
    const __m256i *bias = (const __m256i *)(b1 + j);
    __m256i a0 = _mm256_load_si256(bias), a1 = _mm256_load_si256(bias + 1);
    for (int f = 0; f < nf; f++) {
        const __m256i *w = (const __m256i *)(w1 + (size_t)feat[f] * (size_t)n1 + j);
        a0 = _mm256_add_epi16(a0, _mm256_load_si256(w));
        a1 = _mm256_add_epi16(a1, _mm256_load_si256(w + 1));
    }
    __m256i p0 = _mm256_packus_epi16(_mm256_min_epi16(a0, top), _mm256_min_epi16(a1, top));
    _mm256_store_si256((__m256i *)(h1 + j), _mm256_permute4x64_epi64(p0, 0xd8));
}

/* pair_portable() 16 lanes at a time (M a multiple of 32; OUT may be H1). */
static AVX2_FN void pair_avx2(const uint8_t *h1, int m, uint8_t *out)
{
    const __m256i q = _mm256_set1_epi16(258);
    for (int j = 0; j < m; j += 16) {
        __m256i c0 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(h1 + j)));
        __m256i c1 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(h1 + j + m)));
        __m256i v = _mm256_mulhrs_epi16(_mm256_mullo_epi16(c0, c1), q);
        /* 16 values 0..127 to bytes: packus works within 128-bit halves, qwords 0 and 2. */
        __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi16(v, v), 0x08);
        _mm_storeu_si128((__m128i *)(out + j), _mm256_castsi256_si128(p));
    }
}

/* The AVX2 score of the NF features FEAT in bucket K. */
static AVX2_FN int score_avx2(const NnueNet *n, const uint16_t *feat, int nf, int k)
{
    int n1 = n->n1, n2 = n->n2, n3 = n->n3;
    _Alignas(32) uint8_t h1[NNUE_N1_MAX];
    _Alignas(32) uint8_t h2[NNUE_N23_MAX];
    _Alignas(32) uint8_t h3[NNUE_N23_MAX];
    const int16_t *w1, *b1 = l1_of_bucket(n, k, &w1);
    int whole = n1 & ~63;
    first_layer_avx2(w1, b1, n1, feat, nf, h1, whole);
    if (whole != n1)
        first_layer_tail_avx2(w1, b1, n1, feat, nf, h1, whole);
    int m = nnue_l2_inputs(n->act, n1);
    if (n->act == NNUE_ACT_PAIR)
        pair_avx2(h1, m, h1);
    layer_avx2(h1, m, n->w2 + (size_t)k * n2 * m, n->b2 + (size_t)k * n2, n2, h2);
    layer_avx2(h2, n2, n->w3 + (size_t)k * n3 * n2, n->b3 + (size_t)k * n3, n3, h3);
    return final_score(n, output(n, k, h3));
}
#endif

/* ---- AVX-512 ----------------------------------------------------------------------------------
 */

#ifdef NNUE_AVX512
/* C accumulators of 32 int16 lanes each (C a constant, so they stay in registers) for the
 * lanes [J, J + 32 C) of FEAT's accumulator, clamped to 0..127 into H1. The same integers as
 * first_layer_avx2: wrapping int16 sums, then min 127 and max 0, then each lane's low byte. */
static inline __attribute__((always_inline)) AVX512_FN void
first_chunk_avx512(const int16_t *w1, const int16_t *b1, int n1, const uint16_t *feat, int nf,
                   uint8_t *h1, int j, int c)
{
    __m512i a[8];
    const __m512i top = _mm512_set1_epi16(NNUE_QA), zero = _mm512_setzero_si512();
    for (int i = 0; i < c; i++)
        a[i] = _mm512_loadu_si512(b1 + j + 32 * i);
    for (int f = 0; f < nf; f++) {
        const int16_t *w = w1 + (size_t)feat[f] * (size_t)n1 + j;
        for (int i = 0; i < c; i++)
            a[i] = _mm512_add_epi16(a[i], _mm512_loadu_si512(w + 32 * i));
    }
    for (int i = 0; i < c; i++) {
        __m512i v = _mm512_max_epi16(_mm512_min_epi16(a[i], top), zero);
        _mm256_storeu_si256((__m256i *)(h1 + j + 32 * i), _mm512_cvtepi16_epi8(v));
    }
}

/* first_layer_avx2 for all N1 lanes (a multiple of 32), 256 at a time, then what is left. */
static AVX512_FN void first_layer_avx512(const int16_t *w1, const int16_t *b1, int n1,
                                         const uint16_t *feat, int nf, uint8_t *h1)
{
    int j = 0;
    for (; j + 256 <= n1; j += 256)
        first_chunk_avx512(w1, b1, n1, feat, nf, h1, j, 8);
    if (j + 128 <= n1) {
        first_chunk_avx512(w1, b1, n1, feat, nf, h1, j, 4);
        j += 128;
    }
    if (j + 64 <= n1) {
        first_chunk_avx512(w1, b1, n1, feat, nf, h1, j, 2);
        j += 64;
    }
    if (j < n1)
        first_chunk_avx512(w1, b1, n1, feat, nf, h1, j, 1);
}

/* ACC + the products of X's 64 uint8 and W's 64 int8, summed by fours into 16 int32 lanes. */
static inline AVX512_FN __m512i dot_add512(__m512i acc, __m512i x, __m512i w)
{
#ifdef NNUE_VNNI512
    return _mm512_dpbusd_epi32(acc, x, w);
#else
    return _mm512_add_epi32(acc,
                            _mm512_madd_epi16(_mm512_maddubs_epi16(x, w), _mm512_set1_epi16(1)));
#endif
}

/* layer_avx2() for NIN a multiple of 64, 64 inputs a step: each neuron's 16 lane sums are folded
 * to 8 and handed to the same sum8, bias, shift and clamp, so the same integers. */
static AVX512_FN void layer_avx512(const uint8_t *in, int nin, const int8_t *w, const int32_t *b,
                                   int nout, uint8_t *out)
{
    for (int i = 0; i < nout; i += 8) {
        const int8_t *r0 = w + (size_t)i * (size_t)nin;
        __m512i s[8];
        for (int k = 0; k < 8; k++)
            s[k] = _mm512_setzero_si512();
        for (int j = 0; j < nin; j += 64) {
            __m512i x = _mm512_loadu_si512(in + j);
            for (int k = 0; k < 8; k++)
                s[k] = dot_add512(s[k], x, _mm512_loadu_si512(r0 + k * nin + j));
        }
        __m256i h[8];
        for (int k = 0; k < 8; k++)
            h[k] =
                _mm256_add_epi32(_mm512_castsi512_si256(s[k]), _mm512_extracti64x4_epi64(s[k], 1));
        activations8(sum8(h), b + i, out + i);
    }
}

/* A hidden layer by layer_avx512 when its inputs are a multiple of 64, else by layer_avx2. */
static inline AVX512_FN void hidden_avx512(const uint8_t *in, int nin, const int8_t *w,
                                           const int32_t *b, int nout, uint8_t *out)
{
    if (nin % 64 == 0)
        layer_avx512(in, nin, w, b, nout, out);
    else
        layer_avx2(in, nin, w, b, nout, out);
}

/* pair_portable() 32 lanes at a time (M a multiple of 32; OUT may be H1). */
static AVX512_FN void pair_avx512(const uint8_t *h1, int m, uint8_t *out)
{
    const __m512i q = _mm512_set1_epi16(258);
    for (int j = 0; j < m; j += 32) {
        __m512i c0 = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(h1 + j)));
        __m512i c1 = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(h1 + j + m)));
        __m512i v = _mm512_mulhrs_epi16(_mm512_mullo_epi16(c0, c1), q);
        _mm256_storeu_si256((__m256i *)(out + j), _mm512_cvtepi16_epi8(v));
    }
}

/* The AVX-512 score of the NF features FEAT in bucket K. */
static AVX512_FN int score_avx512(const NnueNet *n, const uint16_t *feat, int nf, int k)
{
    int n1 = n->n1, n2 = n->n2, n3 = n->n3;
    _Alignas(32) uint8_t h1[NNUE_N1_MAX];
    _Alignas(32) uint8_t h2[NNUE_N23_MAX];
    _Alignas(32) uint8_t h3[NNUE_N23_MAX];
    const int16_t *w1, *b1 = l1_of_bucket(n, k, &w1);
    first_layer_avx512(w1, b1, n1, feat, nf, h1);
    int m = nnue_l2_inputs(n->act, n1);
    if (n->act == NNUE_ACT_PAIR)
        pair_avx512(h1, m, h1);
    hidden_avx512(h1, m, n->w2 + (size_t)k * n2 * m, n->b2 + (size_t)k * n2, n2, h2);
    hidden_avx512(h2, n2, n->w3 + (size_t)k * n3 * n2, n->b3 + (size_t)k * n3, n3, h3);
    return final_score(n, output(n, k, h3));
}
#endif

#ifdef NNUE_DISPATCH
/* The fastest path this CPU (and the system, which must save the wider registers) runs: asked
 * once, the answer kept (the path + 1; 0 not asked yet; threads asking at once get the same
 * answer). */
static int cpu_path(void)
{
    static atomic_int known;
    int k = atomic_load_explicit(&known, memory_order_relaxed);
    if (k == 0) {
        __builtin_cpu_init();
        int path = NNUE_PATH_PORTABLE;
        if (__builtin_cpu_supports("avx2")) {
            path = NNUE_PATH_AVX2;
            if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni"))
                path = NNUE_PATH_AVX512;
        }
        k = path + 1;
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return k - 1;
}
#elif defined(NNUE_AVX512)
static int cpu_path(void)
{
    return NNUE_PATH_AVX512;
}
#elif defined(NNUE_AVX2)
static int cpu_path(void)
{
    return NNUE_PATH_AVX2;
}
#else
static int cpu_path(void)
{
    return NNUE_PATH_PORTABLE;
}
#endif

/* The score of the NF features FEAT in bucket K by PATH, which this build has and this machine
 * runs (the portable path when it is none of the others). */
static inline int score_by(int path, const NnueNet *n, const uint16_t *feat, int nf, int k)
{
#ifdef NNUE_AVX512
    if (path == NNUE_PATH_AVX512)
        return score_avx512(n, feat, nf, k);
#endif
#ifdef NNUE_AVX2
    if (path == NNUE_PATH_AVX2)
        return score_avx2(n, feat, nf, k);
#endif
    (void)path;
    return score_portable(n, feat, nf, k);
}

/* The score of the NF features FEAT in bucket K by the fastest path this machine runs. */
static inline int score_fast(const NnueNet *n, const uint16_t *feat, int nf, int k)
{
    return score_by(cpu_path(), n, feat, nf, k);
}

const char *nnue_simd(void)
{
#if defined(NNUE_DISPATCH)
    int path = cpu_path();
    return path == NNUE_PATH_AVX512 ? "avx512 with vnni, chosen at run time"
           : path == NNUE_PATH_AVX2 ? "avx2, chosen at run time"
                                    : "portable: this cpu has no avx2";
#elif defined(NNUE_AVX512) && defined(NNUE_VNNI512)
    return "avx512 with vnni";
#elif defined(NNUE_AVX512)
    return "avx512";
#elif defined(NNUE_AVX2) && defined(__AVX512VNNI__) && defined(__AVX512VL__)
    return "avx2 with avx512-vnni";
#elif defined(NNUE_AVX2)
    return "avx2";
#else
    return "portable";
#endif
}

bool nnue_evaluate_path(const NnueNet *n, const Board *b, int path, int *score)
{
    bool have = path == NNUE_PATH_PORTABLE;
#ifdef NNUE_AVX2
    have |= path == NNUE_PATH_AVX2 && cpu_path() >= NNUE_PATH_AVX2;
#endif
#ifdef NNUE_AVX512
    have |= path == NNUE_PATH_AVX512 && cpu_path() >= NNUE_PATH_AVX512;
#endif
    if (!have)
        return false;
    uint16_t feat[NNUE_MAX_ACTIVE];
    int nf = nnue_features_of(n->features, b, feat);
    *score = score_by(path, n, feat, nf, nnue_bucket(b, n->buckets));
    return true;
}

int nnue_evaluate(const NnueNet *n, const Board *b)
{
    uint16_t feat[NNUE_MAX_ACTIVE];
    int nf = nnue_features_of(n->features, b, feat);
    return score_fast(n, feat, nf, nnue_bucket(b, n->buckets));
}

int nnue_evaluate_features(const NnueNet *n, const uint16_t *feat, int nf, int bucket)
{
    uint16_t f[NNUE_MAX_ACTIVE];
    if (nf > NNUE_MAX_ACTIVE)
        nf = NNUE_MAX_ACTIVE;
    for (int i = 0; i < nf; i++)
        f[i] = feat[i] < n->features ? feat[i] : 0;
    int k = bucket < 0 ? 0 : bucket >= n->buckets ? n->buckets - 1 : bucket;
    return score_fast(n, f, nf, k);
}

/* ---- accumulators updated move by move ------------------------------------------------------ */

size_t nnue_acc_size(const NnueNet *n)
{
    return 2 * (size_t)n->n1 * sizeof(int16_t);
}

/* The feature of a piece of COLOR (king or not) on SQ, seen from SEAT. */
static inline int seat_feature(int seat, int color, int king, int sq)
{
    return ((color == seat ? 0 : 2) + king) * 32 + (sq ^ (seat == BLACK ? 0 : 31));
}

void nnue_acc_refresh(const NnueNet *n, const Board *b, int16_t *acc)
{
    const int n1 = n->n1;
    const int16_t *w1, *b1 = l1_of_bucket(n, nnue_bucket(b, n->buckets), &w1);
    for (int seat = 0; seat < COLOR_NB; seat++) {
        /* The features B would have with SEAT to move. */
        Board seen = *b;
        seen.side = seat;
        uint16_t feat[NNUE_MAX_ACTIVE];
        int nf = nnue_features_of(n->features, &seen, feat);
        uint16_t *a = (uint16_t *)acc + (size_t)seat * (size_t)n1;
        for (int j = 0; j < n1; j++)
            a[j] = (uint16_t)b1[j];
        for (int f = 0; f < nf; f++) {
            const int16_t *w = w1 + (size_t)feat[f] * (size_t)n1;
            for (int j = 0; j < n1; j++)
                a[j] = (uint16_t)(a[j] + (uint16_t)w[j]);
        }
    }
}

void nnue_acc_update(const NnueNet *n, const Board *from, const Board *to, const int16_t *pacc,
                     int16_t *cacc)
{
    /* A split net's blocks hold their own bucket's sums: across buckets, start afresh; so does a
     * net of the mobility set, whose features a move changes beyond the squares it touches. */
    if (n->features != NNUE_FEATURES ||
        (n->l1_sets > 1 && nnue_bucket(from, n->buckets) != nnue_bucket(to, n->buckets))) {
        nnue_acc_refresh(n, to, cacc);
        return;
    }
    const int16_t *w1;
    l1_of_bucket(n, nnue_bucket(to, n->buckets), &w1);
    /* The pieces (colour, king, square) that left and that arrived: a move changes 2 to 14. */
    int gone[SQUARE_NB + 2][3], came[SQUARE_NB + 2][3], ngone = 0, ncame = 0;
    for (int color = 0; color < COLOR_NB; color++)
        for (int king = 0; king < 2; king++) {
            Bitboard was = from->pieces[color] & (king ? from->kings : ~from->kings);
            Bitboard is = to->pieces[color] & (king ? to->kings : ~to->kings);
            for (Bitboard m = was & ~is; m; m &= m - 1, ngone++) {
                gone[ngone][0] = color;
                gone[ngone][1] = king;
                gone[ngone][2] = __builtin_ctz(m);
            }
            for (Bitboard m = is & ~was; m; m &= m - 1, ncame++) {
                came[ncame][0] = color;
                came[ncame][1] = king;
                came[ncame][2] = __builtin_ctz(m);
            }
        }
    const int n1 = n->n1;
    for (int seat = 0; seat < COLOR_NB; seat++) {
        const uint16_t *p = (const uint16_t *)pacc + (size_t)seat * (size_t)n1;
        uint16_t *c = (uint16_t *)cacc + (size_t)seat * (size_t)n1;
        const int16_t *sub[SQUARE_NB + 2], *add[SQUARE_NB + 2];
        for (int i = 0; i < ngone; i++)
            sub[i] =
                w1 + (size_t)seat_feature(seat, gone[i][0], gone[i][1], gone[i][2]) * (size_t)n1;
        for (int i = 0; i < ncame; i++)
            add[i] =
                w1 + (size_t)seat_feature(seat, came[i][0], came[i][1], came[i][2]) * (size_t)n1;
#ifdef __AVX2__
        /* 32 lanes at a time, every changed row applied while they sit in registers. */
        for (int j = 0; j < n1; j += 32) {
            __m256i a0 = _mm256_load_si256((const __m256i *)(p + j));
            __m256i a1 = _mm256_load_si256((const __m256i *)(p + j + 16));
            for (int i = 0; i < ngone; i++) {
                a0 = _mm256_sub_epi16(a0, _mm256_load_si256((const __m256i *)(sub[i] + j)));
                a1 = _mm256_sub_epi16(a1, _mm256_load_si256((const __m256i *)(sub[i] + j + 16)));
            }
            for (int i = 0; i < ncame; i++) {
                a0 = _mm256_add_epi16(a0, _mm256_load_si256((const __m256i *)(add[i] + j)));
                a1 = _mm256_add_epi16(a1, _mm256_load_si256((const __m256i *)(add[i] + j + 16)));
            }
            _mm256_store_si256((__m256i *)(c + j), a0);
            _mm256_store_si256((__m256i *)(c + j + 16), a1);
        }
        continue;
#endif
        /* The common move (one piece from one square to another) in one pass. */
        if (ngone == 1 && ncame == 1) {
            for (int j = 0; j < n1; j++)
                c[j] = (uint16_t)(p[j] - (uint16_t)sub[0][j] + (uint16_t)add[0][j]);
            continue;
        }
        for (int j = 0; j < n1; j++)
            c[j] = p[j];
        for (int i = 0; i < ngone; i++)
            for (int j = 0; j < n1; j++)
                c[j] = (uint16_t)(c[j] - (uint16_t)sub[i][j]);
        for (int i = 0; i < ncame; i++)
            for (int j = 0; j < n1; j++)
                c[j] = (uint16_t)(c[j] + (uint16_t)add[i][j]);
    }
}

int nnue_evaluate_acc(const NnueNet *n, const Board *b, const int16_t *acc)
{
    const int16_t *a = acc + (size_t)b->side * (size_t)n->n1;
    int k = nnue_bucket(b, n->buckets), n1 = n->n1, n2 = n->n2, n3 = n->n3;
    _Alignas(32) uint8_t h1[NNUE_N1_MAX];
    _Alignas(32) uint8_t h2[NNUE_N23_MAX];
    _Alignas(32) uint8_t h3[NNUE_N23_MAX];
#ifdef __AVX2__
    const __m256i top = _mm256_set1_epi16(NNUE_QA);
    for (int j = 0; j < n1; j += 32) {
        __m256i a0 = _mm256_load_si256((const __m256i *)(a + j));
        __m256i a1 = _mm256_load_si256((const __m256i *)(a + j + 16));
        __m256i p0 = _mm256_packus_epi16(_mm256_min_epi16(a0, top), _mm256_min_epi16(a1, top));
        _mm256_store_si256((__m256i *)(h1 + j), _mm256_permute4x64_epi64(p0, 0xd8));
    }
    int m = nnue_l2_inputs(n->act, n1);
    if (n->act == NNUE_ACT_PAIR)
        pair_avx2(h1, m, h1);
    layer_avx2(h1, m, n->w2 + (size_t)k * n2 * m, n->b2 + (size_t)k * n2, n2, h2);
    layer_avx2(h2, n2, n->w3 + (size_t)k * n3 * n2, n->b3 + (size_t)k * n3, n3, h3);
#else
    for (int j = 0; j < n1; j++)
        h1[j] = a[j] <= 0 ? 0 : a[j] >= NNUE_QA ? NNUE_QA : (uint8_t)a[j];
    int m = nnue_l2_inputs(n->act, n1);
    if (n->act == NNUE_ACT_PAIR)
        pair_portable(h1, m, h1);
    layer_portable(h1, m, n->w2 + (size_t)k * n2 * m, n->b2 + (size_t)k * n2, n2, h2);
    layer_portable(h2, n2, n->w3 + (size_t)k * n3 * n2, n->b3 + (size_t)k * n3, n3, h3);
#endif
    return final_score(n, output(n, k, h3));
}

/* ---- the engine's driver (nnue_hook.h) ------------------------------------------------------- */

static void *drv_load(const char *path, char *err)
{
    return path ? nnue_load(path, err) : nnue_load_default(err);
}

static void drv_free(void *net)
{
    nnue_free(net);
}

static int drv_evaluate(const void *net, const Board *b)
{
    return nnue_evaluate(net, b);
}

const NnueDriver nnue_driver = {drv_load, drv_free, drv_evaluate, nnue_has_default};
