/*
 * test_pdn.c - the PDN reader and writer: the 724 Tinsley games replayed move by move, write ->
 * read round trips, every construct of real files, a list of malformed inputs each with the
 * message, line and column it must get, error recovery, and thousands of random and mutated
 * inputs that must never crash or hang (this runs under ASan+UBSan too).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "pdn.h"
#include "rng.h"
#include "util.h"

static bool asan(void)
{
    const char *v = getenv("PONDER_VARIANT");
    return v && strcmp(v, "asan") == 0;
}

static PdnGame game, game2; /* big: kept out of the stack */

static char *read_data(const char *name)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/%s", check_data_dir(), name);
    char *text = util_read_file(path, 1 << 24, NULL, err, sizeof err);
    if (!text)
        printf("  %s\n", err);
    return text;
}

/* Whether M is one of the legal moves of B (every route counted). */
static bool is_legal(const Board *b, const Rules *r, const Move *m)
{
    MoveList l;
    movegen_generate(b, r, true, &l);
    for (int i = 0; i < l.count; i++)
        if (move_same(&l.moves[i], m, true))
            return true;
    return false;
}

/* ---- The Tinsley collection ---- */

/* The file holds 724 games. 721 are well formed and replay legally. Three have defects in the
 * file itself, and each must be reported at its place, with the reader going on to the next
 * game:
 *   line 5588: "62. 32-28" - Black's king left 32 for 28 at move 60 (32-28) and has not come back,
 *              so Black has no piece on 32 (the record is corrupt: the legal moves are
 *              16-19 16-20 28-32 28-24 29-25);
 *   line 6434: "8-11Redoversteppedthetimecontrolonthismove." and
 *   line 7170: "26-22Whiteoversteppedthetimecontrolonthismove." - a comment that lost its braces
 *              and blanks, glued to the move. */
static void tinsley_games(void)
{
    char *text = read_data("pdn/tinsley-games.pdn");
    CHECK(text != NULL);
    if (!text)
        return;
    static const struct {
        int line, col;
        const char *msg;
    } defects[] = {
        {5588, 5, "illegal move `32-28' for Black at move 62"},
        {6434, 74, "unexpected `R' in move"},
        {7170, 22, "unexpected `W' in move"},
    };
    PdnReader rd;
    pdn_reader_init(&rd, text);
    ParseError e;
    int rc, good = 0, bad = 0, calls = 0;
    long moves = 0;
    Game *g = malloc(sizeof *g);
    while (g && (rc = pdn_read_game(&rd, &RULES_ENGLISH, &game, &e)) != 0 && calls++ < 1000) {
        if (rc < 0) {
            bool known = bad < 3 && e.line == defects[bad].line && e.col == defects[bad].col &&
                         strstr(e.msg, defects[bad].msg) != NULL;
            if (!known)
                printf("  unexpected error: %s at line %d, column %d\n", e.msg, e.line, e.col);
            CHECK(known);
            bad++;
            continue;
        }
        good++;
        /* Replay independently: each move legal in turn, through the game record. */
        Board start;
        board_start(&start);
        CHECK(board_equal(&game.start, &start));
        CHECK(game.ntags == 4 && pdn_tag(&game, "Event") && pdn_tag(&game, "Black") &&
              pdn_tag(&game, "White"));
        CHECK_STR(game.result, pdn_tag(&game, "Result"));
        game_init(g, &RULES_ENGLISH, NULL);
        for (int i = 0; i < game.nmoves; i++) {
            if (!is_legal(&g->board, &RULES_ENGLISH, &game.moves[i])) {
                printf("  game at line %d: move %d not legal on replay\n", game.line, i + 1);
                check_failed++;
                break;
            }
            CHECK(game_play(g, &game.moves[i]));
        }
        moves += game.nmoves;
    }
    CHECK_EQ_U64(good, 721);
    CHECK_EQ_U64(bad, 3);
    CHECK_EQ_U64(good + bad, 724);
    CHECK(moves > 721 * 40);
    /* The first game, in detail: 56 plies ending with the triple 24x15x6, a draw. */
    size_t p0 = 0;
    CHECK(pdn_next_game(text, &p0, &RULES_ENGLISH, &game, &e) == 1);
    CHECK_EQ_U64(game.nmoves, 56);
    CHECK_STR(pdn_tag(&game, "White"), "M Rex");
    CHECK_STR(game.result, "1/2-1/2");
    char mv[64];
    notation_format_move(&game.moves[55], mv, sizeof mv);
    CHECK_STR(mv, "24x15x6");
    /* "4. 10x14": the file writes a simple move with x; it is the simple move 10-14. */
    notation_format_move(&game.moves[6], mv, sizeof mv);
    CHECK_STR(mv, "10-14");
    free(g);
    free(text);
}

/* ---- Round trips ---- */

/* Writes G with pdn_write_game into a string (caller frees). */
static char *write_to_string(const Game *g, const PdnTag *tags, int ntags, const char *result)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    bool ok = pdn_write_game(f, g, tags, ntags, result);
    fclose(f);
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Reading back what was written gives the same start, moves (same routes), tags and result. */
static bool same_game(const PdnGame *a, const Game *g, const PdnTag *tags, int ntags,
                      const char *result)
{
    if (!board_equal(&a->start, &g->start) || a->nmoves != g->ply || strcmp(a->result, result))
        return false;
    for (int i = 0; i < g->ply; i++)
        if (!move_same(&a->moves[i], &g->moves[i], true))
            return false;
    for (int k = 0; k < ntags; k++) {
        const char *v = pdn_tag(a, tags[k].name);
        if (!v || strcmp(v, tags[k].value))
            return false;
    }
    return true;
}

static void round_trip_tinsley(void)
{
    char *text = read_data("pdn/tinsley-games.pdn");
    CHECK(text != NULL);
    if (!text)
        return;
    Game *g = malloc(sizeof *g);
    PdnReader rd;
    pdn_reader_init(&rd, text);
    ParseError e;
    int rc, n = 0;
    while (g && (rc = pdn_read_game(&rd, &RULES_ENGLISH, &game, &e)) != 0) {
        if (rc < 0)
            continue;
        game_init(g, &RULES_ENGLISH, &game.start);
        for (int i = 0; i < game.nmoves; i++)
            game_play(g, &game.moves[i]);
        char *out = write_to_string(g, game.tags, game.ntags, game.result);
        CHECK(out != NULL);
        if (!out)
            break;
        size_t p = 0;
        bool ok = pdn_next_game(out, &p, &RULES_ENGLISH, &game2, &e) == 1 &&
                  same_game(&game2, g, game.tags, game.ntags, game.result) &&
                  pdn_next_game(out, &p, &RULES_ENGLISH, &game2, &e) == 0;
        /* No line longer than 80 columns. */
        for (const char *l = out; *l;) {
            size_t len = strcspn(l, "\n");
            if (len > 80 && l[0] != '[')
                ok = false;
            l += len + (l[len] == '\n');
        }
        if (!ok) {
            printf("  round trip of the game at line %d failed:\n%s", game.line, out);
            check_failed++;
            free(out);
            break;
        }
        free(out);
        n++;
    }
    CHECK_EQ_U64(n, 721);
    free(g);
    free(text);
}

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rng(void)
{
    return rng_xorshift64(&rng_state);
}

/* Random games from set-up positions (White to move too), with kings and multi-jumps, every
 * route kept: written, read back, the same. Tags with quotes and backslashes survive. */
static void round_trip_random(void)
{
    static const char *fens[] = {
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "B:WK10,22,23,27:BK1,K2,14,15",
        "W:WK14,K15,K22,K23:BK10,K18,5,6",
        "B:W:B1",
    };
    PdnTag tags[3] = {{"Event", "a \"quoted\" back\\slash"}, {"Black", "Ponder"}, {"Round", ""}};
    Game *g = malloc(sizeof *g);
    int games = asan() ? 60 : 400;
    for (int k = 0; g && k < games; k++) {
        Board b;
        ParseError e;
        CHECK(notation_parse_fen(fens[k % 4], &b, &e));
        game_init(g, &RULES_ENGLISH, &b);
        for (int ply = 0; ply < 200; ply++) {
            MoveList l;
            int n = movegen_generate(&g->board, &RULES_ENGLISH, true, &l);
            if (n == 0)
                break;
            game_play(g, &l.moves[rng() % (uint64_t)n]);
        }
        const char *result = (const char *[]){"1-0", "0-1", "1/2-1/2", "*"}[k % 4];
        char *out = write_to_string(g, tags, 3, result);
        CHECK(out != NULL);
        if (!out)
            break;
        size_t p = 0;
        int rc = pdn_next_game(out, &p, &RULES_ENGLISH, &game2, &e);
        if (rc != 1 || !same_game(&game2, g, tags, 3, result)) {
            printf("  random game %d: rc %d (%s)\n%s", k, rc, rc < 0 ? e.msg : "", out);
            check_failed++;
            free(out);
            break;
        }
        /* A set-up position carries SetUp and FEN tags. */
        CHECK(strstr(out, "[SetUp \"1\"]\n[FEN \"") != NULL);
        if (g->start.side == WHITE && g->ply > 0)
            CHECK(strstr(out, "1... ") != NULL);
        free(out);
    }
    free(g);
}

/* ---- Constructs of real files ---- */

typedef struct {
    const char *text;
    int games;          /* games read */
    int plies;          /* moves of the first game */
    const char *result; /* result of the first game */
} GoodCase;

static const GoodCase good_cases[] = {
    {"1. 11-15 23-18 *", 1, 2, "*"},
    {"\xEF\xBB\xBF[Event \"bom\"]\n1. 11-15 *", 1, 1, "*"},
    {"[Event \"a\"][Result \"1-0\"]\n1.11-15 23-18 2.8-11 1-0", 1, 3, "1-0"},
    {"1. 11-15 {a comment\nover two lines} 23-18 $1 2. 8-11! 27-23?! 1/2-1/2", 1, 4, "1/2-1/2"},
    {"1. 11-15 (1. 9-13 (1. 10-14 22-17) 22-18 {not (played)}) 23-18 0-1", 1, 2, "0-1"},
    {"1. 11-15 ; rest of line ignored 2. 99-99\n23-18 *", 1, 2, "*"},
    {"[FEN \"W:W21,22:B1,2\"]\n1... 22-17 2. 1-5 17-13 *", 1, 3, "*"},
    {"[FEN \"W:W21,22:B1,2\"]\n1. ... 22-17 2. 1-5 *", 1, 2, "*"},
    {"[FEN \"B:W6,14,15,22,23:BK1\"]\n1. 1x10 *", 1, 1, "*"},             /* first/last only */
    {"[FEN \"B:W6,14,15,22,23:BK1\"]\n1. 1x10x19x26x17x10 *", 1, 1, "*"}, /* one route */
    {"[FEN \"B:W6,14,15,22,23:BK1\"]\n1. 1x10x17x10 *", 1, 1, "*"},       /* partial route */
    {"[Result \"2-0\"] 1. 11-15 2-0", 1, 1, "1-0"},
    {"1. 11-15 23-18 1-1\n1. 9-13 0-2", 2, 2, "1/2-1/2"},
    {"[Event \"no result\"]\n1. 11-15\n[Event \"next\"]\n1. 9-13 *", 2, 1, "*"},
    {"[Event \"tags only\"]\n[Result \"0-1\"]\n", 1, 0, "0-1"},
    {"12. 11-15 23-18 13. 8-11 *", 1, 3, "*"},       /* a fragment numbered from 12 */
    {"1. 11-15 23-18 8-11 2... 27-23 *", 1, 4, "*"}, /* numbers optional */
    {"[GameType \"21,Black,8,8,N1,0\"] 1. 11-15 *", 1, 1, "*"},
    {"[Event \"tab\tand \\\"escapes\\\"\"]\r\n1. 11-15\r\n*\r\n", 1, 1, "*"},
    {"  \n{only a comment}\n", 0, 0, NULL},
    {"", 0, 0, NULL},
};

static void real_file_constructs(void)
{
    for (size_t k = 0; k < sizeof good_cases / sizeof good_cases[0]; k++) {
        const GoodCase *c = &good_cases[k];
        size_t pos = 0;
        ParseError e;
        int rc, n = 0, plies = -1;
        char result[8] = "";
        while ((rc = pdn_next_game(c->text, &pos, &RULES_ENGLISH, &game, &e)) == 1) {
            if (n++ == 0) {
                plies = game.nmoves;
                snprintf(result, sizeof result, "%s", game.result);
            }
        }
        bool ok = rc == 0 && n == c->games &&
                  (n == 0 || (plies == c->plies && strcmp(result, c->result) == 0));
        if (!ok) {
            printf("  case %zu: rc %d, %d games, %d plies, result %s%s%s\n", k, rc, n, plies,
                   result, rc < 0 ? ": " : "", rc < 0 ? e.msg : "");
            check_failed++;
        }
    }
    /* Tag values come back unescaped; the escapes in the tag of case 18. */
    size_t pos = 0;
    ParseError e;
    CHECK(pdn_next_game(good_cases[18].text, &pos, &RULES_ENGLISH, &game, &e) == 1);
    CHECK_STR(pdn_tag(&game, "Event"), "tab\tand \"escapes\"");
    CHECK(pdn_tag(&game, "Site") == NULL);
}

/* ---- Malformed input ---- */

typedef struct {
    const char *text;
    const char *msg; /* part of the message */
    int line, col;
} BadCase;

static const BadCase bad_cases[] = {
    /* truncated */
    {"[Event \"never closed", "not closed on its line", 1, 1},
    {"[Event", "`\"' expected", 1, 7},
    {"[", "tag ends early", 1, 2},
    {"[Event \"x\"", "`]' expected", 1, 11},
    {"1. 11-", "move `11-': square number missing", 1, 7},
    {"1. 11-15 {open comment\n23-18 *", "never closed", 1, 10},
    {"1. 11-15 (1. 9-13 (22-18)\n*", "variation `(' is never closed", 1, 10},
    /* out of range */
    {"1. 33-29 *", "square number `33' out of range", 1, 4},
    {"1. 0-4 *", "square number `0' out of range", 1, 4},
    {"1. 11-150 *", "square number `150' out of range", 1, 7},
    {"1. 11-15 23-18 2. 15-99999999999999999999 *", "out of range", 1, 22},
    /* repeated squares */
    {"1. 11-11 *", "square 11 repeated", 1, 4},
    {"[FEN \"B:W21,21:B1\"]\n*", "repeated", 1, 13},
    /* wrong side, wrong letters */
    {"1. 22-18 *", "illegal move `22-18' for Black at move 1", 1, 4},
    {"1. 11-15 11-16 *", "illegal move `11-16' for White at move 1", 1, 10},
    {"[FEN \"X:W21:B1\"]\n*", "bad FEN tag", 1, 7},
    {"[FEN \"B:W21:W1\"]\n*", "given twice", 1, 13},
    {"[FEN \"B:W21:R1\"]\n*", "unexpected character `R'", 1, 13},
    /* a man on its own crowning row: the rule (and the words) of every program */
    {"[FEN \"B:W1,21:B5,9\"]\n1. 9-13 *",
     "bad FEN tag: a White man on square 1, its crowning row (write it as a king: K1)", 1, 10},
    {"[Event \"e\"]\n[FEN \"W:W21:BK1,5-8,29\"]\n*", "a Black man on square 29, its crowning row",
     2, 21},
    /* garbage */
    {"1. 11-15 \x01\x02 *", "unexpected `\\x01'", 1, 10},
    {"\xFF\xFE", "unexpected `\\xFF'", 1, 1},
    {"[\x80 \"x\"]", "tag name expected, found `\\x80'", 1, 2},
    {"1. e3-f4 *", "unexpected `e'", 1, 4},
    {"1. 11-15x18 *", "mixed separators", 1, 9},
    {"1. 11-15!!! *", "longer than two marks", 1, 9},
    {"1. 11-15 } *", "unexpected `}'", 1, 10},
    {"1. 11-15 ) *", "unexpected `)'", 1, 10},
    {"1. 11-15 ] *", "unexpected `]'", 1, 10},
    {"1. 11-15 $ *", "NAG", 1, 10},
    {"1. 11-15 $1234 *", "NAG", 1, 10},
    {"1. 11-15 .. *", "unexpected `..'", 1, 10},
    {"1.. 11-15 *", "a move number ends with", 1, 2},
    {"1. 11-15 Black *", "unexpected `B'", 1, 10},
    /* move numbers, results, tags */
    {"1. 11-15 23-18 3. 8-11 *", "move number 3 where 2 was expected", 1, 16},
    {"1. 11-15 2. 23-18 *", "move number 2 where 1 was expected", 1, 10},
    {"[Result \"1-0\"]\n1. 11-15 0-1", "disagrees with the Result tag", 2, 10},
    {"[Result \"win\"]\n*", "Result tag `win'", 1, 10},
    {"[GameType \"20\"]\n*", "not English checkers", 1, 12},
    {"[Event \"a\"]\n[Event \"b\"]\n*", "tag `Event' given twice", 2, 1},
    {"1. 11-15 23-18 99999999. 8-11 *", "bad move number", 1, 16},
    {"[FEN \"B:W14,15,22,23,6:BK10\"]\n1. 10x10 *", "square 10 repeated", 2, 4},
    /* overlong */
    {"[Event "
     "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"]",
     "longer than 255 bytes", 1, 9},
    {"[Eventxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx \"a\"]", "tag name longer than 31", 1, 2},
    {"1. 11-15 23-1818181818181818181818181818181818181818181818181818181818181818181818 *",
     "too long", 1, 10},
    {"1. 11-15 23-18-22-17-13-9-5-1-6-10-15-19-24-28-32-27-23 *", "too many squares", 1, 54},
};

static void malformed_input(void)
{
    for (size_t k = 0; k < sizeof bad_cases / sizeof bad_cases[0]; k++) {
        const BadCase *c = &bad_cases[k];
        size_t pos = 0;
        ParseError e = {"", 0, 0};
        int rc = pdn_next_game(c->text, &pos, &RULES_ENGLISH, &game, &e);
        bool ok = rc == -1 && strstr(e.msg, c->msg) && e.line == c->line && e.col == c->col &&
                  pos > 0 && pos <= strlen(c->text);
        if (!ok) {
            printf("  case %zu: rc %d, `%s' at %d:%d; expected `%s' at %d:%d\n", k, rc, e.msg,
                   e.line, e.col, c->msg, c->line, c->col);
            check_failed++;
        }
    }
}

/* Ambiguity, too many tags, too long a game. */
static void limits(void)
{
    ParseError e;
    size_t pos = 0;
    /* Two different captures with the same ends: Black man 2(0,3) over 6(1,2) to 9(2,1), then
     * over 14(3,2) to 18(4,3); or over 7(1,4) to 11(2,5), then over 15(3,4) to 18. "2x18" could
     * be either; "2x9x18" is one. */
    const char *amb = "[FEN \"B:W6,7,14,15:B2\"]\n1. 2x18 *";
    CHECK(pdn_next_game(amb, &pos, &RULES_ENGLISH, &game, &e) == -1);
    CHECK(strstr(e.msg, "ambiguous") != NULL && e.line == 2 && e.col == 4);
    pos = 0;
    CHECK(pdn_next_game("[FEN \"B:W6,7,14,15:B2\"]\n1. 2x9x18 *", &pos, &RULES_ENGLISH, &game,
                        &e) == 1 &&
          game.moves[0].captured == ((1u << 5) | (1u << 13)));
    /* The king cannot stop on 26 in English (it must go on round the loop), so "10x17x26" is
     * illegal there; under tower rules "10x26" is not even one jump. */
    pos = 0;
    CHECK(pdn_next_game("[FEN \"B:W14,15,22,23:BK10\"]\n1. 10x17x26 *", &pos, &RULES_ENGLISH, &game,
                        &e) == -1);
    CHECK(strstr(e.msg, "illegal move") != NULL);
    /* A whole route names its move although a longer capture (round the loop at 10 first)
     * passes through the same squares; the short form is ambiguous. */
    pos = 0;
    CHECK(pdn_next_game("[FEN \"B:W6,7,14,15,22,23:BK1\"]\n1. 1x10x3 *", &pos, &RULES_ENGLISH,
                        &game, &e) == 1 &&
          game.moves[0].captured == ((1u << 5) | (1u << 6)));
    pos = 0;
    CHECK(pdn_next_game("[FEN \"B:W6,7,14,15,22,23:BK1\"]\n1. 1x3 *", &pos, &RULES_ENGLISH, &game,
                        &e) == -1 &&
          strstr(e.msg, "ambiguous"));
    /* 33 tags */
    char text[4096];
    size_t len = 0;
    for (int k = 0; k < 33; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, "[T%d \"v\"]\n", k);
    snprintf(text + len, sizeof text - len, "*");
    pos = 0;
    CHECK(pdn_next_game(text, &pos, &RULES_ENGLISH, &game, &e) == -1);
    CHECK(strstr(e.msg, "more than 32 tags") != NULL && e.line == 33);
    /* 32 tags are fine */
    char *cut = strstr(text, "[T32");
    snprintf(cut, 2, "*");
    pos = 0;
    CHECK(pdn_next_game(text, &pos, &RULES_ENGLISH, &game, &e) == 1 && game.ntags == 32);
    /* A game longer than a record holds: two kings shuffling 2049 plies on one line of 10 KB
     * (lines have no length limit; words do). Four plies take 20 bytes, so the 2049th move
     * starts at column 10241. */
    size_t cap = 40000;
    char *big = malloc(cap);
    CHECK(big != NULL);
    if (!big)
        return;
    len = (size_t)snprintf(big, cap, "[FEN \"B:WK32:BK1\"]\n");
    const char *shuffle[] = {"1-5", "32-27", "5-1", "27-32"};
    for (int k = 0; k < GAME_MAX_PLIES + 1; k++)
        len += (size_t)snprintf(big + len, cap - len, "%s ", shuffle[k % 4]);
    snprintf(big + len, cap - len, "*");
    pos = 0;
    CHECK(pdn_next_game(big, &pos, &RULES_ENGLISH, &game, &e) == -1);
    CHECK(strstr(e.msg, "longer than 2048 plies") != NULL && e.line == 2 && e.col == 10241);
    /* One ply fewer is read. */
    char *last = strrchr(big, ' ');
    CHECK(last != NULL);
    if (last) {
        last[1] = '*';
        last[2] = '\0';
        char *prev = last - 1;
        while (prev > big && *prev != ' ')
            prev--;
        prev[1] = '*';
        prev[2] = '\0';
    }
    pos = 0;
    CHECK(pdn_next_game(big, &pos, &RULES_ENGLISH, &game, &e) == 1);
    CHECK_EQ_U64(game.nmoves, GAME_MAX_PLIES);
    free(big);
}

/* After a bad game the reader goes on with the next one. */
static void error_recovery(void)
{
    const char *text = "[Event \"1\"]\n1. 11-15 23-18 *\n\n"
                       "[Event \"2\"]\n[Black \"bad tag\" x]\n[White \"w\"]\n1. 11-15 *\n\n"
                       "[Event \"3\"]\n1. 11-15 22-22 2. 8-11 *\n"
                       "[FEN \"B:W1:Q\"] *\n"
                       "[FEN \"B:W21:B1\"] *\n"
                       "1. 11-15 {never closed\n[Event \"lost\"] *\n";
    size_t pos = 0;
    ParseError e;
    int rc[8], lines[8], n = 0;
    while (n < 8 && (rc[n] = pdn_next_game(text, &pos, &RULES_ENGLISH, &game, &e)) != 0) {
        lines[n] = rc[n] == 1 ? game.line : e.line;
        n++;
    }
    CHECK_EQ_U64(n, 6);
    int want_rc[6] = {1, -1, -1, -1, 1, -1};
    int want_line[6] = {1, 5, 10, 11, 12, 13};
    for (int k = 0; k < n && k < 6; k++) {
        if (rc[k] != want_rc[k] || lines[k] != want_line[k]) {
            printf("  call %d: rc %d line %d, expected rc %d line %d\n", k, rc[k], lines[k],
                   want_rc[k], want_line[k]);
            check_failed++;
        }
    }
    CHECK(pos == strlen(text));
    /* A reader gives the same answers. */
    PdnReader rd;
    pdn_reader_init(&rd, text);
    for (int k = 0; k < 6; k++) {
        int r = pdn_read_game(&rd, &RULES_ENGLISH, &game, &e);
        CHECK(r == want_rc[k] && (r == 1 ? game.line : e.line) == want_line[k]);
    }
    CHECK(pdn_read_game(&rd, &RULES_ENGLISH, &game, &e) == 0);
    /* Two games on one line: columns count from the start of the line, not of the game. */
    const char *one_line = "1. 11-15 * 1. 9-13 99-1 *";
    pos = 0;
    CHECK(pdn_next_game(one_line, &pos, &RULES_ENGLISH, &game, &e) == 1 && pos == 10);
    CHECK(pdn_next_game(one_line, &pos, &RULES_ENGLISH, &game, &e) == -1);
    CHECK(e.line == 1 && e.col == 20 && strstr(e.msg, "`99' out of range"));
    pdn_reader_init(&rd, one_line);
    CHECK(pdn_read_game(&rd, &RULES_ENGLISH, &game, &e) == 1);
    CHECK(pdn_read_game(&rd, &RULES_ENGLISH, &game, &e) == -1 && e.line == 1 && e.col == 20);
    CHECK(pdn_read_game(&rd, &RULES_ENGLISH, &game, &e) == 0);
}

/* ---- Random input: no crash, no hang, always progress ---- */

/* Runs the reader over TEXT to the end; every call must return 1, 0 or -1 and move on. */
static bool reads_to_end(const char *text)
{
    size_t pos = 0, len = strlen(text);
    ParseError e;
    for (int calls = 0; calls <= (int)len + 1; calls++) {
        size_t before = pos;
        int rc = pdn_next_game(text, &pos, &RULES_ENGLISH, &game, &e);
        if (rc == 0)
            return pos <= len;
        if ((rc != 1 && rc != -1) || pos <= before || pos > len)
            return false;
        if (rc == -1 && (e.msg[0] == '\0' || e.line < 1))
            return false;
    }
    return false;
}

static void random_inputs(void)
{
    int rounds = asan() ? 1500 : 6000;
    char buf[600];
    /* 1. Random bytes, weighted towards PDN's own characters. */
    static const char alphabet[] = "0123456789-x.[]{}()\"$;*/!? \n\tKBWEvent";
    for (int k = 0; k < rounds; k++) {
        size_t n = rng() % (sizeof buf - 1);
        for (size_t i = 0; i < n; i++) {
            uint64_t r = rng();
            buf[i] =
                r % 3 ? alphabet[(r >> 8) % (sizeof alphabet - 1)] : (char)(1 + (r >> 16) % 255);
        }
        buf[n] = '\0';
        if (!reads_to_end(buf)) {
            printf("  random input %d made no progress\n", k);
            check_failed++;
            return;
        }
    }
    /* 2. Real games with a few bytes changed, dropped or cut short. */
    char *text = read_data("pdn/tinsley-games.pdn");
    CHECK(text != NULL);
    if (!text)
        return;
    size_t len = strlen(text);
    for (int k = 0; k < rounds; k++) {
        size_t start = rng() % (len - 400);
        size_t n = 100 + rng() % 400;
        memcpy(buf, text + start, n);
        buf[n] = '\0';
        for (int m = 0; m < 1 + (int)(rng() % 4); m++) {
            size_t at = rng() % n;
            switch (rng() % 3) {
            case 0: buf[at] = (char)(1 + rng() % 255); break;
            case 1:
                memmove(buf + at, buf + at + 1, n - at);
                n--;
                break;
            default:
                buf[at] = '\0';
                n = at > 0 ? at : 1;
                buf[n - 1] = '\0';
                n = strlen(buf);
                break;
            }
            if (n == 0)
                break;
        }
        if (!reads_to_end(buf)) {
            printf("  mutated input %d made no progress\n", k);
            check_failed++;
            break;
        }
    }
    free(text);
}

/* ---- Single moves and writing ---- */

static void parse_single_moves(void)
{
    Board b;
    Move m;
    ParseError e;
    board_start(&b);
    CHECK(pdn_parse_move(&b, &RULES_ENGLISH, " 11-15 ", &m, &e) && m.from == 10 && m.to == 14);
    CHECK(pdn_parse_move(&b, &RULES_ENGLISH, "11x15", &m, &e) && m.from == 10 && m.to == 14);
    CHECK(pdn_parse_move(&b, &RULES_ENGLISH, "11-15?!", &m, &e));
    CHECK(!pdn_parse_move(&b, &RULES_ENGLISH, "", &m, &e) && strstr(e.msg, "empty"));
    CHECK(!pdn_parse_move(&b, &RULES_ENGLISH, "11-14", &m, &e) && strstr(e.msg, "illegal"));
    CHECK(!pdn_parse_move(&b, &RULES_ENGLISH, "11-15 23-18", &m, &e) && e.col == 6);
    /* Captures written with '-' (the ballot list does so). */
    CHECK(notation_parse_fen("B:W14:B9", &b, &e));
    CHECK(pdn_parse_move(&b, &RULES_ENGLISH, "9-18", &m, &e) && m.captured == 1u << 13);
}

static void writer_contract(void)
{
    Game *g = malloc(sizeof *g);
    CHECK(g != NULL);
    if (!g)
        return;
    game_init(g, &RULES_ENGLISH, NULL);
    /* The result must be a PDN result. */
    FILE *f = fopen("/dev/null", "w");
    CHECK(f != NULL);
    if (f) {
        CHECK(!pdn_write_game(f, g, NULL, 0, "2-0"));
        CHECK(!pdn_write_game(f, g, NULL, 0, "draw"));
        PdnTag bad = {"Bad Name", "x"};
        CHECK(!pdn_write_game(f, g, &bad, 1, "*"));
        PdnTag twice[2] = {{"Event", "a"}, {"Event", "b"}};
        CHECK(!pdn_write_game(f, g, twice, 2, "*") && errno == EINVAL);
        PdnTag many[PDN_MAX_TAGS];
        memset(many, 0, sizeof many);
        for (int k = 0; k < PDN_MAX_TAGS; k++)
            snprintf(many[k].name, sizeof many[k].name, "T%d", k);
        CHECK(!pdn_write_game(f, g, many, PDN_MAX_TAGS - 3, "*"));
        CHECK(pdn_write_game(f, g, many, PDN_MAX_TAGS - 4, "*"));
        CHECK(pdn_write_game(f, g, NULL, 0, NULL));
        fclose(f);
    }
    /* A write error is reported. */
    f = fopen("/dev/full", "w");
    if (f) {
        CHECK(!pdn_write_game(f, g, NULL, 0, "*"));
        fclose(f);
    }
    /* The caller's Result/FEN/GameType tags give way to the game's own; every game says it is
     * English checkers (GameType 21); line breaks in values become blanks; an empty game is just
     * its tags and result. */
    PdnTag tags[4] = {
        {"Result", "1-0"}, {"Event", "two\nlines"}, {"FEN", "B:W:B"}, {"GameType", "20"}};
    char *out = write_to_string(g, tags, 4, "*");
    CHECK(out != NULL);
    if (out)
        CHECK_STR(out, "[Event \"two lines\"]\n[GameType \"21\"]\n[Result \"*\"]\n*\n\n");
    free(out);
    free(g);
}

/* A file with a NUL byte is refused when read (util_read_file), not silently cut. */
static void nul_bytes(void)
{
    char path[] = "/tmp/ponder-test-pdn-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    const char data[] = "1. 11-15 23-18\0 2. 8-11 *\n";
    CHECK(write(fd, data, sizeof data - 1) == (ssize_t)(sizeof data - 1));
    close(fd);
    char err[256];
    char *text = util_read_file(path, 1 << 20, NULL, err, sizeof err);
    CHECK(text == NULL && strstr(err, "NUL byte at offset 14") != NULL);
    free(text);
    unlink(path);
    /* In memory the reader stops at the NUL like any C string. */
    size_t pos = 0;
    ParseError e;
    CHECK(pdn_next_game(data, &pos, &RULES_ENGLISH, &game, &e) == 1 && game.nmoves == 2);
}

int main(void)
{
    RUN("pdn", tinsley_games);
    RUN("pdn", round_trip_tinsley);
    RUN("pdn", round_trip_random);
    RUN("pdn", real_file_constructs);
    RUN("pdn", malformed_input);
    RUN("pdn", limits);
    RUN("pdn", error_recovery);
    RUN("pdn", random_inputs);
    RUN("pdn", parse_single_moves);
    RUN("pdn", writer_contract);
    RUN("pdn", nul_bytes);
    return check_total_failed != 0;
}
