/*
 * test_baseline.c - the seed-001 reference bot: its evaluation on positions scored by hand, and
 * its search (legal, deterministic, sees a win two moves ahead).
 */
#include "baseline.h"
#include "check.h"
#include "notation.h"

#include <stdlib.h>

static Board fen(const char *text)
{
    Board b;
    ParseError e;
    if (!notation_parse_fen(text, &b, &e)) {
        printf("  bad FEN in test: %s (%s)\n", text, e.msg);
        board_start(&b);
    }
    return b;
}

static void evaluate_by_hand(void)
{
    Board b;
    board_start(&b);
    CHECK(baseline_evaluate(&b) == 0); /* symmetric */
    /* Black man on 14 (middle, +2.5), White man on 18 (middle) in front of it with 9 empty
     * behind: vulnerable (-3). White's 18 is backed by its man on 23, so not vulnerable; 23 has
     * no bonus. Black 5 + 2.5 - 3 = 4.5, White 5 + 2.5 + 5 = 12.5: -8 points = -32 quarters. */
    b = fen("B:W18,23:B14");
    CHECK(baseline_evaluate(&b) == -32);
    /* The same from White's side: +32. */
    b = fen("W:W18,23:B14");
    CHECK(baseline_evaluate(&b) == 32);
    /* White king on 29 (its back row): 7.75 + 4; Black man on 1 (its back row): 5 + 4. White to
     * move: 11.75 - 9 = 2.75 = 11 quarters. */
    b = fen("W:WK29:B1");
    CHECK(baseline_evaluate(&b) == 11);
    /* Side columns are never vulnerable. Black on 13 (left edge, middle-side +0.5) has White's
     * 17 in front, but no penalty. White's 17 (middle-side) has Black's 13 in front and 22 empty
     * behind: vulnerable. Black 5.5, White 5 + 0.5 - 3 = 2.5: +3 points = 12 quarters. */
    b = fen("B:W17:B13");
    CHECK(baseline_evaluate(&b) == 12);
}

static void search_is_legal_and_deterministic(void)
{
    /* Random games: every chosen move is legal, and searching twice gives the same move. */
    srand(7);
    for (int game = 0; game < 4; game++) {
        Board b;
        board_start(&b);
        for (int ply = 0; ply < 60; ply++) {
            MoveList list;
            int n = movegen_generate(&b, &RULES_ENGLISH, false, &list);
            Move m, again;
            bool has = baseline_search(&b, &RULES_ENGLISH, 3, &m);
            CHECK(has == (n > 0));
            if (!has)
                break;
            bool legal = false;
            for (int i = 0; i < n; i++)
                legal |= move_same(&m, &list.moves[i], false);
            CHECK(legal);
            CHECK(baseline_search(&b, &RULES_ENGLISH, 3, &again) && move_same(&m, &again, true));
            board_apply(&b, &list.moves[rand() % n]);
        }
    }
}

static void search_finds_wins(void)
{
    /* Black's 22 takes White's last piece: 22x31 wins at once. */
    Board b = fen("B:W26:B22,1");
    Move m;
    CHECK(baseline_search(&b, &RULES_ENGLISH, BASELINE_DEPTH, &m));
    char text[64];
    notation_format_move(&m, text, sizeof text);
    CHECK_STR(text, "22x31");
    /* No legal move (Black has no pieces): false. */
    b = fen("B:WK1:B");
    CHECK(!baseline_search(&b, &RULES_ENGLISH, BASELINE_DEPTH, &m));
    /* White's only man, on 5, is stuck behind Black's man on 1 (White moves towards 1). Any move
     * of Black's king on 32 leaves White without a move, a win; 1-6 would free White. */
    b = fen("B:W5:B1,K32");
    CHECK(baseline_search(&b, &RULES_ENGLISH, BASELINE_DEPTH, &m));
    CHECK(m.from == 31);
}

int main(void)
{
    RUN("baseline", evaluate_by_hand);
    RUN("baseline", search_is_legal_and_deterministic);
    RUN("baseline", search_finds_wins);
    return check_total_failed ? 1 : 0;
}
