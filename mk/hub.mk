# hub.mk - build/hub/hubclient (tests/hub/client.c): a Hub client that plays `ponder hub' as a
# middleware player, so `ponder match' referees it; tests/hub/games.sh plays 100 games with it
# (docs/hub.md). Not part of `make test', which checks `ponder hub' with tests/cli/hub.sh.

build/hub/hubclient: tests/hub/client.c build/release/libponder.a
	@mkdir -p $(dir $@)
	$(release_CC) $(BASEFLAGS) $(release_CFLAGS) -Isrc -o $@ $(filter %.c %.a,$^) $(LDLIBS)
