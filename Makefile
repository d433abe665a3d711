# Every target that builds the site or drives a browser first runs scripts/setup.sh, which installs
# only what is missing (a warm run takes about a second).
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

# One target dir across runs and checkouts: leptos for wasm32 takes minutes cold on 2 cores.
# cargo, trunk (via `cargo metadata`) and wasm-pack all read CARGO_TARGET_DIR.
CARGO_TARGET_DIR ?= $(HOME)/.cache/cctv-target
export CARGO_TARGET_DIR
# binaryen (wasm-opt) from npm; see scripts/setup.sh for why not Debian's.
export CCTV_TOOLS_DIR ?= $(HOME)/.cache/cctv-tools
export PATH := $(CCTV_TOOLS_DIR)/node_modules/.bin:$(or $(CARGO_HOME),$(HOME)/.cargo)/bin:$(PATH)
export CHROMEDRIVER ?= /usr/bin/chromedriver
# trunk otherwise asks crates.io for a newer trunk on every start.
export TRUNK_SKIP_VERSION_CHECK := true
# Node (npm) trusts only the certificate authorities bundled with it; a machine behind a
# TLS-inspecting proxy adds the proxy's to the system's store, which curl, git and cargo already
# read. Let npm read it too, unless the caller chose otherwise.
SYSTEM_CA := $(wildcard /etc/ssl/certs/ca-certificates.crt)
ifneq ($(SYSTEM_CA),)
export NODE_EXTRA_CA_CERTS ?= $(SYSTEM_CA)
endif

.PHONY: setup serve build test node-check test-native test-every-case screenshots pages package bench fuzz

setup:
	scripts/setup.sh

# Trunk.toml runs trunk offline (so it can never download wasm-bindgen or wasm-opt), which makes
# cargo offline too: fetch the crates first (instant when they are already there).
serve: setup
	cargo fetch
	trunk serve --release --address 127.0.0.1 --port 8080

build: setup
	cargo fetch
	trunk build --release

# The native tests (model, normalize, present; no Leptos, no browser, no setup): the quickest answer
# to "did I break it", about a minute warm (50 CPU-seconds). `generate` is the feature that makes
# the generated sessions the large-input test reads.
NATIVE := --no-default-features --features generate
NATIVE_TESTS := cargo test $(NATIVE) --lib --bins --tests
test-native:
	$(NATIVE_TESTS)

# The cases test-native samples to stay near a minute (tests/hostile_damage.rs: every cut and
# flip of every fixture, 30 CPU-seconds more), on the same debug build.
test-every-case:
	CCTV_EVERY_CASE=1 cargo test $(NATIVE) --test hostile_damage

# Every test, in one run, quickest and most telling first, so a broken parser fails in minutes and
# not after three release builds: the native tests, then the cases they sample; 50,000 fuzzed
# inputs per target, the same ones every run (scripts/fuzz.sh, seeded and counted, so the gate
# does not depend on machine speed);
# then the release builds (dist/, dist-pages/, pkg/), the browser tests (tests/*.rs, wasm32 only,
# mounted in headless Chromium; `--mode no-install` forbids wasm-pack from downloading anything)
# and last the end-to-end tests of the built site (tests/e2e, playwright-core driving Debian's
# Chromium; core.test.mjs runs a reader's path on Firefox ESR and WebKitGTK as well), whose closing
# lines are node's test summary: CI reads them to tell a run that ran tests from one that ran none.
#
# scripts/setup.sh runs meanwhile (its log is printed when it ends): on a fresh machine its cargo
# installs take 12 minutes, and fuzzing runs one target at a time on one core, so the two together
# take minutes less than one after the other (the native tests and setup only wait on each other
# for cargo's package cache). In a session of its own, so that Ctrl-C stops it with the rest.
SETUP_LOG := $(CARGO_TARGET_DIR)/setup.log
test: node-check
	mkdir -p $(CARGO_TARGET_DIR)
	setsid scripts/setup.sh >$(SETUP_LOG) 2>&1 & setup=$$!; \
	trap 'kill -- -$$setup 2>/dev/null' INT TERM; \
	status=0; $(MAKE) --no-print-directory test-native test-every-case && FUZZ_RUNS=50000 scripts/fuzz.sh || status=$$?; \
	if [ $$status -ne 0 ]; then echo "make test: the tests above failed; waiting for scripts/setup.sh to end" >&2; fi; \
	wait $$setup || { cat $(SETUP_LOG); echo "scripts/setup.sh failed" >&2; exit 1; }; \
	cat $(SETUP_LOG); exit $$status
	$(MAKE) --no-print-directory build pages package
	wasm-pack test --headless --chrome --mode no-install
	npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error
	npm test --prefix tests/e2e

# The end-to-end tests build apps with Vite 8, which needs Node 20.19 or later: said before the
# first build rather than deep inside a test.
node-check:
	@node -e 'const [a, b] = process.versions.node.split(".").map(Number); if (a < 20 || (a === 20 && b < 19)) { console.error("make test needs Node 20.19 or later (Vite 8, in the end-to-end tests); this is " + process.version); process.exit(1); }'

# The site as GitHub Pages serves it, from a sub-path (the Pages workflow builds the same way).
pages: setup
	cargo fetch
	trunk build --release --public-url /cctv/ --dist dist-pages

# The npm package other pages embed (pkg/): `wasm-pack build --target web`, the files it loads
# beside cctv.js, and cctv-shared.js.txt, the script a shared page holds, for bundled apps (built
# natively, with the native tests' features so that their build is reused).
package: setup
	wasm-pack build --target web --profile wasm-release --mode no-install --out-dir pkg
	cp www/grammars.packdump www/worker.js www/npm/node.js www/npm/element.js www/npm/element.d.ts CHANGELOG.md pkg/
	cargo run $(NATIVE) --bin cctv-shared-script -- pkg
	node scripts/package-files.mjs pkg/package.json grammars.packdump worker.js node.js element.js element.d.ts CHANGELOG.md cctv-shared.js.txt

# Benchmarks (not tests): native parse/normalize MB/s and peak heap next to serde_json, then the
# built site in headless Chromium on the same generated sessions, then the list of every session on
# a generated projects folder (1,000 sessions, 2 GB), then a session followed while lines are
# appended to it, then the cold time to mount the viewer in each embedding setup (bench-embed.mjs).
# Sizes in MB: make bench SIZES="10 50".
SIZES ?= 10 50 200
bench: build package
	cargo run --release --no-default-features --features generate --bin cctv-bench -- $(SIZES)
	cargo run --release --no-default-features --features generate --bin cctv-bench -- $(SIZES) --write target/bench
	npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error
	node tests/e2e/bench.mjs target/bench $(SIZES)
	node tests/e2e/bench-library.mjs target/bench
	node tests/e2e/bench-follow.mjs target/bench $(SIZES)
	node tests/e2e/bench-embed.mjs
	node tests/e2e/bench-warm.mjs target/bench 10

# Coverage-guided fuzzing of parse and normalize, seeded with every fixture: make fuzz FUZZ_SECONDS=600.
FUZZ_SECONDS ?= 60
fuzz: setup
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

# Screenshots for the README (www/screenshots/), taken from the built site.
screenshots: build
	npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error
	node tests/e2e/screenshots.mjs
