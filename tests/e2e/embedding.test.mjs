// The three ways to embed, in Chromium: a host page on a second origin with two self-sizing
// iframes and two <kernel-lens-figure> elements, and the standalone file opened from disk.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS, chromiumPath, distDir, screenshot, waitForText } from './harness.mjs';

/// The chapter's three-point lookup (q = 3.5, h = 0.6) and the OLS witness (q = 1.5): printed digits.
const LOOKUP_PREDICTION = '2.7412';
const OLS_WITNESS = '\u22120.1000';

let site;
let host;
let browser;
let hostDir;

function hostPage(siteUrl) {
  const origin = new URL(siteUrl).origin;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Course notes</title></head>
<body>
<h1>Course notes with Kernel Lens figures</h1>
<iframe id="frame-lookup" data-kernel-lens title="Kernel Lens: lookup" width="100%" height="150" style="border:0"
        src="${siteUrl}embed.html?widget=lookup&q=3.5&h=0.6"></iframe>
<iframe id="frame-ols" data-kernel-lens title="Kernel Lens: OLS versus NW" width="100%" height="150" style="border:0"
        src="${siteUrl}embed.html?widget=ols-vs-nw"></iframe>
<kernel-lens-figure id="element-lookup" widget="lookup" h="1" q="3.5"></kernel-lens-figure>
<kernel-lens-figure id="element-ols" widget="ols-vs-nw"></kernel-lens-figure>
<script type="module" src="${siteUrl}kernel-lens.js"></script>
<script>
addEventListener('message', (event) => {
  if (event.origin !== ${JSON.stringify(origin)}) return;
  const data = event.data;
  if (!data || data.type !== 'kernel-lens:height' || !Number.isFinite(data.height)) return;
  for (const frame of document.querySelectorAll('iframe[data-kernel-lens]')) {
    if (frame.contentWindow === event.source) frame.style.height = Math.ceil(data.height) + 'px';
  }
});
</script>
</body>
</html>`;
}

before(async () => {
  // The element's script, stylesheet, worker and wasm are fetched cross-origin: the site sends CORS.
  site = await startServer({ root: distDir, headers: { 'access-control-allow-origin': '*' } });
  hostDir = await mkdtemp(join(tmpdir(), 'kernel-lens-host-'));
  await writeFile(join(hostDir, 'index.html'), hostPage(site.url));
  // Course notes: an ordinary page, not cross-origin isolated.
  host = await startServer({ root: hostDir, isolated: false });
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
});

after(async () => {
  await browser?.close();
  await host?.close();
  await site?.close();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

async function open(url, viewport = { width: 900, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  return { page, errors, context };
}

/// Waits until the iframe's height equals its document's height (rounded up) and returns both.
async function settledHeight(page, id) {
  const frame = page.frameLocator(`#${id}`);
  await frame.locator('.kl-widget').waitFor();
  let last = null;
  for (let attempt = 0; attempt < 100; attempt++) {
    const outer = await page.locator(`#${id}`).evaluate((node) => node.getBoundingClientRect().height);
    const sizes = await frame.locator('html').evaluate((html) => ({
      scroll: html.scrollHeight,
      client: html.clientHeight,
      scrollWidth: html.scrollWidth,
      clientWidth: html.clientWidth,
    }));
    last = { outer, ...sizes };
    if (outer > 200 && sizes.scroll <= sizes.client && sizes.scrollWidth <= sizes.clientWidth) return last;
    await page.waitForTimeout(100);
  }
  throw new Error(`iframe #${id} never fitted its content: ${JSON.stringify(last)}`);
}

test('two iframes size themselves to their figures (no scroll bars) and show the chapter numbers', async () => {
  const { page, errors, context } = await open(host.url);
  const lookup = page.frameLocator('#frame-lookup');
  const ols = page.frameLocator('#frame-ols');
  assert.equal(await waitForText(lookup.getByTestId('prediction'), /\d/), LOOKUP_PREDICTION);
  assert.equal(await waitForText(ols.getByTestId('ols-prediction'), /\d/), OLS_WITNESS);
  const first = await settledHeight(page, 'frame-lookup');
  await settledHeight(page, 'frame-ols');

  // The figure grows (a fourth point adds a table row): the iframe follows without a scroll bar.
  await lookup.getByRole('button', { name: 'Add a point' }).click();
  await lookup.locator('.kl-table tbody tr').nth(3).waitFor();
  let grown = first;
  for (let attempt = 0; attempt < 100 && grown.outer <= first.outer; attempt++) {
    await page.waitForTimeout(100);
    grown = await settledHeight(page, 'frame-lookup');
  }
  assert.ok(grown.outer > first.outer, `the iframe grew with its figure (${first.outer} → ${grown.outer})`);
  await screenshot(page, 'embedding-host');
  assert.deepEqual(errors, []);
  await context.close();
});

test('height messages from any other origin are ignored by the parent snippet', async () => {
  const { page, context } = await open(host.url);
  const lookup = page.frameLocator('#frame-lookup');
  await waitForText(lookup.getByTestId('prediction'), /\d/);
  const { outer } = await settledHeight(page, 'frame-lookup');
  // Same message shape, but posted by the host page itself (the wrong origin and the wrong source).
  await page.evaluate(() => window.postMessage({ type: 'kernel-lens:height', height: 37 }, '*'));
  await page.waitForTimeout(300);
  const after = await page.locator('#frame-lookup').evaluate((node) => node.getBoundingClientRect().height);
  assert.equal(after, outer);
  await context.close();
});

test('two custom elements: shadow-root styles, one shared core, attributes observed', async () => {
  const { page, errors, context } = await open(host.url);
  const element = page.locator('#element-lookup');
  const prediction = element.getByTestId('prediction');
  await waitForText(prediction, /\d/);
  assert.equal(await waitForText(page.locator('#element-ols').getByTestId('ols-prediction'), /\d/), OLS_WITNESS);

  // Styles live in the shadow root: the host page's own paragraphs are untouched by them.
  const isolated = await page.evaluate(() => {
    const figure = document.querySelector('#element-lookup');
    const frame = figure.shadowRoot.querySelector('.kl-widget');
    return {
      open: figure.shadowRoot.mode,
      framed: getComputedStyle(frame).borderRadius,
      hostHeading: getComputedStyle(document.querySelector('h1')).borderBottomStyle,
      leaked: document.querySelectorAll('link[href*="kernel-lens.css"], style').length,
    };
  });
  assert.equal(isolated.open, 'open');
  assert.equal(isolated.framed, '10px');
  assert.equal(isolated.leaked, 0);

  // Charts inside the shadow root size themselves to their boxes and draw.
  await page.waitForFunction(() =>
    [...document.querySelector('#element-lookup').shadowRoot.querySelectorAll('canvas[role="img"]')].every((canvas) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let inked = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked++;
      return Math.abs(canvas.clientWidth - canvas.parentElement.clientWidth) < 2 && inked > 1000;
    }),
  );

  // h="1" first; setting the attribute to the chapter's 0.6 recomputes the chapter's prediction.
  assert.notEqual(await prediction.textContent(), LOOKUP_PREDICTION);
  await page.evaluate(() => document.querySelector('#element-lookup').setAttribute('h', '0.6'));
  assert.equal(await waitForText(prediction, /^2\.7412$/), LOOKUP_PREDICTION);

  // Both elements share the page's one core instance (web/src/engine/): their calls are small, so
  // no worker starts on the host page.
  const top = page.workers().filter((worker) => worker.url().startsWith('blob:'));
  assert.equal(top.length, 0, `workers: ${page.workers().map((w) => w.url()).join(', ')}`);
  await screenshot(page, 'embedding-elements');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the standalone file works from disk, as the full page and as one widget', async () => {
  const file = pathToFileURL(join(distDir, 'kernel-lens-standalone.html')).href;
  const one = await open(`${file}?widget=lookup&q=3.5&h=0.6`);
  assert.equal(await waitForText(one.page.getByTestId('prediction'), /\d/), LOOKUP_PREDICTION);
  const requests = [];
  one.page.on('request', (request) => requests.push(request.url()));
  await one.page.getByRole('slider', { name: /bandwidth/ }).focus();
  await one.page.keyboard.press('ArrowRight');
  await waitForText(one.page.getByTestId('prediction'), /^(?!2\.7412$)/);
  assert.deepEqual(
    requests.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && !url.startsWith('file:')),
    [],
  );
  assert.deepEqual(one.errors, []);
  await one.context.close();

  const full = await open(file);
  const section = full.page.locator('#section-ols-vs-nw');
  assert.equal(await waitForText(section.getByTestId('ols-prediction'), /\d/), OLS_WITNESS);
  assert.equal(await waitForText(full.page.locator('#section-lookup').getByTestId('prediction'), /\d/), LOOKUP_PREDICTION);
  assert.deepEqual(full.errors, []);
  await full.context.close();
});
