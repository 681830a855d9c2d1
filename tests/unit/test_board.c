/*
 * test_board.c - the position: the start, set-up by square, copy-make with the key kept right
 * along random games under every rule set, equality, and board_valid refusing each kind of bad
 * board with a message that names the fault, and the half turn (the same position for the other
 * side).
 */
#include "bitboard.h"
#include "board.h"
#include "check.h"
#include "movegen.h"
#include "rng.h"

#include <string.h>

static void test_start_position(void)
{
    Board b;
    board_start(&b);
    CHECK(b.side == BLACK);
    CHECK(b.pieces[BLACK] == 0x00000FFFu && b.pieces[WHITE] == 0xFFF00000u && b.kings == 0);
    CHECK(b.key == board_compute_key(&b));
    char err[ERR_LEN];
    CHECK(board_valid(&b, err));
    for (int sq = 0; sq < SQUARE_NB; sq++)
        CHECK(board_color_at(&b, sq) == (sq < 12 ? BLACK : sq >= 20 ? WHITE : -1));
    CHECK(board_empty(&b) == 0x000FF000u);
}

/* board_set puts, replaces and removes pieces with the key kept equal to a fresh computation;
 * the side to move is part of the key. */
static void test_set_keeps_key(void)
{
    Board b;
    board_clear(&b, BLACK);
    CHECK(b.pieces[BLACK] == 0 && b.pieces[WHITE] == 0 && b.kings == 0 && b.key == 0);
    Board w;
    board_clear(&w, WHITE);
    CHECK(w.key == zobrist_side && w.key != b.key);
    board_set(&b, 0, BLACK, false);
    board_set(&b, 31, WHITE, true);
    CHECK(b.key == board_compute_key(&b));
    CHECK(board_color_at(&b, 0) == BLACK && !board_is_king(&b, 0));
    CHECK(board_color_at(&b, 31) == WHITE && board_is_king(&b, 31));
    board_set(&b, 31, BLACK, false); /* replace a White king with a Black man */
    CHECK(board_color_at(&b, 31) == BLACK && !board_is_king(&b, 31) && b.pieces[WHITE] == 0);
    CHECK(b.key == board_compute_key(&b));
    board_set(&b, 31, -1, false);
    board_set(&b, 0, -1, false);
    CHECK(b.pieces[BLACK] == 0 && b.key == 0);
    /* Every piece on every square changes the key, and differently. */
    uint64_t seen[2 * COLOR_NB * SQUARE_NB];
    int n = 0;
    for (int c = 0; c < COLOR_NB; c++)
        for (int k = 0; k < 2; k++)
            for (int sq = 0; sq < SQUARE_NB; sq++) {
                board_set(&b, sq, c, k);
                seen[n++] = b.key;
                board_set(&b, sq, -1, false);
            }
    bool distinct = true;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            distinct &= seen[i] != seen[j] && seen[i] != 0;
    CHECK(distinct);
}

/* Copy-make along random games, under each built-in rule set: after every move the key equals
 * board_compute_key, the board is valid, the side has passed, the mover stands on the
 * destination, and exactly the captured pieces are gone. */
static void test_copy_make_over_random_games(void)
{
    bb_init();
    const Rules *sets[] = {&RULES_ENGLISH, &RULES_HACKERRANK, &RULES_TOWER};
    uint64_t s = 2024;
    int moves = 0, captures = 0, crowns = 0;
    bool ok = true;
    char err[ERR_LEN] = "";
    for (int game = 0; game < 300 && ok; game++) {
        const Rules *r = sets[game % 3];
        Board b;
        board_start(&b);
        for (int ply = 0; ply < 200 && ok; ply++) {
            MoveList list;
            int n = movegen_generate(&b, r, game % 2, &list);
            if (n == 0)
                break;
            const Move *m = &list.moves[rng_splitmix64(&s) % (uint64_t)n];
            Board before = b;
            board_apply(&b, m);
            moves++;
            captures += m->captured != 0;
            crowns += (m->flags & MOVE_CROWNS) != 0;
            int us = before.side;
            ok = b.key == board_compute_key(&b) && board_valid(&b, err) && b.side == (us ^ 1) &&
                 board_color_at(&b, m->to) == us &&
                 (m->from == m->to || board_color_at(&b, m->from) < 0) &&
                 (b.pieces[us ^ 1] == (before.pieces[us ^ 1] & ~m->captured)) &&
                 (before.pieces[us ^ 1] & m->captured) == m->captured &&
                 (!(m->flags & MOVE_CROWNS) || board_is_king(&b, m->to)) &&
                 (board_is_king(&before, m->from) == board_is_king(&b, m->to) ||
                  (m->flags & MOVE_CROWNS));
            if (!ok)
                printf("  game %d ply %d: %s\n", game, ply, err);
        }
    }
    CHECK(ok);
    /* The games went through what matters: captures and crownings, not just openings. */
    CHECK(moves > 10000 && captures > 1000 && crowns > 100);
}

static void test_equal(void)
{
    Board a, b;
    board_start(&a);
    board_start(&b);
    CHECK(board_equal(&a, &b));
    b.side = WHITE;
    CHECK(!board_equal(&a, &b));
    b = a;
    board_set(&b, 0, BLACK, true);
    CHECK(!board_equal(&a, &b));
    b = a;
    b.key ^= 1; /* the key is not part of the position */
    CHECK(board_equal(&a, &b));
}

/* board_valid refuses each kind of bad board and says which. */
static void test_valid_rejects(void)
{
    char err[ERR_LEN];
    Board good, b;
    board_start(&good);

    b = good;
    b.pieces[WHITE] |= 1u << 4; /* square 5 holds a Black man */
    b.key = board_compute_key(&b);
    CHECK(!board_valid(&b, err));
    CHECK(strstr(err, "square 5") && strstr(err, "both colours"));

    b = good;
    b.kings |= 1u << 14; /* square 15 is empty */
    CHECK(!board_valid(&b, err));
    CHECK(strstr(err, "king") && strstr(err, "15"));

    b = good;
    b.side = 2;
    CHECK(!board_valid(&b, err));
    CHECK(strstr(err, "side to move is 2") != NULL);

    b = good;
    b.pieces[BLACK] &= ~1u; /* a piece gone without the key knowing */
    CHECK(!board_valid(&b, err));
    CHECK(strstr(err, "key") != NULL);

    b = good;
    b.key ^= zobrist_side; /* the key of the other side to move */
    CHECK(!board_valid(&b, err));

    CHECK(board_valid(&good, err));
}

/* A man that reaches the far row is crowned by the move that gets there (MOVE_CROWNS), and a
 * king that moves stays a king. */
static void test_crowning(void)
{
    bb_init();
    Board b;
    board_clear(&b, BLACK);
    board_set(&b, 24, BLACK, false); /* square 25, one row from White's back row */
    board_set(&b, 2, WHITE, false);
    b.key = board_compute_key(&b);
    MoveList list;
    int n = movegen_generate(&b, &RULES_ENGLISH, false, &list);
    CHECK(n == 2);
    for (int i = 0; i < n; i++) {
        CHECK(list.moves[i].flags & MOVE_CROWNS);
        Board c = b;
        board_apply(&c, &list.moves[i]);
        CHECK(board_is_king(&c, list.moves[i].to) && c.key == board_compute_key(&c));
        /* The new king can go back: White to move, then Black's king has four or fewer steps
         * that include a backward one. */
        c.side = BLACK;
        c.key = board_compute_key(&c);
        MoveList back;
        int k = movegen_generate(&c, &RULES_ENGLISH, false, &back);
        bool backward = false;
        for (int j = 0; j < k; j++)
            backward |= back.moves[j].to < back.moves[j].from;
        CHECK(backward);
    }
}

/* The half turn: the same position for the other side. Its moves are the half-turned moves, and
 * turning twice gives the board back. */
static void test_turn(void)
{
    Board b, t, tt, start;
    board_clear(&b, BLACK);
    board_set(&b, 0, BLACK, false); /* square 1 */
    board_set(&b, 6, WHITE, true);  /* square 7 */
    board_turn(&b, &t);
    CHECK(t.side == WHITE && t.pieces[WHITE] == 1u << 31 && t.pieces[BLACK] == 1u << 25 &&
          t.kings == 1u << 25 && t.key == board_compute_key(&t));
    /* The start position turned is itself with White to move. */
    board_start(&start);
    board_turn(&start, &t);
    start.side = WHITE;
    start.key = board_compute_key(&start);
    CHECK(board_equal(&t, &start) && t.key == start.key);

    uint64_t s = 77;
    int bad = 0, positions = 0;
    char err[ERR_LEN] = "";
    for (int game = 0; game < 100; game++) {
        board_start(&b);
        for (int ply = 0; ply < 150; ply++) {
            MoveList l, lt;
            int n = movegen_generate(&b, &RULES_ENGLISH, false, &l);
            board_turn(&b, &t);
            board_turn(&t, &tt);
            int nt = movegen_generate(&t, &RULES_ENGLISH, false, &lt);
            bool ok = board_valid(&t, err) && board_equal(&tt, &b) && tt.key == b.key && nt == n;
            for (int i = 0; ok && i < n; i++) {
                bool found = false;
                for (int j = 0; j < nt && !found; j++)
                    found = lt.moves[j].from == 31 - l.moves[i].from &&
                            lt.moves[j].to == 31 - l.moves[i].to &&
                            lt.moves[j].captured == bb_turn(l.moves[i].captured);
                ok = found;
            }
            bad += !ok;
            positions++;
            if (n == 0)
                break;
            board_apply(&b, &l.moves[rng_splitmix64(&s) % (uint64_t)n]);
        }
    }
    if (bad)
        printf("  %d of %d positions turned wrong (%s)\n", bad, positions, err);
    CHECK(bad == 0 && positions > 5000);
}

int main(void)
{
    RUN("board", test_start_position);
    RUN("board", test_set_keeps_key);
    RUN("board", test_copy_make_over_random_games);
    RUN("board", test_equal);
    RUN("board", test_valid_rejects);
    RUN("board", test_crowning);
    RUN("board", test_turn);
    return check_total_failed ? 1 : 0;
}
