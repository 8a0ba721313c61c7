# bloomlab: the two commands a user types are `make run` and `make test`.
# Both install what is missing (Debian packages), then build.

.PHONY: all deps build build-asan wasm run test test-release test-asan bench install clean

BUILD := build/release
BLOOMLAB := $(BUILD)/src/bloomlab

all: build

deps:
	@./scripts/deps.sh

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release

build-asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan

# The page's engine: the lab library compiled by Debian's Emscripten into
# $(BUILD)/site/bloomlab.mjs + bloomlab.wasm (a separate configure, without
# CLI11 and fmt). Configures once; after that ninja redoes only what changed.
# emcc needs NODE_PATH to find Debian's acorn; EM_CACHE must stay unset.
WASM_BUILD := build/wasm
wasm: deps
	@set -e; export NODE_PATH=/usr/share/nodejs; \
	[ -f $(WASM_BUILD)/build.ninja ] || emcmake cmake -S . -B $(WASM_BUILD) -G Ninja \
	  -DCMAKE_BUILD_TYPE=Release -DBLOOMLAB_BUILD_TESTS=OFF -DBLOOMLAB_SITE_DIR=$(CURDIR)/$(BUILD)/site >/dev/null; \
	cmake --build $(WASM_BUILD)

# Measures the bundled 200-item sample list, as seed 000's lab does.
run: build
	@$(BLOOMLAB) measure data/sample.txt

# Every test: first in the release build, then the WebAssembly engine against
# the CLI (node's own test runner), then under AddressSanitizer and
# UndefinedBehaviorSanitizer. The last line is the runner's summary.
test: build build-asan wasm
	@ctest --preset release
	@node --test tests/wasm/
	@ctest --preset asan

bench: build
	@$(BUILD)/bench/bench_classic --benchmark_counters_tabular=true

# Installs the engine's headers, its CMake package and the bloomlab command
# (PREFIX=/usr/local by default).
PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	@rm -rf build
