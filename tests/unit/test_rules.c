/*
 * test_rules.c - the rule sets: lookup by name, the names listed for usage messages, and each
 * switch changing what the one generator does (a switch nothing reads would pass the lookup
 * tests and fail these).
 */
#include "bitboard.h"
#include "check.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"

#include <string.h>

static void test_find(void)
{
    CHECK(rules_find("english") == &RULES_ENGLISH);
    CHECK(rules_find("hackerrank") == &RULES_HACKERRANK);
    CHECK(rules_find("tower") == &RULES_TOWER);
    CHECK(rules_find(NULL) == NULL);
    CHECK(rules_find("") == NULL);
    CHECK(rules_find("English") == NULL); /* names are exact */
    CHECK(rules_find("russian") == NULL);
    CHECK(rules_find("english ") == NULL);
    CHECK_STR(RULES_ENGLISH.name, "english");
    CHECK_STR(RULES_HACKERRANK.name, "hackerrank");
    CHECK_STR(RULES_TOWER.name, "tower");
}

/* Every name rules_names lists is found, and every built-in set is listed. */
static void test_names_match_lookup(void)
{
    char names[256], again[256];
    CHECK_STR(rules_names(names, sizeof names), "english, hackerrank, tower");
    rules_names(again, sizeof again);
    int listed = 0;
    for (char *tok = strtok(names, ", "); tok; tok = strtok(NULL, ", ")) {
        const Rules *r = rules_find(tok);
        CHECK(r != NULL);
        if (r)
            CHECK_STR(r->name, tok);
        listed++;
    }
    CHECK(listed == 3);
    CHECK(strstr(again, "english") && strstr(again, "hackerrank") && strstr(again, "tower"));
}

/* The moves of FEN under R, formatted and joined with blanks, into OUT. */
/* rules_names cuts the list short in a small buffer and never writes past it. */
static void test_names_short_buffer(void)
{
    char small[10];
    memset(small, 'x', sizeof small);
    CHECK_STR(rules_names(small, 9), "english,");
    CHECK(small[9] == 'x');
    char one[1] = {'x'};
    CHECK_STR(rules_names(one, 1), "");
}

static void moves_of(const char *fen, const Rules *r, char *out, size_t size)
{
    Board b;
    ParseError e;
    out[0] = '\0';
    if (!notation_parse_fen(fen, &b, &e)) {
        snprintf(out, size, "bad FEN: %s", e.msg);
        return;
    }
    MoveList list;
    movegen_generate(&b, r, false, &list);
    size_t len = 0;
    for (int i = 0; i < list.count && len < size; i++) {
        char mv[64];
        notation_format_move(&list.moves[i], mv, sizeof mv);
        len += (size_t)snprintf(out + len, size - len, "%s%s", i ? " " : "", mv);
    }
}

/* capture_mandatory: with a capture on, English and HackerRank play only it; tower also lets
 * the man step. */
static void test_capture_mandatory(void)
{
    bb_init();
    CHECK(RULES_ENGLISH.capture_mandatory && RULES_HACKERRANK.capture_mandatory);
    CHECK(!RULES_TOWER.capture_mandatory);
    char got[256];
    moves_of("B:W14:B10", &RULES_ENGLISH, got, sizeof got);
    CHECK_STR(got, "10x17");
    moves_of("B:W14:B10", &RULES_TOWER, got, sizeof got);
    CHECK_STR(got, "10x17 10-15");
}

/* multi_jump: a capture goes on while it can (English), or stops after one jump (tower). */
static void test_multi_jump(void)
{
    bb_init();
    CHECK(RULES_ENGLISH.multi_jump && RULES_HACKERRANK.multi_jump && !RULES_TOWER.multi_jump);
    char got[256];
    moves_of("B:W14,22:B10", &RULES_ENGLISH, got, sizeof got);
    CHECK_STR(got, "10x17x26");
    moves_of("B:W14,22:B10", &RULES_TOWER, got, sizeof got);
    CHECK_STR(got, "10x17 10-15");
}

/* crown_continues: a man crowned by a capture stops there in English checkers, and goes on as a
 * king under HackerRank's rules. */
static void test_crown_continues(void)
{
    bb_init();
    CHECK(!RULES_ENGLISH.crown_continues && RULES_HACKERRANK.crown_continues);
    char got[256];
    moves_of("B:W26,27:B22", &RULES_ENGLISH, got, sizeof got);
    CHECK_STR(got, "22x31");
    moves_of("B:W26,27:B22", &RULES_HACKERRANK, got, sizeof got);
    CHECK_STR(got, "22x31x24");
}

int main(void)
{
    RUN("rules", test_find);
    RUN("rules", test_names_match_lookup);
    RUN("rules", test_names_short_buffer);
    RUN("rules", test_capture_mandatory);
    RUN("rules", test_multi_jump);
    RUN("rules", test_crown_continues);
    return check_total_failed ? 1 : 0;
}
