/*
 * book.h - the opening book: positions with the moves worth playing in them, each with a search
 * score, the depth it was searched to and a count, in Ponder's open book format (docs/book.md).
 *
 * Positions are stored by a canonical key that needs no hashing: the position seen from the
 * side to move (a White-to-move position is turned half round and its colours swapped, so every
 * key is a Black-to-move position), as three masks: the mover's pieces, the opponent's, the
 * kings. Moves are stored in the same frame. The file is a header, the position records sorted
 * by key (binary search, memory-mappable), the move records, and a checksum.
 *
 * The book library reads, checks, probes and writes books and never prints; building a book by
 * searching (book_build.c) and the command (book_cmd.c) sit above it.
 */
#pragma once

#include "movegen.h"

enum {
    BOOK_VERSION = 1,     /* the format this program reads and writes */
    BOOK_HEADER = 64,     /* bytes in the header */
    BOOK_POS_BYTES = 20,  /* bytes in a position record */
    BOOK_MOVE_BYTES = 16, /* bytes in a move record */
    BOOK_MAX_MOVES = 255, /* moves one position can hold */
    BOOK_NAME_LEN = 24,   /* bytes of the name field, NUL included */
};

/* A position seen from its side to move (see above). Compared as (us, them, kings). */
typedef struct {
    uint32_t us;    /* the side to move's pieces, in the turned frame */
    uint32_t them;  /* the opponent's pieces */
    uint32_t kings; /* the kings of both */
} BookKey;

/* One move of a book position, in the turned frame of its position. */
typedef struct {
    uint8_t from, to;  /* squares 0-31 */
    uint8_t depth;     /* plies the score was searched to (0: not searched) */
    uint8_t flags;     /* reserved, 0 */
    uint32_t captured; /* the pieces the move takes (tells capture routes apart) */
    int16_t score;     /* what the move is worth to the side playing it, in hundredths of a
                          man (a proven result is near +-SCORE_WIN) */
    uint32_t count;    /* book positions reached through this move (0 when it leads out) */
} BookMove;

/* One position: where its moves are. */
typedef struct {
    BookKey key;    /* the position */
    uint32_t first; /* index of its first move in the move array */
    uint32_t n;     /* its moves (1-255) */
} BookPos;

/* A book in memory: positions sorted by key, their moves after one another. */
typedef struct {
    BookPos *pos;    /* npos positions, strictly increasing keys */
    BookMove *moves; /* nmoves moves */
    size_t npos, nmoves;
    char name[BOOK_NAME_LEN]; /* what the book says of itself (e.g. "ponder 2026-11 d14") */
} Book;

/* The book compiled into the binary (build/gen/book_default.c, from data/book/default.pbk by
 * scripts/embed-file.sh); book_default_size is 0 when there is none. */
extern const unsigned char book_default_data[];
extern const size_t book_default_size;

/* The key of B. */
void book_key(const Board *b, BookKey *k);

/* The Black-to-move position of K (the board a book position's moves apply to). */
void book_key_board(const BookKey *k, Board *b);

/* Orders keys: negative, zero or positive. */
int book_key_cmp(const BookKey *a, const BookKey *b);

/* Reads a book from DATA (LEN bytes); SOURCE names it in messages. Checks the header, the sizes,
 * the checksum, the order of the keys and every record's fields; the first problem is reported
 * in ERR (ERR_LEN bytes) with its byte offset, and NULL returned. */
Book *book_parse(const uint8_t *data, size_t len, const char *source, char *err);

/* Reads the book file PATH (book_parse's checks, and "cannot read"). */
Book *book_load(const char *path, char *err);

void book_free(Book *bk);

/* Serialises BK (positions sorted, moves in order) into a malloc'd buffer of *LEN bytes, or NULL
 * when out of memory. */
uint8_t *book_serialize(const Book *bk, size_t *len);

/* Writes BK to PATH through a temporary file that is renamed, so a reader never sees half a book.
 * Returns false with the reason in ERR. */
bool book_save(const Book *bk, const char *path, char *err);

/* The index of B's position in BK, or -1. */
long book_find(const Book *bk, const Board *b);

/* A book move turned back into a legal move of the real position. */
typedef struct {
    Move move;      /* the legal move (from the generator, for the real board) */
    int score;      /* book score for the side to move, hundredths of a man */
    int depth;      /* search depth behind the score */
    uint32_t count; /* book positions behind the move */
} BookHit;

/* The book moves of B that are legal in B (a damaged book's other moves are left out), best
 * score first, at most MAX; returns how many. */
int book_probe(const Book *bk, const Board *b, BookHit *out, int max);

/* How a move is picked from the book: the best, or at random among the moves within MARGIN
 * hundredths of a man of the best, weighted towards the better ones. */
typedef struct {
    int margin;    /* 0: always the best-scored move */
    uint64_t *rng; /* random state for margin > 0 (updated); NULL: the best move */
} BookChoice;

/* Picks a move of B from BK. Returns false when B is not in the book (or none of its moves is
 * legal there). */
bool book_choose(const Book *bk, const Board *b, const BookChoice *c, BookHit *out);

/* Merges B into A: positions only in B are added; for a position in both, each move keeps the
 * deeper-searched record, and moves only in B are added. Returns false when out of memory
 * (A is then unchanged) or a position would pass BOOK_MAX_MOVES. */
bool book_merge(Book *a, const Book *b, char *err);
