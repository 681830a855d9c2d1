/*
 * test_egdb.c - endgame databases: the index against the published position counts, encode /
 * decode round trips, a small build that verifies, known results (two kings beat one), damaged
 * files, and resuming an interrupted build.
 */
#include "check.h"
#include "egdb_build.h"
#include "engine.h"
#include "notation.h"
#include "rng.h"

#include <stdlib.h>
#include <unistd.h>

static char dir[256];
static int built_pieces;

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void)
{
    return rng_xorshift64(&rng_state);
}

static void published_counts(void)
{
    /* Position counts without side to move, as published for English checkers databases. */
    static const uint64_t want[] = {0,       120,       6972,          261224,
                                    7092774, 148688232, 2503611964ull, 34779531480ull};
    for (int n = 1; n <= 7; n++)
        CHECK_EQ_U64(egdb_count_positions(n), want[n]);
}

static void index_round_trip(void)
{
    static const int slices[][4] = {{1, 0, 1, 0}, {2, 1, 1, 2}, {0, 3, 0, 3}, {3, 0, 3, 0},
                                    {1, 2, 2, 1}, {4, 0, 0, 2}, {0, 1, 5, 0}};
    for (size_t k = 0; k < sizeof slices / sizeof slices[0]; k++) {
        EgdbSlice s;
        egdb_slice_init(&s, slices[k][0], slices[k][1], slices[k][2], slices[k][3]);
        uint64_t valid = 0;
        bool exhaustive = s.size <= 200000;
        uint64_t tries = exhaustive ? s.size : 20000;
        for (uint64_t t = 0; t < tries; t++) {
            uint64_t i = exhaustive ? t : rng() % s.size;
            Board b, f, ff;
            if (!egdb_index_decode(&s, i, &b))
                continue;
            valid++;
            char err[ERR_LEN];
            b.key = board_compute_key(&b);
            CHECK(board_valid(&b, err));
            if (egdb_index_encode(&s, &b) != i) {
                printf("  slice %zu index %llu does not round-trip\n", k, (unsigned long long)i);
                check_failed++;
                return;
            }
            board_turn_nokey(&b, &f);
            board_turn_nokey(&f, &ff);
            CHECK(board_equal(&b, &ff));
        }
        if (exhaustive)
            CHECK_EQ_U64(valid, egdb_slice_positions(slices[k][0], slices[k][1], slices[k][2],
                                                     slices[k][3]));
    }
}

static void cursor_walk(void)
{
    /* The sequential cursor visits exactly the decoded positions, in index order. */
    static const int slices[][4] = {{1, 0, 1, 0}, {0, 2, 0, 2}, {2, 0, 1, 1}, {0, 0, 3, 1}};
    for (size_t k = 0; k < sizeof slices / sizeof slices[0]; k++) {
        EgdbSlice s;
        egdb_slice_init(&s, slices[k][0], slices[k][1], slices[k][2], slices[k][3]);
        EgdbCursor c;
        egdb_cursor_start(&c, &s, 0);
        uint64_t bad = 0;
        for (uint64_t i = 0; i < s.size; i++, egdb_cursor_next(&c)) {
            Board b;
            bool v = egdb_index_decode(&s, i, &b);
            if (c.i != i || v != c.valid ||
                (v && (b.pieces[0] != c.b.pieces[0] || b.pieces[1] != c.b.pieces[1] ||
                       b.kings != c.b.kings)))
                bad++;
        }
        CHECK_EQ_U64(bad, 0);
        CHECK_EQ_U64(c.i, s.size);
        /* Starting in the middle gives the same positions as walking there. */
        uint64_t mid = s.size / 3;
        egdb_cursor_start(&c, &s, mid);
        Board b;
        CHECK(egdb_index_decode(&s, mid, &b) == c.valid);
    }
}

static void build_and_verify(void)
{
    EgdbBuildOptions opt = {dir, built_pieces, 2, true};
    char err[ERR_LEN];
    CHECK(egdb_build(&opt, NULL, NULL, err));
    uint64_t checked = 0;
    CHECK(egdb_verify(dir, built_pieces, 2, &checked, NULL, NULL, err) == 0);
    uint64_t want = 0;
    for (int n = 2; n <= built_pieces; n++)
        for (int bm = 0; bm <= n; bm++)
            for (int bk = 0; bm + bk <= n; bk++)
                for (int wm = 0; bm + bk + wm <= n; wm++) {
                    int wk = n - bm - bk - wm;
                    if (bm + bk && wm + wk)
                        want += egdb_slice_positions(bm, bk, wm, wk);
                }
    CHECK_EQ_U64(checked, want);
}

static EgdbValue probe_fen(const EgdbSet *set, const char *fen)
{
    Board b;
    ParseError e;
    if (!notation_parse_fen(fen, &b, &e))
        return (EgdbValue)-1;
    return egdb_probe(set, &b);
}

static void known_results(void)
{
    char err[ERR_LEN];
    EgdbSet *set = egdb_open(dir, err);
    CHECK(set != NULL);
    if (!set)
        return;
    CHECK(egdb_complete_pieces(set) == built_pieces);
    CHECK(probe_fen(set, "W:WK1,K2:BK32") == EGDB_WIN);
    CHECK(probe_fen(set, "B:WK1,K2:BK32") == EGDB_LOSS);
    CHECK(probe_fen(set, "B:WK14:BK1") == EGDB_DRAW);
    /* Black king in the single corner (4), White king on 12: the only move walks into 12x4. */
    CHECK(probe_fen(set, "B:WK12:BK4") == EGDB_LOSS);
    CHECK(probe_fen(set, "B:W:BK5") == EGDB_WIN);
    /* Two kings against one win, except where the lone king traps a king in the single corner
     * or wins one at once: at least 99% of the positions with the two kings to move. */
    EgdbSlice s;
    egdb_slice_init(&s, 0, 2, 0, 1);
    uint64_t wins = 0, positions = 0;
    for (uint64_t i = 0; i < s.size; i++) {
        Board b;
        if (!egdb_index_decode(&s, i, &b))
            continue;
        positions++;
        wins += egdb_probe(set, &b) == EGDB_WIN;
        Board f;
        board_turn_nokey(&b, &f); /* the same position seen with colours swapped */
        CHECK(egdb_probe(set, &f) == egdb_probe(set, &b));
    }
    CHECK(wins * 100 >= positions * 99 && wins < positions);
    egdb_close(set);
}

/* An independent solver: every position of 2 and 3 pieces (both sides to move) valued by
 * iterating "a move to a lost position wins, all moves to won positions lose" to a fixed point,
 * with no retrograde step and no database lookups; what stays open is a draw. It must agree with
 * the built databases everywhere. */
typedef struct {
    EgdbSlice s;
    uint8_t *v;
} Small;
static Small small[4][4][4][4];

static int small_value(const Board *c)
{
    Board f = *c;
    if (c->side == WHITE)
        board_turn_nokey(c, &f);
    if (!f.pieces[BLACK])
        return EGDB_LOSS;
    if (!f.pieces[WHITE])
        return EGDB_WIN;
    EgdbSlice s;
    egdb_slice_of(&f, &s);
    Small *sm = &small[s.bm][s.bk][s.wm][s.wk];
    return sm->v[egdb_index_encode(&sm->s, &f)];
}

static void independent_solver(void)
{
    char err[ERR_LEN];
    for (int bm = 0; bm < 4; bm++)
        for (int bk = 0; bk < 4; bk++)
            for (int wm = 0; wm < 4; wm++)
                for (int wk = 0; wk < 4; wk++) {
                    int n = bm + bk + wm + wk;
                    if (n < 2 || n > 3 || bm + bk == 0 || wm + wk == 0)
                        continue;
                    Small *sm = &small[bm][bk][wm][wk];
                    egdb_slice_init(&sm->s, bm, bk, wm, wk);
                    sm->v = calloc((size_t)sm->s.size, 1);
                }
    bool changed = true;
    while (changed) {
        changed = false;
        Small *all = &small[0][0][0][0];
        for (int k = 0; k < 4 * 4 * 4 * 4; k++) {
            if (!all[k].v)
                continue;
            for (uint64_t i = 0; i < all[k].s.size; i++) {
                Board b;
                if (all[k].v[i] || !egdb_index_decode(&all[k].s, i, &b))
                    continue;
                MoveList l;
                int n = movegen_generate(&b, &RULES_ENGLISH, false, &l);
                bool win = false, all_win = true;
                for (int m = 0; m < n; m++) {
                    Board c = b;
                    board_apply(&c, &l.moves[m]);
                    int v = small_value(&c);
                    win = win || v == EGDB_LOSS;
                    all_win = all_win && v == EGDB_WIN;
                }
                if (win || all_win) {
                    all[k].v[i] = win ? EGDB_WIN : EGDB_LOSS;
                    changed = true;
                }
            }
        }
    }
    EgdbSet *set = egdb_open(dir, err);
    CHECK(set != NULL);
    uint64_t compared = 0, differ = 0;
    Small *all = &small[0][0][0][0];
    for (int k = 0; k < 4 * 4 * 4 * 4; k++) {
        if (!all[k].v)
            continue;
        for (uint64_t i = 0; i < all[k].s.size && set; i++) {
            Board b;
            if (!egdb_index_decode(&all[k].s, i, &b))
                continue;
            int want = all[k].v[i] ? all[k].v[i] : EGDB_DRAW;
            compared++;
            if ((int)egdb_probe(set, &b) != want && differ++ < 3) {
                char fen[100];
                notation_format_fen(&b, fen, sizeof fen);
                printf("  %s: database %d, independent solver %d\n", fen, egdb_probe(set, &b),
                       want);
            }
        }
        free(all[k].v);
        all[k].v = NULL;
    }
    CHECK_EQ_U64(differ, 0);
    uint64_t want = 0;
    for (int bm = 0; bm < 4; bm++)
        for (int bk = 0; bk < 4; bk++)
            for (int wm = 0; wm < 4; wm++)
                for (int wk = 0; wk < 4; wk++) {
                    int n = bm + bk + wm + wk;
                    if (n >= 2 && n <= 3 && bm + bk && wm + wk)
                        want += egdb_slice_positions(bm, bk, wm, wk);
                }
    CHECK_EQ_U64(compared, want);
    if (set)
        egdb_close(set);
}

static void damaged_files(void)
{
    char err[ERR_LEN], path[512], cmd[1200];
    char bad[300];
    snprintf(bad, sizeof bad, "%s-damaged", dir);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s'", bad, dir, bad);
    CHECK(system(cmd) == 0);
    /* Flip a byte in the data of one slice: reading it reports the damage. */
    snprintf(path, sizeof path, "%s/db-0-2-0-1.egdb", bad);
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (!f)
        return;
    fseek(f, -3, SEEK_END);
    int c = fgetc(f);
    fseek(f, -3, SEEK_END);
    fputc(c ^ 0x55, f);
    fclose(f);
    EgdbFileInfo info;
    CHECK(!egdb_read_slice(path, &info, NULL, err));
    CHECK(strstr(err, "damaged") || strstr(err, "decode"));
    /* Truncate another: opening leaves it out with a warning, and the rest still answers. */
    snprintf(path, sizeof path, "%s/db-0-1-0-1.egdb", bad);
    CHECK(truncate(path, 40) == 0);
    EgdbSet *set = egdb_open(bad, err);
    CHECK(set != NULL);
    if (set) {
        CHECK(strstr(egdb_warnings(set), "db-0-1-0-1.egdb") != NULL);
        CHECK(probe_fen(set, "B:WK14:BK1") == EGDB_UNKNOWN);
        CHECK(probe_fen(set, "W:W5:B1,2") == EGDB_LOSS);
        CHECK(egdb_complete_pieces(set) == 1);
        egdb_close(set);
    }
    /* An empty or missing directory is an error with a reason. */
    CHECK(egdb_open("/nonexistent/ponder-egdb", err) == NULL && strstr(err, "cannot read"));
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", bad, bad);
    CHECK(system(cmd) == 0);
    CHECK(egdb_open(bad, err) == NULL && strstr(err, "no database files"));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", bad);
    CHECK(system(cmd) == 0);
}

/* Whole contents of PATH into BUF (at most SIZE bytes); returns the length or -1. */
static long slurp(const char *path, char *buf, long size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    long n = (long)fread(buf, 1, (size_t)size, f);
    fclose(f);
    return n;
}

static void resume(void)
{
    /* Remove two slices and leave a half-written temporary file: the build redoes exactly
     * what is missing, and the rebuilt files are byte for byte the ones removed. */
    static char before[2][1 << 20], after[1 << 20];
    const char *names[2] = {"db-1-0-1-1.egdb", "db-1-1-1-0.egdb"};
    char path[512], err[ERR_LEN];
    long len[2];
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        len[k] = slurp(path, before[k], sizeof before[k]);
        CHECK(len[k] > 0);
        CHECK(unlink(path) == 0);
    }
    snprintf(path, sizeof path, "%s/db-1-0-1-1.egdb.tmp", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs("half a file", f);
        fclose(f);
    }
    EgdbBuildOptions opt = {dir, built_pieces, 1, true};
    CHECK(egdb_build(&opt, NULL, NULL, err));
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        long n = slurp(path, after, sizeof after);
        CHECK(n == len[k] && memcmp(after, before[k], (size_t)n) == 0);
    }
}

/* The engine with the databases converts won endings: from database wins of 3 and 4 pieces it
 * plays both sides (depth-limited, so the test is repeatable) and the winner must win, and every
 * move the winner makes must keep the win. */
static void engine_converts(void)
{
    char err[ERR_LEN];
    EngineOptions opt;
    engine_default_options(&opt);
    opt.hash_mb = 4;
    opt.egdb_dir = dir;
    Engine *e = engine_new(&opt, err);
    CHECK(e != NULL);
    EgdbSet *set = egdb_open(dir, err);
    CHECK(set != NULL);
    if (!e || !set)
        return;
    static const int slices[][4] = {{0, 2, 0, 1}, {1, 1, 0, 1}, {0, 2, 1, 0},
                                    {0, 3, 0, 1}, {1, 2, 0, 1}, {0, 2, 0, 2}};
    int games = 0, converted = 0;
    uint64_t x = 0x2545F4914F6CDD1Dull;
    static Game g;
    for (int k = 0; games < 12; k++) {
        rng_xorshift64(&x);
        const int *c = slices[k % 6];
        if (c[0] + c[1] + c[2] + c[3] > built_pieces)
            continue;
        EgdbSlice s;
        egdb_slice_init(&s, c[0], c[1], c[2], c[3]);
        Board b;
        if (!egdb_index_decode(&s, x % s.size, &b) || movegen_jumpers(&b) ||
            egdb_probe(set, &b) != EGDB_WIN)
            continue;
        b.key = board_compute_key(&b);
        games++;
        game_init(&g, &RULES_ENGLISH, &b);
        SearchLimits lim = {.depth = 6};
        GameResult r = RESULT_NONE;
        bool kept = true;
        for (int ply = 0; ply < 160 && (r = game_result(&g)) == RESULT_NONE; ply++) {
            SearchResult sr = engine_search(e, &g, &lim, NULL, NULL);
            if (!sr.has_move)
                break;
            bool winner_moves = g.board.side == b.side;
            game_play(&g, &sr.best);
            if (winner_moves && !movegen_jumpers(&g.board) &&
                egdb_probe(set, &g.board) != EGDB_LOSS)
                kept = false;
        }
        CHECK(kept);
        converted += r == (b.side == BLACK ? RESULT_BLACK_WINS : RESULT_WHITE_WINS);
    }
    CHECK(converted == games);
    egdb_close(set);
    engine_free(e);
}

int main(void)
{
    egdb_hook_register(&egdb_driver); /* the engine of this program has the databases */
    const char *variant = getenv("PONDER_VARIANT");
    built_pieces = variant && strcmp(variant, "asan") == 0 ? 3 : 4;
    snprintf(dir, sizeof dir, "%s/ponder-egdb-test-%d",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    RUN("egdb", published_counts);
    RUN("egdb", index_round_trip);
    RUN("egdb", cursor_walk);
    RUN("egdb", build_and_verify);
    RUN("egdb", known_results);
    RUN("egdb", independent_solver);
    RUN("egdb", engine_converts);
    RUN("egdb", damaged_files);
    RUN("egdb", resume);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return check_total_failed != 0;
}
