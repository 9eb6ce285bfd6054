# beacond — the first two targets are the README's first two commands.
#   make run    run the main job on the bundled default
#   make test   build and run every test (installs missing apt packages first)

SWIFT ?= swift
BEACOND_DEBUG := .build/debug/beacond
RUN_SCENARIO := Simulator/Scenarios/lobby.yaml

.PHONY: run run-site screenshot test test-loaded suite-times build bench bench-tune bench-explain bench-gateway symbol-order fuzz soak test-vm test-ha dist test-dist measure-build format lint examples docs clean

run: build
	$(BEACOND_DEBUG) simulate $(RUN_SCENARIO)

build:
	@scripts/ensure-deps.sh build
	$(SWIFT) build --product beacond

test:
	@scripts/ensure-deps.sh test
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	$(SWIFT) test --skip-build --disable-xctest

# The bundled shop as a site you can watch: its four gateways simulated in one process, their
# reports fused by a hub daemon whose status page is on http://127.0.0.1:8080/ (Ctrl-C stops).
# SPEED=10 runs it ten times faster than real time; ADDR=127.0.0.1:9000 serves elsewhere.
SPEED ?= 1
ADDR ?= 127.0.0.1:8080
run-site: build
	$(BEACOND_DEBUG) simulate Simulator/Scenarios/site.yaml --config Simulator/Scenarios/site.alerts.yaml \
		--serve $(ADDR) --speed $(SPEED)

# The README's picture of the status page, taken anew by the browser test that checks the page.
screenshot:
	@scripts/ensure-deps.sh test
	$(SWIFT) build --build-tests
	BEACOND_ARTIFACTS=Docs $(SWIFT) test --skip-build --disable-xctest --filter browserFollowsTheLobby

# The whole suite again while the machine is busy: one CPU burner per core at full load for the
# whole run (scripts/test-loaded.sh starts and stops them). RUNS=5 runs it five times in a row.
test-loaded:
	@scripts/ensure-deps.sh test
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	scripts/test-loaded.sh

# What each suite costs alone (wall and CPU time, the most expensive first): scripts/suite-times.sh.
# SUITES=Site limits it to the suites whose name contains that text.
suite-times:
	@scripts/ensure-deps.sh test
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	scripts/suite-times.sh

# `make bench` runs every group of Benchmarks/ and then bench-gateway; BENCH="parse site" runs
# some groups, BENCH=gateway only the gateway's cost.
BENCH_GROUPS = $(filter-out gateway,$(BENCH))
bench:
	@scripts/ensure-deps.sh build
	@# The Benchmarks package's cached build plan does not notice files added to the root package.
	@find Sources Strategies -newer Benchmarks/.build/release.yaml -name '*.swift' 2>/dev/null | grep -q . \
		&& rm -f Benchmarks/.build/release.yaml || true
	@if [ -z "$(BENCH)" ] || [ -n "$(BENCH_GROUPS)" ]; then \
		$(SWIFT) run -c release --package-path Benchmarks beacond-bench $(BENCH_GROUPS); fi
	@if [ -z "$(BENCH)" ] || [ "$(BENCH_GROUPS)" != "$(BENCH)" ]; then $(MAKE) --no-print-directory bench-gateway; fi

# Explanations held to the engine on the 1,000-beacon day: 10,000 random (alert, beacon, time)
# triples (issue 38; BENCHMARKS.md, "Explanations").
bench-explain:
	@scripts/ensure-deps.sh build
	$(SWIFT) build -c release --product beacond
	/usr/bin/time -f "%e s wall, %U s user, %M KB peak" .build/release/beacond check-explanations \
		--scenario Simulator/Scenarios/stress.yaml --triples 10000

# Issue 38's tune figure: one dwell alert of the 1,000-beacon day over 50 candidates, on every
# core (release beacond; about 4.5 minutes on 2 cores).
bench-tune:
	@scripts/ensure-deps.sh build
	$(SWIFT) build -c release --product beacond
	/usr/bin/time -f "%e s wall, %U s user, %M KB peak" .build/release/beacond tune --scenario Simulator/Scenarios/stress.yaml \
		--alert tag-dwell --vary dwell --vary gap --candidates 50 --min-duration 10m --top 5 || [ $$? -eq 1 ]

# What a gateway costs: the beacond that ships (make dist's static build) on a paced 200-beacon
# load for 60 s, CPU share and peak RSS (scripts/gateway_cost.py; needs mosquitto).
# GATEWAY_COST_ARGS="--beacond .build/release/beacond" measures the shared-library build instead.
bench-gateway:
	@scripts/ensure-deps.sh test
	$(SWIFT) build -c release --static-swift-stdlib --product beacond --scratch-path .build-dist
	python3 scripts/gateway_cost.py --beacond .build-dist/release/beacond $(GATEWAY_COST_ARGS)

# The release link's function order, packaging/beacond.order: the functions the gateway load runs
# (scripts/symbol_order.py, under valgrind's callgrind), profiled on make dist's static build.
symbol-order:
	@scripts/ensure-deps.sh test
	$(SWIFT) build -c release --static-swift-stdlib --product beacond --scratch-path .build-dist
	python3 scripts/symbol_order.py --beacond .build-dist/release/beacond

# Three libFuzzer targets, each for FUZZ_SECONDS: the wire, capture, report and time parsers
# (scripts/fuzz.sh), the configuration and scenario readers (scripts/fuzz-config.sh), and the
# foreign nodes' payload and recording readers (scripts/fuzz-foreign.sh).
fuzz:
	@scripts/ensure-deps.sh build
	scripts/fuzz.sh $(or $(FUZZ_SECONDS),60)
	scripts/fuzz-config.sh $(or $(FUZZ_SECONDS),60)
	scripts/fuzz-foreign.sh $(or $(FUZZ_SECONDS),60)

# The fault-injection soak (not part of make test): a simulated day through a release beacond
# while it is killed at random, mosquitto restarts and the webhook fails (scripts/soak.py says
# how). SOAK_ARGS, e.g. "--hours 12 --wall 150"; SOAK_BEACOND, a release binary already built.
SOAK_BEACOND ?= .build/release/beacond
# Then the site soak (scripts/site_soak.py): four gateway processes and two hubs with takeover on
# the wall clock while gateways and hubs are killed, mosquitto restarts and forged and malformed
# reports arrive; SOAK_SITE_ARGS, e.g. "--wall 120".
soak:
	@scripts/ensure-deps.sh test
	$(if $(filter .build/release/beacond,$(SOAK_BEACOND)),$(SWIFT) build -c release --product beacond)
	scripts/soak.py --beacond $(SOAK_BEACOND) $(SOAK_ARGS)
	scripts/site_soak.py --beacond $(SOAK_BEACOND) $(SOAK_SITE_ARGS)

SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

# A real Home Assistant (2024.3.3, in a venv under .build/ha, cached) sees a simulated site's hub:
# device tracker in the hub's rooms, sensors, alerts as events, no entity for an unnamed beacon.
test-ha:
	@scripts/ensure-deps.sh test
	$(SWIFT) build --product beacond
	scripts/test-ha.sh

test-vm:
	@scripts/ensure-deps.sh build
	$(SUDO) scripts/test-vm.sh

# The example packages that depend on this one, built so that they cannot rot.
examples:
	@scripts/ensure-deps.sh build
	$(SWIFT) build --package-path Examples/CustomGateway
	scripts/check-custom-gateway.sh

# DocC for every library (swift-docc-plugin): a broken symbol link or a half-documented
# signature fails the build. Archives in .build/plugins/Swift-DocC/outputs/.
DOC_TARGETS := BeaconCore BeaconCrypto BeaconDevices BeaconWire BeaconRanging BeaconSite BeaconForeignNodes BeaconStrategyKit BeaconStrategies BeaconStrategyPlugins \
	BeaconAlertEngine BeaconPipeline BeaconConfiguration BeaconSimulator BeaconHTTP BeaconSinks BeaconMQTT \
	BeaconStore BeaconBlueZ BeaconSiteReport BeaconControl BeaconDaemonConfiguration BeaconSiteLink BeaconOfflineRuns BeaconGateway
docs:
	@scripts/ensure-deps.sh build
	$(SWIFT) package generate-documentation $(addprefix --target ,$(DOC_TARGETS)) --warnings-as-errors

# The Debian package (release beacond, Swift runtime linked statically): .build-dist/beacond_VERSION_ARCH.deb
dist:
	scripts/dist.sh

# The package installed, checked (--version, check-config, systemd-analyze verify) and purged in a clean Debian root.
test-dist: dist
	$(SUDO) scripts/test-dist.sh

SWIFT_FORMAT_PATHS := Package.swift Sources Strategies Tests Examples Benchmarks/Sources Benchmarks/Package.swift Fuzz

# swift-format, configured by .swift-format: rewrite in place, or check (CI).
format:
	$(SWIFT) format --in-place --recursive --parallel $(SWIFT_FORMAT_PATHS)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(SWIFT_FORMAT_PATHS)
	scripts/check-module-table.py
	scripts/check-status-page.py

# Clean make run, clean make test and an edit-one-file rebuild, timed on a fresh clone (REV=HEAD).
measure-build:
	scripts/measure-build.sh $(or $(REV),HEAD)

clean:
	rm -rf .build .build-dist Benchmarks/.build Examples/CustomGateway/.build Fuzz/ConfigFuzz/.build Fuzz/ForeignFuzz/.build
