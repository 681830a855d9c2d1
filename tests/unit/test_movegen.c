/*
 * test_movegen.c - the move generator against numbers worked out without it: perft from the
 * start position against tests/data/perft.txt (published counts, both conventions), and
 * positions set up by hand whose legal moves were listed by hand from the rules (the reasoning is
 * in the comment of each). Also: board keys stay equal to board_compute_key along random games,
 * and the game record's draw and loss rules.
 *
 * Square geometry used in the reasoning (Black at the top, moving down; row, column):
 *   row 0:  1(0,1)  2(0,3)  3(0,5)  4(0,7)      row 4: 17(4,1) 18(4,3) 19(4,5) 20(4,7)
 *   row 1:  5(1,0)  6(1,2)  7(1,4)  8(1,6)      row 5: 21(5,0) 22(5,2) 23(5,4) 24(5,6)
 *   row 2:  9(2,1) 10(2,3) 11(2,5) 12(2,7)      row 6: 25(6,1) 26(6,3) 27(6,5) 28(6,7)
 *   row 3: 13(3,0) 14(3,2) 15(3,4) 16(3,6)      row 7: 29(7,0) 30(7,2) 31(7,4) 32(7,6)
 * A Black man steps to row+1, a White man to row-1, a king either way; a jump goes two squares
 * the same way over an opponent to an empty square.
 */
#include <stdlib.h>

#include "check.h"
#include "game.h"
#include "notation.h"
#include "perft.h"
#include "rng.h"
#include "util.h"

static bool asan(void)
{
    const char *v = getenv("PONDER_VARIANT");
    return v && strcmp(v, "asan") == 0;
}

/* ---- Perft from the start position against the data file ---- */

typedef struct {
    int depth;
    uint64_t unique, paths; /* 0 where the file has `-' */
} PerftLine;

/* Reads tests/data/perft.txt: `depth unique paths' lines after # comments. */
static int read_perft_file(PerftLine *out, int max)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/perft.txt", check_data_dir());
    char *text = util_read_file(path, 1 << 16, NULL, err, sizeof err);
    if (!text) {
        printf("  %s\n", err);
        return 0;
    }
    int n = 0;
    for (char *line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char u[32], p[32];
        int d;
        if (sscanf(line, "%d %31s %31s", &d, u, p) != 3)
            continue;
        out[n].depth = d;
        out[n].unique = u[0] == '-' ? 0 : strtoull(u, NULL, 10);
        out[n].paths = p[0] == '-' ? 0 : strtoull(p, NULL, 10);
        n++;
    }
    free(text);
    return n;
}

/* Depth 1 to 10 (11 in release builds) in both conventions, once without and once with the
 * hash table, against the file's figures. */
static void perft_start_position(void)
{
    PerftLine lines[32];
    int n = read_perft_file(lines, 32);
    CHECK(n >= 11);
    int max_depth = asan() ? 10 : 11;
    PerftHash *h = perft_hash_new(16);
    Board b;
    board_start(&b);
    int checked = 0;
    for (int i = 0; i < n; i++) {
        const PerftLine *l = &lines[i];
        if (l->depth > max_depth)
            continue;
        CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, l->depth, false, NULL), l->unique);
        CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, l->depth, true, NULL), l->paths);
        if (l->depth <= 10) {
            CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, l->depth, false, h), l->unique);
            CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, l->depth, true, h), l->paths);
        }
        checked++;
    }
    CHECK_EQ_U64(checked, max_depth);
    perft_hash_free(h);
}

/* ---- Hand-checked positions ---- */

/* The squares a move given as a full path jumps over, computed from coordinates alone. */
static Bitboard jumped_squares(const uint8_t *sq, int n)
{
    Bitboard c = 0;
    for (int i = 0; i + 1 < n; i++) {
        int r0 = sq[i] / 4, r1 = sq[i + 1] / 4;
        int c0 = 2 * (sq[i] % 4) + (r0 % 2 ? 0 : 1), c1 = 2 * (sq[i + 1] % 4) + (r1 % 2 ? 0 : 1);
        if (abs(r1 - r0) == 2)
            c |= 1u << (4 * ((r0 + r1) / 2) + ((c0 + c1) / 2) / 2);
    }
    return c;
}

typedef struct {
    const char *name;
    const char *fen;
    const Rules *rules;
    bool paths;        /* every route its own move */
    const char *moves; /* the expected moves, full paths, space-separated ("" for none) */
} HandCase;

/* Generates the moves of C and checks they are exactly the expected ones: same count, and each
 * expected move matched by a distinct generated one (the same path with --paths; otherwise the
 * same origin, destination and captured pieces, since merged routes may show either path). */
static void check_case(const HandCase *c)
{
    Board b;
    ParseError e;
    if (!notation_parse_fen(c->fen, &b, &e)) {
        printf("  %s: bad FEN in the test: %s\n", c->name, e.msg);
        check_failed++;
        return;
    }
    MoveList list;
    int n = movegen_generate(&b, c->rules, c->paths, &list);
    bool used[MAX_MOVES] = {false};
    int expected = 0;
    bool ok = true;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", c->moves);
    for (char *save, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        expected++;
        uint8_t sq[MAX_JUMPS + 4];
        bool capture;
        int len = notation_parse_squares(t, sq, (int)sizeof sq, &capture, &e);
        Bitboard captured = jumped_squares(sq, len);
        int found = -1;
        for (int i = 0; i < n && found < 0; i++) {
            const Move *m = &list.moves[i];
            bool same = c->paths
                            ? m->len == len && memcmp(m->path, sq, (size_t)len) == 0
                            : m->from == sq[0] && m->to == sq[len - 1] && m->captured == captured;
            if (same && !used[i])
                found = i;
        }
        if (found < 0) {
            printf("  %s (%s%s): expected move %s not generated\n", c->name, c->rules->name,
                   c->paths ? ", paths" : "", t);
            ok = false;
        } else
            used[found] = true;
    }
    if (n != expected)
        ok = false;
    /* The counting generator must agree with the list. */
    if (movegen_count(&b, c->rules, c->paths) != n)
        ok = false;
    if (!ok) {
        printf("  %s (%s%s): %d moves generated, %d expected; generated:", c->name, c->rules->name,
               c->paths ? ", paths" : "", n, expected);
        for (int i = 0; i < n; i++) {
            notation_format_move(&list.moves[i], buf, sizeof buf);
            printf(" %s", buf);
        }
        printf("\n");
        check_failed++;
    }
}

static const HandCase hand_cases[] = {
    /* 1. The start: the front men 9-12 step to row 3; 9(2,1) to 13,14; 10(2,3) to 14,15;
     * 11(2,5) to 15,16; 12(2,7) only to 16 (column 8 is off the board). 7 moves. */
    {"start", "B:W21-32:B1-12", &RULES_ENGLISH, false, "9-13 9-14 10-14 10-15 11-15 11-16 12-16"},
    /* 2-3. No pieces at all for the side to move: no move, the side has lost. */
    {"no black pieces", "B:W21,22:B", &RULES_ENGLISH, false, ""},
    {"no white pieces", "W:W:B1", &RULES_TOWER, false, ""},
    /* 4. Blocked: Black man 5(1,0) can only go to 9(2,1), held by White; the jump over 9 lands
     * on 14(3,2), also held. No move. */
    {"blocked man", "B:W9,14:B5", &RULES_ENGLISH, false, ""},
    /* 5. The same position, White to move: 9(2,1) steps to 6(1,2) (5 is Black; jumping 5 would
     * land off the board at column -1); 14(3,2) steps to 10(2,3) (9 is its own). 2 moves. */
    {"blocked man, other side", "W:W9,14:B5", &RULES_ENGLISH, false, "9-6 14-10"},
    /* 6. Men on the far row cannot move (set up by FEN; in play they would be kings): Black men
     * on row 7 and a White man on row 0 (White to move). No move either way. */
    {"men on the far row", "B:W1:B29,30,31,32", &RULES_ENGLISH, false, ""},
    {"white man on row 0", "W:W1,2,3,4:B29", &RULES_ENGLISH, false, ""},
    /* 7. Edges: 12(2,7) has only 16(3,6); 13(3,0) has only 17(4,1). Nothing wraps round. */
    {"edge men", "B:W:B12,13", &RULES_ENGLISH, false, "12-16 13-17"},
    /* 8. Black 8(1,6) next to White 12(2,7): the jump would land on column 8, off the board;
     * the only move is 8-11. */
    {"no jump off the edge", "B:W12:B8", &RULES_ENGLISH, false, "8-11"},
    /* 9. A king alone in the middle: 18(4,3) steps to 14,15 (row 3) and 22,23 (row 5). */
    {"king in the middle", "B:W:BK18", &RULES_ENGLISH, false, "18-14 18-15 18-22 18-23"},
    /* 10. Kings in the corners: 29(7,0) has only 25(6,1); White king 4(0,7) only 8(1,6). */
    {"king in a corner", "B:WK4:BK29", &RULES_ENGLISH, false, "29-25"},
    {"white king in a corner", "W:WK4:BK29", &RULES_ENGLISH, false, "4-8"},
    /* 11. A man one step from the crown: 25(6,1) to 29(7,0) and 30(7,2). */
    {"man about to crown", "B:W:B25", &RULES_ENGLISH, false, "25-29 25-30"},
    /* 12. Capture is mandatory: Black 9(2,1) jumps White 14(3,2) to 18(4,3); 9-13 is not
     * allowed while a capture exists. From 18 nothing more: 22,23 are empty. 1 move. */
    {"forced capture", "B:W14:B9", &RULES_ENGLISH, false, "9x18"},
    /* 13. Tower rules make it optional: 9x18 or 9-13. */
    {"optional capture (tower)", "B:W14:B9", &RULES_TOWER, false, "9x18 9-13"},
    /* 14. A double jump must be finished: 1(0,1) over 6(1,2) to 10(2,3), then over 15(3,4) to
     * 19(4,5) (14 is empty so no other branch). 1 move, 1x10x19. */
    {"double jump", "B:W6,15:B1", &RULES_ENGLISH, false, "1x10x19"},
    /* 15. Tower rules: one jump per turn, so 1x10 stops there; the simple move 1-5 is also
     * allowed (6 is occupied). 2 moves. */
    {"one jump per turn (tower)", "B:W6,15:B1", &RULES_TOWER, false, "1x10 1-5"},
    /* 16. Not necessarily the longest capture: Black 10(2,3) over 14(3,2) to 17(4,1), where it
     * stops (21,22 empty); or over 15(3,4) to 19(4,5), then over 23(5,4) to 26(6,3) (24 empty),
     * then nothing (30,31 empty). Both are legal: 10x17 and 10x19x26. */
    {"any capture, not the longest", "B:W14,15,23:B10", &RULES_ENGLISH, false, "10x17 10x19x26"},
    /* 17-19. Crowning during a capture, the seed-001 capture sample (White to move, White men
     * 17,21,24,25,29,32; Black men 5,6,7,8,10,14,22,28). Only 25(6,1) can jump: over 22(5,2)
     * to 18(4,3) (17 has 14 then 10 behind it, 32 would land off the board, the others face
     * empty or own squares). From 18 over 14(3,2) to 9(2,1) (15 is empty); from 9 over 6(1,2)
     * to 2(0,3), the crowning row (jumping 5 would leave the board).
     * English: the move ends on crowning: 25x18x9x2. */
    {"crowning ends the capture (english)", "W:W17,21,24,25,29,32:B5,6,7,8,10,14,22,28",
     &RULES_ENGLISH, false, "25x18x9x2"},
    /* HackerRank: the new king goes on: from 2 over 7(1,4) to 11(2,5) (6 is taken already),
     * from 11 over 8(1,6) to 4(0,7) (15,16 are empty); from 4 nothing is left. One move of 5
     * hops, as the sample answer says. */
    {"crowning continues (hackerrank)", "W:W17,21,24,25,29,32:B5,6,7,8,10,14,22,28",
     &RULES_HACKERRANK, false, "25x18x9x2x11x4"},
    /* Tower: the single jump 25x18, or a simple move: 17-13 (14 is Black), 24-19, 24-20,
     * 32-27 (28 is Black); 21 and 29 are blocked by their own men, 25's other step is 21. */
    {"crowning sample (tower)", "W:W17,21,24,25,29,32:B5,6,7,8,10,14,22,28", &RULES_TOWER, false,
     "25x18 17-13 24-19 24-20 32-27"},
    /* 20-21. A smaller crowning capture: Black 22(5,2) over 26(6,3) to 31(7,4), crowned. In
     * English it stops; in HackerRank the king jumps on over 27(6,5) to 24(5,6) (from 24,
     * 19/20/28 are empty). */
    {"crown and stop", "B:W26,27:B22", &RULES_ENGLISH, false, "22x31"},
    {"crown and go on", "B:W26,27:B22", &RULES_HACKERRANK, false, "22x31x24"},
    /* 22-23. A king's loop: Black king 10(2,3) and White men 14,15,22,23 round the empty 18.
     * Over 14 to 17(4,1), over 22 to 26(6,3), over 23 to 19(4,5), over 15 back to 10; or the
     * other way round. No branch on the way (13,21,30,31,16,24 are empty; 6,7 are empty so the
     * king stops on 10). Two routes, the same four pieces, the same end: one move by default,
     * two with paths. */
    {"king loop, merged", "B:W14,15,22,23:BK10", &RULES_ENGLISH, false, "10x17x26x19x10"},
    {"king loop, paths", "B:W14,15,22,23:BK10", &RULES_ENGLISH, true,
     "10x17x26x19x10 10x19x26x17x10"},
    /* 24-25. The same with a way in: king on 1(0,1) jumps 6(1,2) to 10, then goes round the
     * diamond either way and stops on 10 (6 is taken). Two routes from 1 to 10 taking
     * 6,14,15,22,23. */
    {"two routes, merged", "B:W6,14,15,22,23:BK1", &RULES_ENGLISH, false, "1x10x17x26x19x10"},
    {"two routes, paths", "B:W6,14,15,22,23:BK1", &RULES_ENGLISH, true,
     "1x10x17x26x19x10 1x10x19x26x17x10"},
    /* 26-27. The loop with a way out: king 1 takes 6 to 10; there it may take 7 to 3(0,5) at
     * once, or go round the loop first (either way) and then take 7 to 3. From 3 nothing more
     * (8 is empty, 7 taken). Moves: 1x10x3 (6,7) and the loop (6,14,22,23,15,7) by two routes:
     * 2 moves merged, 3 with paths. */
    {"loop or not, merged", "B:W6,7,14,15,22,23:BK1", &RULES_ENGLISH, false,
     "1x10x3 1x10x17x26x19x10x3"},
    {"loop or not, paths", "B:W6,7,14,15,22,23:BK1", &RULES_ENGLISH, true,
     "1x10x3 1x10x17x26x19x10x3 1x10x19x26x17x10x3"},
    /* 28. The colours swapped: White king 10, Black men round 18: the same two routes. */
    {"white king loop, paths", "W:WK10:B14,15,22,23", &RULES_ENGLISH, true,
     "10x17x26x19x10 10x19x26x17x10"},
    /* 29-30. A king with two single captures: 18(4,3) over 14(3,2) to 9(2,1), or over 22(5,2)
     * to 25(6,1); from 9 and 25 there is nothing more to take. English: the two captures.
     * Tower: both captures, and the king's steps to the empty 15 and 23. */
    {"king captures", "B:W14,22:BK18", &RULES_ENGLISH, false, "18x9 18x25"},
    {"tower king", "B:W14,22:BK18", &RULES_TOWER, false, "18x9 18x25 18-15 18-23"},
    /* 31. Tower: a king (tower) jumps backwards too, once: White king 9(2,1) over Black 14(3,2)
     * to 18(4,3); the White man 27(6,5) steps to 23 or 24 (row 5). Black's 22 next to 18 does
     * not matter: one jump per turn. */
    {"tower king jumps back", "W:WK9,27:B14,22", &RULES_TOWER, false,
     "9x18 9-5 9-6 9-13 27-23 27-24"},
    /* 32. Men never capture backwards: White man 14(3,2) with a Black man behind it on 18(4,3)
     * and 22 empty cannot jump it; it steps to 9 or 10. */
    {"no backward capture by a man", "W:W14:B18", &RULES_ENGLISH, false, "14-9 14-10"},
};

static void hand_checked_positions(void)
{
    for (size_t i = 0; i < sizeof hand_cases / sizeof hand_cases[0]; i++)
        check_case(&hand_cases[i]);
}

/* A move that crowns carries MOVE_CROWNS and leaves a king; the crowning capture of HackerRank
 * ends with a king that took five pieces. */
static void crowning_flags(void)
{
    Board b;
    ParseError e;
    CHECK(notation_parse_fen("B:W:B25", &b, &e));
    MoveList l;
    movegen_generate(&b, &RULES_ENGLISH, false, &l);
    for (int i = 0; i < l.count; i++) {
        CHECK(l.moves[i].flags & MOVE_CROWNS);
        Board c = b;
        board_apply(&c, &l.moves[i]);
        CHECK(board_is_king(&c, l.moves[i].to));
    }
    CHECK(notation_parse_fen("W:W17,21,24,25,29,32:B5,6,7,8,10,14,22,28", &b, &e));
    CHECK_EQ_U64(movegen_generate(&b, &RULES_HACKERRANK, false, &l), 1);
    Board c = b;
    board_apply(&c, &l.moves[0]);
    CHECK(board_is_king(&c, 3));
    CHECK_EQ_U64(bb_popcount(c.pieces[BLACK]), 3);
    CHECK(c.key == board_compute_key(&c));
    /* A king's loop leaves the king where it was and takes the four men. */
    CHECK(notation_parse_fen("B:W14,15,22,23:BK10", &b, &e));
    CHECK_EQ_U64(movegen_generate(&b, &RULES_ENGLISH, false, &l), 1);
    c = b;
    board_apply(&c, &l.moves[0]);
    CHECK(c.pieces[WHITE] == 0 && c.pieces[BLACK] == 1u << 9 && c.kings == 1u << 9);
    CHECK(c.key == board_compute_key(&c));
}

/* Divide at depth 2 by hand: Black man 1(0,1), White man 32(7,6), Black to move. Black: 1-5,
 * 1-6. White's 32 then has 27(6,5) and 28(6,7): 2 replies each, 4 leaves. */
static void small_perft_by_hand(void)
{
    Board b;
    ParseError e;
    CHECK(notation_parse_fen("B:W32:B1", &b, &e));
    CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, 1, false, NULL), 2);
    CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, 2, false, NULL), 4);
    /* Depth 3: after 1-5 the man on 5(1,0) has one step (9); after 1-6, two (9,10). Each after
     * both White replies: (1 + 2) * 2 = 6. */
    CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, 3, false, NULL), 6);
    /* A lost position has no leaves below it. */
    CHECK(notation_parse_fen("B:W32:B", &b, &e));
    CHECK_EQ_U64(perft_count(&b, &RULES_ENGLISH, 3, false, NULL), 0);
}

/* ---- Keys along random games ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void)
{
    return rng_xorshift64(&rng_state);
}

/* board_apply's key equals board_compute_key after every move of random games under every
 * rule set; every position stays valid and survives a FEN round trip. */
static void keys_along_random_games(void)
{
    const Rules *sets[] = {&RULES_ENGLISH, &RULES_HACKERRANK, &RULES_TOWER};
    int games = asan() ? 150 : 1500;
    long plies = 0;
    for (int g = 0; g < games; g++) {
        const Rules *r = sets[g % 3];
        Board b;
        board_start(&b);
        for (int ply = 0; ply < 300; ply++) {
            MoveList l;
            int n = movegen_generate(&b, r, g % 2, &l);
            if (n == 0)
                break;
            board_apply(&b, &l.moves[rng() % (uint64_t)n]);
            plies++;
            char err[ERR_LEN];
            if (b.key != board_compute_key(&b) || !board_valid(&b, err)) {
                char fen[200];
                notation_format_fen(&b, fen, sizeof fen);
                printf("  game %d ply %d: key %s (%s)\n", g, ply,
                       b.key != board_compute_key(&b) ? "differs" : "ok", fen);
                check_failed++;
                return;
            }
            char fen[200];
            Board back;
            ParseError e;
            notation_format_fen(&b, fen, sizeof fen);
            CHECK(notation_parse_fen(fen, &back, &e) && board_equal(&b, &back) &&
                  back.key == b.key);
        }
    }
    CHECK(plies > games * 20);
}

/* ---- Game rules ---- */

static bool play(Game *g, const char *text)
{
    Move m;
    ParseError e;
    if (!notation_parse_move(&g->board, g->rules, text, &m, &e)) {
        printf("  %s: %s\n", text, e.msg);
        return false;
    }
    return game_play(g, &m);
}

static void game_rules(void)
{
    Board b;
    ParseError e;
    Game *g = malloc(sizeof *g);
    CHECK(g != NULL);
    if (!g)
        return;
    /* Two kings each shuffling: the start position comes back after 4 plies; its third
     * occurrence (after 8 plies) is a draw, not the second. */
    CHECK(notation_parse_fen("B:WK32:BK1", &b, &e));
    game_init(g, &RULES_ENGLISH, &b);
    const char *shuffle[] = {"1-5", "32-27", "5-1", "27-32"};
    for (int i = 0; i < 8; i++) {
        CHECK(game_result(g) == RESULT_NONE);
        CHECK(play(g, shuffle[i % 4]));
    }
    CHECK_EQ_U64(game_repetitions(g), 3);
    CHECK(game_result(g) == RESULT_DRAW_REPETITION);
    CHECK(game_undo(g));
    CHECK(game_result(g) == RESULT_NONE);
    /* King moves without capture count towards the 40-move rule, one per ply. */
    CHECK(notation_parse_fen("B:WK32:BK1", &b, &e));
    game_init(g, &RULES_ENGLISH, &b);
    for (int i = 0; i < 80; i++) {
        CHECK(g->quiet[g->ply] == i);
        CHECK(play(g, shuffle[i % 4]));
    }
    CHECK_EQ_U64(g->quiet[g->ply], 80);
    /* A man move resets the count. */
    CHECK(notation_parse_fen("B:WK32:BK1,9", &b, &e));
    game_init(g, &RULES_ENGLISH, &b);
    CHECK(play(g, "1-5") && play(g, "32-27") && play(g, "9-13"));
    CHECK_EQ_U64(g->quiet[g->ply], 0);
    /* No legal move loses: Black to move with no pieces; White blocked. */
    CHECK(notation_parse_fen("B:W21:B", &b, &e));
    game_init(g, &RULES_ENGLISH, &b);
    CHECK(game_result(g) == RESULT_WHITE_WINS);
    CHECK_STR(game_result_tag(game_result(g)), "0-1");
    CHECK(notation_parse_fen("W:W5:B1,10", &b, &e));
    game_init(g, &RULES_ENGLISH, &b);
    CHECK(game_result(g) == RESULT_BLACK_WINS);
    CHECK_STR(game_result_tag(game_result(g)), "1-0");
    CHECK(!game_undo(g));
    free(g);
}

int main(void)
{
    RUN("movegen", perft_start_position);
    RUN("movegen", hand_checked_positions);
    RUN("movegen", crowning_flags);
    RUN("movegen", small_perft_by_hand);
    RUN("movegen", keys_along_random_games);
    RUN("movegen", game_rules);
    return check_total_failed != 0;
}
