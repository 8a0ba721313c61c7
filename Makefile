# bloomlab: the two commands a user types are `make run` and `make test`.
# Both install what is missing (Debian packages), then build.

.PHONY: all deps deps-test deps-bench npm build build-asan wasm site run test bench bench-gate bench-resp bench-parquet bench-rocksdb screenshots install clean

BUILD := build/release
BLOOMLAB := $(BUILD)/src/bloomlab

# Where the time goes: each step below runs under scripts/step.sh, which adds
# a line (step, seconds, exit status) to one file per make invocation;
# scripts/test-all.sh prints that table at the end of `make test`.
ifndef BLOOMLAB_STEPS
BLOOMLAB_STEPS := $(CURDIR)/build/steps/$(shell date -u +%Y%m%dT%H%M%S)-$(firstword $(MAKECMDGOALS) all).tsv
endif
export BLOOMLAB_STEPS
STEP := ./scripts/step.sh

all: build

deps:
	@$(STEP) "apt (deps)" ./scripts/deps.sh

deps-test:
	@$(STEP) "apt (deps test)" ./scripts/deps.sh test

deps-bench:
	@$(STEP) "apt (deps bench)" ./scripts/deps.sh bench

# The page's npm packages (esbuild, uPlot, Playwright, axe-core), from the
# committed lock file; only when the lock file changed or they are missing.
npm: node_modules/.package-lock.json
node_modules/.package-lock.json: package.json package-lock.json | deps
	@$(STEP) "npm ci" npm ci --no-audit --no-fund --loglevel=error

# The release tree builds the lab, and its tests only for the goals that
# install deps-test: the tests' programs (wrk, sqlite3, redis-cli, a JVM,
# RocksDB) come with it, so `make run` on a new machine neither needs nor
# installs them. Switching between the two reconfigures the tree and keeps
# what was built (ccache holds the rest).
RELEASE_TESTS := $(if $(filter test bench-gate bench-resp bench-rocksdb,$(MAKECMDGOALS)),ON,OFF)
build: deps
	@$(STEP) "configure release" cmake --preset release -DBLOOMLAB_BUILD_TESTS=$(RELEASE_TESTS) >/dev/null
	@$(STEP) "build release" cmake --build --preset release

build-asan: deps
	@$(STEP) "configure asan" cmake --preset asan >/dev/null
	@$(STEP) "build asan" cmake --build --preset asan

# The page's engine: the lab library compiled by Debian's Emscripten into
# $(BUILD)/site/bloomlab.mjs + bloomlab.wasm (a separate configure, without
# CLI11 and fmt). Configures once; after that ninja redoes only what changed.
# emcc needs NODE_PATH to find Debian's acorn; EM_CACHE must stay unset.
WASM_BUILD := build/wasm
wasm: deps
	@set -e; export NODE_PATH=/usr/share/nodejs; \
	[ -f $(WASM_BUILD)/build.ninja ] || $(STEP) "configure wasm" emcmake cmake -S . -B $(WASM_BUILD) -G Ninja \
	  -DCMAKE_BUILD_TYPE=Release -DBLOOMLAB_BUILD_TESTS=OFF -DBLOOMLAB_SITE_DIR=$(CURDIR)/$(BUILD)/site >/dev/null; \
	$(STEP) "build wasm" cmake --build $(WASM_BUILD)

# The static site: the page, its bundle and the engine, each file with its
# brotli and gzip copies beside it (web/build.mjs). It can be put on any
# static host, since all computation happens in the browser.
site: wasm npm
	@$(STEP) "bundle page" node web/build.mjs $(BUILD)/site

# Builds everything and serves the lab on http://127.0.0.1:8080/.
run: build site
	@$(BLOOMLAB) serve

# Every test: the release build's (unit, lab, CLI, server), the WebAssembly
# engine against the CLI, the same C++ tests under AddressSanitizer and
# UndefinedBehaviorSanitizer, then the page in Chromium. The last line adds
# them up.
test: deps-test build build-asan site
	@./scripts/test-all.sh

# Saves screenshots of each section under docs/screenshots/ (in Debian's
# Chromium, which deps-test installs).
screenshots: build site deps-test
	@$(BLOOMLAB) serve --port 18091 >/dev/null & pid=$$!; \
	for i in $$(seq 100); do node -e "fetch('http://127.0.0.1:18091/').then(()=>process.exit(0),()=>process.exit(1))" 2>/dev/null && break; done; \
	node web/screenshots.mjs http://127.0.0.1:18091/; status=$$?; kill $$pid; exit $$status

# Builds the benchmarks (not part of `make build` or `make test`: no test runs
# them), then runs the classic filter, then the blocked filters, each beside libbloom in the
# same run (a few minutes on two cores); the blocked filter's hash beside
# XXH3; loading a filter file beside reading it; 300M integer keys, out of
# the L3 (bench_big: 780 MB of memory at its peak, about 6 minutes of CPU). Then
# the command line on 10,000,000 lines beside dcso's bloom
# (bench/cli_stream.sh; 170 MB of lists under $(BUILD)/bench-cli, a few
# minutes), its table saved to bench/results/cli-stream-DATE.txt.
bench: build deps-bench
	@$(STEP) "build benchmarks" cmake --build --preset release --target benchmarks
	@$(BUILD)/bench/bench_classic --benchmark_counters_tabular=true
	@$(BUILD)/bench/bench_blocked --benchmark_counters_tabular=true
	@$(BUILD)/bench/bench_int --benchmark_counters_tabular=true
	@$(BUILD)/bench/bench_hash --benchmark_counters_tabular=true
	@$(BUILD)/bench/bench_load
	@$(BUILD)/bench/bench_big
	@set -e; mkdir -p bench/results; out=bench/results/cli-stream-$$(date -u +%Y-%m-%d).txt; \
	bench/cli_stream.sh $(BLOOMLAB) $(BUILD)/bench-cli >$$out; cat $$out

# The gate's question: 1,000,000 banned keys in SQLite and in PostgreSQL (a
# throwaway cluster, as the tests start), traffic 99% clean. First in process
# (no HTTP): lookups a second for the table alone and behind a blocked
# filter (bench/results/gate-DATE.txt). Then over HTTP: `bloomlab gate` with
# no filter, a classic and a blocked one, each under wrk, GET and batched
# POST /check (bench/results/gate-http-DATE.txt). Last the fault suite
# (bench/gate_faults.py: a frozen database, slow clients, large bodies, a
# lost listener; bench/results/gate-faults-DATE.md), beside an older build
# when BEFORE=path/to/bloomlab is given.
bench-gate: build deps-test
	@$(STEP) "build bench_gate" cmake --build --preset release --target bench_gate
	@set -e; state=$(CURDIR)/$(BUILD)/bench-gate-pg.url; \
	tests/gate/pg_cluster.sh start $$state >/dev/null; \
	trap "tests/gate/pg_cluster.sh stop $$state >/dev/null" EXIT; \
	mkdir -p bench/results; out=bench/results/gate-$$(date -u +%Y-%m-%d).txt; \
	$(BUILD)/bench/bench_gate --pg "$$(cat $$state)" --sqlite $(BUILD)/bench-gate.sqlite \
	  --traffic $(BUILD)/bench-gate-traffic.txt >$$out; \
	cat $$out; \
	out=bench/results/gate-http-$$(date -u +%Y-%m-%d).txt; \
	/usr/bin/python3 bench/gate_http.py --bloomlab $(BLOOMLAB) --traffic $(BUILD)/bench-gate-traffic.txt \
	  --sqlite $(BUILD)/bench-gate.sqlite --pg "$$(cat $$state)" >$$out; \
	sed -n '1,/^load average/p' $$out; \
	out=bench/results/gate-faults-$$(date -u +%Y-%m-%d).md; \
	/usr/bin/python3 bench/gate_faults.py --bloomlab $(BLOOMLAB) $(if $(BEFORE),--before $(BEFORE)) \
	  --cluster tests/gate/pg_cluster.sh --state $(CURDIR)/$(BUILD)/bench-gate-faults.url >$$out; \
	cat $$out

# The gate's Redis port beside Debian's redis-server, one run, the same
# redis-benchmark invocations (bench/resp_bench.py; 1,000,000 and 10,000,000
# keys): requests a second, unpipelined and pipelined, and memory
# (bench/results/resp-DATE.md).
bench-resp: build deps-bench deps-test
	@mkdir -p bench/results
	@out=bench/results/resp-$$(date -u +%Y-%m-%d).md; \
	/usr/bin/python3 bench/resp_bench.py --bloomlab $(BLOOMLAB) >$$out; cat $$out

# Reading the filters of 1,000 Parquet files DuckDB wrote, bloomlab beside
# DuckDB's parquet_metadata and parquet_bloom_probe in the same run, whole
# processes, seconds and peak memory (bench/parquet_bench.py; about a
# minute; bench/results/parquet-DATE.md).
bench-parquet: build npm
	@mkdir -p bench/results
	@out=bench/results/parquet-$$(date -u +%Y-%m-%d).md; \
	/usr/bin/python3 bench/parquet_bench.py --bloomlab $(BLOOMLAB) >$$out; cat $$out

# RocksDB's Bloom filter as RocksDB counts it (bench/rocksdb_rate.cpp): for
# 9.5 to 10.2 bits a key, a table of 1,000,000 keys written by Debian's
# librocksdb and 1,000,000 Get()s of absent keys in its range; the rate from
# its tickers beside bloomlab's count, formula and RocksDB's estimate, and
# the least bits a key for 1% (bench/results/rocksdb-DATE.md; a few minutes).
bench-rocksdb: build deps-test
	@$(STEP) "build bench_rocksdb_rate" cmake --build --preset release --target bench_rocksdb_rate
	@mkdir -p bench/results
	@out=bench/results/rocksdb-$$(date -u +%Y-%m-%d).md; \
	{ echo "# RocksDB's filter rate, counted by RocksDB"; echo; \
	  $(BUILD)/bench/bench_rocksdb_rate $(BUILD)/bench-rocksdb 1000000 1000000 9.5 9.6 9.7 9.8 9.9 10 10.1 10.2; \
	} >$$out; rm -rf $(BUILD)/bench-rocksdb; cat $$out

# Installs the engine's headers, its CMake package and the bloomlab command
# (PREFIX=/usr/local by default).
PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	@rm -rf build test-results
