// Whether a Marp deck's figures have drawn when `marp --pdf` would print: the deck
// (tests/hosts/recipes/marp/export.md, plus `--extra N` element figures on slides of their own)
// is built with Marp's `bare` template (the one its PDF export prints), opened from a file in
// Chromium as Marp opens it, and timed the way Marp times its print: DOMContentLoaded, then no
// request in flight for 500 ms, then one animation frame. It then counts how often
// `html[data-kl-ready]` (every figure drawn) was there, with the page's CPU slowed `--slowdown`
// times (Chromium's CPU throttling). Builds the site first; needs the Marp recipe
// (`bash scripts/setup.sh --hosts`; without it the driver says so and stops). With no options it
// prints its table (scripts/bench.sh); with options, one row:
//   node scripts/bench/export-window.mjs [--slowdown 1] [--extra 0] [--runs 5]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../tests/e2e/harness.mjs';
import { PLACEHOLDER, startKernelLens } from '../../tests/hosts/harness.mjs';
import { buildSite } from './build-site.mjs';

const { values } = parseArgs({ options: { slowdown: { type: 'string' }, extra: { type: 'string' }, runs: { type: 'string' } } });
/// The rows to measure: the options' one, or the table's.
const ROWS = Object.values(values).some((value) => value !== undefined)
  ? [{ slowdown: Number(values.slowdown ?? 1), extra: Number(values.extra ?? 0), runs: Number(values.runs ?? 5) }]
  : [
      { slowdown: 1, extra: 0, runs: 4 },
      { slowdown: 4, extra: 0, runs: 4 },
      { slowdown: 8, extra: 0, runs: 4 },
      { slowdown: 1, extra: 8, runs: 4 },
    ];
for (const { slowdown, extra, runs } of ROWS) {
  if (!(slowdown >= 1) || !(Number.isInteger(extra) && extra >= 0) || !(Number.isInteger(runs) && runs >= 1)) {
    throw new Error('--slowdown is a number ≥ 1, --extra and --runs whole numbers (--runs ≥ 1)');
  }
}

const recipe = fileURLToPath(new URL('../../tests/hosts/recipes/marp/', import.meta.url));
const marp = join(recipe, 'node_modules/@marp-team/marp-cli/marp-cli.js');
/// Figures that need no data of their own, in turn, for the extra slides.
const WIDGETS = ['lookup', 'smoothing', 'ties', 'local-linear', 'memory-bank', 'dot-product', 'underflow', 'temperature'];
/// Marp's quiet time before it prints (Puppeteer's waitForNetworkIdle default).
const IDLE_MS = 500;

if (!existsSync(marp)) {
  console.log('export window: the Marp recipe is not installed (bash scripts/setup.sh --hosts); not measured');
  process.exit(0);
}
buildSite();
const kernelLens = await startKernelLens();
const dir = await mkdtemp(join(tmpdir(), 'kernel-lens-export-window-'));
const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
try {
  console.log(`Marp's print (${IDLE_MS} ms after the last request, then a frame): were all the deck's figures drawn?`);
  for (const row of ROWS) await measure(row);
} finally {
  await browser.close();
  await kernelLens.close();
  await rm(dir, { recursive: true, force: true });
}

/// Builds the deck with `extra` more figures and prints in how many of `runs` prints every figure had drawn.
async function measure({ slowdown, extra, runs }) {
  let deck = (await readFile(join(recipe, 'export.md'), 'utf8')).replaceAll(PLACEHOLDER, kernelLens.url.replace(/\/$/, ''));
  for (let i = 0; i < extra; i++) {
    deck += `\n---\n\n<!-- _class: figure -->\n\n<kernel-lens-figure widget="${WIDGETS[i % WIDGETS.length]}" theme="light"></kernel-lens-figure>\n`;
  }
  await writeFile(join(dir, 'deck.md'), deck);
  const built = await new Promise((done) =>
    spawn('node', [marp, '--html', '--no-config-file', '--no-stdin', '--template', 'bare', 'deck.md', '-o', 'deck.html'], { cwd: dir, stdio: 'ignore' }).on('exit', done),
  );
  if (built !== 0) throw new Error(`marp exited with ${built}`);

  let ready = 0;
  const lateness = [];
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    // Marp's own wait: the page's requests, counted until none has been in flight for IDLE_MS.
    let inFlight = 0;
    let quietSince = Date.now();
    page.on('request', () => inFlight++);
    const settled = () => {
      inFlight--;
      if (inFlight === 0) quietSince = Date.now();
    };
    page.on('requestfinished', settled);
    page.on('requestfailed', settled);
    await page.goto(`file://${join(dir, 'deck.html')}`, { waitUntil: 'domcontentloaded' });
    while (inFlight > 0 || Date.now() - quietSince < IDLE_MS) await new Promise((wake) => setTimeout(wake, 20));
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
    const printed = Date.now();
    if (await page.evaluate(() => document.documentElement.hasAttribute('data-kl-ready'))) ready++;
    else {
      await page.waitForFunction(() => document.documentElement.hasAttribute('data-kl-ready'), null, { timeout: 60000 });
      lateness.push(Date.now() - printed);
    }
    await context.close();
  }
  const late = lateness.length ? ` (the others ready ${lateness.map((ms) => `${ms} ms`).join(', ')} later)` : '';
  console.log(`  ${String(3 + extra).padStart(2)} figures, CPU slowed ${slowdown}×: ${ready} of ${runs}${late}`);
}
