#!/usr/bin/env bash
# Install what building and testing cctv needs, skipping whatever is already there at the right
# version, so `make serve` / `make test` can call it on every run (a warm run takes about a second).
#
# Expects a Debian 12 machine with rustup/cargo, node/npm and apt. Everything comes from package
# registries (crates.io, npm, apt): trunk and wasm-pack would otherwise download their own tools and
# browsers, which fails on machines without GitHub access.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

TRUNK_VERSION=0.21.14
# wasm-pack is pinned because an unpinned `cargo install` takes the newest release, which may need
# a newer rustc than this machine has (trunk 0.22 does).
WASM_PACK_VERSION=0.15.1
# Tools that are not installed system-wide (binaryen) live here, next to the build cache.
TOOLS_DIR="${CCTV_TOOLS_DIR:-$HOME/.cache/cctv-tools}"
LOG="${TMPDIR:-/tmp}/cctv-setup.log"
: >"$LOG"

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

SUDO=""
if [[ $EUID -ne 0 ]]; then SUDO="sudo"; fi

say() { printf '%-16s %s\n' "$1" "$2"; }

# Run a long install quietly; on failure show the end of its output.
run_logged() {
    if ! "$@" >>"$LOG" 2>&1; then
        echo "FAILED"
        echo "failed: $*" >&2
        tail -n 40 "$LOG" >&2
        exit 1
    fi
}

# `tool --version` as "name x.y.z", or nothing when the tool is missing or broken.
version_of() { "$@" --version 2>/dev/null | head -n 1 || true; }

apt_updated=false
apt_install() {
    if ! $apt_updated; then
        run_logged $SUDO apt-get update -qq
        apt_updated=true
    fi
    run_logged $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

# --- the wasm-bindgen version is whatever Cargo.lock resolved (the CLI must match it exactly) ---
if [[ ! -f Cargo.lock ]]; then
    run_logged cargo generate-lockfile
fi
WASM_BINDGEN_VERSION=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/^version = "|"$/, ""); print; exit }' Cargo.lock)
if [[ -z "$WASM_BINDGEN_VERSION" ]]; then
    echo "setup: no wasm-bindgen package in Cargo.lock" >&2
    exit 1
fi
# Trunk.toml pins the same version so trunk never looks for another; keep the two in step.
trunk_pin=$(sed -n 's/^wasm_bindgen *= *"\(.*\)"/\1/p' Trunk.toml)
if [[ -n "$trunk_pin" && "$trunk_pin" != "$WASM_BINDGEN_VERSION" ]]; then
    echo "setup: Trunk.toml pins wasm_bindgen = \"$trunk_pin\" but Cargo.lock has $WASM_BINDGEN_VERSION; make them equal" >&2
    exit 1
fi

# --- wasm32 target ---
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say wasm32-target "ok"
else
    printf '%-16s %s' wasm32-target "installing... "
    run_logged rustup target add wasm32-unknown-unknown
    echo done
fi

# --- wasm-opt: binaryen from npm, at the version Trunk.toml pins ---
# Not Debian's binaryen: version 108 writes a module's table exports with a hard-coded index 0
# (fixed in binaryen 110), so the externref table wasm-bindgen exports ends up pointing at the
# function table and the page dies at start-up with "WebAssembly.Table.set(): Argument 1 is invalid
# for table". The npm package runs binaryen's own wasm build under node; nothing is downloaded but
# the package. The Makefile puts $CCTV_TOOLS_DIR/node_modules/.bin first on PATH.
want_opt=$(sed -n 's/^wasm_opt *= *"version_\(.*\)"/\1/p' Trunk.toml)
if [[ -z "$want_opt" ]]; then
    echo "setup: Trunk.toml has no [tools] wasm_opt pin" >&2
    exit 1
fi
have_opt=$(version_of "$TOOLS_DIR/node_modules/.bin/wasm-opt")
if [[ "$have_opt" == "wasm-opt version $want_opt "* ]]; then
    say wasm-opt "ok (binaryen $want_opt)"
else
    printf '%-16s %s' wasm-opt "installing binaryen $want_opt from npm (found: ${have_opt:-none})... "
    mkdir -p "$TOOLS_DIR"
    run_logged npm install --prefix "$TOOLS_DIR" --no-save --no-audit --no-fund --loglevel=error "binaryen@$want_opt.0.0"
    echo done
fi

# Chromium and its driver must be the same build; apt installs them as a pair.
chromium_v=$(version_of chromium | grep -o '[0-9][0-9.]*' | head -n 1 || true)
driver_v=$(version_of chromedriver | grep -o '[0-9][0-9.]*' | head -n 1 || true)
if [[ -n "$chromium_v" && "$chromium_v" == "$driver_v" && -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then
    say chromium "ok ($chromium_v, chromedriver $driver_v)"
else
    printf '%-16s %s' chromium "installing chromium + chromium-driver from apt (cold: ~1 min)... "
    apt_install chromium chromium-driver
    echo "done ($(version_of chromium))"
fi

# The other engines the end-to-end tests run their core on (tests/e2e/engines.mjs): Firefox ESR,
# and WebKit as WebKitGTK's WebDriver starts it (MiniBrowser, which needs a display: Xvfb's).
# Debian's packages; nothing downloads a browser of its own. Cold: about a minute and a half.
MINIBROWSER=/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser
firefox_v=$(version_of firefox-esr | grep -o '[0-9][0-9.]*esr' || true)
webkit_v=$(dpkg-query -W -f '${Version}' webkit2gtk-driver 2>/dev/null || true)
if [[ -n "$firefox_v" && -x /usr/bin/WebKitWebDriver && -x "$MINIBROWSER" && -x /usr/bin/xvfb-run ]]; then
    say firefox-webkit "ok (Firefox $firefox_v, WebKitGTK ${webkit_v%%-*})"
else
    printf '%-16s %s' firefox-webkit "installing firefox-esr + webkit2gtk-driver + xvfb from apt (cold: ~1.5 min)... "
    apt_install firefox-esr webkit2gtk-driver xvfb
    echo "done ($(version_of firefox-esr))"
fi

# --- cargo-installed tools (cold: about 13 min in total on 2 cores) ---
have=$(version_of trunk)
if [[ "$have" == "trunk $TRUNK_VERSION" ]]; then
    say trunk "ok ($TRUNK_VERSION)"
else
    printf '%-16s %s' trunk "installing $TRUNK_VERSION (found: ${have:-none}; cold: ~8 min)... "
    run_logged cargo install --locked --force "trunk@$TRUNK_VERSION"
    echo done
fi

# No --locked: the crate's own lock wants a webpki-roots release the registry here does not serve.
have=$(version_of wasm-bindgen)
runner=$(version_of wasm-bindgen-test-runner)
if [[ "$have" == "wasm-bindgen $WASM_BINDGEN_VERSION" && "$runner" == *" $WASM_BINDGEN_VERSION" ]]; then
    say wasm-bindgen "ok ($WASM_BINDGEN_VERSION, from Cargo.lock)"
else
    printf '%-16s %s' wasm-bindgen "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (found: ${have:-none}; cold: ~3 min)... "
    run_logged cargo install --force "wasm-bindgen-cli@$WASM_BINDGEN_VERSION"
    echo done
fi

have=$(version_of wasm-pack)
if [[ -n "$have" ]]; then
    say wasm-pack "ok (${have#wasm-pack })"
else
    printf '%-16s %s' wasm-pack "installing $WASM_PACK_VERSION (cold: ~2 min)... "
    run_logged cargo install --locked --force "wasm-pack@$WASM_PACK_VERSION"
    echo done
fi
