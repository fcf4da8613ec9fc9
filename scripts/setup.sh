#!/usr/bin/env bash
# Installs what the build and the tests need, once: Debian packages, then npm packages.
# Idempotent: a second run on a ready machine only checks and returns.
set -euo pipefail
cd "$(dirname "$0")/.."

# poppler-utils: pdftoppm renders the print tests' PDFs to pictures.
DEBIAN_PACKAGES=(cmake g++ clang emscripten libeigen3-dev catch2 nlohmann-json3-dev chromium python3-numpy poppler-utils)

missing=()
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

# npm packages: reinstall when node_modules was not installed from this very lock file (a
# checkout keeps an old node_modules whose timestamps say nothing about the lock it came from).
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
installed=node_modules/.kernel-lens-lock
if [ ! -f node_modules/.package-lock.json ] || [ "$(cat "$installed" 2>/dev/null)" != "$lock_hash" ]; then
  echo "setup: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error || { echo "setup: npm ci failed (is the npm registry reachable?)" >&2; exit 1; }
  echo "$lock_hash" > "$installed"
fi
