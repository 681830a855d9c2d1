/*
 * fuzz.h - what the fuzz harnesses of tests/fuzz/ share.
 *
 * A harness is one file tests/fuzz/NAME.c that defines LLVMFuzzerInitialize (set-up, once) and
 * LLVMFuzzerTestOneInput (one input: feed it to a parser or a whole program and check what comes
 * back). The same file is built two ways (mk/fuzz.mk): with clang's libFuzzer for `make fuzz',
 * and with the compiler of each test variant, renamed fuzz_init_NAME / fuzz_one_NAME, into the
 * replay program that `make test' runs over the saved corpora and the regression inputs
 * (tests/fuzz/lib/replay.c). A harness reports a broken promise (a round trip that does not come
 * back, an invalid board from a parser that said yes) through FUZZ_CHECK, which aborts: libFuzzer
 * and the replay program both catch that as a crash.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boardfile.h"
#include "hackerrank.h"
#include "middleware.h"
#include "notation.h"
#include "tower.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with WHAT and the place when COND is false. */
#define FUZZ_CHECK(cond, what)                                                                     \
    do {                                                                                           \
        if (!(cond))                                                                               \
            fuzz_fail(__FILE__, __LINE__, what);                                                   \
    } while (0)

/* Prints "fuzz: FILE:LINE: WHAT" on stderr and aborts. */
_Noreturn void fuzz_fail(const char *file, int line, const char *what);

/* A malloc'd NUL-terminated copy of DATA (SIZE bytes, which may hold NULs: the string then ends
 * at the first one). Never NULL: out of memory aborts. */
char *fuzz_text(const uint8_t *data, size_t size);

/* Sends stdout to /dev/null from now on (the programs run by fuzz_run_command print a lot). */
void fuzz_quiet_stdout(void);

/* Runs the ponder subcommand NAME (as registered by PONDER_COMMAND) in this process with ARGV
 * (ARGC words, ARGV[0] the command name) and standard input holding exactly DATA: both the
 * descriptor and the stdio stream start afresh at its first byte. With OUT non-NULL, what the
 * command wrote on stdout is stored there (malloc'd, NUL-terminated, length in *OUT_LEN; the
 * caller frees it); otherwise stdout goes to /dev/null. Returns the command's exit status.
 * Aborts when there is no such command. */
int fuzz_run_command(const char *name, int argc, char **argv, const uint8_t *data, size_t size,
                     char **out, size_t *out_len);

/* Position number I (any int: taken modulo the count) of a small fixed set that covers the
 * cases parsers of moves care about: the start, simple captures, multi-jumps with branches,
 * crowning in a capture, king loops, a side with no move. The rule set that suits it goes to
 * *RULES. Returns the number of positions. */
int fuzz_position(int i, Board *b, const Rules **rules);

/* Checks what a parser said on failure: a message (NUL-terminated within its buffer, not
 * empty), and a column within TEXT_LEN + 1 when SINGLE_LINE (past the end means "at the end"). */
void fuzz_check_error(const ParseError *e, size_t text_len, bool single_line);
