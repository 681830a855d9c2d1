# cbengine.mk - `make cbengine': Ponder as a CheckerBoard engine (src/cbengine.c, docs/cbengine.md).
#
#   build/cb/libponder-cb.so   the library for Linux hosts (and the tests' host, tests/cb/host.c)
#   build/cb/ponder64.dll      the same source for 64-bit Windows, built by MinGW-w64
#                              (scripts/deps/cbengine.list); left out with a note when the cross
#                              compiler is missing
#   build/cb/cbhost            the test host: a middleware player whose moves come from the
#                              library (dlopen), every one checked against the legal moves
#   build/cb/cbhost.exe        the same host for Windows, run under wine by `make cbengine-wine'
#
# The library holds the rules and the engine, not the front ends (no file that registers a
# command, no cli.c). Loading it runs nothing (the library has no constructor, see src/ponder.h)
# and it is built with hidden visibility, so it exports the API alone. The Windows DLL leaves out
# the endgame databases, which map their files with POSIX mmap; the Linux objects are compiled
# with CB_HAVE_EGDB, so cbengine.c registers the database driver there.

.PHONY: cbengine cbengine-wine

CB_LIBSRC := src/cbengine.c src/bitboard.c src/board.c src/movegen.c src/rules.c src/notation.c \
             src/game.c src/engine.c src/engine_options.c src/search.c src/eval.c src/weights.c src/tt.c \
             src/timeman.c src/util.c src/ponder.c src/egdb_index.c src/thread.c \
             src/search_iter.c src/search_egdb.c src/egdb_hook.c src/nnue_hook.c src/book.c src/nnue.c \
             src/nnue_eval.c src/nnue_features.c
CB_LINUX_SRC := $(CB_LIBSRC) src/egdb.c
CB_WIN_SRC   := $(CB_LIBSRC)
# The built-in opening book and network (mk/book.mk, mk/nnue.mk make the files).
CB_BOOK_C    := build/gen/book_default.c
CB_HOSTSRC   := tests/cb/host.c
CB_HOSTLIB   := src/bitboard.c src/board.c src/movegen.c src/rules.c src/notation.c src/game.c \
                src/middleware.c
MINGW_CC     ?= x86_64-w64-mingw32-gcc-posix
# -O3: about half as fast again as -O2 for these builds for any x86-64 (docs/cbengine.md, "Speed").
CB_CFLAGS    := -std=c11 -D_DEFAULT_SOURCE -O3 $(WARN) -Wno-format-truncation -MMD -MP -Isrc

CB_TARGETS := build/cb/libponder-cb.so build/cb/cbhost build/cb/ponder-cb.htm
ifneq ($(shell command -v $(MINGW_CC) 2>/dev/null),)
CB_TARGETS += build/cb/ponder64.dll build/cb/cbhost.exe
endif

cbengine: $(CB_TARGETS)
	@command -v $(MINGW_CC) >/dev/null 2>&1 || \
	    echo "cbengine: $(MINGW_CC) not found, ponder64.dll not built (scripts/deps/cbengine.list)"

build/cb/linux/%.o: src/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CB_CFLAGS) -DCB_HAVE_EGDB -pthread -fPIC -fvisibility=hidden -c $< -o $@

build/cb/linux/gen/%.o: build/gen/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CB_CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

build/cb/win64/gen/%.o: build/gen/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(MINGW_CC) $(CB_CFLAGS) -c $< -o $@

build/cb/libponder-cb.so: $(patsubst src/%.c,build/cb/linux/%.o,$(CB_LINUX_SRC)) \
                          build/cb/linux/gen/book_default.o build/cb/linux/gen/nnue_default.o
	$(CC) -shared -pthread -Wl,--no-undefined -o $@ $^ -lm

build/cb/cbhost: $(CB_HOSTSRC) $(patsubst src/%.c,build/cb/linux/%.o,$(CB_HOSTLIB))
	$(CC) $(CB_CFLAGS) -pthread -o $@ $(filter %.c %.o,$^) -ldl -lm

# -muse-unaligned-vector-move: Windows keeps the stack 16-byte aligned and MinGW's gcc does not
# realign it for a spilled 32- or 64-byte vector register, which an aligned move would fault on
# (src/nnue_eval.c's SIMD paths, chosen at run time); unaligned moves cost nothing on these CPUs.
build/cb/win64/%.o: src/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(MINGW_CC) $(CB_CFLAGS) -D__USE_MINGW_ANSI_STDIO=1 -Wa,-muse-unaligned-vector-move -c $< -o $@

# Static runtime libraries, so the DLL needs nothing beside it but Windows itself.
build/cb/ponder64.dll: $(patsubst src/%.c,build/cb/win64/%.o,$(CB_WIN_SRC)) \
                      build/cb/win64/gen/book_default.o build/cb/win64/gen/nnue_default.o
	$(MINGW_CC) -shared -static -o $@ $^ -lm -Wl,--kill-at

build/cb/cbhost.exe: $(CB_HOSTSRC) $(patsubst src/%.c,build/cb/win64/%.o,$(CB_HOSTLIB))
	$(MINGW_CC) $(CB_CFLAGS) -D__USE_MINGW_ANSI_STDIO=1 -static -o $@ $(filter %.c %.o,$^) -lm

build/cb/ponder-cb.htm: docs/ponder-cb.htm
	@mkdir -p $(dir $@)
	cp $< $@

# The Windows host and DLL under wine: four games against `ponder player' (tests/cb/games.sh).
# Not in `make test': wine takes seconds to start for every game (a minute for a new prefix).
cbengine-wine: cbengine ponder
	@sh scripts/install-deps.sh wine
	sh tests/cb/games.sh 4 0.05 dll
