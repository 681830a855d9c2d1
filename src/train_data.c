/*
 * train_data.c - training positions for `ponder train': records of `ponder selfplay' files
 * turned into samples (the network's features, the output bucket, the target).
 *
 * The target is t = lambda * r + (1 - lambda) * sigmoid(score / S), r the game's result for the
 * side to move, replaced by the endgame databases' exact value where they cover the position.
 * With --td MU the score term looks ahead along the game, a temporal-difference return: G =
 * (1 - MU) sigmoid(score / S) + MU G', G' being the next record's G seen from this side (1 - G'
 * when the other side is to move there), and the result r after the game's last record. The
 * next record's search started further down the line that was played, so its score is a
 * deeper look at this position too; MU = 0 is the record's own score alone.
 *
 * Positions of one game are alike, so validation holds out whole games: a file lists each game's
 * positions in order of ply, so a new game starts wherever the ply does not grow (but for 255,
 * stored for every position past it), or a new file begins; a game is held out when a hash of
 * (seed, game number) falls below the share asked for.
 * Identical positions (the same features: White-to-move positions are seen turned round, so a
 * position and its colour-reversed image are one) are then merged within each set, their targets
 * averaged: the openings repeat thousands of times and would otherwise outweigh the rest.
 */
#include "train.h"

#include "bitboard.h"
#include "egdb.h"
#include "nnue.h"
#include "rng.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* No fused multiply-adds: clang fuses a * b + c by default where the CPU has FMA, gcc in C11 mode
 * does not, and the trained network would then depend on the compiler and the machine. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

int net_features(int features, const Board *b, uint16_t out[NET_MAX_ACTIVE])
{
    /* The engine's features (nnue_features_of: the same indices), sorted. */
    uint16_t all[NNUE_MAX_ACTIVE];
    int n = nnue_features_of(features, b, all);
    if (n > NET_MAX_ACTIVE) /* more than 24 pieces: no game position (trainfile.c refuses them) */
        n = NET_MAX_ACTIVE;
    /* Ascending order (a canonical list, so identical positions compare equal). */
    for (int i = 0; i < n; i++) {
        int j = i;
        for (; j > 0 && out[j - 1] > all[i]; j--)
            out[j] = out[j - 1];
        out[j] = all[i];
    }
    return n;
}

double train_result(const TrainRecord *r)
{
    double black = r->result == TRAIN_BLACK_WON ? 1 : r->result == TRAIN_DRAW ? 0.5 : 0;
    return r->board.side == BLACK ? black : 1 - black;
}

void train_data_default_options(TrainDataOptions *o)
{
    memset(o, 0, sizeof *o);
    o->lambda = 0.25; /* a quarter result: the stronger network on self-play (docs/training.md) */
    o->scale = 80;
    o->buckets = 4;
    o->features = NNUE_FEATURES;
    o->valid_fraction = 0.05;
    o->seed = 1;
    o->dedup = true;
}

double train_score(const TrainRecord *r, const TrainDataOptions *o, int exact)
{
    double w = o->egdb_score, score = r->score;
    if (w <= 0 || exact == EGDB_UNKNOWN)
        return score;
    return exact == EGDB_WIN    ? (score > w ? score : w)
           : exact == EGDB_LOSS ? (score < -w ? score : -w)
                                : 0;
}

/* R's result for the side to move: the databases' value EXACT where known, else the game's. */
static double sample_result(const TrainRecord *r, int exact)
{
    return exact == EGDB_WIN    ? 1
           : exact == EGDB_LOSS ? 0
           : exact == EGDB_DRAW ? 0.5
                                : train_result(r);
}

void train_sample(const TrainRecord *r, const TrainDataOptions *o, int exact, TrainSample *s)
{
    memset(s, 0, sizeof *s);
    s->nfeat = (uint8_t)net_features(o->features, &r->board, s->feat);
    s->bucket = (uint8_t)nnue_bucket(&r->board, o->buckets);
    double res = sample_result(r, exact);
    double score = train_score(r, o, exact);
    s->target = (float)(o->lambda * res + (1 - o->lambda) * train_sigmoid(score / o->scale));
}

/* What the temporal-difference pass needs of a record: its result (after the databases), its
 * score term and its side to move. */
typedef struct {
    double res, v;
    int side;
} TdStep;

/* The targets of one game's N samples S from its steps T (--td MU): backwards from the last
 * record, whose look-ahead is the result. */
static void td_targets(const TrainDataOptions *o, const TdStep *t, TrainSample *s, size_t n)
{
    double mu = o->td, g = 0;
    for (size_t i = n; i-- > 0;) {
        double next = i + 1 == n ? t[i].res : t[i + 1].side == t[i].side ? g : 1 - g;
        g = (1 - mu) * t[i].v + mu * next;
        s[i].target = (float)(o->lambda * t[i].res + (1 - o->lambda) * g);
    }
}

static int compare_samples(const void *a, const void *b)
{
    const TrainSample *x = a, *y = b;
    if (x->valid != y->valid)
        return x->valid < y->valid ? -1 : 1;
    if (x->nfeat != y->nfeat)
        return x->nfeat < y->nfeat ? -1 : 1;
    for (int i = 0; i < x->nfeat; i++)
        if (x->feat[i] != y->feat[i])
            return x->feat[i] < y->feat[i] ? -1 : 1;
    return 0;
}

size_t train_dedup(TrainSample *s, size_t n)
{
    if (n == 0)
        return 0;
    qsort(s, n, sizeof *s, compare_samples);
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        double sum = s[i].target;
        while (j < n && compare_samples(&s[i], &s[j]) == 0)
            sum += s[j++].target;
        s[out] = s[i];
        s[out++].target = (float)(sum / (double)(j - i));
        i = j;
    }
    return out;
}

uint64_t train_data_hash(const TrainSample *s, size_t n, uint64_t h)
{
    if (h == 0)
        h = 14695981039346656037ull;
    const uint8_t *p = (const uint8_t *)s;
    for (size_t i = 0; i < n * sizeof *s; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Whether game G of the run seeded SEED is held out (share F). */
static bool held_out(uint64_t seed, uint64_t g, double f)
{
    uint64_t z = rng_finalise64(seed * 0xD6E8FEB86659FD93ull ^ (g + 0x9E3779B97F4A7C15ull));
    return (double)(z >> 11) / 9007199254740992.0 < f;
}

bool train_data_load(const char *const *paths, int npaths, const TrainDataOptions *o,
                     TrainSample **train, TrainSample **valid, TrainDataReport *rep, char *err)
{
    memset(rep, 0, sizeof *rep);
    *train = *valid = NULL;
    TrainSample *s = NULL;
    size_t n = 0, cap = 0;
    TdStep *steps = NULL; /* --td: the current game's records, from sample game_start on */
    size_t nsteps = 0, steps_cap = 0, game_start = 0;
    int cover = o->egdb ? egdb_complete_pieces(o->egdb) : 0;
    for (int fi = 0; fi < npaths; fi++) {
        TrainReader rd;
        if (!trainfile_open(&rd, paths[fi], err))
            goto fail;
        int prev_ply = 1 << 30, got;
        bool out = false;
        TrainRecord r;
        while ((got = trainfile_next(&rd, &r, err)) == 1) {
            /* A game's plies grow; past 255 they are all stored as 255 (trainfile.h). */
            if (r.ply < prev_ply || (r.ply == prev_ply && r.ply < 255)) {
                if (nsteps)
                    td_targets(o, steps, s + game_start, nsteps);
                nsteps = 0;
                game_start = n;
                rep->games++;
                out = held_out(o->seed, rep->games, o->valid_fraction);
            }
            prev_ply = r.ply;
            TrainSample *ns = util_grow(s, &cap, n + 1, sizeof *s, 1 << 16);
            if (!ns) {
                trainfile_close(&rd);
                snprintf(err, ERR_LEN, "out of memory after %zu positions", n);
                goto fail;
            }
            s = ns;
            int exact = EGDB_UNKNOWN;
            if (cover > 0 && bb_popcount(r.board.pieces[BLACK] | r.board.pieces[WHITE]) <= cover)
                exact = egdb_probe(o->egdb, &r.board);
            if (exact != EGDB_UNKNOWN) {
                rep->relabelled++;
                double res = train_result(&r);
                double db = exact == EGDB_WIN ? 1 : exact == EGDB_LOSS ? 0 : 0.5;
                if (res != db)
                    rep->disagreed++;
                rep->rescored += train_score(&r, o, exact) != r.score;
            }
            train_sample(&r, o, exact, &s[n]);
            s[n++].valid = out;
            rep->records++;
            if (o->td > 0) {
                TdStep *nt = util_grow(steps, &steps_cap, nsteps + 1, sizeof *steps, 256);
                if (!nt) {
                    trainfile_close(&rd);
                    snprintf(err, ERR_LEN, "out of memory after %zu positions", n);
                    goto fail;
                }
                steps = nt;
                steps[nsteps++] = (TdStep){
                    .res = sample_result(&r, exact),
                    .v = train_sigmoid(train_score(&r, o, exact) / o->scale),
                    .side = r.board.side,
                };
            }
        }
        trainfile_close(&rd);
        /* A file ends its last game. */
        if (nsteps)
            td_targets(o, steps, s + game_start, nsteps);
        nsteps = 0;
        if (got < 0)
            goto fail;
    }
    if (n == 0) {
        snprintf(err, ERR_LEN, "no positions in the data file%s", npaths > 1 ? "s" : "");
        goto fail;
    }
    free(steps);
    steps = NULL;
    size_t kept = o->dedup ? train_dedup(s, n) : n;
    rep->merged = n - kept;
    for (size_t i = 0; i < kept; i++)
        *(s[i].valid ? &rep->nvalid : &rep->ntrain) += 1;
    if (rep->ntrain == 0) {
        snprintf(err, ERR_LEN, "no training positions: all %zu were held out for validation", kept);
        goto fail;
    }
    *train = malloc(rep->ntrain * sizeof **train);
    *valid = malloc((rep->nvalid + 1) * sizeof **valid);
    if (!*train || !*valid) {
        snprintf(err, ERR_LEN, "out of memory");
        goto fail;
    }
    size_t a = 0, b = 0;
    for (size_t i = 0; i < kept; i++) {
        if (s[i].valid)
            (*valid)[b++] = s[i];
        else
            (*train)[a++] = s[i];
    }
    free(s);
    return true;
fail:
    free(steps);
    free(s);
    free(*train);
    free(*valid);
    *train = *valid = NULL;
    return false;
}
