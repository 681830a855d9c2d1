# fuzz.mk - the fuzz harnesses of tests/fuzz/: `make fuzz' with libFuzzer, and the replay of
# their saved inputs that `make test' runs.
#
#   make fuzz                  every harness for FUZZ_SECONDS seconds (default 60) each
#   make fuzz FUZZ_ONLY="fen pdn" FUZZ_SECONDS=600
#   make fuzz-merge            fold what the last runs found into tests/fuzz/corpus/ (minimised)
#   make fuzz-build            just build build/fuzz/NAME for every harness
#
# A harness is tests/fuzz/NAME.c (helpers in tests/fuzz/lib/). For libFuzzer it is built with
# clang, -fsanitize=fuzzer,address,undefined, against the sources compiled with coverage
# instrumentation into build/fuzz/. For the tests the same files are built with each test
# variant's compiler and flags into one program, build/VARIANT/tests/test_fuzz
# (tests/fuzz/lib/replay.c), which tests/run.sh runs like a unit test: every file of
# tests/fuzz/corpus/NAME/ (the seeds, from the tests' data) and tests/fuzz/regress/NAME/ (inputs
# that once crashed or hung) once through harness NAME. tests/fuzz/run.sh drives the libFuzzer
# runs and prints the executions, corpus sizes and crashes of each. docs/hardening.md has more.

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_NAMES   := $(sort $(basename $(notdir $(wildcard tests/fuzz/*.c))))
FUZZ_ONLY    ?= $(FUZZ_NAMES)
FUZZ_CFLAGS  := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
                -fno-sanitize-recover=undefined
FUZZ_LIST    := $(foreach n,$(FUZZ_NAMES),X($(n)))

# Objects that other fragments generate and link into every variant's ponder (the built-in
# ballots of openings.mk, the web page of serve.mk): the harnesses need them too.
FUZZ_GEN := $(if $(wildcard mk/openings.mk),gen/ballots) $(if $(wildcard mk/serve.mk),serve_assets) \
            $(if $(wildcard mk/nnue.mk),gen/nnue_default) $(if $(wildcard mk/book.mk),gen/book_default)

.PHONY: fuzz fuzz-build fuzz-merge

# --- libFuzzer builds (clang) ------------------------------------------------------------------
FUZZ_LIBOBJ := $(patsubst src/%.c,build/fuzz/obj/%.o,$(LIBSRC)) \
               $(foreach g,$(FUZZ_GEN),build/fuzz/obj/$(g).o) build/fuzz/obj/fuzz-lib.o

build/fuzz/obj/%.o: src/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Isrc -c $< -o $@

build/fuzz/obj/gen/ballots.o: build/gen/ballots.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ_CFLAGS) -Isrc -c $< -o $@

build/fuzz/obj/gen/nnue_default.o: build/gen/nnue_default.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

build/fuzz/obj/gen/book_default.o: build/gen/book_default.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

build/fuzz/obj/serve_assets.o: build/gen/serve_assets.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ_CFLAGS) -Isrc -c $< -o $@

build/fuzz/obj/fuzz-lib.o: tests/fuzz/lib/fuzz.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Isrc -Itests/fuzz/lib \
	    -c $< -o $@

build/fuzz/obj/harness/%.o: tests/fuzz/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Isrc -Itests/fuzz/lib \
	    -c $< -o $@

build/fuzz/%: build/fuzz/obj/harness/%.o $(FUZZ_LIBOBJ)
	@echo "link $@ (libFuzzer)"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

fuzz-build: $(foreach n,$(FUZZ_ONLY),build/fuzz/$(n))

fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh $(FUZZ_ONLY)

fuzz-merge: fuzz-build
	@sh tests/fuzz/run.sh --merge $(FUZZ_ONLY)

# --- the replay program of each test variant ---------------------------------------------------
define FUZZ_VARIANT
build/$(1)/fuzz/%.o: tests/fuzz/%.c | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$$($(1)_CC) $$(BASEFLAGS) $$($(1)_CFLAGS) -Isrc -Itests/fuzz/lib -DLLVMFuzzerInitialize=fuzz_init_$$* \
	    -DLLVMFuzzerTestOneInput=fuzz_one_$$* -c $$< -o $$@

build/$(1)/fuzz/lib/fuzz.o: tests/fuzz/lib/fuzz.c | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$$($(1)_CC) $$(BASEFLAGS) $$($(1)_CFLAGS) -Isrc -Itests/fuzz/lib -c $$< -o $$@

# replay.c is compiled in the link, with the list of harnesses of the moment.
build/$(1)/tests/test_fuzz: tests/fuzz/lib/replay.c build/$(1)/fuzz/lib/fuzz.o \
        $$(foreach n,$$(FUZZ_NAMES),build/$(1)/fuzz/$$(n).o) \
        $$(patsubst src/%.c,build/$(1)/%.o,$$(LIBSRC)) $$(foreach g,$$(FUZZ_GEN),build/$(1)/$$(g).o)
	@mkdir -p $$(dir $$@)
	@echo "link $$@ (replay of the fuzz inputs)"
	@$$($(1)_CC) $$(filter-out -MMD -MP,$$(BASEFLAGS)) $$($(1)_CFLAGS) -DFUZZ_HARNESSES="$$(FUZZ_LIST)" -o $$@ $$^ $$(LDLIBS)
endef
$(foreach v,release asan debug,$(eval $(call FUZZ_VARIANT,$(v))))
# (mk/valgrind.mk adds its variant the same way.)

test test-release: build/release/tests/test_fuzz
test test-asan: build/asan/tests/test_fuzz
