/*
 * baseline.c - seed 001's bot as a reference opponent (baseline.h).
 *
 * The seed describes its bot in words only: depth-6 minimax with alpha-beta pruning, and an
 * evaluation `eval2' scoring each side's pieces (man 5, king 7.75, back row +4, the middle four
 * squares +2.5, the middle-side four +0.5, vulnerable -3; "protected +3" was never implemented),
 * the side's total minus the opponent's. It names the project its terms come from; from there we
 * take what the words leave open: the middle squares are those of the two centre rows (columns
 * c-f of the diagram, squares 14 15 18 19; the other four squares of those rows are the
 * middle-side ones), a back-row piece earns no other bonus or penalty, and a piece is
 * vulnerable once for each of its two forward diagonals on which an opponent piece stands next
 * to it with the square behind it empty (pieces on the side columns never are). Weights are kept
 * in quarter points so the arithmetic is exact.
 *
 * The search is deliberately plain, like the original: no move ordering, no table, no
 * quiescence, no draw detection. A side with no legal move loses (scored so that a quicker win is
 * preferred), and among equal root moves the first generated is played, so the bot is
 * deterministic.
 */
#include "baseline.h"

enum {
    W_MAN = 20,         /* 5 points */
    W_KING = 31,        /* 7.75 */
    W_BACK_ROW = 16,    /* 4 */
    W_MIDDLE = 10,      /* 2.5 */
    W_MIDDLE_SIDE = 2,  /* 0.5 */
    W_VULNERABLE = -12, /* -3 */
    BASELINE_WIN = 1000000,
};

#define MIDDLE_SQUARES ((1u << 13) | (1u << 14) | (1u << 17) | (1u << 18))
#define MIDDLE_SIDE_SQUARES ((1u << 12) | (1u << 15) | (1u << 16) | (1u << 19))
#define SIDE_COLUMNS 0x18181818u /* squares 4 5 12 13 20 21 28 29 */

/* The eval2 total of COLOR's pieces on B. */
static int side_score(const Board *b, int color)
{
    Bitboard own = b->pieces[color], opp = b->pieces[color ^ 1], empty = board_empty(b);
    Bitboard back = color == BLACK ? BB_ROW(0) : BB_ROW(7);
    int score = W_MAN * bb_popcount(own & ~b->kings) + W_KING * bb_popcount(own & b->kings) +
                W_BACK_ROW * bb_popcount(own & back) +
                W_MIDDLE * bb_popcount(own & MIDDLE_SQUARES) +
                W_MIDDLE_SIDE * bb_popcount(own & MIDDLE_SIDE_SQUARES);
    /* Vulnerable: an opponent in front on one diagonal, the square behind on the same diagonal
     * empty. For Black "front" is up (UL, UR) and the matching square behind is DR, DL. */
    Bitboard exposed = own & ~back & ~SIDE_COLUMNS;
    int vulnerable;
    if (color == BLACK)
        vulnerable = bb_popcount(exposed & bb_dr(opp) & bb_ul(empty)) +
                     bb_popcount(exposed & bb_dl(opp) & bb_ur(empty));
    else
        vulnerable = bb_popcount(exposed & bb_ur(opp) & bb_dl(empty)) +
                     bb_popcount(exposed & bb_ul(opp) & bb_dr(empty));
    return score + W_VULNERABLE * vulnerable;
}

int baseline_evaluate(const Board *b)
{
    return side_score(b, b->side) - side_score(b, b->side ^ 1);
}

static int alphabeta(const Board *b, const Rules *r, int depth, int ply, int alpha, int beta)
{
    MoveList list;
    int n = movegen_generate(b, r, false, &list);
    if (n == 0)
        return -(BASELINE_WIN - ply);
    if (depth == 0)
        return baseline_evaluate(b);
    int best = -BASELINE_WIN - 1;
    for (int i = 0; i < n; i++) {
        Board child = *b;
        board_apply(&child, &list.moves[i]);
        int v = -alphabeta(&child, r, depth - 1, ply + 1, -beta, -alpha);
        if (v > best) {
            best = v;
            if (v > alpha)
                alpha = v;
            if (alpha >= beta)
                break;
        }
    }
    return best;
}

bool baseline_search(const Board *b, const Rules *r, int depth, Move *best)
{
    MoveList list;
    int n = movegen_generate(b, r, false, &list);
    if (n == 0)
        return false;
    if (depth < 1)
        depth = 1;
    int alpha = -BASELINE_WIN - 1, beta = BASELINE_WIN + 1;
    *best = list.moves[0];
    for (int i = 0; i < n; i++) {
        Board child = *b;
        board_apply(&child, &list.moves[i]);
        int v = -alphabeta(&child, r, depth - 1, 1, -beta, -alpha);
        if (v > alpha) {
            alpha = v;
            *best = list.moves[i];
        }
    }
    return true;
}
