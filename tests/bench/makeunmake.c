/*
 * makeunmake.c - measures copy-make against make/unmake on the same move generator, to justify
 * the Board design (docs/design.md). Both walk the perft tree to depth 9 with
 * movegen_generate at every node (no bulk counting) so only the way children are made differs.
 * Built and run by `make bench`.
 */
#include "board.h"
#include "movegen.h"
#include "util.h"

#include <stdio.h>

static uint64_t copy_make(const Board *b, int depth)
{
    MoveList list;
    int n = movegen_generate(b, &RULES_ENGLISH, false, &list);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Board c = *b;
        board_apply(&c, &list.moves[i]);
        total += copy_make(&c, depth - 1);
    }
    return total;
}

/* Make/unmake in place: the undo record is what board_apply cannot reverse by itself (the king
 * mask, because of crowning and captured kings, and the key). */
static uint64_t make_unmake(Board *b, int depth)
{
    MoveList list;
    int n = movegen_generate(b, &RULES_ENGLISH, false, &list);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        const Move *m = &list.moves[i];
        Bitboard kings = b->kings;
        uint64_t key = b->key;
        int us = b->side;
        board_apply(b, m);
        total += make_unmake(b, depth - 1);
        b->pieces[us] ^= (1u << m->from) ^ (1u << m->to);
        b->pieces[us ^ 1] |= m->captured;
        b->kings = kings;
        b->key = key;
        b->side = us;
    }
    return total;
}

int main(void)
{
    Board b;
    board_start(&b);
    double best_copy = 1e9, best_unmake = 1e9;
    uint64_t n1 = 0, n2 = 0;
    for (int run = 0; run < 5; run++) {
        double t0 = util_now();
        n1 = copy_make(&b, 9);
        double t1 = util_now();
        n2 = make_unmake(&b, 9);
        double t2 = util_now();
        if (t1 - t0 < best_copy)
            best_copy = t1 - t0;
        if (t2 - t1 < best_unmake)
            best_unmake = t2 - t1;
    }
    printf("copy-make   perft 9 %llu in %.3f s (best of 5)\n", (unsigned long long)n1, best_copy);
    printf("make/unmake perft 9 %llu in %.3f s (best of 5)\n", (unsigned long long)n2, best_unmake);
    printf("copy-make / make-unmake time ratio: %.2f\n", best_copy / best_unmake);
    return n1 != n2;
}
