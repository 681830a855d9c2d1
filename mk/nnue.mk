# nnue.mk - compiles the default network into ponder: scripts/embed-file.sh turns
# data/nets/default.pnet (when it exists) into build/gen/nnue_default.c, whose object joins the
# library and the binary of every variant. Without that file the generated source holds no
# network, and the engine's default evaluation is the classic one (engine.c, engine_new); with
# it the default is the network. Adding or removing the file is the whole switch.

NNUE_NET := $(wildcard data/nets/default.pnet)
NNUE_C   := build/gen/nnue_default.c

# The generated file remembers which network it came from, so removing the file rebuilds too.
NNUE_STAMP := build/gen/nnue_default.src
$(NNUE_STAMP): FORCE_NNUE_STAMP
	@mkdir -p $(dir $@)
	@echo '$(NNUE_NET)' | cmp -s - $@ || echo '$(NNUE_NET)' >$@
.PHONY: FORCE_NNUE_STAMP

$(NNUE_C): $(NNUE_STAMP) $(NNUE_NET) scripts/embed-file.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-file.sh nnue_default $(if $(NNUE_NET),$(NNUE_NET),-) $@

define NNUE_VARIANT
build/$(1)/gen/nnue_default.o: $(NNUE_C) | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$$($(1)_CC) $$(BASEFLAGS) $$($(1)_CFLAGS) -c $$< -o $$@

build/$(1)/libponder.a: build/$(1)/gen/nnue_default.o
build/$(1)/libponder-core.a: build/$(1)/gen/nnue_default.o
build/$(1)/ponder: build/$(1)/gen/nnue_default.o
endef
$(foreach v,release asan debug,$(eval $(call NNUE_VARIANT,$(v))))

# A random network of a given n1 for speed measurements (docs/nnue.md).
build/release/nnue-random: tests/bench/nnue_random.c build/release/libponder.a
	$(release_CC) $(BASEFLAGS) $(release_CFLAGS) -Isrc -Itests/unit -o $@ $(filter %.c %.a,$^) $(LDLIBS)
