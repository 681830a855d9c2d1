# serve.mk - `ponder serve`, the web board: its libraries, its page compiled into the binary,
# and the npm packages of its browser test.
#
# The page's files (web/) become build/gen/serve_assets.c (scripts/embed-assets.sh), compiled
# once per variant and linked into ./ponder beside the objects of src/. The browser test
# (tests/web/) drives Debian's chromium with playwright-core, pinned in package-lock.json:
# `npm ci' installs it into node_modules/ whenever the lock file changes; tests depend on it.

LDLIBS += -lcivetweb -lcjson

SERVE_ASSETS := $(sort $(wildcard web/*))
SERVE_GEN    := build/gen/serve_assets.c

$(SERVE_GEN): scripts/embed-assets.sh $(SERVE_ASSETS)
	sh scripts/embed-assets.sh web $@

define SERVE_VARIANT
build/$(1)/serve_assets.o: $(SERVE_GEN) | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$$($(1)_CC) $$(BASEFLAGS) $$($(1)_CFLAGS) -Isrc -c $$< -o $$@

build/$(1)/ponder: build/$(1)/serve_assets.o
endef
$(foreach v,release asan debug,$(eval $(call SERVE_VARIANT,$(v))))

# node_modules/ from the committed lock file, reinstalled when it changes. npm comes with
# Debian's nodejs from NodeSource, or as Debian's own npm package; install it if it is missing.
NPM_STAMP := node_modules/.ponder-npm-ok
$(NPM_STAMP): package.json package-lock.json | $(DEPS_STAMP)
	@command -v npm >/dev/null 2>&1 || { \
	    echo "serve.mk: npm missing, installing Debian's npm" >&2; \
	    SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	    $$SUDO apt-get install -y -qq npm; }
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
	@touch $@
npm: $(NPM_STAMP)
.PHONY: npm

test test-release test-asan: $(NPM_STAMP)

# The load test at full size: 100 clients making moves for 20 s (tests/make test runs 5 s).
bench-serve: ponder
	@sh tests/web/bench-serve.sh 100 20
.PHONY: bench-serve
