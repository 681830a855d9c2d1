# stress.mk - `make stress': the long robustness runs of tests/stress/ (not part of `make test').
#
#   make stress                         both, against ./ponder
#   make stress STRESS_CLIENTS=200 STRESS_SECONDS=30 STRESS_GAMES=200
#   make stress STRESS_PONDER=build/asan/ponder STRESS_MAX_RSS=2000   (the sanitizers watching)
#
# tests/stress/serve.sh: `ponder serve' under STRESS_CLIENTS concurrent clients (players and
# misbehaving ones) for STRESS_SECONDS, then SIGINT. tests/stress/match.sh: `ponder match' at -j 4
# for STRESS_GAMES games against fake engines that crash, hang, flood, lie and quit, then a match
# interrupted by SIGINT. Loopback only; every process started is reaped. docs/hardening.md.

STRESS_CLIENTS ?= 200
STRESS_SECONDS ?= 30
STRESS_GAMES   ?= 200
STRESS_PONDER  ?= $(CURDIR)/ponder
STRESS_MAX_RSS ?= 300

.PHONY: stress
stress: ponder
	@status=0; \
	PONDER=$(STRESS_PONDER) STRESS_MAX_RSS=$(STRESS_MAX_RSS) sh tests/stress/serve.sh $(STRESS_CLIENTS) $(STRESS_SECONDS) || status=1; \
	PONDER=$(STRESS_PONDER) sh tests/stress/match.sh $(STRESS_GAMES) || status=1; \
	exit $$status

# `make tsan': the threaded programs, and the unit tests of the engine's jobs and Lazy SMP, under
# ThreadSanitizer (tests/stress/tsan.sh), from a variant of their own.
tsan_CC := $(CC)
tsan_CFLAGS := -O1 -g -fsanitize=thread -Wno-format-truncation # (see mk/valgrind.mk)
$(eval $(call VARIANT,tsan))
$(if $(value BALLOTS_VARIANT),$(eval $(call BALLOTS_VARIANT,tsan)))
$(if $(value SERVE_VARIANT),$(eval $(call SERVE_VARIANT,tsan)))

.PHONY: tsan
tsan: build/tsan/ponder build/tsan/tests/test_engine build/tsan/tests/test_search
	@sh tests/stress/tsan.sh
