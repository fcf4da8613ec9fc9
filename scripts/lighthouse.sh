#!/usr/bin/env bash
# Lighthouse 12.2.3 (pinned) on the full page and embeds of the built site, with Debian's
# Chromium and no outside network traffic from the browser. Not part of npm test: the scores
# depend on the machine's load. Prints one line per page (the three category scores and FCP,
# LCP, total blocking time, time to interactive, bytes transferred) and writes the JSON reports
# to build/lighthouse/. KERNEL_LENS_DIST picks the site folder (default dist/);
# LIGHTHOUSE_PRESET=desktop|mobile (desktop by default; mobile is Lighthouse's default emulation
# and throttling, a mid-range phone on a slow 4G network); LIGHTHOUSE_PAGES the pages, separated
# by spaces (default: the full page, the lookup embed and the bias-variance embed). The site is
# served gzip-compressed, as GitHub Pages and other static hosts send it (scripts/serve.mjs).
#   bash scripts/lighthouse.sh
#   LIGHTHOUSE_PRESET=mobile bash scripts/lighthouse.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DIST=${KERNEL_LENS_DIST:-dist}
OUT=${LIGHTHOUSE_OUT:-build/lighthouse}
# desktop (default) or mobile (Lighthouse's default emulation and throttling).
PRESET=${LIGHTHOUSE_PRESET:-desktop}
PRESET_FLAG=()
[ "$PRESET" = mobile ] || PRESET_FLAG=(--preset="$PRESET")
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
mkdir -p "$OUT"

PORT_FILE=$(mktemp)
node --input-type=module -e "
  import { startServer } from './scripts/serve.mjs';
  const { port } = await startServer({ root: '$DIST', compress: true });
  (await import('node:fs')).writeFileSync('$PORT_FILE', String(port));
" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -f "$PORT_FILE"' EXIT
for _ in $(seq 50); do [ -s "$PORT_FILE" ] && break; sleep 0.2; done
BASE="http://127.0.0.1:$(cat "$PORT_FILE")"

CHROME_FLAGS="--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
--disable-component-update --disable-sync --disable-default-apps --disable-domain-reliability \
--disable-client-side-phishing-detection --metrics-recording-only --no-default-browser-check"

read -r -a PAGES <<< "${LIGHTHOUSE_PAGES:-index.html embed.html?widget=lookup embed.html?widget=bias-variance}"
for page in "${PAGES[@]}"; do
  name="$PRESET-$(echo "$page" | tr -c 'a-z0-9\n' '-')"
  npx --yes lighthouse@12.2.3 "$BASE/$page" --quiet "${PRESET_FLAG[@]}" \
    --only-categories=performance,accessibility,best-practices \
    --chrome-flags="$CHROME_FLAGS" --output=json --output-path="$OUT/$name.json"
  node -e "
    const report = require('./$OUT/$name.json');
    const score = (id) => Math.round(report.categories[id].score * 100);
    const metric = (id) => report.audits[id].displayValue.replace(/\\s+/g, ' ');
    const kib = Math.round(report.audits['total-byte-weight'].numericValue / 1024);
    console.log('$page ($PRESET): performance ' + score('performance') + ', accessibility ' +
      score('accessibility') + ', best practices ' + score('best-practices') + '; FCP ' +
      metric('first-contentful-paint') + ', LCP ' + metric('largest-contentful-paint') +
      ', total blocking time ' + metric('total-blocking-time') + ', time to interactive ' +
      metric('interactive') + ', CLS ' + metric('cumulative-layout-shift') + ', ' + kib + ' KiB');
  "
done
