/*
 * book_build.c - drop-out expansion of an opening book (see book_build.h).
 *
 * One round: (1) values are recomputed bottom-up (negamax over the graph; a repeated position
 * on the current path, possible only with kings, keeps its last value); (2) priorities are
 * found from the roots by Dijkstra's algorithm (every edge costs at least one ply, so it
 * applies); (3) the BATCH unexpanded leaves of lowest priority are expanded: their moves are
 * generated, and every child that is not yet in the graph is searched by the workers, one
 * engine each, cleared before each search so that a search depends only on its position;
 * (4) the results join the graph in a fixed order. The graph, and so the book, is therefore
 * the same for the same options whatever the number of threads.
 */
#include "book_build.h"

#include "openings.h"
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NODE_LEAF, NODE_EXPANDED, NODE_TERMINAL };

typedef struct {
    BookKey key;
    int value;      /* for the side to move */
    uint8_t depth;  /* search depth behind value */
    uint8_t state;  /* NODE_* */
    uint8_t mark;   /* scratch for the traversals */
    uint32_t first; /* first edge (expanded nodes) */
    uint32_t nedges;
    double prio; /* drop-out priority (scratch) */
    int ply;     /* plies from a root on the cheapest path (scratch) */
} Node;

typedef struct {
    uint8_t from, to; /* in the parent's (Black-to-move) frame */
    uint32_t captured;
    uint32_t child; /* node index */
} Edge;

typedef struct {
    Node *nodes;
    size_t nnodes, capnodes;
    Edge *edges;
    size_t nedges, capedges;
    uint32_t *table;  /* open addressing: node index + 1, 0 empty */
    size_t tablesize; /* a power of two */
    uint32_t *roots;
    size_t nroots;
} Graph;

/* ---- the graph --------------------------------------------------------------------------- */

static uint64_t key_hash(const BookKey *k)
{
    uint64_t h = k->us * 0x9E3779B97F4A7C15ull ^ (uint64_t)k->them * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)k->kings * 0x165667B19E3779F9ull;
    return h ^ (h >> 29);
}

static long graph_find(const Graph *g, const BookKey *k)
{
    if (g->tablesize == 0)
        return -1;
    size_t mask = g->tablesize - 1;
    for (size_t i = key_hash(k) & mask;; i = (i + 1) & mask) {
        uint32_t v = g->table[i];
        if (v == 0)
            return -1;
        if (book_key_cmp(&g->nodes[v - 1].key, k) == 0)
            return (long)(v - 1);
    }
}

static bool graph_grow_table(Graph *g)
{
    size_t size = g->tablesize ? g->tablesize * 2 : 1 << 16;
    uint32_t *t = calloc(size, sizeof *t);
    if (!t)
        return false;
    for (size_t n = 0; n < g->nnodes; n++) {
        size_t i = key_hash(&g->nodes[n].key) & (size - 1);
        while (t[i])
            i = (i + 1) & (size - 1);
        t[i] = (uint32_t)(n + 1);
    }
    free(g->table);
    g->table = t;
    g->tablesize = size;
    return true;
}

/* A new leaf for K, or -1 when out of memory. */
static long graph_add(Graph *g, const BookKey *k, int value, int depth, int state)
{
    if ((g->nnodes + 1) * 2 > g->tablesize && !graph_grow_table(g))
        return -1;
    Node *nodes = util_grow(g->nodes, &g->capnodes, g->nnodes + 1, sizeof *nodes, 4096);
    if (!nodes)
        return -1;
    g->nodes = nodes;
    Node *n = &g->nodes[g->nnodes];
    memset(n, 0, sizeof *n);
    n->key = *k;
    n->value = value;
    n->depth = (uint8_t)(depth < 0 ? 0 : depth > 255 ? 255 : depth);
    n->state = (uint8_t)state;
    size_t i = key_hash(k) & (g->tablesize - 1);
    while (g->table[i])
        i = (i + 1) & (g->tablesize - 1);
    g->table[i] = (uint32_t)(g->nnodes + 1);
    return (long)g->nnodes++;
}

static bool graph_add_edge(Graph *g, const Edge *e)
{
    Edge *edges = util_grow(g->edges, &g->capedges, g->nedges + 1, sizeof *edges, 16384);
    if (!edges)
        return false;
    g->edges = edges;
    g->edges[g->nedges++] = *e;
    return true;
}

static void graph_free(Graph *g)
{
    free(g->nodes);
    free(g->edges);
    free(g->table);
    free(g->roots);
}

/* The child key of KEY's position (Black to move) after M. */
static void child_key(const BookKey *key, const Move *m, BookKey *out, Board *child)
{
    Board b;
    book_key_board(key, &b);
    board_apply(&b, m);
    book_key(&b, out);
    if (child)
        *child = b;
}

/* ---- values and priorities --------------------------------------------------------------- */

/* Negamax values of every expanded node, children first (iterative DFS from every node). */
static void compute_values(Graph *g)
{
    for (size_t i = 0; i < g->nnodes; i++)
        g->nodes[i].mark = 0; /* 0 new, 1 on the path, 2 done */
    size_t cap = 1024, top = 0;
    uint32_t *stack = malloc(cap * sizeof *stack), *next = malloc(cap * sizeof *next);
    if (!stack || !next) {
        free(stack);
        free(next);
        return; /* values keep their last state; the caller's save still works */
    }
    for (size_t r = 0; r < g->nnodes; r++) {
        if (g->nodes[r].mark)
            continue;
        stack[0] = (uint32_t)r;
        next[0] = 0;
        top = 1;
        g->nodes[r].mark = 1;
        while (top) {
            Node *n = &g->nodes[stack[top - 1]];
            if (n->state == NODE_EXPANDED && next[top - 1] < n->nedges) {
                uint32_t c = g->edges[n->first + next[top - 1]++].child;
                if (g->nodes[c].mark == 0) {
                    if (top == cap) {
                        size_t nc = cap * 2;
                        uint32_t *s2 = realloc(stack, nc * sizeof *s2);
                        if (s2)
                            stack = s2;
                        uint32_t *n2 = s2 ? realloc(next, nc * sizeof *n2) : NULL;
                        if (!s2 || !n2) {
                            if (n2)
                                next = n2;
                            goto out;
                        }
                        next = n2;
                        cap = nc;
                    }
                    g->nodes[c].mark = 1;
                    stack[top] = c;
                    next[top] = 0;
                    top++;
                }
                continue;
            }
            if (n->state == NODE_EXPANDED) {
                int best = -SCORE_INFINITE, depth = 0;
                for (uint32_t e = n->first; e < n->first + n->nedges; e++) {
                    const Node *c = &g->nodes[g->edges[e].child];
                    int v = -c->value;
                    /* A proven result one ply further away. */
                    if (v > SCORE_DECISIVE)
                        v--;
                    else if (v < -SCORE_DECISIVE)
                        v++;
                    if (v > best) {
                        best = v;
                        depth = c->depth + 1;
                    }
                }
                n->value = best;
                n->depth = (uint8_t)(depth > 255 ? 255 : depth);
            }
            n->mark = 2;
            top--;
        }
    }
out:
    free(stack);
    free(next);
}

/* A binary heap of (priority, node) for Dijkstra. */
typedef struct {
    double prio;
    uint32_t node;
} HeapItem;

static bool heap_push(HeapItem **h, size_t *n, size_t *cap, HeapItem it)
{
    HeapItem *nh = util_grow(*h, cap, *n + 1, sizeof *nh, 4096);
    if (!nh)
        return false;
    *h = nh;
    size_t i = (*n)++;
    while (i > 0 && (*h)[(i - 1) / 2].prio > it.prio) {
        (*h)[i] = (*h)[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    (*h)[i] = it;
    return true;
}

static HeapItem heap_pop(HeapItem *h, size_t *n)
{
    HeapItem top = h[0], last = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1].prio < h[c].prio)
            c++;
        if (h[c].prio >= last.prio)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = last;
    return top;
}

/* Priorities from the roots; returns false when out of memory. Also the deepest ply. */
static bool compute_priorities(Graph *g, int drop, int *deepest)
{
    for (size_t i = 0; i < g->nnodes; i++) {
        g->nodes[i].prio = 1e300;
        g->nodes[i].mark = 0;
    }
    HeapItem *h = NULL;
    size_t n = 0, cap = 0;
    for (size_t r = 0; r < g->nroots; r++) {
        g->nodes[g->roots[r]].prio = 0;
        g->nodes[g->roots[r]].ply = 0;
        if (!heap_push(&h, &n, &cap, (HeapItem){0, g->roots[r]}))
            goto oom;
    }
    *deepest = 0;
    while (n) {
        HeapItem it = heap_pop(h, &n);
        Node *p = &g->nodes[it.node];
        if (p->mark)
            continue;
        p->mark = 1;
        if (p->state != NODE_EXPANDED)
            continue;
        if (p->ply > *deepest)
            *deepest = p->ply;
        for (uint32_t e = p->first; e < p->first + p->nedges; e++) {
            uint32_t ci = g->edges[e].child;
            Node *c = &g->nodes[ci];
            int loss = p->value - (-c->value);
            if (loss < 0)
                loss = 0;
            double pr = p->prio + 1.0 + (double)loss / drop;
            if (pr < c->prio) {
                c->prio = pr;
                c->ply = p->ply + 1;
                if (!heap_push(&h, &n, &cap, (HeapItem){pr, ci}))
                    goto oom;
            }
        }
    }
    free(h);
    return true;
oom:
    free(h);
    return false;
}

/* ---- searching --------------------------------------------------------------------------- */

typedef struct {
    BookKey key;      /* the position to search */
    Board board;      /* it, as played (its real side to move) */
    int value, depth; /* the result */
    uint64_t nodes;
    bool terminal; /* no legal move */
} Job;

typedef struct {
    const BookBuildOptions *opt;
    Engine *engine;
    Game *game;
    Job *jobs;
    size_t njobs;
    atomic_size_t *next;
} Worker;

static void *worker_main(void *arg)
{
    Worker *w = arg;
    for (;;) {
        size_t i = atomic_fetch_add(w->next, 1);
        if (i >= w->njobs)
            break;
        Job *j = &w->jobs[i];
        MoveList list;
        if (movegen_generate(&j->board, &RULES_ENGLISH, false, &list) == 0) {
            j->terminal = true;
            j->value = -SCORE_WIN;
            j->depth = 255;
            continue;
        }
        engine_new_game(w->engine);
        game_init(w->game, &RULES_ENGLISH, &j->board);
        SearchLimits lim = {.depth = w->opt->nodes ? 0 : w->opt->depth, .nodes = w->opt->nodes};
        SearchResult r = engine_search(w->engine, w->game, &lim, NULL, NULL);
        j->value = r.info.score;
        j->depth = r.info.depth;
        j->nodes = r.info.nodes;
    }
    return NULL;
}

/* Searches JOBS on every worker at once (the caller's thread is worker 0). */
static void run_jobs(Worker *workers, int nthreads, Job *jobs, size_t njobs)
{
    atomic_size_t next;
    atomic_init(&next, 0);
    for (int t = 0; t < nthreads; t++) {
        workers[t].jobs = jobs;
        workers[t].njobs = njobs;
        workers[t].next = &next;
    }
    pthread_t tids[BOOK_BUILD_MAX_THREADS];
    int started = 0;
    for (int t = 1; t < nthreads; t++) {
        if (pthread_create(&tids[t], NULL, worker_main, &workers[t]) != 0)
            break; /* the threads that did start, and this one, share the work */
        started = t;
    }
    worker_main(&workers[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(tids[t], NULL);
}

/* For sorting the candidate leaves: lower priority first, then by key, so that the choice
 * does not depend on the order nodes joined the graph (a resumed build makes the same book). */
typedef struct {
    double prio;
    BookKey key;
    uint32_t node;
} Candidate;

static int candidate_cmp(const void *a, const void *b)
{
    const Candidate *x = a, *y = b;
    if (x->prio != y->prio)
        return x->prio < y->prio ? -1 : 1;
    return book_key_cmp(&x->key, &y->key);
}

/* ---- the book file ----------------------------------------------------------------------- */

/* Book positions reachable through each node, counted along paths (memoised, capped). */
static uint32_t subtree(Graph *g, uint32_t *memo, uint32_t n, int guard)
{
    const Node *nd = &g->nodes[n];
    if (nd->state != NODE_EXPANDED)
        return 0;
    if (memo[n])
        return memo[n];
    if (guard > 200)
        return 1;
    uint64_t s = 1;
    memo[n] = 1; /* a cycle counts once */
    for (uint32_t e = nd->first; e < nd->first + nd->nedges; e++)
        s += subtree(g, memo, g->edges[e].child, guard + 1);
    memo[n] = s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
    return memo[n];
}

static bool save(Graph *g, const char *path, const char *name, char *err)
{
    Book bk = {0};
    snprintf(bk.name, sizeof bk.name, "%s", name);
    size_t npos = 0, nmoves = 0;
    for (size_t i = 0; i < g->nnodes; i++)
        if (g->nodes[i].state == NODE_EXPANDED) {
            npos++;
            nmoves += g->nodes[i].nedges;
        }
    bk.pos = malloc((npos ? npos : 1) * sizeof *bk.pos);
    bk.moves = malloc((nmoves ? nmoves : 1) * sizeof *bk.moves);
    uint32_t *order = malloc((npos ? npos : 1) * sizeof *order);
    uint32_t *memo = calloc(g->nnodes ? g->nnodes : 1, sizeof *memo);
    bool ok = bk.pos && bk.moves && order && memo;
    if (ok) {
        size_t k = 0;
        for (size_t i = 0; i < g->nnodes; i++)
            if (g->nodes[i].state == NODE_EXPANDED)
                order[k++] = (uint32_t)i;
        /* Sort the expanded nodes by key (insertion into sorted runs would be quadratic). */
        for (size_t w = 1; w < npos; w *= 2) {
            uint32_t *tmp = malloc(npos * sizeof *tmp);
            if (!tmp) {
                ok = false;
                break;
            }
            for (size_t lo = 0; lo < npos; lo += 2 * w) {
                size_t mid = lo + w < npos ? lo + w : npos,
                       hi = lo + 2 * w < npos ? lo + 2 * w : npos;
                size_t a = lo, b = mid, t = lo;
                while (a < mid || b < hi)
                    tmp[t++] = b >= hi || (a < mid && book_key_cmp(&g->nodes[order[a]].key,
                                                                   &g->nodes[order[b]].key) < 0)
                                   ? order[a++]
                                   : order[b++];
            }
            memcpy(order, tmp, npos * sizeof *tmp);
            free(tmp);
        }
    }
    if (ok) {
        size_t m = 0;
        for (size_t i = 0; i < npos; i++) {
            const Node *n = &g->nodes[order[i]];
            bk.pos[i].key = n->key;
            bk.pos[i].first = (uint32_t)m;
            bk.pos[i].n = n->nedges;
            for (uint32_t e = n->first; e < n->first + n->nedges; e++) {
                const Edge *ed = &g->edges[e];
                const Node *c = &g->nodes[ed->child];
                BookMove *bm = &bk.moves[m++];
                memset(bm, 0, sizeof *bm);
                bm->from = ed->from;
                bm->to = ed->to;
                bm->captured = ed->captured;
                int v = -c->value;
                bm->score = (int16_t)(v > SCORE_WIN ? SCORE_WIN : v < -SCORE_WIN ? -SCORE_WIN : v);
                bm->depth = c->depth;
                bm->count = subtree(g, memo, ed->child, 0);
            }
        }
        bk.npos = npos;
        bk.nmoves = m;
        ok = book_save(&bk, path, err);
    } else {
        snprintf(err, ERR_LEN, "out of memory saving the book");
    }
    free(bk.pos);
    free(bk.moves);
    free(order);
    free(memo);
    return ok;
}

/* Rebuilds the graph of a saved book: its positions expanded, the positions their moves lead to
 * that are not in the book as leaves valued by the move's score. */
static bool load_graph(Graph *g, const Book *bk, char *err)
{
    for (size_t i = 0; i < bk->npos; i++)
        if (graph_add(g, &bk->pos[i].key, 0, 0, NODE_EXPANDED) < 0)
            goto oom;
    for (size_t i = 0; i < bk->npos; i++) {
        Board b;
        book_key_board(&bk->pos[i].key, &b);
        MoveList list;
        movegen_generate(&b, &RULES_ENGLISH, false, &list);
        uint32_t first = (uint32_t)g->nedges, n = 0;
        for (uint32_t j = bk->pos[i].first; j < bk->pos[i].first + bk->pos[i].n; j++) {
            const BookMove *bm = &bk->moves[j];
            int k = 0;
            while (k < list.count &&
                   !(list.moves[k].from == bm->from && list.moves[k].to == bm->to &&
                     list.moves[k].captured == bm->captured))
                k++;
            if (k == list.count) {
                snprintf(err, ERR_LEN, "the book holds an illegal move (position %zu)", i);
                return false;
            }
            BookKey ck;
            Board cb;
            child_key(&bk->pos[i].key, &list.moves[k], &ck, &cb);
            long c = graph_find(g, &ck);
            if (c < 0) {
                MoveList cl;
                bool term = movegen_generate(&cb, &RULES_ENGLISH, false, &cl) == 0;
                c = graph_add(g, &ck, -bm->score, bm->depth, term ? NODE_TERMINAL : NODE_LEAF);
                if (c < 0)
                    goto oom;
            }
            Edge e = {bm->from, bm->to, bm->captured, (uint32_t)c};
            if (!graph_add_edge(g, &e))
                goto oom;
            n++;
        }
        g->nodes[i].first = first;
        g->nodes[i].nedges = n;
    }
    return true;
oom:
    snprintf(err, ERR_LEN, "out of memory loading the book");
    return false;
}

/* ---- the build --------------------------------------------------------------------------- */

bool book_build(const char *path, const char *name, const BookBuildOptions *opt,
                BookBuildProgress progress, void *ctx, BookBuildStatus *status, char *err)
{
    Graph g = {0};
    Worker *workers = NULL;
    Job *jobs = NULL;
    uint32_t *batch = NULL;
    Candidate *cands = NULL;
    bool ok = false;
    int nthreads = opt->threads < 1 ? 1 : opt->threads;
    if (nthreads > BOOK_BUILD_MAX_THREADS)
        nthreads = BOOK_BUILD_MAX_THREADS;
    double start = util_now(), last_save = start;
    memset(status, 0, sizeof *status);

    /* 1. The graph: the saved book, if any, then the roots. */
    FILE *f = fopen(path, "rb");
    if (f) {
        fclose(f);
        Book *bk = book_load(path, err);
        if (!bk)
            return false;
        bool loaded = load_graph(&g, bk, err);
        book_free(bk);
        if (!loaded)
            goto out;
    }
    Opening *ballots = NULL;
    int nballots = 0;
    if (opt->ballots && (nballots = openings_ballots(false, &ballots, err)) < 0)
        goto out;
    g.roots = malloc((size_t)(nballots + 1) * sizeof *g.roots);
    if (!g.roots) {
        free(ballots);
        snprintf(err, ERR_LEN, "out of memory");
        goto out;
    }
    Job *rootjobs = calloc((size_t)nballots + 1, sizeof *rootjobs);
    size_t nrootjobs = 0;
    if (!rootjobs) {
        free(ballots);
        snprintf(err, ERR_LEN, "out of memory");
        goto out;
    }
    for (int r = 0; r <= nballots; r++) {
        if (r % opt->shards != opt->shard)
            continue;
        Board b;
        if (r == 0)
            board_start(&b);
        else
            b = ballots[r - 1].start;
        BookKey k;
        book_key(&b, &k);
        long n = graph_find(&g, &k);
        if (n < 0) {
            rootjobs[nrootjobs].key = k;
            rootjobs[nrootjobs].board = b;
            nrootjobs++;
        } else {
            g.roots[g.nroots++] = (uint32_t)n;
        }
    }
    free(ballots);

    /* 2. Workers. */
    workers = calloc((size_t)nthreads, sizeof *workers);
    if (!workers) {
        free(rootjobs);
        snprintf(err, ERR_LEN, "out of memory");
        goto out;
    }
    EngineOptions eo = opt->engine;
    eo.threads = 1;
    for (int t = 0; t < nthreads; t++) {
        workers[t].opt = opt;
        workers[t].game = malloc(sizeof *workers[t].game);
        workers[t].engine = workers[t].game ? engine_new(&eo, err) : NULL;
        if (!workers[t].engine) {
            if (!workers[t].game)
                snprintf(err, ERR_LEN, "out of memory");
            free(rootjobs);
            goto out;
        }
    }

    /* The roots' own searches first. */
    run_jobs(workers, nthreads, rootjobs, nrootjobs);
    for (size_t i = 0; i < nrootjobs; i++) {
        long n = graph_find(&g, &rootjobs[i].key);
        if (n < 0)
            n = graph_add(&g, &rootjobs[i].key, rootjobs[i].value, rootjobs[i].depth,
                          rootjobs[i].terminal ? NODE_TERMINAL : NODE_LEAF);
        if (n < 0) {
            free(rootjobs);
            snprintf(err, ERR_LEN, "out of memory");
            goto out;
        }
        g.roots[g.nroots++] = (uint32_t)n;
        status->searches++;
        status->nodes += rootjobs[i].nodes;
    }
    free(rootjobs);

    /* 3. Rounds of expansion. */
    size_t batchsize = opt->batch < 1 ? 1 : (size_t)opt->batch, capjobs = 0;
    batch = malloc(batchsize * sizeof *batch);
    if (!batch) {
        snprintf(err, ERR_LEN, "out of memory");
        goto out;
    }
    for (;;) {
        free(cands);
        if (!(cands = malloc((g.nnodes ? g.nnodes : 1) * sizeof *cands))) {
            snprintf(err, ERR_LEN, "out of memory");
            goto out;
        }
        compute_values(&g);
        int deepest = 0;
        if (!compute_priorities(&g, opt->drop, &deepest)) {
            snprintf(err, ERR_LEN, "out of memory");
            goto out;
        }
        size_t expanded = 0;
        for (size_t i = 0; i < g.nnodes; i++)
            expanded += g.nodes[i].state == NODE_EXPANDED;
        status->positions = expanded;
        status->leaves = g.nnodes - expanded;
        status->deepest = deepest;
        status->seconds = util_now() - start;
        bool done = expanded >= opt->positions || (opt->stop && atomic_load(opt->stop));

        if (done || util_now() - last_save >= opt->save_every) {
            if (!save(&g, path, name, err))
                goto out;
            last_save = util_now();
            if (progress)
                progress(status, true, ctx);
        }
        if (done)
            break;

        /* The leaves of lowest priority, reached from a root, not proven. */
        size_t nc = 0;
        for (size_t i = 0; i < g.nnodes; i++) {
            const Node *n = &g.nodes[i];
            if (n->state == NODE_LEAF && n->mark && !score_is_decisive(n->value))
                cands[nc++] = (Candidate){n->prio, n->key, (uint32_t)i};
        }
        qsort(cands, nc, sizeof *cands, candidate_cmp);
        size_t want = opt->positions - expanded < batchsize ? opt->positions - expanded : batchsize;
        size_t nb = nc < want ? nc : want;
        for (size_t b = 0; b < nb; b++)
            batch[b] = cands[b].node;
        if (nb == 0) {
            /* Nothing left to expand: every line ends in a proven result. */
            if (!save(&g, path, name, err))
                goto out;
            if (progress)
                progress(status, true, ctx);
            break;
        }

        /* The children of the batch that the graph lacks, each once. */
        size_t njobs = 0;
        for (size_t b = 0; b < nb; b++) {
            Board bd;
            book_key_board(&g.nodes[batch[b]].key, &bd);
            MoveList list;
            movegen_generate(&bd, &RULES_ENGLISH, false, &list);
            for (int k = 0; k < list.count; k++) {
                BookKey ck;
                Board cb;
                child_key(&g.nodes[batch[b]].key, &list.moves[k], &ck, &cb);
                if (graph_find(&g, &ck) >= 0)
                    continue;
                bool dup = false;
                for (size_t j = 0; j < njobs && !dup; j++)
                    dup = book_key_cmp(&jobs[j].key, &ck) == 0;
                if (dup)
                    continue;
                Job *nj = util_grow(jobs, &capjobs, njobs + 1, sizeof *nj, 256);
                if (!nj) {
                    snprintf(err, ERR_LEN, "out of memory");
                    goto out;
                }
                jobs = nj;
                memset(&jobs[njobs], 0, sizeof *jobs);
                jobs[njobs].key = ck;
                jobs[njobs].board = cb;
                njobs++;
            }
        }
        run_jobs(workers, nthreads, jobs, njobs);
        for (size_t j = 0; j < njobs; j++) {
            if (graph_add(&g, &jobs[j].key, jobs[j].value, jobs[j].depth,
                          jobs[j].terminal ? NODE_TERMINAL : NODE_LEAF) < 0) {
                snprintf(err, ERR_LEN, "out of memory");
                goto out;
            }
            status->searches++;
            status->nodes += jobs[j].nodes;
        }
        for (size_t b = 0; b < nb; b++) {
            Node *n = &g.nodes[batch[b]];
            Board bd;
            book_key_board(&n->key, &bd);
            MoveList list;
            movegen_generate(&bd, &RULES_ENGLISH, false, &list);
            uint32_t first = (uint32_t)g.nedges;
            for (int k = 0; k < list.count; k++) {
                BookKey ck;
                child_key(&n->key, &list.moves[k], &ck, NULL);
                Edge e = {list.moves[k].from, list.moves[k].to, list.moves[k].captured,
                          (uint32_t)graph_find(&g, &ck)};
                if (!graph_add_edge(&g, &e)) {
                    snprintf(err, ERR_LEN, "out of memory");
                    goto out;
                }
            }
            n = &g.nodes[batch[b]];
            n->first = first;
            n->nedges = (uint32_t)list.count;
            n->state = NODE_EXPANDED;
        }
        if (progress)
            progress(status, false, ctx);
    }
    ok = true;
out:
    if (workers)
        for (int t = 0; t < nthreads; t++) {
            engine_free(workers[t].engine);
            free(workers[t].game);
        }
    free(workers);
    free(jobs);
    free(batch);
    free(cands);
    graph_free(&g);
    return ok;
}
