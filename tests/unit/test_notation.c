/*
 * test_notation.c - every notation parser on good input (hand-derived positions, the seed
 * samples and board files), write -> read round trips, a list of bad inputs per parser each with
 * the message and place it must get, and random byte strings that must never crash (this runs
 * under ASan+UBSan too).
 *
 * Square geometry: see the table at the top of test_movegen.c (square 1 at row 0 column 1,
 * Black at the top moving down).
 */
#include <stdlib.h>

#include "boardfile.h"
#include "check.h"
#include "hackerrank.h"
#include "middleware.h"
#include "notation.h"
#include "rng.h"
#include "tower.h"
#include "tower_format.h"
#include "util.h"

static bool asan(void)
{
    const char *v = getenv("PONDER_VARIANT");
    return v && strcmp(v, "asan") == 0;
}

static uint64_t rng_state = 0x853C49E6748FEA9Bull;
static uint64_t rng(void)
{
    return rng_xorshift64(&rng_state);
}

/* A random legal-looking position: men never on their own crowning row. */
static void random_board(Board *b)
{
    board_clear(b, (int)(rng() & 1));
    int density = 2 + (int)(rng() % 7);
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        if ((int)(rng() % 10) >= density)
            continue;
        int color = (int)(rng() & 1);
        bool king = rng() % 4 == 0 || board_crown_square(color, sq);
        board_set(b, sq, color, king);
    }
}

static char *read_data(const char *name)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/%s", check_data_dir(), name);
    char *text = util_read_file(path, 1 << 20, NULL, err, sizeof err);
    if (!text)
        printf("  %s\n", err);
    return text;
}

static const char *fen_of(const Board *b)
{
    static char buf[200];
    notation_format_fen(b, buf, sizeof buf);
    return buf;
}

/* ---- FEN ---- */

static void fen_good(void)
{
    Board b, start;
    ParseError e;
    board_start(&start);
    /* The start in several spellings: either list order, ranges, lower case, quotes, a final
     * period, blanks around. */
    const char *starts[] = {
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "B:B1,2,3,4,5,6,7,8,9,10,11,12:W21,22,23,24,25,26,27,28,29,30,31,32",
        "B:W21-32:B1-12",
        "b:w21-32:b1-12",
        "  \"B:W21-32:B1-12.\"  ",
        "B:W21-32:B1-12.",
    };
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
        bool ok = notation_parse_fen(starts[k], &b, &e);
        if (!ok)
            printf("  `%s': %s\n", starts[k], e.msg);
        CHECK(ok && board_equal(&b, &start) && b.key == start.key);
    }
    /* Kings and empty lists. */
    CHECK(notation_parse_fen("W:WK30:B1,K9", &b, &e));
    CHECK(b.side == WHITE && b.pieces[WHITE] == 1u << 29 && b.kings == ((1u << 29) | (1u << 8)));
    CHECK(b.pieces[BLACK] == ((1u << 0) | (1u << 8)));
    CHECK(notation_parse_fen("W:W:B9", &b, &e) && b.pieces[WHITE] == 0 &&
          b.pieces[BLACK] == 1u << 8);
    CHECK(notation_parse_fen("B:W:B", &b, &e) && b.pieces[0] == 0 && b.pieces[1] == 0);
    CHECK(notation_parse_fen("B:WK1-3:B", &b, &e) && b.kings == 7u);
    /* The writer: side, White then Black, men before kings, ascending. */
    CHECK_STR(fen_of(&start), "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    CHECK(notation_parse_fen("W:BK9,1:WK30,22", &b, &e));
    CHECK_STR(fen_of(&b), "W:W22,K30:B1,K9");
    CHECK(notation_parse_fen("B:W:B", &b, &e));
    CHECK_STR(fen_of(&b), "B:W:B");
    CHECK(notation_parse_fen("B:WK5:B", &b, &e));
    CHECK_STR(fen_of(&b), "B:WK5:B");
}

static void fen_round_trip(void)
{
    int n = asan() ? 2000 : 20000;
    for (int k = 0; k < n; k++) {
        Board b, back;
        ParseError e;
        random_board(&b);
        char buf[200];
        notation_format_fen(&b, buf, sizeof buf);
        if (!notation_parse_fen(buf, &back, &e) || !board_equal(&b, &back) || back.key != b.key) {
            printf("  round trip of %s failed\n", buf);
            check_failed++;
            return;
        }
    }
}

typedef struct {
    const char *text, *msg;
    int line, col;
} BadCase;

/* Runs each case through PARSE and checks the error (message part, line, column). */
static void check_bad(const char *what, const BadCase *cases, size_t n,
                      bool (*parse)(const char *, ParseError *))
{
    for (size_t k = 0; k < n; k++) {
        ParseError e = {"", -1, -1};
        bool ok = parse(cases[k].text, &e);
        if (ok || !strstr(e.msg, cases[k].msg) || e.line != cases[k].line ||
            e.col != cases[k].col) {
            printf("  %s case %zu: %s `%s' at %d:%d; expected `%s' at %d:%d\n", what, k,
                   ok ? "accepted," : "", e.msg, e.line, e.col, cases[k].msg, cases[k].line,
                   cases[k].col);
            check_failed++;
        }
    }
}

static bool parse_fen(const char *t, ParseError *e)
{
    Board b;
    return notation_parse_fen(t, &b, e);
}

static bool parse_setup(const char *t, ParseError *e)
{
    Board b;
    return notation_parse_setup(t, &b, e);
}

/* A set-up FEN: what notation_parse_fen reads, less men on their own crowning rows (the words
 * of board_reachable, the column of the man, or of the range that holds it). */
static void fen_setup(void)
{
    Board b, want;
    ParseError e;
    CHECK(notation_parse_setup("B:WK1,21:B5,9,K29", &b, &e));
    CHECK(notation_parse_fen("B:WK1,21:B5,9,K29", &want, &e) && board_equal(&b, &want));
    CHECK(notation_parse_setup("W:W5,32:B1,28", &b, &e)); /* each on the other's crowning row */
    static const BadCase cases[] = {
        {"B:W1,21:B5,9", "a White man on square 1, its crowning row (write it as a king: K1)", 0,
         4},
        {" \"W:W21:B5,K30,29.\"", "a Black man on square 29, its crowning row", 0, 16},
        {"B:W21,2-5:B9", "a White man on square 2", 0, 7},
        {"B:W33:B29", "square number `33' out of range", 0, 4}, /* syntax first */
    };
    check_bad("set-up FEN", cases, sizeof cases / sizeof cases[0], parse_setup);
    /* B is left as it was. */
    board_start(&b);
    board_start(&want);
    CHECK(!notation_parse_setup("B:W1:B5", &b, &e) && board_equal(&b, &want));
}

static void fen_bad(void)
{
    static const BadCase cases[] = {
        {"", "empty FEN", 0, 1},
        {"   ", "empty FEN", 0, 4},
        {"X:W1:B2", "unexpected character `X'", 0, 1},
        {"B", "missing colour list", 0, 2},
        {"B:", "missing colour letter", 0, 3},
        {"B:W1", "missing colour list", 0, 5},
        {"B;W1:B2", "unexpected character `;'", 0, 2},
        {"B:R1:B2", "unexpected character `R'", 0, 3},
        {"B:W1:W2", "colour `W' given twice", 0, 6},
        {"B:W33:B1", "square number `33' out of range", 0, 4},
        {"B:W0:B1", "square number `0' out of range", 0, 4},
        {"B:W1000000:B1", "out of range", 0, 4},
        {"B:W1,1:B2", "square number `1' repeated", 0, 6},
        {"B:W1:B1", "square number `1' repeated", 0, 7},
        {"B:W1,:B2", "unexpected character `:'", 0, 6},
        {"B:WK:B2", "unexpected character `:'", 0, 5},
        {"B:W3-1:B5", "range runs backwards", 0, 4},
        {"B:W1-:B5", "unexpected character `:'", 0, 6},
        {"\"B:W1:B2", "unbalanced quote", 0, 1},
        {"B:W1:B2 x", "unexpected character ` '", 0, 8},
        {"B:W1:B2:W3", "unexpected character `:'", 0, 8},
        {"B:W1:B2\x01", "unexpected character `\\x01'", 0, 8},
        {"B:W1:B\xC3\xA9", "unexpected character `\\xC3'", 0, 7},
    };
    check_bad("FEN", cases, sizeof cases / sizeof cases[0], parse_fen);
    /* Overlong */
    char big[2000];
    memset(big, '1', sizeof big - 1);
    memcpy(big, "B:W", 3);
    big[sizeof big - 1] = '\0';
    ParseError e;
    Board b;
    CHECK(!notation_parse_fen(big, &b, &e) && strstr(e.msg, "too long"));
}

/* ---- Square moves ---- */

static bool parse_squares(const char *t, ParseError *e)
{
    uint8_t sq[16];
    bool cap;
    return notation_parse_squares(t, sq, 16, &cap, e) > 0;
}

static void squares(void)
{
    uint8_t sq[16];
    bool cap;
    ParseError e;
    CHECK(notation_parse_squares("11-15", sq, 16, &cap, &e) == 2 && !cap && sq[0] == 10 &&
          sq[1] == 14);
    CHECK(notation_parse_squares(" 15x24x31\r\n", sq, 16, &cap, &e) == 3 && cap && sq[2] == 30);
    CHECK(notation_parse_squares("15X24", sq, 16, &cap, &e) == 2 && cap);
    static const BadCase cases[] = {
        {"", "square number missing", 0, 1},
        {"11", "at least two squares", 0, 3},
        {"11-", "square number missing", 0, 4},
        {"-11-15", "unexpected character `-'", 0, 1},
        {"11-15-19", "a simple move has two squares", 0, 1},
        {"11-15x19", "mixed separators", 0, 6},
        {"33-1", "square number `33' out of range", 0, 1},
        {"0-5", "square number `0' out of range", 0, 1},
        {"11 15", "unexpected character `1'", 0, 4},
        {"a-b", "unexpected character `a'", 0, 1},
        {"11-15 junk", "unexpected character `j'", 0, 7},
        {"11-15\xFF", "unexpected character `\\xFF'", 0, 6},
        {"1x2x3x4x5x6x7x8x9x10x11x12x13x14x15x16x17", "too many squares", 0, 40},
    };
    check_bad("squares", cases, sizeof cases / sizeof cases[0], parse_squares);
}

static Board move_board; /* the position the move parsers below work on */

static bool parse_move(const char *t, ParseError *e)
{
    Move m;
    return notation_parse_move(&move_board, &RULES_ENGLISH, t, &m, e);
}

static bool parse_path(const char *t, ParseError *e)
{
    Move m;
    return middleware_parse_move(&move_board, &RULES_ENGLISH, t, &m, e);
}

static void moves_and_paths(void)
{
    ParseError e;
    Move m;
    board_start(&move_board);
    CHECK(notation_parse_move(&move_board, &RULES_ENGLISH, "11-15", &m, &e) && m.from == 10);
    CHECK(middleware_parse_move(&move_board, &RULES_ENGLISH, "9 13\r\n", &m, &e) && m.to == 12);
    static const BadCase start_cases[] = {
        {"11-16x", "mixed separators", 0, 6},
        {"11-14", "illegal move", 0, 0},
        {"22-18", "illegal move", 0, 0}, /* White's man, Black to move */
        {"11x18", "illegal move", 0, 0}, /* no capture exists */
    };
    check_bad("move", start_cases, sizeof start_cases / sizeof start_cases[0], parse_move);
    static const BadCase path_cases[] = {
        {"", "at least two squares", 0, 0},
        {"11", "at least two squares", 0, 0},
        {"11-15", "unexpected character `-'", 0, 3},
        {"11,15", "unexpected character `,'", 0, 3},
        {"11 15x", "unexpected character `x'", 0, 6},
        {"33 1", "square number `33' out of range", 0, 1},
        {"11 14", "illegal move", 0, 0},
        {"11 15\n16", "unexpected character `1'", 0, 7},
        {"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", "too many squares", 0, 40},
    };
    check_bad("path", path_cases, sizeof path_cases / sizeof path_cases[0], parse_path);

    /* Black man 2(0,3) can take 6 and 14 (2x9x18) or 7 and 15 (2x11x18): "2x18" is ambiguous,
     * the middle square decides; the path notation needs the whole route. */
    CHECK(notation_parse_fen("B:W6,7,14,15:B2", &move_board, &e));
    static const BadCase amb_cases[] = {
        {"2x18", "ambiguous move", 0, 0},
        {"2-18", "illegal move", 0, 0},
        {"2x9x19", "illegal move", 0, 0},
    };
    check_bad("ambiguous", amb_cases, sizeof amb_cases / sizeof amb_cases[0], parse_move);
    CHECK(notation_parse_move(&move_board, &RULES_ENGLISH, "2x9x18", &m, &e) &&
          m.captured == ((1u << 5) | (1u << 13)));
    CHECK(notation_parse_move(&move_board, &RULES_ENGLISH, "2x11x18", &m, &e) &&
          m.captured == ((1u << 6) | (1u << 14)));
    CHECK(middleware_parse_move(&move_board, &RULES_ENGLISH, "2 11 18", &m, &e) &&
          m.captured == ((1u << 6) | (1u << 14)));
    CHECK(!middleware_parse_move(&move_board, &RULES_ENGLISH, "2 18", &m, &e));

    /* A king's loop (see test_movegen.c): either route is accepted, as a whole path or as the
     * short form, and the route given is the one returned. */
    CHECK(notation_parse_fen("B:W14,15,22,23:BK10", &move_board, &e));
    CHECK(notation_parse_move(&move_board, &RULES_ENGLISH, "10x10", &m, &e) && m.len == 5);
    CHECK(notation_parse_move(&move_board, &RULES_ENGLISH, "10x19x26x17x10", &m, &e) &&
          m.path[1] == 18);
    CHECK(notation_parse_move(&move_board, &RULES_ENGLISH, "10x17x26x19x10", &m, &e) &&
          m.path[1] == 16);
    CHECK(middleware_parse_move(&move_board, &RULES_ENGLISH, "10 19 26 17 10", &m, &e) &&
          m.path[1] == 18);
    CHECK(!middleware_parse_move(&move_board, &RULES_ENGLISH, "10 17 26 10", &m, &e));

    /* The loop with a way in and a way out (see test_movegen.c): king 1 takes 6 to 10, then
     * either 7 to 3 at once (1x10x3), or the loop round 18 first and then 7 to 3. The whole path
     * 1x10x3 names the short capture even though the long ones pass through 10 too; "1x3" is
     * ambiguous; "1x17x3" names the long one. */
    CHECK(notation_parse_fen("B:W6,7,14,15,22,23:BK1", &move_board, &e));
    bool ok = notation_parse_move(&move_board, &RULES_ENGLISH, "1x10x3", &m, &e);
    if (!ok)
        printf("  1x10x3: %s\n", e.msg);
    CHECK(ok && m.captured == ((1u << 5) | (1u << 6)) && m.len == 3);
    CHECK(!notation_parse_move(&move_board, &RULES_ENGLISH, "1x3", &m, &e) &&
          strstr(e.msg, "ambiguous"));
    CHECK(notation_parse_move(&move_board, &RULES_ENGLISH, "1x17x3", &m, &e) &&
          bb_popcount(m.captured) == 6);
}

/* SQ as typed: the squares of TEXT ("1x10x3") into SQ, their number returned. */
static int typed(const char *text, uint8_t *sq)
{
    bool cap;
    ParseError e;
    int n = notation_parse_squares(text, sq, MAX_JUMPS + 4, &cap, &e);
    if (n == 0)
        printf("  %s: %s\n", text, e.msg);
    return n;
}

/* The one resolver of typed squares (notation_resolve): whole routes, routes given in part,
 * ambiguity counted by moves rather than routes, and the separator deciding or not. */
static void resolver(void)
{
    Board b;
    ParseError e;
    MoveList found;
    uint8_t sq[MAX_JUMPS + 4];
    int n;

    /* Two captures with the same ends (2x9x18 takes 6 and 14, 2x11x18 takes 7 and 15): the ends
     * name both, a middle square names one, a wrong middle square none. */
    CHECK(notation_parse_fen("B:W6,7,14,15:B2", &b, &e));
    n = typed("2x18", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_CAPTURE, &found) == 2 &&
          found.count == 2 && found.moves[0].captured != found.moves[1].captured);
    n = typed("2x11x18", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_EITHER, &found) == 1 &&
          found.moves[0].captured == ((1u << 6) | (1u << 14)) && found.moves[0].len == 3);
    n = typed("2x9x19", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_EITHER, &found) == 0);

    /* A capture written as a simple move: refused when the separator decides, found when the
     * squares do (PDN files, `ponder play'); and a simple move written as a capture. */
    CHECK(notation_parse_fen("B:W14:B9", &b, &e));
    n = typed("9-18", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_SIMPLE, &found) == 0);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_CAPTURE, &found) == 1 &&
          found.moves[0].captured == 1u << 13);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_EITHER, &found) == 1 &&
          found.moves[0].captured == 1u << 13);
    board_start(&b);
    n = typed("11x15", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_CAPTURE, &found) == 0);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_EITHER, &found) == 1 &&
          found.moves[0].from == 10 && found.moves[0].to == 14 && found.moves[0].captured == 0);

    /* A king's loop: one move by two routes. The ends name it once; part of a route (one middle
     * square) picks the route it lies on; the squares out of order name nothing. */
    CHECK(notation_parse_fen("B:W14,15,22,23:BK10", &b, &e));
    n = typed("10x10", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_CAPTURE, &found) == 1);
    n = typed("10x17x10", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_CAPTURE, &found) == 1 &&
          found.moves[0].path[1] == 16 && found.moves[0].len == 5);
    n = typed("10x26x19x10", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_CAPTURE, &found) == 1 &&
          found.moves[0].path[1] == 16);
    n = typed("10x17x19x26x10", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_CAPTURE, &found) == 0);

    /* The loop with a way in and a way out: the whole route 1x10x3 is the short capture although
     * the long one passes through its squares; the ends are ambiguous; a square of the loop
     * names the long one. */
    CHECK(notation_parse_fen("B:W6,7,14,15,22,23:BK1", &b, &e));
    n = typed("1x10x3", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_EITHER, &found) == 1 &&
          found.moves[0].len == 3);
    n = typed("1x3", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_EITHER, &found) == 2);
    n = typed("1x26x3", sq);
    CHECK(notation_resolve(&b, &RULES_ENGLISH, sq, n, NOTATION_EITHER, &found) == 1 &&
          bb_popcount(found.moves[0].captured) == 6);

    /* Every legal route of random positions, typed whole, resolves to itself; typed by its ends
     * it names its move among others, each named move legal and named once. */
    for (int k = 0; k < (asan() ? 200 : 2000); k++) {
        random_board(&b);
        MoveList all;
        movegen_generate(&b, &RULES_ENGLISH, true, &all);
        for (int i = 0; i < all.count; i++) {
            const Move *m = &all.moves[i];
            NotationKind kind = move_is_capture(m) ? NOTATION_CAPTURE : NOTATION_SIMPLE;
            bool ok = notation_resolve(&b, &RULES_ENGLISH, m->path, m->len, kind, &found) == 1 &&
                      move_same(&found.moves[0], m, true);
            uint8_t ends[2] = {m->path[0], m->path[m->len - 1]};
            int count = notation_resolve(&b, &RULES_ENGLISH, ends, 2, NOTATION_EITHER, &found);
            int mine = 0;
            for (int j = 0; j < count; j++) {
                mine += move_same(&found.moves[j], m, false);
                for (int q = 0; q < j; q++)
                    ok = ok && !move_same(&found.moves[j], &found.moves[q], false);
            }
            if (!ok || mine != 1) {
                char fen[128], mv[64];
                notation_format_fen(&b, fen, sizeof fen);
                notation_format_move(m, mv, sizeof mv);
                printf("  %s in %s: not resolved to itself\n", mv, fen);
                check_failed++;
                return;
            }
        }
    }
}

/* Every legal move of random positions, every route: written and read back it is the same
 * move, by route, in both notations; the HackerRank output names the same squares. */
static void move_round_trips(void)
{
    const Rules *sets[] = {&RULES_ENGLISH, &RULES_HACKERRANK, &RULES_TOWER};
    int n = asan() ? 300 : 3000;
    for (int k = 0; k < n; k++) {
        Board b;
        random_board(&b);
        const Rules *r = sets[k % 3];
        MoveList l;
        movegen_generate(&b, r, true, &l);
        for (int i = 0; i < l.count; i++) {
            const Move *m = &l.moves[i];
            char text[128];
            Move back;
            ParseError e;
            notation_format_move(m, text, sizeof text);
            bool ok = notation_parse_move(&b, r, text, &back, &e) && move_same(m, &back, true);
            middleware_format_move(m, text, sizeof text);
            ok = ok && middleware_parse_move(&b, r, text, &back, &e) && move_same(m, &back, true);
            /* HackerRank: hops, then one "row col" per square. */
            hackerrank_format_move(m, text, sizeof text);
            char *p = text;
            long hops = strtol(p, &p, 10);
            ok = ok && hops == (move_is_capture(m) ? m->len - 1 : 1);
            for (int j = 0; ok && j < m->len; j++) {
                long row = strtol(p, &p, 10), col = strtol(p, &p, 10);
                ok = bb_square_at((int)row, (int)col) == m->path[j];
            }
            if (!ok) {
                notation_format_move(m, text, sizeof text);
                printf("  %s: move %s of %s does not round-trip\n", r->name, text, fen_of(&b));
                check_failed++;
                return;
            }
        }
    }
    /* Truncated output stays a terminated prefix. */
    Move m = {0, 0, 4, 2, 0, {0, 4}};
    char small[4];
    notation_format_move(&m, small, sizeof small);
    CHECK_STR(small, "1-5");
    middleware_format_move(&m, small, 3);
    CHECK_STR(small, "1 ");
}

/* ---- HackerRank ---- */

static void hackerrank_samples(void)
{
    char *in = read_data("hackerrank/sample-capture.in");
    char *want = read_data("hackerrank/sample-capture.expected");
    Board b;
    ParseError e;
    CHECK(in && want);
    if (in && want) {
        CHECK(hackerrank_parse_board(in, &b, &e));
        /* Read from the diagram by hand: row 1 "b_b_b_b_" is 5,6,7,8; row 2 col 3 is 10; row 3
         * col 2 is 14; row 4 col 1 is 17 (w); row 5 "w_b___w_" is 21 (w), 22 (b), 24 (w); row 6
         * "_w_____b" is 25 (w), 28 (b); row 7 "w_____w_" is 29, 32 (w). White to move. */
        CHECK_STR(fen_of(&b), "W:W17,21,24,25,29,32:B5,6,7,8,10,14,22,28");
        MoveList l;
        CHECK_EQ_U64(movegen_generate(&b, &RULES_HACKERRANK, false, &l), 1);
        char out[256];
        hackerrank_format_move(&l.moves[0], out, sizeof out);
        CHECK_STR(out, want);
    }
    free(in);
    free(want);
    in = read_data("hackerrank/sample-noncapture.in");
    CHECK(in != NULL);
    if (in) {
        CHECK(hackerrank_parse_board(in, &b, &e));
        /* Row 0 col 7 W (4), row 1 col 0 b (5), row 2 col 3 b (10), row 4 col 1 w (17), row 5
         * cols 0,6 w (21,24), row 6 col 7 b (28), row 7 cols 0,6 w (29,32). Black to move. */
        CHECK_STR(fen_of(&b), "B:W17,21,24,29,32,K4:B5,10,28");
        /* The sample answer 1 0 -> 2 1 is the move 5-9. */
        Move m;
        CHECK(notation_parse_move(&b, &RULES_HACKERRANK, "5-9", &m, &e));
        char out[64];
        hackerrank_format_move(&m, out, sizeof out);
        CHECK_STR(out, "1\n1 0\n2 1\n");
    }
    free(in);
}

static bool parse_hackerrank(const char *t, ParseError *e)
{
    Board b;
    return hackerrank_parse_board(t, &b, e);
}

#define ROWS8 "________\n________\n________\n________\n________\n________\n________\n________\n"

static void hackerrank_bad(void)
{
    static const BadCase cases[] = {
        {"", "missing player line", 1, 0},
        {"\n", "empty player line", 1, 0},
        {"x\n8\n" ROWS8, "player must be `b' or `w', not `x'", 1, 1},
        {"bw\n8\n" ROWS8, "unexpected text after the player letter", 1, 2},
        {"b\n", "missing board size line", 2, 0},
        {"b\n7\n" ROWS8, "board size 7 is not supported", 2, 1},
        {"b\n10\n" ROWS8, "board size 10 is not supported", 2, 1},
        {"b\n99999999\n" ROWS8, "board size too large", 2, 1},
        {"b\neight\n" ROWS8, "board size must be a number", 2, 1},
        {"b\n8\n", "missing board row 0", 3, 0},
        {"b\n8\n________\n________\n", "missing board row 2", 5, 0},
        {"b\n8\n_________\n", "board row 0 has 9 characters", 3, 0},
        {"b\n8\n_______\n", "board row 0 has 7 characters", 3, 0},
        {"b\n8\n___x____\n", "unknown character `x'", 3, 4},
        {"b\n8\n\x01_______\n", "unknown character `\\x01'", 3, 1},
        {"b\n8\nb_______\n", "piece on a light square (row 0, column 0)", 3, 1},
        {"b\n8\n" ROWS8 "extra\n", "unexpected text after the board", 11, 0},
        {"b\n8\n_b______\n"
         "______________________________________________________________________"
         "________\n",
         "board row 1 has 63+ characters", 4, 0},
    };
    check_bad("hackerrank", cases, sizeof cases / sizeof cases[0], parse_hackerrank);
    /* CRLF and trailing blank lines are fine. */
    Board b;
    ParseError e;
    CHECK(hackerrank_parse_board("w\r\n8\r\n_b______\r\n________\r\n________\r\n________\r\n"
                                 "________\r\n________\r\n________\r\nw_______\r\n\r\n",
                                 &b, &e));
    CHECK_STR(fen_of(&b), "W:W29:B1");
}

/* ---- Tower cells ---- */

static void tower_cells(void)
{
    /* From the seed's board print (row 1 at the top, White on rows 1-3, Black on 6-8, columns
     * A-H left to right) and our diagram turned half round (our row 0 is tower row 8, our
     * column c is tower column 7-c): G6 (Black's first man to move in the seed's example) is
     * our row 2 column 1 = square 9; F5 is row 3 column 2 = 14; H3 row 5 column 0 = 21 (a White
     * man); G4 row 4 column 1 = 17; A8 row 0 column 7 = 4; H1 row 7 column 0 = 29; B1 row 7
     * column 6 = 32. */
    static const struct {
        const char *cell;
        int sq; /* square number, 0 for a light cell */
    } cells[] = {{"G6", 9},  {"F5", 14}, {"H3", 21}, {"G4", 17}, {"A8", 4}, {"H1", 29},
                 {"B1", 32}, {"A6", 12}, {"A1", 0},  {"H8", 0},  {"B2", 0}, {"F4", 0}};
    for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++) {
        int sq = tower_square(cells[k].cell[0] - 'A', cells[k].cell[1] - '0');
        CHECK_EQ_U64(sq + 1, cells[k].sq);
        if (sq >= 0) {
            char back[3];
            tower_cell(sq, back);
            CHECK_STR(back, cells[k].cell);
        }
    }
    /* Off the board */
    CHECK(tower_square(-1, 3) == -1 && tower_square(8, 3) == -1);
    CHECK(tower_square(1, 0) == -1 && tower_square(1, 9) == -1);
    CHECK(tower_square(1000000, 1) == -1 && tower_square(1, -1000000) == -1);
    /* Every square has a dark cell that maps back to it; 32 of the 64 cells are dark. */
    int dark = 0;
    for (int col = 0; col < 8; col++)
        for (int row = 1; row <= 8; row++) {
            int sq = tower_square(col, row);
            if (sq < 0)
                continue;
            dark++;
            char c[3];
            tower_cell(sq, c);
            CHECK(c[0] == 'A' + col && c[1] == '0' + row);
        }
    CHECK_EQ_U64(dark, 32);
    /* The seed's first action G6-F5 is a legal Black move of the start position. */
    Board b;
    board_start(&b);
    ParseError e;
    Move m;
    CHECK(notation_parse_move(&b, &RULES_TOWER, "9-14", &m, &e));
}

/* ---- Seed-003 board files ---- */

static void board_files(void)
{
    /* sampleCheckers1.txt read by hand: rows of 4 are squares 1-4, 5-8, ...; 3 = player-1
     * (Black) king, 4 = player-2 (White) king. Row 2 "3 0 0 0": K5 Black; row 3 "4 2 3 0":
     * K9 White, 10 White, K11 Black; row 5 "4 2 4 0": K17, 18, K19 White; row 7 "1 4 2 0": 25
     * Black, K26 and 27 White; row 8 "0 0 3 0": K31 Black. Player 1 (Black) to move, 10 s. */
    static const struct {
        const char *file, *fen;
        double time;
    } files[] = {
        {"sampleCheckers1.txt", "B:W10,18,27,K9,K17,K19,K26:B25,K5,K11,K31", 10},
        /* Row 2 "0 0 0 4": K8 White; row 7 "4 0 0 0": K25 White; row 8 "0 0 0 3": K32 Black.
         * Player 2 (White) to move, 3 s. */
        {"sampleCheckers10.txt", "W:WK8,K25:BK32", 3},
        {"sampleCheckers2.txt", NULL, 5},
        {"sampleCheckers3.txt", NULL, 10},
        {"sampleCheckers4.txt", NULL, 5},
        {"sampleCheckers5.txt", NULL, 3},
        {"sampleCheckers6.txt", NULL, 3},
        {"sampleCheckers7.txt", NULL, 0},
        {"sampleCheckers8.txt", NULL, 0},
        {"sampleCheckers9.txt", NULL, 0},
    };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char name[64];
        snprintf(name, sizeof name, "sable-boards/%s", files[k].file);
        char *text = read_data(name);
        CHECK(text != NULL);
        if (!text)
            continue;
        Board b, back;
        double t, t2;
        ParseError e;
        bool ok = boardfile_parse(text, &b, &t, &e);
        if (!ok)
            printf("  %s: %s at line %d\n", files[k].file, e.msg, e.line);
        CHECK(ok);
        if (ok && files[k].fen)
            CHECK_STR(fen_of(&b), files[k].fen);
        if (ok && files[k].time > 0)
            CHECK(t == files[k].time);
        /* Written and read back. */
        char buf[512];
        boardfile_format(&b, t, buf, sizeof buf);
        CHECK(boardfile_parse(buf, &back, &t2, &e) && board_equal(&b, &back) && t2 == t &&
              back.key == b.key);
        free(text);
    }
    /* Random positions and times round-trip too. */
    for (int k = 0; k < 2000; k++) {
        Board b, back;
        random_board(&b);
        double t = (double)(1 + rng() % 600) / 4, t2;
        char buf[512];
        ParseError e;
        boardfile_format(&b, t, buf, sizeof buf);
        if (!boardfile_parse(buf, &back, &t2, &e) || !board_equal(&b, &back) || t2 != t) {
            printf("  board file round trip failed:\n%s", buf);
            check_failed++;
            break;
        }
    }
}

static bool parse_board_file(const char *t, ParseError *e)
{
    Board b;
    double time;
    return boardfile_parse(t, &b, &time, e);
}

#define ZEROS8 "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n"

static void board_files_bad(void)
{
    static const BadCase cases[] = {
        {"", "board ends after 0 of 32 squares", 1, 0},
        {ZEROS8 "0 0 0\n", "board ends after 31 of 32 squares", 9, 0},
        {ZEROS8 "0 0 0 5\n1\n5\n", "square 32: `5' is not a digit 0-4", 8, 7},
        {"0 0 0 0\n0 x 0 0\n", "square 6: `x' is not a digit 0-4", 2, 3},
        {"0 0 0 0\r\n0 \xFF", "square 6: `\\xFF' is not a digit 0-4", 2, 3},
        {ZEROS8 "0 0 0 0\n", "missing player to move", 9, 0},
        {ZEROS8 "0 0 0 0\n3\n5\n", "player to move must be 1 or 2", 9, 1},
        {ZEROS8 "0 0 0 0\n12\n5\n", "player to move must be 1 or 2", 9, 1},
        {ZEROS8 "0 0 0 0\n1.5\n5\n", "player to move must be 1 or 2", 9, 1},
        {ZEROS8 "0 0 0 0\n1\n", "missing time limit", 10, 0},
        {ZEROS8 "0 0 0 0\n1\n0\n", "time limit must be a positive number", 10, 1},
        {ZEROS8 "0 0 0 0\n1\n-5\n", "time limit must be a positive number", 10, 1},
        {ZEROS8 "0 0 0 0\n1\nten\n", "time limit must be a positive number", 10, 1},
        {ZEROS8 "0 0 0 0\n1\n1234567890\n", "time limit must be a positive number", 10, 1},
        {ZEROS8 "0 0 0 0\n1\n5 6\n", "unexpected text after the time limit", 10, 3},
        {ZEROS8 "0 0 0 0\n1\n5\nmore\n", "unexpected text after the time limit", 11, 1},
    };
    check_bad("board file", cases, sizeof cases / sizeof cases[0], parse_board_file);
    /* Digits need no blanks between them; fractions are allowed. */
    Board b;
    double t;
    ParseError e;
    CHECK(boardfile_parse("1111\n1111\n1111\n0000\n0000\n2222\n2222\n2222\n1\n2.5\n", &b, &t, &e));
    Board start;
    board_start(&start);
    CHECK(board_equal(&b, &start) && t == 2.5);
}

/* ---- Random bytes: every parser answers, none crashes ---- */

static void random_bytes(void)
{
    int rounds = asan() ? 1500 : 8000;
    static const char alphabet[] = "0123456789:,-xXKBWbw_ \n\r\t.\"";
    Board start;
    board_start(&start);
    for (int k = 0; k < rounds; k++) {
        char buf[300];
        size_t n = rng() % (sizeof buf - 1);
        for (size_t i = 0; i < n; i++) {
            uint64_t r = rng();
            buf[i] =
                r % 4 ? alphabet[(r >> 8) % (sizeof alphabet - 1)] : (char)(1 + (r >> 16) % 255);
        }
        buf[n] = '\0';
        Board b;
        Move m;
        double t;
        uint8_t sq[16];
        bool cap;
        ParseError e;
        /* Each parser either accepts or says why. */
        bool answered = true;
        e.msg[0] = '\0';
        if (!notation_parse_fen(buf, &b, &e))
            answered = answered && e.msg[0];
        else
            answered = answered && board_valid(&b, e.msg);
        e.msg[0] = '\0';
        if (!notation_parse_squares(buf, sq, 16, &cap, &e))
            answered = answered && e.msg[0];
        e.msg[0] = '\0';
        if (!notation_parse_move(&start, &RULES_ENGLISH, buf, &m, &e))
            answered = answered && e.msg[0];
        e.msg[0] = '\0';
        if (!middleware_parse_move(&start, &RULES_ENGLISH, buf, &m, &e))
            answered = answered && e.msg[0];
        e.msg[0] = '\0';
        if (!hackerrank_parse_board(buf, &b, &e))
            answered = answered && e.msg[0];
        e.msg[0] = '\0';
        if (!boardfile_parse(buf, &b, &t, &e))
            answered = answered && e.msg[0];
        if (!answered) {
            printf("  a parser failed without a message on random input %d\n", k);
            check_failed++;
            return;
        }
    }
}

int main(void)
{
    RUN("notation", fen_good);
    RUN("notation", fen_round_trip);
    RUN("notation", fen_bad);
    RUN("notation", fen_setup);
    RUN("notation", squares);
    RUN("notation", moves_and_paths);
    RUN("notation", resolver);
    RUN("notation", move_round_trips);
    RUN("notation", hackerrank_samples);
    RUN("notation", hackerrank_bad);
    RUN("notation", tower_cells);
    RUN("notation", board_files);
    RUN("notation", board_files_bad);
    RUN("notation", random_bytes);
    return check_total_failed != 0;
}
