# beacond — the first two targets are the README's first two commands.
#   make run    run the main job on the bundled default
#   make test   build and run every test (installs missing apt packages first)

SWIFT ?= swift
BEACOND_DEBUG := .build/debug/beacond
RUN_CAPTURE := Tests/BeaconWireTests/Fixtures/csacca_horizon74_btsnoop_hci.btsnoop

.PHONY: run test build bench fuzz test-vm clean

run: build
	$(BEACOND_DEBUG) parse --format csv --only ibeacon $(RUN_CAPTURE)

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

test-vm:
	@scripts/ensure-deps.sh build
	scripts/test-vm.sh

clean:
	rm -rf .build Benchmarks/.build
