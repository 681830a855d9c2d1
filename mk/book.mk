# book.mk - compiles the default opening book into ponder: scripts/embed-file.sh turns
# data/book/default.pbk (when it exists) into build/gen/book_default.c, whose object joins the
# library and the binary of every variant. Without that file no book is built in. The engine
# programs play from it unless a book is installed or named (docs/book.md).

BOOK_FILE := $(wildcard data/book/default.pbk)
BOOK_C    := build/gen/book_default.c

# The generated file remembers which book it came from, so removing the file rebuilds too.
BOOK_STAMP := build/gen/book_default.src
$(BOOK_STAMP): FORCE_BOOK_STAMP
	@mkdir -p $(dir $@)
	@echo '$(BOOK_FILE)' | cmp -s - $@ || echo '$(BOOK_FILE)' >$@
.PHONY: FORCE_BOOK_STAMP

$(BOOK_C): $(BOOK_STAMP) $(BOOK_FILE) scripts/embed-file.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-file.sh book_default $(if $(BOOK_FILE),$(BOOK_FILE),-) $@

define BOOK_VARIANT
build/$(1)/gen/book_default.o: $(BOOK_C) | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$$($(1)_CC) $$(BASEFLAGS) $$($(1)_CFLAGS) -c $$< -o $$@

build/$(1)/libponder.a: build/$(1)/gen/book_default.o
build/$(1)/libponder-core.a: build/$(1)/gen/book_default.o
build/$(1)/ponder: build/$(1)/gen/book_default.o
endef
$(foreach v,release asan debug,$(eval $(call BOOK_VARIANT,$(v))))
