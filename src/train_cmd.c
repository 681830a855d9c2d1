/*
 * train_cmd.c - `ponder train': fits the network evaluation to the positions of `ponder
 * selfplay' (train_data.c reads them, train.c fits, train_net.c quantises) and writes the
 * network file the engine reads (`--net FILE').
 *
 * Stderr gets one progress line per epoch (losses, seconds, positions per second); --log FILE
 * gets the same as `epoch ...' lines for scripts/plot-training.sh, plus `#' comments. Stdout
 * gets the summary. With --checkpoint FILE the float weights and Adam's state are saved after
 * every epoch, and a run that finds the file continues from it (same data and options), so a
 * killed run loses at most one epoch. The network file is written under a temporary name and
 * renamed; before that it is parsed back and its integer forward pass (the spec's arithmetic)
 * measured on the held-out positions, so the numbers printed are those of the bytes written.
 * Without --data it only rewrites --init's network with another score scale or name.
 */
#include "cli.h"
#include "command.h"
#include "egdb.h"
#include "nnue.h"
#include "opts.h"
#include "train.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { TRAIN_MAX_FILES = 4096 };

/* CPU seconds used by the process (all threads): the measure that holds on a shared machine. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: ponder train --data FILE [--data FILE...] --out NET.pnet [options]\n"
               "       ponder train --init NET --out NEW.pnet [--scale S] [--name NAME]\n"
               "\n"
               "Fits the network evaluation (docs/nnue.md) to training positions from `ponder\n"
               "selfplay' and writes the quantised network file (`--net NET.pnet').\n"
               "  --data FILE        training positions; repeat for several files\n"
               "  --out FILE         the network file to write\n"
               "  --epochs N         passes over the training positions (default 10)\n"
               "  --hidden N         first-layer width n1, a multiple of 32 (default 256)\n"
               "  --buckets B        output buckets by piece count, 1-8 (default 4)\n"
               "  --split            one first layer per bucket instead of one shared (the\n"
               "                     bucket then picks the whole network; same speed)\n"
               "  --pairwise         the second layer reads n1/2 products of the first\n"
               "                     layer's clamped lanes (lane j times lane j + n1/2)\n"
               "                     instead of the n1 lanes; n1 a multiple of 64\n"
               "  --features SET     the inputs: pieces (128: each piece's kind and square),\n"
               "                     mobility (288: also which pieces cannot move, which\n"
               "                     have no safe move and which can be taken) or shots\n"
               "                     (320: also which of the side to move's pieces have a\n"
               "                     shot, a move that forces captures and wins material;\n"
               "                     docs/nnue.md) (default pieces)\n"
               "  --lambda L         share of the game result in the target, the rest being\n"
               "                     sigmoid(search score / S) (default 0.25)\n"
               "  --td MU            the search score looks ahead along the game: its term is\n"
               "                     (1 - MU) sigmoid(score / S) + MU times the same of the\n"
               "                     game's next position (seen from this side), the result\n"
               "                     after the last; 0 to 0.99 (default 0: its own score)\n"
               "  --balance A        weigh each output bucket's positions by (its share of\n"
               "                     the positions / the buckets' mean share)^-A, so the\n"
               "                     phases with fewer positions count for more: 0, 0.25,\n"
               "                     0.5, 0.75 or 1 (every bucket the same in all; default\n"
               "                     0, every position the same)\n"
               "  --scale S          hundredths of a man per unit of the logit (default 80)\n"
               "  --egdb DIR         relabel results with the endgame databases in DIR (default:\n"
               "                     none)\n"
               "  --egdb-score S     where they know the position, its search score follows\n"
               "                     them too: at least S (hundredths of a man) when won, at\n"
               "                     most -S when lost, 0 when drawn (default: kept)\n"
               "  --valid F          share of games held out for validation (default 0.05)\n"
               "  --seed N           initialisation, held-out games, shuffles (default 1)\n"
               "  --lr X             Adam's learning rate; x0.3 at 60%% and 85%% of the epochs\n"
               "                     (default 0.001)\n"
               "  --batch N          positions per step (default 4096)\n"
               "  --loss ce|mse      cross-entropy or squared error of sigmoid(y) (default ce)\n"
               "  --no-dedup         keep repeated positions (default: merged, targets averaged)\n"
               "  --name NAME        name stored in the file (default: gen)\n"
               "  --log FILE         loss log for scripts/plot-training.sh (appended on resume)\n"
               "  --checkpoint FILE  save float weights and optimiser state each epoch; resume\n"
               "                     from FILE when it exists\n"
               "  --init NET         start from the network NET (a file, or `builtin') instead\n"
               "                     of random weights: its shape and scale are the run's;\n"
               "                     with a larger --features set it is grown (its new\n"
               "                     inputs start at zero). Without --data, NET is\n"
               "                     written to --out as it is but for --scale and --name\n"
               "                     (its scores S_new / S_old as large; nothing trained)\n"
               "  --threads T        worker threads (default: the number of cores); the result\n"
               "                     is the same for any T\n"
               "  -q, --quiet        no progress lines\n");
}

/* Opens the databases in DIR, reporting on stderr. NULL on failure. */
static EgdbSet *open_egdb(const char *dir)
{
    char err[ERR_LEN];
    EgdbSet *s = egdb_open(dir, err);
    if (!s) {
        fprintf(stderr, "ponder train: --egdb: %s\n", err);
        return NULL;
    }
    if (*egdb_warnings(s))
        fprintf(stderr, "ponder train: --egdb: %s\n", egdb_warnings(s));
    return s;
}

typedef struct {
    const char *data[TRAIN_MAX_FILES];
    int ndata;
    const char *out, *log, *checkpoint, *egdb, *name, *init;
    NetShape shape;
    bool shape_given, scale_given; /* --hidden, --buckets or --split; --scale */
    bool features_given;           /* --features */
    bool name_given;               /* --name */
    const char *training_option;   /* the first option that only a training uses, for messages */
    NnueNet *init_net;             /* --init's network, loaded by load_init */
    TrainDataOptions d;
    TrainOptions t;
    bool quiet;
    int balance; /* --balance in quarters */
} Args;

/* ", mobility features" or ", shot features" for a shape of those sets, else nothing, then ",
 * pairwise" for a pairwise first layer: for messages. */
static const char *set_words(const NetShape *sh)
{
    static const char *const words[3][2] = {
        {"", ", pairwise"},
        {", mobility features", ", mobility features, pairwise"},
        {", shot features", ", shot features, pairwise"},
    };
    int f = sh->features == NNUE_FEATURES_MOBILITY ? 1
            : sh->features == NNUE_FEATURES_SHOTS  ? 2
                                                   : 0;
    return words[f][sh->act == NNUE_ACT_PAIR];
}

/* Loads --init's network into A->init_net; its shape and scale become the run's (options that
 * say otherwise are refused), except that a larger `--features' set grows the network
 * (net_import). Returns -1 to go on, else the exit status. */
static int load_init(Args *a)
{
    char err[ERR_LEN];
    NnueNet *q = strcmp(a->init, "builtin") == 0 ? nnue_load_default(err) : nnue_load(a->init, err);
    if (!q) {
        fprintf(stderr, "ponder train: --init: %s\n", err);
        return 2;
    }
    NetShape sh = {q->n1, q->n2, q->n3, q->buckets, q->l1_sets, q->features, q->act};
    if (a->features_given && a->shape.features != q->features) {
        if (a->shape.features < q->features) {
            fprintf(stderr,
                    "ponder train: --init %s has the %s features; a network cannot drop "
                    "inputs: leave out --features %s\n",
                    a->init, q->features == NNUE_FEATURES_SHOTS ? "shot" : "mobility",
                    nnue_feature_set_name(a->shape.features));
            nnue_free(q);
            return 2;
        }
        sh.features = a->shape.features; /* grown */
    }
    NetShape want = a->shape;
    if (!a->features_given)
        want.features = sh.features;
    if (a->shape_given && memcmp(&sh, &want, sizeof sh) != 0) {
        fprintf(stderr,
                "ponder train: --init %s is n1 %d, %d buckets%s%s; the options ask for n1 %d, "
                "%d buckets%s%s: leave them out to train its shape\n",
                a->init, sh.n1, sh.buckets, sh.sets > 1 ? " (split)" : "", set_words(&sh), want.n1,
                want.buckets, want.sets > 1 ? " (split)" : "", set_words(&want));
        nnue_free(q);
        return 2;
    }
    if (a->scale_given && (int)a->d.scale != q->scale && a->ndata > 0) {
        fprintf(stderr, "ponder train: --init %s has scale %d, not --scale %d\n", a->init, q->scale,
                (int)a->d.scale);
        nnue_free(q);
        return 2;
    }
    if (!net_shape_check(&sh, err)) {
        fprintf(stderr, "ponder train: --init %s: %s\n", a->init, err);
        nnue_free(q);
        return 2;
    }
    a->shape = sh;
    a->d.buckets = sh.buckets;
    a->d.features = sh.features;
    if (!a->scale_given || a->ndata > 0)
        a->d.scale = q->scale;
    a->init_net = q;
    return -1;
}

/* Parses the command line into A; returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, Args *a)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN), lv;
    double dv;
    memset(a, 0, sizeof *a);
    a->shape = (NetShape){256, 32, 32, 4, 1, NNUE_FEATURES, NNUE_ACT_CLAMP};
    bool split = false;
    a->name = "gen";
    train_data_default_options(&a->d);
    train_default_options(&a->t);
    a->t.threads = cores > 0 ? (int)cores : 1;
    enum {
        OPT_DATA = OPTS_LONG,
        OPT_OUT,
        OPT_LOG,
        OPT_CHECKPOINT,
        OPT_EGDB,
        OPT_NAME,
        OPT_EPOCHS,
        OPT_HIDDEN,
        OPT_BUCKETS,
        OPT_LAMBDA,
        OPT_SCALE,
        OPT_VALID,
        OPT_SEED,
        OPT_LR,
        OPT_BATCH,
        OPT_LOSS,
        OPT_THREADS,
        OPT_NO_DEDUP,
        OPT_SPLIT,
        OPT_PAIRWISE,
        OPT_FEATURES,
        OPT_INIT,
        OPT_EGDB_SCORE,
        OPT_TD,
        OPT_BALANCE,
    };
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {"data", required_argument, NULL, OPT_DATA},
        {"out", required_argument, NULL, OPT_OUT},
        {"log", required_argument, NULL, OPT_LOG},
        {"checkpoint", required_argument, NULL, OPT_CHECKPOINT},
        {"egdb", required_argument, NULL, OPT_EGDB},
        {"egdb-score", required_argument, NULL, OPT_EGDB_SCORE},
        {"name", required_argument, NULL, OPT_NAME},
        {"epochs", required_argument, NULL, OPT_EPOCHS},
        {"hidden", required_argument, NULL, OPT_HIDDEN},
        {"buckets", required_argument, NULL, OPT_BUCKETS},
        {"lambda", required_argument, NULL, OPT_LAMBDA},
        {"td", required_argument, NULL, OPT_TD},
        {"balance", required_argument, NULL, OPT_BALANCE},
        {"scale", required_argument, NULL, OPT_SCALE},
        {"valid", required_argument, NULL, OPT_VALID},
        {"seed", required_argument, NULL, OPT_SEED},
        {"lr", required_argument, NULL, OPT_LR},
        {"batch", required_argument, NULL, OPT_BATCH},
        {"loss", required_argument, NULL, OPT_LOSS},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"no-dedup", no_argument, NULL, OPT_NO_DEDUP},
        {"split", no_argument, NULL, OPT_SPLIT},
        {"pairwise", no_argument, NULL, OPT_PAIRWISE},
        {"features", required_argument, NULL, OPT_FEATURES},
        {"init", required_argument, NULL, OPT_INIT},
        {"quiet", no_argument, NULL, 'q'},
        {0},
    };
    Opts p;
    opts_begin(&p, "ponder train", argc, argv, "hq", longopts, 0, NULL);
    for (int c; (c = opts_next(&p)) != OPTS_END;) {
        const char *v = optarg;
        /* Remembered for the message when there is no --data to train on. */
        if (!a->training_option && c != 'h' && c != 'q' && c != OPT_INIT && c != OPT_OUT &&
            c != OPT_SCALE && c != OPT_NAME && c != OPT_DATA)
            for (const struct option *o = longopts; o->name; o++)
                if (o->val == c)
                    a->training_option = o->name;
        switch (c) {
        case 'h': usage(stdout); return 0;
        case 'q': a->quiet = true; break;
        case OPT_SPLIT: split = a->shape_given = true; break;
        case OPT_PAIRWISE:
            a->shape.act = NNUE_ACT_PAIR;
            a->shape_given = true;
            break;
        case OPT_FEATURES:
            if (strcmp(v, "pieces") == 0)
                a->shape.features = NNUE_FEATURES;
            else if (strcmp(v, "mobility") == 0)
                a->shape.features = NNUE_FEATURES_MOBILITY;
            else if (strcmp(v, "shots") == 0)
                a->shape.features = NNUE_FEATURES_SHOTS;
            else {
                fprintf(stderr,
                        "ponder train: --features: `%s' is none of pieces, mobility and shots\n",
                        v);
                return 2;
            }
            a->features_given = true;
            break;
        case OPT_INIT: a->init = v; break;
        case OPT_NO_DEDUP: a->d.dedup = false; break;
        case OPT_DATA:
            if (a->ndata == TRAIN_MAX_FILES) {
                fprintf(stderr, "ponder train: more than %d --data files\n", TRAIN_MAX_FILES);
                return 2;
            }
            a->data[a->ndata++] = v;
            break;
        case OPT_OUT: a->out = v; break;
        case OPT_LOG: a->log = v; break;
        case OPT_CHECKPOINT: a->checkpoint = v; break;
        case OPT_EGDB: a->egdb = strcmp(v, "none") == 0 ? NULL : v; break;
        case OPT_EGDB_SCORE:
            if (!cli_long("--egdb-score", v, 1, 10000, &lv))
                return 2;
            a->d.egdb_score = (double)lv;
            break;
        case OPT_NAME:
            a->name = v;
            a->name_given = true;
            break;
        case OPT_EPOCHS:
            if (!cli_long("--epochs", v, 1, 100000, &lv))
                return 2;
            a->t.epochs = (int)lv;
            break;
        case OPT_HIDDEN:
            if (!cli_long("--hidden", v, 32, NNUE_N1_MAX, &lv))
                return 2;
            if (lv % 32) {
                fprintf(stderr, "ponder train: --hidden: %ld is not a multiple of 32\n", lv);
                return 2;
            }
            a->shape.n1 = (int)lv;
            a->shape_given = true;
            break;
        case OPT_BUCKETS:
            if (!cli_long("--buckets", v, 1, NNUE_MAX_BUCKETS, &lv))
                return 2;
            a->shape.buckets = a->d.buckets = (int)lv;
            a->shape_given = true;
            break;
        case OPT_LAMBDA:
            if (!cli_double("--lambda", v, 0, 1, &a->d.lambda))
                return 2;
            break;
        case OPT_TD:
            if (!cli_double("--td", v, 0, 0.99, &a->d.td))
                return 2;
            break;
        case OPT_BALANCE: {
            double x;
            if (!cli_double("--balance", v, 0, 1, &x))
                return 2;
            if (x * 4 != (double)(int)(x * 4)) {
                fprintf(stderr, "ponder train: --balance: %s is not 0, 0.25, 0.5, 0.75 or 1\n", v);
                return 2;
            }
            a->balance = (int)(x * 4);
            break;
        }
        case OPT_SCALE:
            if (!cli_long("--scale", v, 1, 10000, &lv))
                return 2;
            a->d.scale = (double)lv;
            a->scale_given = true;
            break;
        case OPT_VALID:
            if (!cli_double("--valid", v, 0, 0.9, &a->d.valid_fraction))
                return 2;
            break;
        case OPT_SEED:
            if (!cli_long("--seed", v, 0, 2147483647L, &lv))
                return 2;
            a->d.seed = (uint64_t)lv;
            break;
        case OPT_LR:
            if (!cli_double("--lr", v, 1e-7, 1, &dv))
                return 2;
            a->t.lr = dv;
            break;
        case OPT_BATCH:
            if (!cli_long("--batch", v, 1, 1 << 20, &lv))
                return 2;
            a->t.batch = (int)lv;
            break;
        case OPT_LOSS:
            if (strcmp(v, "mse") == 0)
                a->t.loss = TRAIN_LOSS_MSE;
            else if (strcmp(v, "ce") == 0)
                a->t.loss = TRAIN_LOSS_CE;
            else {
                fprintf(stderr, "ponder train: --loss: `%s' is neither mse nor ce\n", v);
                return 2;
            }
            break;
        case OPT_THREADS:
            if (!cli_long("--threads", v, 1, 64, &lv))
                return 2;
            a->t.threads = (int)lv;
            break;
        default: return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "ponder train: unexpected argument `%s'\n", argv[optind]);
        return 2;
    }
    if (split && a->shape.buckets < 2) {
        fprintf(stderr, "ponder train: --split needs at least 2 buckets (--buckets %d)\n",
                a->shape.buckets);
        return 2;
    }
    a->shape.sets = split ? a->shape.buckets : 1;
    if (a->shape.act == NNUE_ACT_PAIR && a->shape.n1 % 64) {
        fprintf(stderr,
                "ponder train: --pairwise: n1 = %d: a pairwise first layer needs a "
                "multiple of 64 (--hidden)\n",
                a->shape.n1);
        return 2;
    }
    if (a->d.egdb_score > 0 && !a->egdb) {
        fprintf(stderr, "ponder train: --egdb-score needs the databases: give --egdb DIR\n");
        return 2;
    }
    if ((a->ndata == 0 && !a->init) || !a->out) {
        fprintf(stderr, "ponder train: %s is required\n", a->ndata == 0 ? "--data" : "--out");
        return 2;
    }
    if (a->ndata == 0 && a->training_option) {
        fprintf(stderr,
                "ponder train: --%s trains: give --data, or leave it out to rewrite --init's "
                "network with --scale and --name\n",
                a->training_option);
        return 2;
    }
    if (strlen(a->name) >= NNUE_NAME_LEN) {
        fprintf(stderr, "ponder train: --name: longer than %d characters\n", NNUE_NAME_LEN - 1);
        return 2;
    }
    for (const char *c = a->name; *c; c++)
        if (*c < 0x20 || *c > 0x7e) {
            fprintf(stderr, "ponder train: --name: not printable ASCII\n");
            return 2;
        }
    return -1;
}

/* The state to train: from the checkpoint if it exists (checked against the run), else new. */
static int start_state(const Args *a, const TrainDataReport *rep, uint64_t hash, TrainState *st)
{
    char err[ERR_LEN];
    int got = a->checkpoint ? train_checkpoint_load(st, a->checkpoint, err) : 0;
    if (got < 0) {
        fprintf(stderr, "ponder train: %s\n", err);
        return 2;
    }
    if (got == 0) {
        if (!train_state_init(st, &a->shape, a->d.seed, err)) {
            fprintf(stderr, "ponder train: %s\n", err);
            return 1;
        }
        TrainNet from;
        if (a->init_net) {
            if (!net_import(&from, a->init_net, a->shape.features, err)) {
                fprintf(stderr, "ponder train: --init: %s\n", err);
                train_state_free(st);
                return 1;
            }
            train_net_free(&st->net);
            st->net = from;
        }
        st->ntrain = rep->ntrain;
        st->nvalid = rep->nvalid;
        st->data_hash = hash;
        return -1;
    }
    const NetShape *s = &st->net.shape;
    if (memcmp(s, &a->shape, sizeof *s) != 0 || st->seed != a->d.seed ||
        st->ntrain != rep->ntrain || st->nvalid != rep->nvalid || st->data_hash != hash) {
        fprintf(stderr,
                "ponder train: %s was made by another run (n1 %d, buckets %d%s%s, seed %llu, "
                "%llu + %llu positions; this run: n1 %d, buckets %d%s%s, seed %llu, %zu + %zu%s): "
                "use the same data and options, or remove it\n",
                a->checkpoint, s->n1, s->buckets, s->sets > 1 ? " split" : "", set_words(s),
                (unsigned long long)st->seed, (unsigned long long)st->ntrain,
                (unsigned long long)st->nvalid, a->shape.n1, a->shape.buckets,
                a->shape.sets > 1 ? " split" : "", set_words(&a->shape),
                (unsigned long long)a->d.seed, rep->ntrain, rep->nvalid,
                st->data_hash != hash ? ", other targets or positions" : "");
        train_state_free(st);
        return 2;
    }
    if (!a->quiet)
        fprintf(stderr, "ponder train: resuming from %s after epoch %d\n", a->checkpoint,
                st->epoch);
    return -1;
}

/* Quantises ST's network, parses the bytes back, measures them on the held-out positions (and
 * against the float model), and writes the file. Returns the exit status. */
static int finish(const Args *a, const TrainState *st, const TrainSample *valid, size_t nvalid,
                  FILE *log)
{
    char err[ERR_LEN];
    uint8_t *buf;
    size_t len;
    if (!net_export(&st->net, (int)a->d.scale, a->name, &buf, &len, err)) {
        fprintf(stderr, "ponder train: %s\n", err);
        return 1;
    }
    NnueNet *q = nnue_read(buf, len, a->out, err);
    if (!q) {
        fprintf(stderr, "ponder train: the exported network does not read back: %s\n", err);
        free(buf);
        return 1;
    }
    double fm, fc, qm = 0, qc = 0, diff = 0, maxdiff = 0, bc[NNUE_MAX_BUCKETS] = {0};
    size_t bn[NNUE_MAX_BUCKETS] = {0};
    train_eval(&st->net, valid, nvalid, a->t.threads, &fm, &fc);
    for (size_t i = 0; i < nvalid; i++) {
        int qs = nnue_evaluate_features(q, valid[i].feat, valid[i].nfeat, valid[i].bucket);
        double p = train_sigmoid(qs / a->d.scale);
        double ce = train_loss_of(p, valid[i].target, TRAIN_LOSS_CE);
        qm += train_loss_of(p, valid[i].target, TRAIN_LOSS_MSE);
        qc += ce;
        bc[valid[i].bucket] += ce;
        bn[valid[i].bucket]++;
        double d = fabs(qs - train_forward(&st->net, &valid[i]) * a->d.scale);
        diff += d;
        maxdiff = d > maxdiff ? d : maxdiff;
    }
    nnue_free(q);
    double nv = nvalid ? (double)nvalid : 1;
    bool ok = util_write_file(a->out, buf, len, err, ERR_LEN);
    free(buf);
    if (!ok) {
        fprintf(stderr, "ponder train: %s\n", err);
        return 1;
    }
    char line[1024], held[704] = "# no positions held out (--valid 0)\n";
    if (nvalid) {
        int n = snprintf(held, sizeof held,
                         "# held out, float model:     mse %.6f ce %.6f\n"
                         "# held out, quantised model: mse %.6f ce %.6f; |score - float score| "
                         "mean %.2f max %.0f (hundredths of a man)\n"
                         "# held out by bucket, quantised ce (positions):",
                         fm, fc, qm / nv, qc / nv, diff / nv, maxdiff);
        for (int k = 0; k < st->net.shape.buckets && n > 0 && (size_t)n < sizeof held; k++)
            n += snprintf(held + n, sizeof held - (size_t)n, " %d: %.6f (%zu)", k,
                          bn[k] ? bc[k] / (double)bn[k] : 0.0, bn[k]);
        if (n > 0 && (size_t)n < sizeof held)
            snprintf(held + n, sizeof held - (size_t)n, "\n");
    }
    snprintf(line, sizeof line,
             "%s# wrote %s: %zu bytes, n1 %d, n2 %d, n3 %d, %d buckets%s%s, scale %d, name "
             "\"%s\"\n",
             held, a->out, len, st->net.shape.n1, st->net.shape.n2, st->net.shape.n3,
             st->net.shape.buckets, st->net.shape.sets > 1 ? " (split)" : "",
             set_words(&st->net.shape), (int)a->d.scale, a->name);
    fputs(line, stdout);
    if (log)
        fputs(line, log);
    return 0;
}

/* The run of the parsed command line A. Returns the exit status. */
static int train_run(const Args *ap)
{
    Args a = *ap;
    int status;

    /* 1. The positions. */
    EgdbSet *egdb = NULL;
    if (a.egdb && !(egdb = open_egdb(a.egdb)))
        return 2;
    a.d.egdb = egdb;
    a.d.buckets = a.shape.buckets;
    a.d.features = a.shape.features;
    char err[ERR_LEN];
    TrainSample *train, *valid;
    TrainDataReport rep;
    double t0 = util_now();
    bool loaded = train_data_load(a.data, a.ndata, &a.d, &train, &valid, &rep, err);
    if (egdb)
        egdb_close(egdb);
    if (!loaded) {
        fprintf(stderr, "ponder train: %s\n", err);
        return 2;
    }
    char head[1024], scores[64] = "", td[32] = "", bal[160] = "";
    if (a.balance > 0) {
        train_balance_weights(train, rep.ntrain, a.shape.buckets, a.balance, a.t.bucket_weight);
        int n = snprintf(bal, sizeof bal, ", balance %.2f (bucket weights", a.balance / 4.0);
        for (int k = 0; k < a.shape.buckets && n > 0 && (size_t)n < sizeof bal; k++)
            n += snprintf(bal + n, sizeof bal - (size_t)n, " %.3f", (double)a.t.bucket_weight[k]);
        if (n > 0 && (size_t)n < sizeof bal)
            snprintf(bal + n, sizeof bal - (size_t)n, ")");
    }
    if (a.d.egdb_score > 0)
        snprintf(scores, sizeof scores, "; %zu search scores set by them", rep.rescored);
    if (a.d.td > 0)
        snprintf(td, sizeof td, ", td %.2f", a.d.td);
    snprintf(head, sizeof head,
             "# ponder train: %zu records from %d file%s (%zu games) in %.1f s; nothing left "
             "out; %zu merged into identical positions%s; %zu results relabelled by the "
             "databases (%zu differed from the game's%s)\n"
             "# %zu training positions, %zu held out (%.0f%% of the games); lambda %.2f%s%s, "
             "scale %.0f, n1 %d, %d buckets%s%s, %s loss, seed %llu\n",
             rep.records, a.ndata, a.ndata > 1 ? "s" : "", rep.games, util_now() - t0, rep.merged,
             a.d.dedup ? " (targets averaged)" : "", rep.relabelled, rep.disagreed, scores,
             rep.ntrain, rep.nvalid, 100 * a.d.valid_fraction, a.d.lambda, td, bal, a.d.scale,
             a.shape.n1, a.shape.buckets, a.shape.sets > 1 ? " (split)" : "", set_words(&a.shape),
             a.t.loss == TRAIN_LOSS_MSE ? "mse" : "ce", (unsigned long long)a.d.seed);
    if (!a.quiet)
        fputs(head, stderr);

    /* 2. The state, fresh or resumed, and the log. */
    TrainState st;
    uint64_t hash = train_data_hash(valid, rep.nvalid, train_data_hash(train, rep.ntrain, 0));
    if ((status = start_state(&a, &rep, hash, &st)) >= 0) {
        free(train);
        free(valid);
        return status;
    }
    FILE *log = NULL;
    if (a.log && !(log = fopen(a.log, st.epoch > 0 ? "a" : "w"))) {
        fprintf(stderr, "ponder train: cannot write --log %s\n", a.log);
        status = 2;
        goto done;
    }
    if (log) {
        fputs(head, log);
        if (st.epoch == 0) {
            double vm, vc, tm;
            train_eval(&st.net, valid, rep.nvalid, a.t.threads, &vm, &vc);
            train_eval(&st.net, train, rep.ntrain, a.t.threads,
                       a.t.loss == TRAIN_LOSS_MSE ? &tm : NULL,
                       a.t.loss == TRAIN_LOSS_MSE ? NULL : &tm);
            fprintf(log,
                    "epoch 0 lr %g train %.6f valid_mse %.6f valid_ce %.6f seconds 0 "
                    "pos_per_s 0 cpu_seconds 0\n",
                    a.t.lr, tm, vm, vc);
        }
        fflush(log);
    }

    /* 3. The epochs, each followed by a checkpoint. */
    while (st.epoch < a.t.epochs) {
        double start = util_now(), cpu = cpu_now(), loss, vm, vc;
        double lr = train_lr(a.t.lr, st.epoch, a.t.epochs);
        if (!train_epoch(&st, train, rep.ntrain, &a.t, &loss, err)) {
            fprintf(stderr, "ponder train: %s\n", err);
            status = 1;
            goto done;
        }
        double secs = util_now() - start, rate = (double)rep.ntrain / (secs > 0 ? secs : 1e-9);
        cpu = cpu_now() - cpu;
        train_eval(&st.net, valid, rep.nvalid, a.t.threads, &vm, &vc);
        if (!a.quiet)
            fprintf(stderr,
                    "epoch %d/%d lr %.2g: train %.6f valid mse %.6f ce %.6f, %.1f s, "
                    "%.0f positions/s (%.1f s of CPU)\n",
                    st.epoch, a.t.epochs, lr, loss, vm, vc, secs, rate, cpu);
        if (log) {
            fprintf(log,
                    "epoch %d lr %g train %.6f valid_mse %.6f valid_ce %.6f seconds %.2f "
                    "pos_per_s %.0f cpu_seconds %.2f\n",
                    st.epoch, lr, loss, vm, vc, secs, rate, cpu);
            fflush(log);
        }
        if (a.checkpoint && !train_checkpoint_save(&st, a.checkpoint, err)) {
            fprintf(stderr, "ponder train: %s\n", err);
            status = 1;
            goto done;
        }
    }

    /* 4. The network file. */
    status = finish(&a, &st, valid, rep.nvalid, log);
done:
    if (log && fclose(log) != 0 && status == 0) {
        fprintf(stderr, "ponder train: cannot write --log %s\n", a.log);
        status = 1;
    }
    train_state_free(&st);
    free(train);
    free(valid);
    return status;
}

/* Without --data: --init's network written again as it is but for the score scale and the name
 * (--scale, --name): the same logits, every score S_new / S_old as large, so the search's fixed
 * margins weigh less (or more) against the evaluation. Returns the exit status. */
static int rewrite(const Args *a)
{
    NnueNet *q = a->init_net;
    char err[ERR_LEN], old[NNUE_NAME_LEN];
    int from = q->scale;
    memcpy(old, q->name, sizeof old);
    q->scale = (int)a->d.scale;
    if (a->name_given)
        snprintf(q->name, sizeof q->name, "%s", a->name);
    if (!nnue_save(q, a->out, err)) {
        fprintf(stderr, "ponder train: %s\n", err);
        return 1;
    }
    printf("# wrote %s: the weights of \"%s\" (%s), scale %d (was %d: scores x %.4g), name "
           "\"%s\"\n",
           a->out, old, a->init, q->scale, from, (double)q->scale / from, q->name);
    return 0;
}

static int cmd_train(int argc, char **argv)
{
    Args a;
    int status = parse_args(argc, argv, &a);
    if (status >= 0) {
        if (status)
            opts_see_help("ponder train");
        return status;
    }
    if (a.init && (status = load_init(&a)) >= 0)
        return status;
    status = a.ndata > 0 ? train_run(&a) : rewrite(&a);
    nnue_free(a.init_net);
    return status;
}

PONDER_COMMAND("train", cmd_train, 85, "fit the network evaluation to self-play positions")
