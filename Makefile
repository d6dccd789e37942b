# heapprof: the two commands the README promises, on a fresh Debian bookworm.
#   make demo    set up, build, profile an example program, show the profile
#   make check   set up, build, run every test; ends with "N passed, N failed"
#   make bench   benchmarks against the plain program and upstream MemProf
#   make fuzz    long libFuzzer runs (FUZZ_TIME seconds per target, default 600)
#   make bench-deps  installs what bench/dhat (run by hand) needs besides: valgrind, gawk, ...
BUILD ?= build
CMAKE_FLAGS ?= -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19

.PHONY: all setup build check demo bench bench-deps fuzz install clean

all: build

setup:
	@scripts/setup.sh

build: setup
	@cmake -G Ninja -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@ninja -C $(BUILD)

check: build
	@BUILD=$(BUILD) scripts/check.sh

demo: build
	@BUILD=$(BUILD) scripts/demo.sh

bench: build
	@bench/run.sh

bench-deps:
	@scripts/setup.sh --dhat

fuzz: build
	@BUILD=$(BUILD) scripts/fuzz.sh

install: build
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

clean:
	rm -rf $(BUILD) demo-out
