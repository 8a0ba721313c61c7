# bloomlab: the two commands a user types are `make run` and `make test`.
# Both install what is missing (Debian packages), then build.

.PHONY: all deps build build-asan run test test-release test-asan bench install clean

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

# Measures the bundled 200-item sample list, as seed 000's lab does.
run: build
	@$(BLOOMLAB) measure data/sample.txt

# Every test: first in the release build, then under AddressSanitizer and
# UndefinedBehaviorSanitizer. The last line is the runner's summary.
test: build build-asan
	@ctest --preset release
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
