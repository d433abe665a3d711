# Every target that builds first runs scripts/setup.sh, which installs only what is missing
# (a warm run takes about a second).
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

.PHONY: setup serve build test

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

# The browser tests (tests/*.rs, wasm32 only) mount the UI in headless Chromium; `--mode no-install`
# forbids wasm-pack from downloading anything (setup.sh has put the matching
# wasm-bindgen-test-runner and chromedriver on PATH). The native tests cover model and normalize and
# run last, without doc-tests, so the run ends on the summary of a test binary that ran tests.
test: setup
	wasm-pack test --headless --chrome --mode no-install
	cargo test --no-default-features --lib --bins --tests
