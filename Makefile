# beacond — the first two targets are the README's first two commands.
#   make run    run the main job on the bundled default
#   make test   build and run every test (installs missing apt packages first)

SWIFT ?= swift
BEACOND_DEBUG := .build/debug/beacond
RUN_SCENARIO := Simulator/Scenarios/lobby.yaml

.PHONY: run test build bench fuzz test-vm clean

run: build
	$(BEACOND_DEBUG) simulate $(RUN_SCENARIO)

build:
	@scripts/ensure-deps.sh build
	$(SWIFT) build --product beacond

test:
	@scripts/ensure-deps.sh test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest

bench:
	@scripts/ensure-deps.sh build
	$(SWIFT) run -c release --package-path Benchmarks beacond-bench $(BENCH)

fuzz:
	@scripts/ensure-deps.sh build
	scripts/fuzz.sh $(or $(FUZZ_SECONDS),60)

SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

test-vm:
	@scripts/ensure-deps.sh build
	$(SUDO) scripts/test-vm.sh

clean:
	rm -rf .build Benchmarks/.build
