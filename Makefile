# Ponder - one Makefile for the binary, the tests, the benchmarks and the sanitizer build.
#
#   make            build ./ponder (optimised)
#   make test       unit + command-line tests, then the same suite under ASan+UBSan
#   make bench      engine and perft benchmarks (long; not part of the tests)
#   make core       build build/release/libponder-core.a, the rules + engine library alone
#   make debug      build build/debug/ponder with -O0 -g
#   make format     clang-format every C file (src/, tests/); tests/cli/style.sh checks it
#   make clean      remove build products
#
# Objects go to build/<variant>/; dependency files (-MMD) make header changes rebuild what they
# must. CI sets CI=true, which turns warnings into errors.

CC      ?= cc
ARCH    ?= -march=native
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
ifneq ($(CI),)
WARN    += -Werror
endif
BASEFLAGS := -std=c11 -D_DEFAULT_SOURCE -pthread $(WARN) -MMD -MP
LDLIBS  := -pthread -lm

SRC      := $(wildcard src/*.c)
LIBSRC   := $(filter-out src/main.c,$(SRC))
TESTSRC  := $(wildcard tests/unit/test_*.c)

# The floors (docs/design.md), each using only the ones below it: util (clock, files, parsing),
# the rules library, the engine. Together they are the core library, libponder-core.a: what a
# host program (CheckerBoard's engine API) links, with no front end, no cli.c, no civetweb or
# cJSON, nothing that prints, exits or reads the environment (tests/cli/floors.sh checks all of
# it). The front ends and tools (everything else in src/) sit above; libponder.a holds them all,
# for the tests that need front-end code.
UTIL_MODULES   := util
RULES_MODULES  := bitboard board rules movegen notation pdn game openings perft
ENGINE_MODULES := ponder engine engine_options search eval weights tt timeman egdb egdb_index egdb_build baseline \
                  tower book book_build search_iter search_egdb thread egdb_hook nnue_hook nnue nnue_eval nnue_features tune trainfile
CORESRC := $(foreach m,$(UTIL_MODULES) $(RULES_MODULES) $(ENGINE_MODULES),src/$(m).c)

# Variant settings: release (./ponder), asan (sanitizers), debug. The release build prefers
# clang (installed by scripts/deps/fuzz.list): the engine searches 5-15% more nodes per second
# than with gcc 12 (docs/engine.md); the other variants use $(CC), so both compilers check the code.
RELEASE_CC ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo $(CC))
release_CC      = $(RELEASE_CC)
asan_CC        := $(CC)
debug_CC       := $(CC)
release_CFLAGS := -O3 $(ARCH) -g
asan_CFLAGS    := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined \
                  -DPONDER_CHECKED
debug_CFLAGS   := -O0 -g -DPONDER_CHECKED

.SECONDARY:

.PHONY: all test test-release test-asan bench debug format clean deps core print-floors

all: ponder

# The core library alone (see CORESRC above).
core: build/release/libponder-core.a

# --- third-party packages (Debian) -----------------------------------------------------------
# Each feature lists the Debian packages it needs in scripts/deps/NAME.list.
DEPS_STAMP := build/.deps-ok
$(DEPS_STAMP): scripts/install-deps.sh $(wildcard scripts/deps/*.list)
	@mkdir -p build
	@sh scripts/install-deps.sh
	@touch $@
deps: $(DEPS_STAMP)

# --- build rules for one variant --------------------------------------------------------------
define VARIANT
build/$(1)/%.o: src/%.c | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$$($(1)_CC) $$(BASEFLAGS) $$($(1)_CFLAGS) -Isrc -c $$< -o $$@

build/$(1)/tests/%.o: tests/unit/%.c | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$$($(1)_CC) $$(BASEFLAGS) $$($(1)_CFLAGS) -Isrc -Itests/unit -c $$< -o $$@

build/$(1)/libponder.a: $$(patsubst src/%.c,build/$(1)/%.o,$$(LIBSRC))
	@rm -f $$@
	ar rcs $$@ $$^

build/$(1)/libponder-core.a: $$(patsubst src/%.c,build/$(1)/%.o,$$(CORESRC))
	@rm -f $$@
	ar rcs $$@ $$^

# Linked from the objects themselves (not the archive) so that every command file, which only
# registers itself, is in the binary.
build/$(1)/ponder: $$(patsubst src/%.c,build/$(1)/%.o,$$(SRC))
	$$($(1)_CC) $$($(1)_CFLAGS) -o $$@ $$^ $$(LDLIBS)

build/$(1)/tests/test_%: build/$(1)/tests/test_%.o build/$(1)/libponder.a
	$$($(1)_CC) $$($(1)_CFLAGS) -o $$@ $$^ $$(LDLIBS)

$(1)_TESTS := $$(patsubst tests/unit/%.c,build/$(1)/tests/%,$$(TESTSRC))
endef
$(foreach v,release asan debug,$(eval $(call VARIANT,$(v))))

# `ponder version' names the commit it was built from and its flags: version.o is rebuilt when
# `git describe' changes (build/gen/git-version holds the last one seen).
GIT_DESCRIBE := $(shell git describe --always --dirty 2>/dev/null || echo unknown commit)
$(shell mkdir -p build/gen && { [ "$$(cat build/gen/git-version 2>/dev/null)" = "$(GIT_DESCRIBE)" ] || echo "$(GIT_DESCRIBE)" >build/gen/git-version; })
define VERSION_FLAGS
build/$(1)/version.o: build/gen/git-version
build/$(1)/version.o: BASEFLAGS += -DPONDER_GIT='"$(GIT_DESCRIBE)"' -DPONDER_CFLAGS='"$(strip $($(1)_CFLAGS))"'
endef
$(foreach v,release asan debug,$(eval $(call VERSION_FLAGS,$(v))))

# Copied through a temporary name and renamed, so a running ./ponder ("text file busy") is
# replaced rather than overwritten.
ponder: build/release/ponder
	cp $< $@.tmp && mv -f $@.tmp $@

debug: build/debug/ponder

# --- tests -------------------------------------------------------------------------------------
# tests/run.sh runs the unit test binaries and the command-line scripts of a variant and prints
# `N passed, N failed'; the last line of `make test' sums both variants.
test: ponder $(release_TESTS) build/release/libponder-core.a build/asan/ponder $(asan_TESTS)
	@sh tests/run.sh release asan

test-release: ponder $(release_TESTS) build/release/libponder-core.a
	@sh tests/run.sh release

test-asan: build/asan/ponder $(asan_TESTS) build/release/libponder-core.a
	@sh tests/run.sh asan

# The floors' module lists, for tests/cli/floors.sh.
print-floors:
	@echo "util: $(UTIL_MODULES)"
	@echo "rules: $(RULES_MODULES)"
	@echo "engine: $(ENGINE_MODULES)"

build/release/makeunmake: tests/bench/makeunmake.c build/release/libponder.a
	$(release_CC) $(BASEFLAGS) $(release_CFLAGS) -Isrc -o $@ $(filter %.c %.a,$^) $(LDLIBS)

build/release/endgames: tests/bench/endgames.c build/release/libponder.a
	$(release_CC) $(BASEFLAGS) $(release_CFLAGS) -Isrc -o $@ $(filter %.c %.a,$^) $(LDLIBS)

# The engine benchmark (tests/bench.sh), the move generator's (tests/bench/perft.sh), then
# Lazy SMP's time to depth on 1 and 2 threads (tests/bench/threads.sh).
bench: ponder build/release/makeunmake
	@sh tests/bench.sh
	@sh tests/bench/perft.sh
	@sh tests/bench/threads.sh

# Every C file of the project, as tests/cli/style.sh lists them.
FORMAT_FILES = $(wildcard src/*.[ch] tests/*/*.[ch] tests/*/lib/*.[ch])
format:
	clang-format -i $(FORMAT_FILES)

clean:
	rm -rf build ponder

# Feature fragments: extra libraries and targets of one feature each (mk/NAME.mk).
-include $(wildcard mk/*.mk)

-include $(shell find build -name '*.d' 2>/dev/null)
