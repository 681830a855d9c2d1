# hackerrank.mk - `make hackerrank': build/hackerrank.c, `ponder hackerrank' as one C file to paste
# into the HackerRank checkers challenge (seed 001). scripts/amalgamate.sh writes it from the
# sources every time they change: one search thread without libpthread (-1), no comments (-m).
# build/hackerrank is then compiled from it exactly as the site compiles, `gcc -std=c11 -O2 FILE
# -lm', so a file that would not build there fails here. tests/cli/hackerrank.sh makes
# build/hackerrank.c through this rule and compares the program with `ponder hackerrank'.

.PHONY: hackerrank

hackerrank: build/hackerrank

build/hackerrank.c: $(wildcard src/*.c src/*.h) scripts/amalgamate.sh | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	sh scripts/amalgamate.sh -1 -m -o $@ hackerrank cmd_hackerrank

build/hackerrank: build/hackerrank.c
	gcc -std=c11 -O2 $< -lm -o $@
	@echo "hackerrank: $< ($$(wc -c <$<) bytes) builds with gcc -std=c11 -O2 $< -lm"
