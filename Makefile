# Thin wrapper over CMake. `make` builds build/smemlab; `make test` runs the suite; `make run` the tour.
BUILD ?= build
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build test test-asan run fuzz-configure fuzz fuzz-smoke bench deps clean install package

all: build

# --no-print-directory: no "gmake[3]: Entering directory" lines from CMake's recursive makefiles.
build:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) -- --no-print-directory

# `make install PREFIX=DIR` (default /usr/local): the CLI, its runtime stand-ins and kernels, the
# headers, libsmemlab.a, smemlab.pc and the CMake package; `make package`: a .deb in build/.
PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

package: build
	@cd $(BUILD) && cpack -G DEB

deps:
	@scripts/deps.sh

test: deps build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer (CI runs it too).
test-asan: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSMEMLAB_SANITIZE=ON >/dev/null
	@cmake --build build-asan -j $(JOBS) -- --no-print-directory
	@cd build-asan && ctest --output-on-failure -j $(JOBS)

# The tour and nothing before it: the build's output goes to $(BUILD)/build.log (shown if it fails).
run:
	@mkdir -p $(BUILD)
	@$(MAKE) -s --no-print-directory build >$(BUILD)/build.log 2>&1 || { cat $(BUILD)/build.log; exit 1; }
	@$(BUILD)/smemlab tour

# libFuzzer targets (clang, into build-fuzz: they and the library they call, nothing else), each run
# FUZZ_SECONDS. fuzz-smoke (CI): each run FUZZ_SMOKE_SECONDS from a fixed seed (a failure comes back
# on the next run), their output kept in build-fuzz/fuzz-logs/ and shown when one fails.
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5
fuzz-configure:
	@scripts/deps.sh fuzz
	@cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DSMEMLAB_FUZZ=ON -DSMEMLAB_SANITIZE=ON -DSMEMLAB_WERROR=OFF >/dev/null

fuzz: fuzz-configure
	@cmake --build build-fuzz -j $(JOBS) --target fuzzers -- --no-print-directory
	@scripts/fuzz.sh build-fuzz $(FUZZ_SECONDS)

fuzz-smoke: fuzz-configure
	@cmake --build build-fuzz -j $(JOBS) --target fuzzers -- --no-print-directory
	@FUZZ_LOGS=build-fuzz/fuzz-logs FUZZ_FLAGS=-seed=1 scripts/fuzz.sh build-fuzz $(FUZZ_SMOKE_SECONDS)

# SMEMLAB_PROGRAMS=DIR: also `smemlab run` over the real programs built there by
# bench/programs/build.sh (wall time and thread-instructions per second each; bench/programs/README.md).
# SMEMLAB_LLMC_PTX=FILE: also llm.c's matmul_forward_kernel4 (bench/bench_emulator.c says how to make it).
bench: build
	@$(BUILD)/bench/bench_model
	@$(BUILD)/bench/bench_emulator $(BUILD)/kernels $(BUILD)/bench
	@if [ -n "$(SMEMLAB_PROGRAMS)" ]; then sh bench/programs/run_cpu.sh $(BUILD)/smemlab "$(SMEMLAB_PROGRAMS)"; \
	 else echo "smemlab run over real programs: set SMEMLAB_PROGRAMS=DIR (bench/programs/README.md)"; fi

clean:
	rm -rf $(BUILD) build-asan build-fuzz
