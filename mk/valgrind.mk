# valgrind.mk - `make valgrind': the transcript tests of the front ends, and the replay of every
# fuzz input, under valgrind memcheck (no invalid access, no leak), from build/valgrind/ponder.
#
# valgrind 3.19 does not know the AVX-512 instructions that -march=native may emit (SIGILL), so
# this is a variant of its own: -O1 -g for the machine's baseline instruction set. Its objects,
# ponder and the fuzz replay program (mk/fuzz.mk) are built like the other variants'.
# tests/valgrind/run.sh runs the checks; see docs/hardening.md.

# -Wno-format-truncation: at -O1 gcc cannot see the bounds that -O3 sees (snprintf of a square
# number 1-32 into 8 bytes in console_view.c), and CI's -Werror would stop on it.
valgrind_CC := $(CC)
valgrind_CFLAGS := -O1 -g -Wno-format-truncation
$(eval $(call VARIANT,valgrind))
# The generated objects of other fragments (mk/openings.mk, mk/serve.mk, mk/nnue.mk, mk/book.mk),
# for this variant too.
$(if $(value BALLOTS_VARIANT),$(eval $(call BALLOTS_VARIANT,valgrind)))
$(if $(value SERVE_VARIANT),$(eval $(call SERVE_VARIANT,valgrind)))
$(if $(value NNUE_VARIANT),$(eval $(call NNUE_VARIANT,valgrind)))
$(if $(value BOOK_VARIANT),$(eval $(call BOOK_VARIANT,valgrind)))
$(if $(value FUZZ_VARIANT),$(eval $(call FUZZ_VARIANT,valgrind)))

.PHONY: valgrind
valgrind: build/valgrind/ponder build/valgrind/tests/test_fuzz
	@sh tests/valgrind/run.sh

# The quick pass in `make test' (tests/cli/valgrind.sh) runs this variant's ponder.
test test-release: build/valgrind/ponder
