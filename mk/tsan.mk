# tsan.mk - `make tsan': the unit tests that run searches on several threads (the engine facade's
# jobs, stop and ponder-hit; Lazy SMP; the transposition table) under ThreadSanitizer, from a
# variant of their own (build/tsan/), since TSan cannot be combined with ASan.
#
# The table's entries are relaxed 64-bit atomics and the workers' node counters are atomics, so
# a report is a real race, not the table's intended sharing.

tsan_CC := $(CC)
tsan_CFLAGS := -O1 -g -fsanitize=thread -Wno-format-truncation
$(eval $(call VARIANT,tsan))
$(if $(value BALLOTS_VARIANT),$(eval $(call BALLOTS_VARIANT,tsan)))
$(if $(value SERVE_VARIANT),$(eval $(call SERVE_VARIANT,tsan)))

TSAN_TESTS := test_engine test_search test_tt test_timeman

.PHONY: tsan
tsan: $(patsubst %,build/tsan/tests/%,$(TSAN_TESTS))
	@fail=0; for t in $^; do TSAN_OPTIONS=halt_on_error=1 $$t || fail=1; done; \
	 if [ $$fail = 0 ]; then echo "tsan: no race reported"; else echo "tsan: FAILED"; exit 1; fi
