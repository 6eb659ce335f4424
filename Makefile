# aggr — build, run, test and measure. `make run` and `make test` work on a fresh Debian
# machine with Swift: both install the C libraries first when they are missing.

SWIFT ?= swift
BIN_DEBUG = .build/debug/aggr
BIN_RELEASE = .build/release/aggr
PREFIX ?= /usr/local

.PHONY: all deps build release run test lint format bench demo install clean-bench

all: build

deps:
	@scripts/bootstrap

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product aggr

# Refresh the default providers.json (the repository's) and show the merged timeline.
# Offline, each provider fails on its own line and the stored timeline still prints.
run: build
	@scripts/run $(BIN_DEBUG)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing
	$(SWIFT) format lint --strict -r Sources Tests Benchmarks

lint:
	$(SWIFT) format lint --strict -r Sources Tests Benchmarks

format:
	$(SWIFT) format -i -r Sources Tests Benchmarks

bench: deps
	@scripts/bootstrap --bench
	$(SWIFT) build -c release --product aggr
	$(SWIFT) build -c release --product aggr-bench
	.build/release/aggr-bench --aggr $(BIN_RELEASE)

demo: build
	@scripts/demo $(BIN_DEBUG)

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BIN_RELEASE) $(DESTDIR)$(PREFIX)/bin/aggr
