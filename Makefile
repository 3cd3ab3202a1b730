# attnlab: one set of C sources, three builds.
#   native  gcc, for the C tests, sanitizers, fuzzing and the native benchmark baseline
#   wasm    emcc -msimd128 → wasm/attnlab.wasm (shipped), and without -msimd128 →
#           wasm/attnlab-scalar.wasm (picked by the loader where SIMD128 is missing); the same
#           objects linked with the training entry points too → wasm/attnlab-train.wasm and
#           wasm/attnlab-train-scalar.wasm (loaded only by createModel/loadTrainableModel)
# The .wasm files are committed; `make check-wasm` proves they are what the sources build.

SHELL := /bin/bash
# gcc unless the caller names a compiler (make's built-in default, cc, does not count)
ifeq ($(origin CC),default)
CC := gcc
endif
EMCC ?= emcc
NODE ?= node
# emcc 3.1.6 from Debian needs acorn from Debian's nodejs tree
export NODE_PATH := /usr/share/nodejs

CSTD := -std=c99 -Wall -Wextra -Wshadow -Wno-unused-parameter -Isrc
LIB_SRC := $(filter-out src/wasm_exports.c,$(wildcard src/*.c)) $(wildcard src/kernels/*.c src/api/*.c src/io/*.c src/models/*.c)
LIB_HDR := $(wildcard src/*.h) $(wildcard src/kernels/*.h src/api/*.h src/io/*.h src/models/*.h)
C_TESTS := $(patsubst tests/c/%.c,%,$(wildcard tests/c/test_*.c))

# The wasm exports, explicitly: the core functions of src/attnlab.h and src/wasm_exports.c here,
# plus one list per family of ops in src/api/*.exports (one name a line).
# The training entry points (src/api/train.exports) are linked only into the training builds, so
# the trainers, optimisers and model backward passes stay out of the .wasm every page loads.
TRAIN_EXPORTS := $(sort $(shell cat src/api/train.exports 2>/dev/null))
WASM_EXPORTS := al_abi_version al_memory_bytes al_status_string al_simd al_check_finite \
	al_malloc al_free al_alloc_live \
	al_matmul al_matvec al_softmax al_activate al_layernorm al_embedding al_sdpa \
	$(filter-out $(TRAIN_EXPORTS),$(sort $(shell cat src/api/*.exports 2>/dev/null)))
comma := ,
empty :=
space := $(empty) $(empty)
WASM_LINK_BASE := --no-entry -sSTANDALONE_WASM=1 -sFILESYSTEM=0 -sALLOW_MEMORY_GROWTH=1 \
	-sINITIAL_MEMORY=2097152 -sMAXIMUM_MEMORY=2147483648 -sTOTAL_STACK=524288 \
	-sMALLOC=emmalloc -sABORTING_MALLOC=0 -sERROR_ON_UNDEFINED_SYMBOLS=1
WASM_LINK := $(WASM_LINK_BASE) \
	-sEXPORTED_FUNCTIONS=$(subst $(space),$(comma),$(addprefix _,$(WASM_EXPORTS)))
WASM_TRAIN_LINK := $(WASM_LINK_BASE) \
	-sEXPORTED_FUNCTIONS=$(subst $(space),$(comma),$(addprefix _,$(WASM_EXPORTS) $(TRAIN_EXPORTS)))

.PHONY: format format-check lint all help native wasm test test-c test-c-wasm test-asan test-js test-browser test-firefox test-webkit test-python check-wasm python-venv \
	demo bench clean setup size committed-wasm dist first-plot lab-targets python-assets release

all: native wasm                                  ## everything that builds

help:                                             ## this list: each target and what it does
	@awk -F':[^#]*## ' '/^[a-z][a-z-]*:.*## /{ printf "  make %-14s %s\n", $$1, $$2 }' \
		$(firstword $(MAKEFILE_LIST))

# ---------------------------------------------------------------- setup
setup:                                            ## install toolchains (Debian, as root) and npm deps
	bash scripts/setup.sh

# ---------------------------------------------------------------- native
# Every flavour (native, asan, wasm-test, fuzz, bench) compiles the library once, into
# build/<flavour>/obj/, with that flavour's flags; each test binary is its one test file linked
# with those objects (all of them, as when the sources were compiled in). Objects depend on every
# library header, tests on the harness headers too.
# The test builds add -Werror, so a new warning fails them (`make test WERROR=` on a compiler
# that warns about more); the shipped .wasm builds do not: their bytes are checked.
WERROR ?= -Werror
TEST_HDR := tests/c/check.h tests/c/fixtures.h $(LIB_HDR)
lib_obj = $(patsubst src/%.c,build/$(1)/obj/%.o,$(LIB_SRC))

native: build/native/libattnlab.a                  ## the native static library

$(call lib_obj,native): build/native/obj/%.o: src/%.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WERROR) -O2 -c $< -o $@

build/native/libattnlab.a: $(call lib_obj,native)
	rm -f $@ && ar rcs $@ $^

build/native/test_%: tests/c/test_%.c $(TEST_HDR) build/native/libattnlab.a
	$(CC) $(CSTD) $(WERROR) -O2 -Itests/c $< build/native/libattnlab.a -lm -o $@

# sanitizer build: every object linked in, no recovery, so any finding fails the run
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

$(call lib_obj,asan): build/asan/obj/%.o: src/%.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WERROR) $(ASAN_CFLAGS) -c $< -o $@

build/asan/test_%: tests/c/test_%.c $(TEST_HDR) $(call lib_obj,asan)
	$(CC) $(CSTD) $(WERROR) $(ASAN_CFLAGS) -Itests/c $< $(call lib_obj,asan) -lm -o $@

# ---------------------------------------------------------------- wasm
WASM_FILES := wasm/attnlab.wasm wasm/attnlab-scalar.wasm wasm/attnlab-train.wasm \
	wasm/attnlab-train-scalar.wasm
wasm: $(WASM_FILES)                               ## the four shipped .wasm files

# Optimisation by role, to keep the SIMD .wasm under 150 KB without slowing the hot loops: in
# the SIMD build the _simd128 twins (every hot loop: sgemm tiles, softmax, attention, gates,
# scores) are compiled at -O3 and everything else at -Oz, linked with -Oz: the scalar twins serve tests and
# short tails, and the orchestration, validation, model and file-parsing code runs a few times
# per call (-O3's inlining and unrolling of it cost ~25 KB for nothing measurable). The scalar
# build keeps -O3 for every kernel: there the scalar twins are the hot loops.
# The SIMD training build (attnlab-train.wasm, loaded only to train) has objects of its own, the
# kernels and models at -O3 (the rest, parsing and API glue, -Oz), linked -O3: a training step runs
# the model backward passes and the kernels' backward loops (not _simd128 twins) once per sentence
# and time step, and an -Oz link takes the -Oz libc, whose memset and memcpy copy a byte at a time
# (10% of a dates step). No -ffast-math, and wasm has no FMA to contract into: every float is the
# same as the -Oz build's (scripts/train-hash.mjs).
wasm_opt_simd = $(if $(findstring _simd128.c,$<),-O3,-Oz)
wasm_opt_scalar = $(if $(findstring src/kernels/,$<),-O3,-Os)
wasm_opt_train = $(if $(filter src/kernels/% src/models/%,$<),-O3,-Oz)
WASM_OBJ_SIMD := $(patsubst src/%.c,build/wasm-simd/%.o,$(LIB_SRC) src/wasm_exports.c)
WASM_OBJ_SIMD_TRAIN := $(patsubst src/%.c,build/wasm-simd-train/%.o,$(LIB_SRC) src/wasm_exports.c)
WASM_OBJ_SCALAR := $(patsubst src/%.c,build/wasm-scalar/%.o,$(LIB_SRC) src/wasm_exports.c)

build/wasm-simd/%.o: src/%.c $(LIB_HDR)
	@command -v $(EMCC) >/dev/null || { echo "emcc not found: run 'make setup' (apt-get install emscripten)"; exit 1; }
	@mkdir -p $(dir $@)
	$(EMCC) $(wasm_opt_simd) $(CSTD) -msimd128 -c $< -o $@

build/wasm-simd-train/%.o: src/%.c $(LIB_HDR)
	@command -v $(EMCC) >/dev/null || { echo "emcc not found: run 'make setup' (apt-get install emscripten)"; exit 1; }
	@mkdir -p $(dir $@)
	$(EMCC) $(wasm_opt_train) $(CSTD) -msimd128 -c $< -o $@

build/wasm-scalar/%.o: src/%.c $(LIB_HDR)
	@command -v $(EMCC) >/dev/null || { echo "emcc not found: run 'make setup' (apt-get install emscripten)"; exit 1; }
	@mkdir -p $(dir $@)
	$(EMCC) $(wasm_opt_scalar) $(CSTD) -c $< -o $@

# One link recipe for the four modules, in wasm/ and in build/check/ (check-wasm): the name says
# which objects (-scalar: the scalar ones, linked -O3; -train without -scalar: the SIMD training
# ones, linked -O3; else the SIMD ones, linked -Oz) and which exports (-train: with the training
# entry points).
WASM_CHECK_FILES := $(patsubst wasm/%,build/check/%,$(WASM_FILES))
wasm_link_objs = $(if $(findstring -scalar,$(notdir $@)),-O3 $(WASM_OBJ_SCALAR),$(if $(findstring -train,$(notdir $@)),-O3 $(WASM_OBJ_SIMD_TRAIN),-Oz $(WASM_OBJ_SIMD)))
$(filter-out %-scalar.wasm %-train.wasm,$(WASM_FILES) $(WASM_CHECK_FILES)): $(WASM_OBJ_SIMD)
$(filter %-train.wasm,$(WASM_FILES) $(WASM_CHECK_FILES)): $(WASM_OBJ_SIMD_TRAIN)
$(filter %-scalar.wasm,$(WASM_FILES) $(WASM_CHECK_FILES)): $(WASM_OBJ_SCALAR)
$(WASM_FILES): Makefile $(wildcard src/api/*.exports)
$(WASM_FILES) $(WASM_CHECK_FILES):
	$(EMCC) $(wasm_link_objs) \
		$(if $(findstring -train,$(notdir $@)),$(WASM_TRAIN_LINK),$(WASM_LINK)) -o $@

# the C tests compiled by emcc and run under Node: exercises the f32x4 twins for real.
# (--no-experimental-fetch: emcc 3.1.6 output would try fetch() on a file path in Node 20)
WASM_TEST_CFLAGS := -O2 $(CSTD) $(WERROR) -msimd128

$(call lib_obj,wasm-test): build/wasm-test/obj/%.o: src/%.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(EMCC) $(WASM_TEST_CFLAGS) -c $< -o $@

build/wasm-test/test_%.js: tests/c/test_%.c $(TEST_HDR) $(call lib_obj,wasm-test)
	@mkdir -p $(dir $@)
	@echo '{"type":"commonjs"}' > $(dir $@)package.json
	$(EMCC) $(WASM_TEST_CFLAGS) -Itests/c $< $(call lib_obj,wasm-test) -sENVIRONMENT=node -sEXIT_RUNTIME=1 \
		-sALLOW_MEMORY_GROWTH=1 -sTOTAL_STACK=1048576 -o $@

# rebuild the four .wasm files elsewhere and compare with the committed bytes
check-wasm:                                       ## fail if committed .wasm differ from a rebuild
	rm -rf build/check && mkdir -p build/check
	$(MAKE) --no-print-directory -B $(WASM_CHECK_FILES)
	@set -e; for f in $(WASM_FILES); do cmp build/check/$${f#wasm/} $$f; done
	@echo "check-wasm: committed .wasm files match the sources"

# size and demo read the committed .wasm files as they are, and never rebuild them (a fresh clone
# has no emcc, and its checkout times say nothing about which file is newer): `make wasm` first
# to measure or serve a rebuild.
size: committed-wasm                              ## what the page downloads (raw and gzip) and the npm tarball
	@for f in wasm/*.wasm; do printf '%-28s %7d bytes raw %7d gzip\n' $$f $$(stat -c %s $$f) $$(gzip -9c $$f | wc -c); done
	@$(NODE) scripts/size.mjs

# ---------------------------------------------------------------- tests
test: lint format-check test-c test-asan test-c-wasm test-js test-browser test-firefox test-webkit test-python  ## everything CI runs

test-c: $(addprefix build/native/,$(C_TESTS))      ## native C tests
	@set -e; for t in $^; do echo "== $$t"; $$t; done

test-asan: $(addprefix build/asan/,$(C_TESTS))     ## native C tests under ASan + UBSan
	@set -e; for t in $^; do echo "== $$t (asan+ubsan)"; ASAN_OPTIONS=detect_leaks=1 $$t; done

test-c-wasm: $(addprefix build/wasm-test/,$(addsuffix .js,$(C_TESTS)))  ## C tests as wasm in Node
	@set -e; for t in $^; do echo "== $$t (wasm simd128)"; $(NODE) --no-experimental-fetch $$t; done

test-js: wasm node_modules                        ## node --test tests of the JS API
	$(NODE) --test tests/js/

test-browser: wasm node_modules                   ## Chromium tests of the page
	$(NODE) --test tests/browser/

# The smoke suite (tests/engines/smoke.js) in the two other engines, from Debian's packages
# (make setup): every view draws, typing redraws, the embed page in a sandboxed iframe, training
# starts, each file downloaded once, no error. WebKit's MiniBrowser needs an X display: the
# harness starts a private Xvfb server per run (tests/engines/harness.js).
test-firefox: wasm node_modules                   ## smoke suite in Firefox (firefox-esr, WebDriver BiDi)
	$(NODE) --test tests/engines/firefox.test.js

test-webkit: wasm node_modules                    ## smoke suite in WebKit (Safari's engine: MiniBrowser + WebKitWebDriver on Xvfb)
	$(NODE) --test tests/engines/webkit.test.js

# The Python package (python/, docs/python.md) against the JS library, offline: a venv over
# Debian's python3-torch (--system-site-packages), the package pip-installed without build
# isolation (no PyPI), then pytest on python/tests (which runs Node for the JS side).
# `make python-venv` is that venv made as docs/python.md tells a user to make theirs (the
# interpreter named: a pyenv or conda python3 sees no Debian torch and has no wheel), the package
# installed (again) from python/; tests/browser/notebook.test.js runs its notebooks in it too.
PYTHON ?= /usr/bin/python3
PY_VENV := build/python-venv
python-venv:                                      ## build/python-venv: a venv over Debian's PyTorch with python/ pip-installed (as docs/python.md)
	@$(PYTHON) -c 'import torch' 2>/dev/null || { echo "python-venv: PyTorch missing for $(PYTHON): run 'make setup' (apt-get install python3-torch)"; exit 1; }
	@[ -x $(PY_VENV)/bin/python ] || $(PYTHON) -m venv --system-site-packages $(PY_VENV)
	$(PY_VENV)/bin/pip install --quiet --no-build-isolation --no-index --no-deps ./python

test-python: python-venv                          ## the Python package's tests (PyTorch <-> JS round trips)
	cd python/tests && ../../$(PY_VENV)/bin/python -m pytest -q -p no:cacheprovider .

node_modules: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch node_modules

# ---------------------------------------------------------------- demo and bench
# PORT=8081 make demo serves on another port (default 8080; 0: any free one); on a taken port
# scripts/serve.mjs says so in one line and exits 1.
demo: committed-wasm                              ## serve the page (and the committed .wasm) on localhost:8080 (PORT=8081: another); print its URL
	$(NODE) scripts/serve.mjs

# What a maintainer publishes, tried first as a user gets it (docs/npm.md, "Releasing"): npm pack
# into build/release/, then the package tests on that very tarball (ATTNLAB_TARBALL: tests/js/packed.js
# installs it with npm install --offline in an empty project, no registry): the quickstarts of the
# README and docs/api.md, what the tarball holds, its exports and types (readme-package), and the
# course page and iframe in Chromium from a second origin (tests/browser/package.test.js). Publishes
# nothing: it prints the one command that does.
VERSION = $(shell $(NODE) -p "require('./package.json').version")
release: committed-wasm node_modules               ## pack attnlab-x.y.z.tgz, test it installed offline in an empty project, print the npm publish command
	@rm -rf build/release && mkdir -p build/release
	npm pack --pack-destination build/release --no-audit --no-fund --loglevel=error
	ATTNLAB_TARBALL=$(CURDIR)/build/release/attnlab-$(VERSION).tgz \
		$(NODE) --test tests/js/readme-package.test.js tests/browser/package.test.js
	@echo "release: build/release/attnlab-$(VERSION).tgz passed. To publish it: npm publish build/release/attnlab-$(VERSION).tgz"

# The four .wasm files are there (they are committed); never builds them.
committed-wasm:
	@for f in $(WASM_FILES); do [ -f $$f ] || { echo "$$f is missing: 'git checkout -- wasm/' restores the committed build, 'make wasm' rebuilds it (needs emcc)"; exit 1; }; done

# The production page: web/ bundled and minified by esbuild into dist/ (gitignored; the committed
# .wasm copied, never rebuilt). A static host serves dist/ (docs/hosting.md); locally:
# node scripts/serve.mjs --root dist --compress. The development page (web/) needs none of it.
dist: committed-wasm node_modules                 ## the production page in dist/ (bundled, minified; serve with scripts/serve.mjs --root dist --compress)
	$(NODE) scripts/build-web.mjs

# What attnlab.show() (python/attnlab/show.py) inlines into a notebook cell: python/js/ bundled by
# esbuild into two classic scripts, and wasm/attnlab.wasm copied, in python/attnlab/assets/
# (committed, so `pip install ./python` needs no npm; tests/js/python-assets.test.js fails when
# they are older than their sources).
python-assets: committed-wasm node_modules        ## rebuild python/attnlab/assets/ (the notebook bundles and .wasm) from python/js/ and wasm/
	$(NODE) scripts/build-python-assets.mjs

first-plot: committed-wasm node_modules           ## time to first plot, web/ and dist/, three emulated networks, 5 cold runs each (~2 min; CI runs 1: tests/browser/first-plot.test.js)
	$(NODE) scripts/first-plot.mjs

lab-targets: committed-wasm node_modules          ## the lab's targets (issue 15) in Chromium, A and B training together (~5 min; docs/lab.md)
	$(NODE) scripts/lab-targets.mjs

bench: wasm node_modules                          ## benchmarks (see scripts/bench)
	$(NODE) scripts/bench.mjs

clean:                                            ## remove build output (not the committed .wasm)
	rm -rf build

# ---------------------------------------------------------------- fuzzing (clang + libFuzzer)
# One target per tests/fuzz/fuzz_<name>.c, seeded from tests/fuzz/corpus/<name>/ with the
# dictionary tests/fuzz/<name>.dict; new inputs go to build/fuzz/corpus/<name>/ (not committed).
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
.PHONY: fuzz fuzz-smoke

FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

$(call lib_obj,fuzz): build/fuzz/obj/%.o: src/%.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CSTD) $(FUZZ_CFLAGS) -c $< -o $@

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(LIB_HDR) $(call lib_obj,fuzz)
	$(FUZZ_CC) $(CSTD) $(FUZZ_CFLAGS) $< $(call lib_obj,fuzz) -lm -o $@

fuzz: $(addprefix build/fuzz/fuzz_,$(FUZZ_TARGETS))  ## libFuzzer, FUZZ_SECONDS per target
	@set -e; for t in $(FUZZ_TARGETS); do mkdir -p build/fuzz/corpus/$$t; \
		build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-dict=tests/fuzz/$$t.dict build/fuzz/corpus/$$t tests/fuzz/corpus/$$t; done

fuzz-smoke: $(addprefix build/fuzz/fuzz_,$(FUZZ_TARGETS))  ## replay the committed corpus, then fuzz 10 s
	@set -e; for t in $(FUZZ_TARGETS); do build/fuzz/fuzz_$$t -runs=0 tests/fuzz/corpus/$$t; \
		$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=10 FUZZ_TARGETS=$$t; done

# ---------------------------------------------------------------- benchmark harness (scripts/bench/)
.PHONY: bench-native bench-check bench-train

bench-native: build/bench/bench_native             ## the native driver alone (gcc -O3 -march=native), JSON on stdout
	build/bench/bench_native

BENCH_CFLAGS := -O3 -march=native

$(call lib_obj,bench): build/bench/obj/%.o: src/%.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(BENCH_CFLAGS) -c $< -o $@

build/bench/bench_native: scripts/bench/native.c $(LIB_HDR) $(call lib_obj,bench)
	$(CC) $(CSTD) $(BENCH_CFLAGS) $< $(call lib_obj,bench) -lm -o $@

bench-check: wasm node_modules                     ## re-run the benchmarks; fail if attnlab lost > 20% to the peers
	$(NODE) scripts/bench.mjs --check

bench-train: wasm node_modules                     ## the train:<preset> rows alone (attnlab, PyTorch on OpenBLAS, tfjs-wasm) → build/bench/
	$(NODE) scripts/bench.mjs --train-only

# ---------------------------------------------------------------- trained models (docs/training.md)
.PHONY: models models-translation models-all

MODEL_FAMILIES := dates sequences reviews agreement transformers

models: wasm                                      ## train the shipped models but the translators into web/models/ (reproducible: byte-identical files; ~47 min on 2 cores)
	$(NODE) scripts/train.mjs $(addprefix --family ,$(MODEL_FAMILIES)) --jobs 2

models-translation: wasm                          ## train the 8 en-fr translators into web/models/ (~95 min on 2 cores)
	$(NODE) scripts/train.mjs --family translation --jobs 2

models-all: models models-translation             ## every shipped model (~148 min on 2 cores)

# ---------------------------------------------------------------- format and lint
FORMAT_FILES = $(shell git ls-files 'src/*.c' 'src/*.h' 'tests/c/*.c' 'tests/c/*.h' 'tests/fuzz/*.c' 'scripts/bench/*.c' 2>/dev/null)

format: node_modules                              ## format in place: clang-format the C, Prettier the JS and CSS
	clang-format -i --style=file $(FORMAT_FILES)
	$(NODE) node_modules/prettier/bin/prettier.cjs --write --log-level warn .

# C as .clang-format writes it; JS, .d.ts and CSS as Prettier writes it (.prettierrc.json; what it
# leaves out, generated bundles and data, is in .prettierignore)
format-check: node_modules                        ## fail when a source is not as clang-format or Prettier writes it
	@out=$$(for f in $(FORMAT_FILES); do clang-format --style=file "$$f" | cmp -s - "$$f" || echo "$$f"; done); \
	if [ -n "$$out" ]; then echo "not formatted (run make format):"; echo "$$out"; exit 1; fi; \
	echo "format-check: $(words $(FORMAT_FILES)) C files as clang-format writes them"
	@$(NODE) node_modules/prettier/bin/prettier.cjs --check --log-level warn . || { echo "not formatted (run make format)"; exit 1; }
	@echo "format-check: the JS and CSS as Prettier writes them"

lint: node_modules                                ## ESLint (eslint.config.js: the recommended rules) over every JS file
	$(NODE) node_modules/eslint/bin/eslint.js --max-warnings 0 .
