/*
 * test_tower.c - the tower variant (tower.h): action order, agreement with the library's move
 * generator, board cost, action-line parsing and the order of the error checks, hand-checked
 * minimax decisions, and alpha-beta against plain minimax on hundreds of random positions at
 * depths 1 to 5.
 */
#include "check.h"
#include "rng.h"

#include "movegen.h"
#include "notation.h"
#include "tower.h"
#include "tower_format.h"

#include <limits.h>
#include <stdlib.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

/* Deterministic, so a failure can be replayed. */
static uint32_t rng(void)
{
    return (uint32_t)(rng_splitmix64(&rng_state) >> 32);
}

/* The square of a cell written "G6". */
static int cell(const char *c)
{
    return tower_square(c[0] - 'A', c[1] - '0');
}

/* Puts a piece on a cell: 'b', 'w' men, 'B', 'W' towers. */
static void put(Board *b, const char *c, char piece)
{
    int sq = cell(c);
    CHECK(sq >= 0);
    if (sq >= 0)
        board_set(b, sq, piece == 'b' || piece == 'B' ? BLACK : WHITE,
                  piece == 'B' || piece == 'W');
}

/* All actions of B as "G6-F5 C6-D5 ..." into OUT. */
static void actions_text(const Board *b, char *out, size_t size)
{
    Move list[TOWER_MAX_ACTIONS];
    int n = tower_generate(b, list);
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < n && k + 7 < size; i++) {
        char t[6];
        tower_format_action(&list[i], t);
        k += (size_t)snprintf(out + k, size - k, "%s%s", i ? " " : "", t);
    }
}

/* The text of the action tower_minimax (or tower_alphabeta) picks, or "none". */
static void decision(const Board *b, int depth, bool ab, char out[6], int *value)
{
    Move list[TOWER_MAX_ACTIONS];
    tower_generate(b, list);
    int i = ab ? tower_alphabeta(b, depth, value, NULL) : tower_minimax(b, depth, value, NULL);
    if (i < 0)
        strcpy(out, "none");
    else
        tower_format_action(&list[i], out);
}

static void test_start_order(void)
{
    Board b;
    char text[400];
    board_start(&b);
    actions_text(&b, text, sizeof text);
    /* Sources in reading order A6, C6, E6, G6; for each NE before NW. */
    CHECK_STR(text, "A6-B5 C6-D5 C6-B5 E6-F5 E6-D5 G6-H5 G6-F5");
    CHECK_EQ_U64(tower_cost(&b), 0);
    Move m;
    TowerCells c = {'G' - 'A', 6, 'F' - 'A', 5};
    CHECK(tower_check_action(&b, &c, &m) == TOWER_OK);
    board_apply(&b, &m);
    actions_text(&b, text, sizeof text);
    /* White's men go south: SE then SW, sources B3, D3, F3, H3. */
    CHECK_STR(text, "B3-C4 B3-A4 D3-E4 D3-C4 F3-G4 F3-E4 H3-G4");
}

static void test_tower_directions(void)
{
    Board b;
    char text[400];
    board_clear(&b, BLACK);
    put(&b, "D5", 'B'); /* a black tower in the middle: NE, SE, SW, NW */
    put(&b, "C4", 'w'); /* its NW neighbour, B3 empty behind: a jump north-west */
    put(&b, "E6", 'W'); /* its SE neighbour, F7 empty behind: a backward jump */
    put(&b, "A8", 'b'); /* a man on the edge: NE only */
    put(&b, "G2", 'b'); /* a man one step from row 1: both moves crown */
    actions_text(&b, text, sizeof text);
    CHECK_STR(text, "G2-H1 G2-F1 D5-E4 D5-F7 D5-C6 D5-B3 A8-B7");
    Move list[TOWER_MAX_ACTIONS];
    int n = tower_generate(&b, list);
    CHECK_EQ_U64(n, 7);
    CHECK((list[0].flags & MOVE_CROWNS) && (list[1].flags & MOVE_CROWNS));
    CHECK(!(list[2].flags & MOVE_CROWNS));
    CHECK(list[3].captured == 1u << cell("E6"));
    CHECK(list[5].captured == 1u << cell("C4"));
    /* Cost 1 + 3 + 1 - 1 - 3 = 1; after G2-H1 the man is a tower: 3. */
    CHECK_EQ_U64(tower_cost(&b), 1);
    Board c = b;
    board_apply(&c, &list[0]);
    CHECK_EQ_U64(tower_cost(&c), 3);
    CHECK(board_is_king(&c, cell("H1")));
    /* Taking the tower on E6 by the backward jump: 5 - 1 = 4. */
    c = b;
    board_apply(&c, &list[3]);
    CHECK_EQ_U64(tower_cost(&c), 4);
    /* White to move: the man on C4 goes south only (SE D5 is Black's with E6 taken behind it,
     * SW B5 is free); the tower on E6 every way but NW (D5 is Black's, C4 behind it taken). */
    b.side = WHITE;
    b.key = board_compute_key(&b);
    actions_text(&b, text, sizeof text);
    CHECK_STR(text, "C4-B5 E6-F5 E6-F7 E6-D7");
    /* Men never jump backwards: a white man on D5, a black man on C4 with B3 empty. */
    board_clear(&b, WHITE);
    put(&b, "D5", 'w');
    put(&b, "C4", 'b');
    actions_text(&b, text, sizeof text);
    CHECK_STR(text, "D5-E6 D5-C6");
}

/* A random position: each square empty or one of the four pieces; men never on their crowning
 * row (they would be towers). DENSITY is in 1/100. */
static void random_position(Board *b, int density)
{
    board_clear(b, (int)(rng() & 1));
    for (int sq = 0; sq < SQUARE_NB; sq++) {
        if ((int)(rng() % 100) >= density)
            continue;
        int color = (int)(rng() & 1);
        bool king = rng() % 4 == 0 || board_crown_square(color, sq);
        board_set(b, sq, color, king);
    }
}

/* A position reached by random actions from the start (captures taken half the time when
 * there is one). Returns false if the game ended on the way. */
static bool random_game_position(Board *b, int plies)
{
    board_start(b);
    for (int p = 0; p < plies; p++) {
        Move list[TOWER_MAX_ACTIONS];
        int n = tower_generate(b, list);
        if (n == 0)
            return false;
        int pick = (int)(rng() % (uint32_t)n);
        if (rng() & 1)
            for (int i = 0; i < n; i++)
                if (list[i].captured) {
                    pick = i;
                    break;
                }
        board_apply(b, &list[pick]);
    }
    return true;
}

static void test_generate_matches_library(void)
{
    int mismatches = 0;
    for (int t = 0; t < 3000; t++) {
        Board b;
        random_position(&b, 15 + t % 50);
        Move list[TOWER_MAX_ACTIONS];
        MoveList lib;
        int n = tower_generate(&b, list);
        int m = movegen_generate(&b, &RULES_TOWER, false, &lib);
        bool same = n == m && tower_has_action(&b) == (n > 0);
        for (int i = 0; same && i < n; i++) {
            bool found = false;
            for (int j = 0; j < m; j++)
                found |= move_same(&list[i], &lib.moves[j], false) &&
                         list[i].flags == lib.moves[j].flags;
            same = found;
        }
        /* Reading order: sources never go back down the reading order. */
        for (int i = 1; same && i < n; i++)
            same = list[i].from <= list[i - 1].from;
        for (int i = 0; same && i < n; i++) {
            Board c = b;
            board_apply(&c, &list[i]);
            char err[ERR_LEN];
            same = board_valid(&c, err);
        }
        if (!same && mismatches++ < 3) {
            char fen[128];
            notation_format_fen(&b, fen, sizeof fen);
            printf("  generator mismatch: %s (%d vs %d actions)\n", fen, n, m);
        }
    }
    CHECK_EQ_U64(mismatches, 0);
}

static void test_parse_line(void)
{
    TowerCells c;
    CHECK(tower_parse_line("G6-F5", 5, &c) == TOWER_LINE_ACTION);
    CHECK(c.from_col == 6 && c.from_row == 6 && c.to_col == 5 && c.to_row == 5);
    CHECK(tower_parse_line("  g6-f5 \t\r", 10, &c) == TOWER_LINE_ACTION);
    CHECK(c.from_col == 6 && c.from_row == 6 && c.to_col == 5 && c.to_row == 5);
    CHECK(tower_parse_line("G06-F5", 6, &c) == TOWER_LINE_ACTION && c.from_row == 6);
    CHECK(tower_parse_line("Z0-A123456789", 13, &c) == TOWER_LINE_ACTION);
    CHECK(c.from_col == 25 && c.from_row == 0 && c.to_col == 0 && c.to_row == 9999);
    CHECK(tower_parse_line("A", 1, &c) == TOWER_LINE_ONE);
    CHECK(tower_parse_line(" a\r", 3, &c) == TOWER_LINE_ONE);
    CHECK(tower_parse_line("P", 1, &c) == TOWER_LINE_TEN);
    CHECK(tower_parse_line("p ", 2, &c) == TOWER_LINE_TEN);
    CHECK(tower_parse_line("", 0, &c) == TOWER_LINE_BLANK);
    CHECK(tower_parse_line(" \t\r", 3, &c) == TOWER_LINE_BLANK);
    const char *bad[] = {"Q",
                         "AP",
                         "G6F5",
                         "G6-F5x",
                         "G-F5",
                         "GG6-F5",
                         "G6 - F5",
                         "G6--F5",
                         "6G-5F",
                         "G6-",
                         "-F5",
                         "G6-F",
                         "#6-F5",
                         "G6_F5",
                         "G6-F5-E4",
                         "A A",
                         "G+6-F5",
                         "G6-F+5",
                         ("\xc3\x89" /* É, then 6-F5 (split so the escape ends) */
                          "6-F5")};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (tower_parse_line(bad[i], strlen(bad[i]), &c) != TOWER_LINE_BAD) {
            printf("  accepted `%s'\n", bad[i]);
            check_failed++;
        }
    /* An embedded NUL byte, and the length is respected: "G6-F5" cut to "G6-F". */
    CHECK(tower_parse_line("G6\0-F5", 6, &c) == TOWER_LINE_BAD);
    CHECK(tower_parse_line("G6-F5", 4, &c) == TOWER_LINE_BAD);
}

static TowerStatus check_text(const Board *b, const char *text)
{
    TowerCells c;
    Move m;
    if (tower_parse_line(text, strlen(text), &c) != TOWER_LINE_ACTION)
        return TOWER_ILLEGAL;
    return tower_check_action(b, &c, &m);
}

static void test_error_order(void)
{
    Board b;
    board_start(&b);
    /* Each line fails several checks; the first in the assignment's order is reported. */
    CHECK(check_text(&b, "I9-Z0") == TOWER_SOURCE_OUTSIDE);
    CHECK(check_text(&b, "A9-B8") == TOWER_SOURCE_OUTSIDE);
    CHECK(check_text(&b, "A0-B8") == TOWER_SOURCE_OUTSIDE);
    CHECK(check_text(&b, "D4-I5") == TOWER_TARGET_OUTSIDE); /* before "source empty" */
    CHECK(check_text(&b, "G6-H0") == TOWER_TARGET_OUTSIDE);
    CHECK(check_text(&b, "D4-A8") == TOWER_SOURCE_EMPTY);     /* before "target not empty" */
    CHECK(check_text(&b, "A1-B2") == TOWER_SOURCE_EMPTY);     /* a light cell */
    CHECK(check_text(&b, "G2-A8") == TOWER_TARGET_NOT_EMPTY); /* the seed's example */
    CHECK(check_text(&b, "G6-H7") == TOWER_TARGET_NOT_EMPTY);
    CHECK(check_text(&b, "H3-G4") == TOWER_SOURCE_OPPONENT); /* White's man, Black to move */
    CHECK(check_text(&b, "G6-G5") == TOWER_ILLEGAL);         /* light target */
    CHECK(check_text(&b, "G6-E4") == TOWER_ILLEGAL);         /* two cells, nothing to jump */
    CHECK(check_text(&b, "G6-G4") == TOWER_ILLEGAL);
    CHECK(check_text(&b, "G6-F5") == TOWER_OK);
    /* Black man D5, tower F5; White men C4 and C2 with B3 and D1 empty. */
    board_clear(&b, BLACK);
    put(&b, "D5", 'b');
    put(&b, "F5", 'B');
    put(&b, "C4", 'w');
    put(&b, "C2", 'w');
    CHECK(check_text(&b, "D5-E4") == TOWER_OK);      /* a man forward */
    CHECK(check_text(&b, "D5-E6") == TOWER_ILLEGAL); /* a man backwards */
    CHECK(check_text(&b, "F5-G6") == TOWER_OK);      /* a tower backwards */
    CHECK(check_text(&b, "F5-E6") == TOWER_OK);
    CHECK(check_text(&b, "D5-B3") == TOWER_OK);      /* one jump */
    CHECK(check_text(&b, "D5-D1") == TOWER_ILLEGAL); /* two jumps (over C4, then C2) */
    CHECK(check_text(&b, "D5-C4") == TOWER_TARGET_NOT_EMPTY);
    CHECK_STR(tower_status_message(TOWER_SOURCE_OPPONENT),
              "ERROR: Source cell holds opponent's piece/tower.");
    CHECK_STR(tower_status_message(TOWER_ILLEGAL), "ERROR: Illegal action.");
}

static void test_hand_decisions(void)
{
    Board b;
    char act[6], text[200];
    int v;
    /* No action at the root: no decision, worth INT_MIN for Black to move, INT_MAX for White. */
    board_clear(&b, BLACK);
    put(&b, "C4", 'w');
    decision(&b, 3, false, act, &v);
    CHECK_STR(act, "none");
    CHECK(v == INT_MIN);
    board_clear(&b, WHITE);
    put(&b, "C4", 'b');
    decision(&b, 3, true, act, &v);
    CHECK_STR(act, "none");
    CHECK(v == INT_MAX);

    /* A lone black man on C6, a lone white man on F1: no line of three plies can capture, so
     * every leaf costs 0 and the first generated action (NE before NW) is chosen. */
    board_clear(&b, BLACK);
    put(&b, "C6", 'b');
    put(&b, "F1", 'w');
    decision(&b, 3, false, act, &v);
    CHECK_STR(act, "C6-D5");
    CHECK(v == 0);

    /* Optional capture. Black men E4, A8; White men D3, B1; Black to move.
     *   E4-F3: White has no capture (D3 goes to C4 or E4, B1 to A2 or C2): every leaf 0.
     *   E4-C2 (takes D3): 2 - 1 = 1, but B1 jumps C2 to D3: 1 - 1 = 0.
     *   A8-B7: D3 jumps E4 to F5: 1 - 2 = -1.
     * Depth 2: 0, 0, -1: the first, E4-F3, a move chosen while a capture exists.
     * Depth 1: 0, 1, 0: the capture. */
    board_clear(&b, BLACK);
    put(&b, "E4", 'b');
    put(&b, "A8", 'b');
    put(&b, "D3", 'w');
    put(&b, "B1", 'w');
    actions_text(&b, text, sizeof text);
    CHECK_STR(text, "E4-F3 E4-C2 A8-B7");
    decision(&b, 2, false, act, &v);
    CHECK_STR(act, "E4-F3");
    CHECK(v == 0);
    decision(&b, 2, true, act, &v);
    CHECK_STR(act, "E4-F3");
    CHECK(v == 0);
    decision(&b, 1, false, act, &v);
    CHECK_STR(act, "E4-C2");
    CHECK(v == 1);

    /* White to move, its only man on A2 blocked: SE is B3 (Black) with C4 (Black) behind. */
    board_clear(&b, WHITE);
    put(&b, "A2", 'w');
    put(&b, "B3", 'b');
    put(&b, "C4", 'b');
    decision(&b, 3, false, act, &v);
    CHECK_STR(act, "none");
    CHECK(v == INT_MAX);

    /* Black to move can make that block: D5-C4 leaves White without an action (INT_MAX at
     * depth 1), while B3-C2 frees B3 and D5-E4 lets A2 jump B3 to C4. */
    board_clear(&b, BLACK);
    put(&b, "A2", 'w');
    put(&b, "B3", 'b');
    put(&b, "D5", 'b');
    actions_text(&b, text, sizeof text);
    CHECK_STR(text, "B3-C2 D5-E4 D5-C4");
    decision(&b, 1, false, act, &v);
    CHECK_STR(act, "D5-C4");
    CHECK(v == INT_MAX);
    decision(&b, 3, false, act, &v);
    CHECK_STR(act, "D5-C4");
    CHECK(v == INT_MAX);
    decision(&b, 3, true, act, &v);
    CHECK_STR(act, "D5-C4");
}

/* Compares both searches on N positions at depths MIND..MAXD: random placements and positions
 * of random games, alternately (only the games when RANDOM is false). */
static int compare_searches(int n, int mind, int maxd, bool random, uint64_t *mm_nodes,
                            uint64_t *ab_nodes)
{
    int differences = 0;
    for (int t = 0; t < n; t++) {
        Board b;
        if (random && t % 2 == 0)
            random_position(&b, 20 + (int)(rng() % 20));
        else if (!random_game_position(&b, 6 + (int)(rng() % 40)))
            continue;
        for (int d = mind; d <= maxd; d++) {
            int v1, v2;
            uint64_t n1, n2;
            int i1 = tower_minimax(&b, d, &v1, &n1);
            int i2 = tower_alphabeta(&b, d, &v2, &n2);
            *mm_nodes += n1;
            *ab_nodes += n2;
            if (i1 != i2 || v1 != v2) {
                if (differences++ < 3) {
                    char fen[128];
                    notation_format_fen(&b, fen, sizeof fen);
                    printf("  depth %d %s: minimax %d (%d), alpha-beta %d (%d)\n", d, fen, i1, v1,
                           i2, v2);
                }
            }
        }
    }
    return differences;
}

static bool slow_build(void)
{
    const char *variant = getenv("PONDER_VARIANT");
    return variant && strcmp(variant, "asan") == 0;
}

static void test_alphabeta_equals_minimax(void)
{
    uint64_t mm = 0, ab = 0;
    int n = slow_build() ? 120 : 500;
    CHECK_EQ_U64(compare_searches(n, 1, 5, true, &mm, &ab), 0);
    CHECK(ab < mm);
    printf("  %d positions, depths 1-5: minimax %llu nodes, alpha-beta %llu\n", n,
           (unsigned long long)mm, (unsigned long long)ab);
}

/* Deeper, where the transposition table and the killers have more to do. */
static void test_alphabeta_equals_minimax_deeper(void)
{
    uint64_t mm = 0, ab = 0;
    int n = slow_build() ? 4 : 30;
    CHECK_EQ_U64(compare_searches(n, 6, 6, false, &mm, &ab), 0);
    CHECK(ab < mm);
    printf("  %d game positions, depth 6: minimax %llu nodes, alpha-beta %llu\n", n,
           (unsigned long long)mm, (unsigned long long)ab);
}

int main(void)
{
    RUN("tower", test_start_order);
    RUN("tower", test_tower_directions);
    RUN("tower", test_generate_matches_library);
    RUN("tower", test_parse_line);
    RUN("tower", test_error_order);
    RUN("tower", test_hand_decisions);
    RUN("tower", test_alphabeta_equals_minimax);
    RUN("tower", test_alphabeta_equals_minimax_deeper);
    return check_total_failed ? 1 : 0;
}
