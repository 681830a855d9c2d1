/*
 * play_view.h - how `ponder play' shows things: the board, the numbered move list, and the few
 * text styles the game uses (bold, dim, a colour for warnings).
 *
 * Two renderings of the board. With colours (a terminal, NO_COLOR unset) every square is a block
 * two lines high and five columns wide, dark squares green and light squares buff, with the pieces
 * as black and white tiles (kings carry a K), the square number under each piece and the squares
 * of the last move lit up. Without colours the board is drawn with ASCII lines: men `b' and `w',
 * kings `[B]' and `[W]', the square number on the line under each dark square and a `*' beside
 * the numbers of the last move's squares. Either way Black's back row (squares 1-4) is at the top,
 * as in the board files and the books, and the screen is never cleared.
 */
#pragma once

#include "board.h"

#include <stdio.h>

typedef struct {
    bool color; /* ANSI colours and attributes */
    bool rich;  /* 256-colour palette (else the 8 basic colours) */
    bool flip;  /* Black's side (squares 1-4) at the bottom, instead of at the top as PDN
                   diagrams draw it */
} PlayViewStyle;

/* Text attributes for messages: empty strings when S has no colour. */
const char *play_view_bold(const PlayViewStyle *s);
const char *play_view_dim(const PlayViewStyle *s);
const char *play_view_warn(const PlayViewStyle *s);
const char *play_view_reset(const PlayViewStyle *s);

/* Draws B to F; LAST (may be NULL) is the move that led to it, whose squares are marked and whose
 * captured pieces show as `x'. */
void play_view_board(FILE *f, const PlayViewStyle *s, const Board *b, const Move *last);

/* Prints the N moves numbered from 1 in as many columns as fit in 78 characters, numbered in
 * reading order row by row. */
void play_view_moves(FILE *f, const PlayViewStyle *s, const Move *moves, int n);

/* Writes SCORE (side to move's view, hundredths of a man) as "+0.35", or for a proven result
 * "win in 7 plies" / "loss in 8 plies". */
void play_view_score(int score, char *buf, size_t size);
