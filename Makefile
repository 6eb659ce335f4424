# aggr — build, run, test and measure. `make run` and `make test` work on a fresh Debian
# machine with Swift: both install the C libraries first when they are missing.

SWIFT ?= swift
BIN_DEBUG = .build/debug/aggr
BIN_RELEASE = .build/release/aggr
PREFIX ?= /usr/local
# Release builds link the Swift runtime and Foundation statically: every aggr command starts
# ~7 ms sooner (23.5 → 16 ms for `aggr --version`) and uses ~5 MB less memory.
# Every module of a release build, ArgumentParser's and GRDB's included, reaches a generic
# type's metadata through its accessor instead of demangling its name at run time: a name
# makes the runtime check each generic requirement by scanning all ~6,900 protocol
# conformances of the binary. `aggr --version` 24.9M → 21.2M instructions, 19 → 14 ms.
# Every function in a section of its own, so that the linker can drop what nothing calls
# (670 KB) and put what a command runs first (Package.swift's startupLinking, `make
# startup-order`): `aggr --version` 709 → 642 page faults, `aggr timeline` 1,351 → 1,278
# and ~28 → ~26 ms (docs/architecture.md, start-up).
RELEASE = $(SWIFT) build -c release --static-swift-stdlib \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -Xfrontend -Xswiftc -function-sections

.PHONY: all deps build release run test test-asan test-tsan fuzz lint format bench demo install clean-bench screenshot po startup-order

all: build

deps:
	@scripts/bootstrap

build: deps
	$(SWIFT) build

# Stripped: symbols are a third of the static binary (95 → 65 MB) and nothing reads them.
release: deps
	$(RELEASE) --product aggr
	$(RELEASE) --product aggr-serve
	$(RELEASE) --product aggr-postgres
	strip $(BIN_RELEASE) .build/release/aggr-serve .build/release/aggr-postgres

# Refresh the default providers.json (the repository's) and show the merged timeline.
# Offline, each provider fails on its own line and the stored timeline still prints.
run: build
	@scripts/run $(BIN_DEBUG)

test:
	@scripts/bootstrap --test
	$(SWIFT) build
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing
	AGGR_TEST_STORE=postgres $(SWIFT) test --skip-build --disable-swift-testing --filter '$(STORE_SUITES)'
	$(SWIFT) format lint --strict -r Sources Tests Benchmarks Fuzz Plugins

# The store's behavioural suites, which `make test` runs a second time against PostgreSQL
# (a throw-away cluster the tests create and remove; see Sources/AggregatorTestSupport/PostgresCluster.swift).
STORE_SUITES = StoreIngestTests|StoreRetentionTests|TimelineTests|FilterSemanticsTests|StorageBehaviourTests|$(STORE_END_TO_END)
# End-to-end suites about stored data, run through the real binaries with AGGR_DB=postgres://….
STORE_END_TO_END = FeedRefreshTests|TimelineCommandTests|SavedItemsTests|FilterCommandTests|StreamedImportTests|ReaderAPITests|FeverAPITests|ActionCommandTests|CredentialLeakTests|ConcurrentWriterTests|GiteeRefreshTests

# The whole suite under AddressSanitizer / ThreadSanitizer, each in its own build folder
# (the end-to-end tests run the aggr binary built with the same sanitizer).
test-asan: deps
	$(SWIFT) build --build-tests --scratch-path .build-asan --sanitize=address
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan-suppressions.txt \
		$(SWIFT) test --skip-build --scratch-path .build-asan --sanitize=address --disable-swift-testing

test-tsan: deps
	$(SWIFT) build --build-tests --scratch-path .build-tsan --sanitize=thread
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --skip-build --scratch-path .build-tsan --sanitize=thread --disable-swift-testing

# libFuzzer over every parser of untrusted input, FUZZ_SECONDS (default 30) per target.
fuzz: deps
	@scripts/fuzz

lint:
	$(SWIFT) format lint --strict -r Sources Tests Benchmarks Fuzz Plugins

# The message catalogs: po/aggr.pot from the localized(...) calls, merged into po/*.po.
po:
	scripts/po-extract

format:
	$(SWIFT) format -i -r Sources Tests Benchmarks Fuzz Plugins

bench: deps
	@scripts/bootstrap --bench
	$(RELEASE) --product aggr
	$(RELEASE) --product aggr-serve
	$(RELEASE) --product aggr-postgres
	strip $(BIN_RELEASE) .build/release/aggr-serve .build/release/aggr-postgres
	$(RELEASE) --product aggr-bench
	$(RELEASE) --product startup-floor-parser
	strip .build/release/startup-floor-parser
	$(SWIFT)c -O -static-stdlib Benchmarks/startup-floor/hello.swift -o .build/release/startup-floor
	.build/release/aggr-bench --aggr $(BIN_RELEASE)
	scripts/fulltext-bench/run.sh $(BIN_RELEASE)

# Regenerate scripts/startup-order/aggr.order from what a release aggr runs (valgrind), after
# changes that rename or add much of what commands run at start; then `make release`.
startup-order: deps
	rm -f $(BIN_RELEASE)
	$(RELEASE) --product aggr
	scripts/startup-order/generate $(BIN_RELEASE)
	strip $(BIN_RELEASE)

# PNGs of the web UI (desktop and phone width) from headless chromium, over the demo
# recordings: screenshots/desktop.png, screenshots/phone.png.
screenshot: build
	@scripts/bootstrap --test
	@scripts/screenshot $(BIN_DEBUG)

demo: build
	@scripts/demo $(BIN_DEBUG)

# The binary, bash/zsh/fish completions, the man page (generated from the argument parser by
# its GenerateManual plugin) and the systemd user unit aggr-watch.service.
MANPAGE = .build/plugins/GenerateManual/outputs/aggr/aggr.1
install: release
	$(SWIFT) package generate-manual --configuration debug
	DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) scripts/install $(BIN_RELEASE) $(MANPAGE)
