#!/usr/bin/env bash
# Lighthouse 12.2.3 (pinned) on the full page and one embed of the built site, with Debian's
# Chromium and no outside network traffic from the browser. Not part of npm test: the scores
# depend on the machine's load. Prints one line per page and writes the JSON reports to
# build/lighthouse/. KERNEL_LENS_DIST picks the site folder (default dist/).
#   bash scripts/lighthouse.sh
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
  const { port } = await startServer({ root: '$DIST' });
  (await import('node:fs')).writeFileSync('$PORT_FILE', String(port));
" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -f "$PORT_FILE"' EXIT
for _ in $(seq 50); do [ -s "$PORT_FILE" ] && break; sleep 0.2; done
BASE="http://127.0.0.1:$(cat "$PORT_FILE")"

CHROME_FLAGS="--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
--disable-component-update --disable-sync --disable-default-apps --disable-domain-reliability \
--disable-client-side-phishing-detection --metrics-recording-only --no-default-browser-check"

for page in "index.html" "embed.html?widget=lookup"; do
  name=$(echo "$page" | tr -c 'a-z0-9\n' '-')
  npx --yes lighthouse@12.2.3 "$BASE/$page" --quiet "${PRESET_FLAG[@]}" \
    --only-categories=performance,accessibility,best-practices \
    --chrome-flags="$CHROME_FLAGS" --output=json --output-path="$OUT/$name.json"
  node -e "
    const report = require('./$OUT/$name.json');
    const score = (id) => Math.round(report.categories[id].score * 100);
    console.log('$page ($PRESET): performance ' + score('performance') + ', accessibility ' +
      score('accessibility') + ', best practices ' + score('best-practices'));
  "
done
