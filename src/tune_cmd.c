/*
 * tune_cmd.c - `ponder tune': fits the evaluation weights to the positions of `ponder selfplay'
 * (tune.c does the fitting) and writes them as a weights file for --weights and for
 * scripts/gen-weights.sh.
 *
 * Stdout gets one line per step, `iter N round R train LOSS valid LOSS linear|exact', which
 * is both the progress line and the loss log that scripts/plot-tuning.sh draws, and a summary
 * in `#' comment lines. The weights file is written under a temporary name and renamed, so it
 * is never half-written.
 */
#include "cli.h"
#include "command.h"
#include "opts.h"
#include "trainfile.h"
#include "tune.h" /* and the weights it fits (weights.h) */
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TUNE_MAX_FILES = 256 };

typedef struct {
    long step; /* lines printed so far */
    bool quiet;
} LogState;

static void on_step(const TuneStep *st, void *ctx)
{
    LogState *ls = ctx;
    if (!st->exact)
        ls->step++;
    if (ls->quiet)
        return;
    printf("iter %ld round %d train %.7f valid %.7f %s\n", ls->step, st->round, st->train,
           st->valid, st->exact ? "exact" : "linear");
    fflush(stdout);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: ponder tune --data FILE [--data FILE...] --out FILE [options]\n"
               "\n"
               "Fits every weight of the evaluation to training positions from `ponder\n"
               "selfplay' (Texel's method: a logistic model of the game result from the\n"
               "evaluation) and writes them as a weights file (`ponder player --weights FILE').\n"
               "Prints one line per step: `iter N round R train LOSS valid LOSS linear|exact'.\n"
               "  --data FILE      training positions; repeat for several files\n"
               "  --out FILE       the weights file to write\n"
               "  --weights FILE   starting weights (default: built in)\n"
               "  --rounds N       linearisations of the evaluation (default 3)\n"
               "  --iterations N   most optimiser steps per round (default 30)\n"
               "  --lambda L       share of the game result in the target, the rest being the\n"
               "                   search score (default 1: results only)\n"
               "  --scale S        logistic scale in hundredths of a man (default: fitted)\n"
               "  --l2 X           pull towards the starting weights (default 0)\n"
               "  --valid F        share of positions held out for validation (default 0.1)\n"
               "  --min-ply N      leave out positions before ply N of their game (default 0)\n"
               "  --freeze LIST    weights kept fixed, comma-separated, or `none' (default\n"
               "                   man_mg,back_0: the unit of the evaluation, and the empty back\n"
               "                   row the other patterns are measured from)\n"
               "  --threads T      worker threads (default: the number of cores)\n"
               "  -q, --quiet      no step lines, only the summary\n");
}

/* Marks the weights named in LIST ("a,b,c" or "none") in FROZEN. */
static bool parse_freeze(const char *list, bool *frozen)
{
    memset(frozen, 0, WEIGHT_NB * sizeof *frozen);
    if (strcmp(list, "none") == 0)
        return true;
    const char *p = list;
    for (;;) {
        size_t n = strcspn(p, ",");
        char name[64];
        if (n == 0 || n >= sizeof name) {
            fprintf(stderr, "ponder tune: --freeze: empty or over-long name in `%s'\n", list);
            return false;
        }
        memcpy(name, p, n);
        name[n] = '\0';
        int id = weights_find(name);
        if (id < 0) {
            fprintf(stderr, "ponder tune: --freeze: unknown weight `%s'\n", name);
            return false;
        }
        frozen[id] = true;
        if (!p[n])
            return true;
        p += n + 1;
    }
}

/* Writes W to PATH through a temporary file, with COMMENT lines first. */
static bool write_weights(const char *path, const Weights *w, const char *comment, char *err)
{
    char tmp[4096];
    FILE *f = util_temp_open(path, tmp, sizeof tmp, err, ERR_LEN);
    if (!f)
        return false;
    errno = 0;
    bool ok = fputs(comment, f) >= 0 && weights_write(w, f);
    return util_temp_commit(f, tmp, path, ok, err, ERR_LEN);
}

static int cmd_tune(int argc, char **argv)
{
    TuneOptions o;
    tune_default_options(&o);
    long cores = sysconf(_SC_NPROCESSORS_ONLN), lv, min_ply = 0;
    o.threads = cores > 0 ? (int)cores : 1;
    const char *data[TUNE_MAX_FILES], *out = NULL, *start = NULL;
    int ndata = 0;
    bool quiet = false;
    o.frozen[W_MAN_MG] = o.frozen[W_BACK_0] = true;
    enum {
        OPT_DATA = OPTS_LONG,
        OPT_OUT,
        OPT_WEIGHTS,
        OPT_ROUNDS,
        OPT_ITERATIONS,
        OPT_LAMBDA,
        OPT_SCALE,
        OPT_L2,
        OPT_VALID,
        OPT_MIN_PLY,
        OPT_FREEZE,
        OPT_THREADS,
    };
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"data", required_argument, NULL, OPT_DATA},
        {"out", required_argument, NULL, OPT_OUT},
        {"weights", required_argument, NULL, OPT_WEIGHTS},
        {"rounds", required_argument, NULL, OPT_ROUNDS},
        {"iterations", required_argument, NULL, OPT_ITERATIONS},
        {"lambda", required_argument, NULL, OPT_LAMBDA},
        {"scale", required_argument, NULL, OPT_SCALE},
        {"l2", required_argument, NULL, OPT_L2},
        {"valid", required_argument, NULL, OPT_VALID},
        {"min-ply", required_argument, NULL, OPT_MIN_PLY},
        {"freeze", required_argument, NULL, OPT_FREEZE},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"quiet", no_argument, NULL, 'q'},
        {0},
    };
    Opts p;
    opts_begin(&p, "ponder tune", argc, argv, "hq", longopts, 0, NULL);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_DATA:
            if (ndata == TUNE_MAX_FILES) {
                fprintf(stderr, "ponder tune: more than %d --data files\n", TUNE_MAX_FILES);
                goto bad;
            }
            data[ndata++] = optarg;
            break;
        case OPT_OUT: out = optarg; break;
        case OPT_WEIGHTS: start = optarg; break;
        case OPT_ROUNDS:
            if (!cli_long("--rounds", optarg, 1, 100, &lv))
                goto bad;
            o.rounds = (int)lv;
            break;
        case OPT_ITERATIONS:
            if (!cli_long("--iterations", optarg, 0, 100000, &lv))
                goto bad;
            o.iterations = (int)lv;
            break;
        case OPT_LAMBDA:
            if (!cli_double("--lambda", optarg, 0, 1, &o.lambda))
                goto bad;
            break;
        case OPT_SCALE:
            if (!cli_double("--scale", optarg, 1, 100000, &o.scale))
                goto bad;
            break;
        case OPT_L2:
            if (!cli_double("--l2", optarg, 0, 1, &o.l2))
                goto bad;
            break;
        case OPT_VALID:
            if (!cli_double("--valid", optarg, 0, 0.9, &o.valid_fraction))
                goto bad;
            break;
        case OPT_MIN_PLY:
            if (!cli_long("--min-ply", optarg, 0, 255, &min_ply))
                goto bad;
            break;
        case OPT_FREEZE:
            if (!parse_freeze(optarg, o.frozen))
                goto bad;
            break;
        case OPT_THREADS:
            /* Fitting threads (tune.c uses at most 64), under the same limit as every --threads. */
            if (!cli_long("--threads", optarg, ENGINE_THREADS_MIN, ENGINE_THREADS_MAX, &lv))
                goto bad;
            o.threads = (int)lv;
            break;
        case 'q': quiet = true; break;
        default: goto bad;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "ponder tune: unexpected argument `%s'\n", argv[optind]);
        goto bad;
    }
    if (ndata == 0 || !out) {
        fprintf(stderr, "ponder tune: %s is required\n", ndata == 0 ? "--data" : "--out");
        goto bad;
    }

    /* 1. The starting weights and the positions. */
    char err[ERR_LEN];
    Weights w;
    weights_default(&w);
    if (start && !weights_load(&w, start, err)) {
        fprintf(stderr, "ponder tune: %s\n", err);
        return 2;
    }
    TrainRecord *recs = NULL;
    size_t n = 0, read = 0;
    for (int i = 0; i < ndata; i++)
        if (!trainfile_load(data[i], &recs, &n, err)) {
            fprintf(stderr, "ponder tune: %s\n", err);
            free(recs);
            return 2;
        }
    read = n;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (recs[i].ply >= min_ply)
            recs[kept++] = recs[i];
    n = kept;
    int nfrozen = 0;
    char frozen_names[512] = "";
    for (int i = 0; i < WEIGHT_NB; i++)
        if (o.frozen[i]) {
            size_t at = strlen(frozen_names);
            snprintf(frozen_names + at, sizeof frozen_names - at, "%s%s", nfrozen ? ", " : "",
                     weights_name(i));
            nfrozen++;
        }
    if (!quiet)
        printf("# ponder tune: %zu positions from %d file%s (%zu before ply %ld left out), "
               "%d weights, %d frozen%s%s\n",
               n, ndata, ndata > 1 ? "s" : "", read - n, min_ply, WEIGHT_NB, nfrozen,
               nfrozen ? ": " : "", frozen_names);

    /* 2. The fit. */
    LogState ls = {0, quiet};
    o.cb = on_step;
    o.ctx = &ls;
    Weights before = w;
    TuneReport rep;
    if (!tune_fit(recs, n, &o, &w, &rep, err)) {
        fprintf(stderr, "ponder tune: %s\n", err);
        free(recs);
        return n == 0 ? 2 : 1;
    }
    free(recs);

    /* 3. The file and the summary. */
    char comment[1024];
    snprintf(comment, sizeof comment,
             "# ponder tune: %zu positions (%zu held out), scale %.2f (%.2f at the start), "
             "lambda %.2f\n"
             "# loss before: train %.7f valid %.7f; after: train %.7f valid %.7f\n%s",
             rep.train + rep.valid, rep.valid, rep.scale, rep.scale_start, o.lambda,
             rep.before_train, rep.before_valid, rep.after_train, rep.after_valid,
             rep.valid > 0 && rep.after_valid > rep.before_valid
                 ? "# warning: the held-out loss got worse: these weights overfit\n"
                 : "");
    if (!write_weights(out, &w, comment, err)) {
        fprintf(stderr, "ponder tune: %s\n", err);
        return 1;
    }
    if (o.scale > 0)
        printf("# %zu positions fitted, %zu held out; scale %.2f\n", rep.train, rep.valid,
               rep.scale);
    else
        printf("# %zu positions fitted, %zu held out; scale %.2f at the starting weights, "
               "%.2f at the end (fitted)\n",
               rep.train, rep.valid, rep.scale_start, rep.scale);
    printf("# loss before: train %.7f valid %.7f\n", rep.before_train, rep.before_valid);
    printf("# loss after:  train %.7f valid %.7f\n", rep.after_train, rep.after_valid);
    int changed = 0;
    for (int i = 0; i < WEIGHT_NB; i++)
        if (w.v[i] != before.v[i])
            changed++;
    printf("# %d of %d weights changed; wrote %s in %.1f s\n", changed, WEIGHT_NB, out,
           rep.seconds);
    /* The held-out positions are the test of the fit: worse there means the weights learnt
     * the training positions rather than the game. */
    if (rep.valid > 0 && rep.after_valid > rep.before_valid)
        fprintf(stderr,
                "ponder tune: warning: the held-out loss got worse (%.7f before, %.7f after): "
                "the new weights fit the training positions but not the others; use more "
                "positions, fewer --iterations or a larger --l2 before playing with %s\n",
                rep.before_valid, rep.after_valid, out);
    return 0;
bad:
    opts_see_help("ponder tune");
    return 2;
}

PONDER_COMMAND("tune", cmd_tune, 84, "fit the evaluation weights to self-play positions (Texel)")
