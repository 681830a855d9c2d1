# openings.mk - compiles the built-in three-move ballots (data/three-move-ballots.txt) into
# ponder: scripts/gen-ballots.sh turns the list into a C table under build/gen/, whose object
# joins the libraries (libponder.a, libponder-core.a) and the binary of every variant.

BALLOTS_LIST := data/three-move-ballots.txt
BALLOTS_C    := build/gen/ballots.c

$(BALLOTS_C): $(BALLOTS_LIST) scripts/gen-ballots.sh
	@mkdir -p $(dir $@)
	sh scripts/gen-ballots.sh $< >$@.tmp && mv $@.tmp $@

define BALLOTS_VARIANT
build/$(1)/gen/ballots.o: $(BALLOTS_C) src/openings.h | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$$($(1)_CC) $$(BASEFLAGS) $$($(1)_CFLAGS) -Isrc -c $$< -o $$@

build/$(1)/libponder.a: build/$(1)/gen/ballots.o
build/$(1)/libponder-core.a: build/$(1)/gen/ballots.o
build/$(1)/ponder: build/$(1)/gen/ballots.o
endef
$(foreach v,release asan debug,$(eval $(call BALLOTS_VARIANT,$(v))))
