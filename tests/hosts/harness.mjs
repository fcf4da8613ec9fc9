// Set-up of the host tests: the host sites (build/hosts/site, built by tests/hosts/build.mjs) on
// one origin, the Kernel Lens build (dist/) on another, Debian's Chromium through playwright-core.
// Neither origin sends isolation headers; the Kernel Lens origin sends only
// `Access-Control-Allow-Origin: *`, as a plain static host such as GitHub Pages does.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer, TYPES } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS, chromiumPath, distDir } from '../e2e/harness.mjs';

import { elementReady, waitForText } from '../e2e/harness.mjs';
export { elementReady, waitForText, screenshot } from '../e2e/harness.mjs';

/// Where the host sites point for Kernel Lens; replaced by the real second origin while serving.
export const PLACEHOLDER = 'http://kernel-lens.test';
export const siteDir = fileURLToPath(new URL('../../build/hosts/site/', import.meta.url));

/// The chapter's three-point lookup at q = 3.5, h = 0.6: the middle weight and the prediction.
export const CHAPTER = { weight: '0.9413', prediction: '2.7412' };

const TEXT = new Set(['.html', '.js', '.mjs', '.css', '.json']);

/// A plain static server for `root` whose text files have `PLACEHOLDER` replaced by `origin`.
export async function startHostServer(root, origin) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    try {
      const { pathname } = new URL(request.url ?? '/', 'http://localhost');
      let file = normalize(join(base, decodeURIComponent(pathname)));
      if (file !== base && !file.startsWith(base + sep)) return void response.writeHead(403).end();
      let info = await stat(file).catch(() => null);
      if (info?.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file).catch(() => null);
      }
      // Chromium asks every site for /favicon.ico; a site without one gets an empty answer, not a 404.
      if (!info?.isFile() && pathname === '/favicon.ico') return void response.writeHead(204).end();
      if (!info?.isFile()) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      const type = extname(file);
      let body = await readFile(file);
      if (TEXT.has(type)) body = Buffer.from(body.toString('utf8').replaceAll(PLACEHOLDER, origin));
      response.writeHead(200, { 'content-type': TYPES[type] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
  await new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', done);
  });
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((done) => server.close(done)) };
}

/// The Kernel Lens origin: dist/ from a plain static server that sends only
/// `Access-Control-Allow-Origin: *`. Returns { url, close }.
export async function startKernelLens() {
  if (!existsSync(`${distDir}kernel-lens.js`)) throw new Error('dist/ is missing: run `npm run build:web` first');
  return startServer({ root: distDir, headers: { 'access-control-allow-origin': '*' } });
}

/// Starts both origins and the browser: { hostUrl, klUrl, browser, open(path, options), close }.
/// `open` returns { page, errors, failures, context }; `errors` collects console errors and page
/// exceptions, `failures` the URLs of failed requests.
/// `root` is the host origin's folder (the built host sites by default).
export async function openHosts({ root = siteDir } = {}) {
  if (root === siteDir && (!existsSync(join(siteDir, 'notes/index.html')) || !existsSync(join(siteDir, 'deck/index.html')))) {
    throw new Error('the host sites are missing: run `node tests/hosts/build.mjs` first');
  }
  const kernelLens = await startKernelLens();
  const host = await startHostServer(root, kernelLens.url.replace(/\/$/, ''));
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
  const contexts = [];
  async function open(path, { viewport = { width: 1300, height: 900 }, colorScheme = 'light' } = {}) {
    const context = await browser.newContext({ viewport, colorScheme });
    contexts.push(context);
    const page = await context.newPage();
    const errors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    const failures = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failures.push(`${request.failure()?.errorText} ${request.url()}`));
    await page.goto(host.url + path);
    return { page, errors, failures, context };
  }
  return {
    hostUrl: host.url,
    klUrl: kernelLens.url,
    browser,
    open,
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await host.close();
      await kernelLens.close();
    },
  };
}

/// The lookup's middle weight (second row; the row header is a th, then key, value, weight).
export function middleWeight(scope) {
  return scope.locator('.kl-table tbody tr').nth(1).locator('td:nth-child(4)');
}

/// A drawn smoothing figure (`scope` is its .kl-widget): the curve rows the worker computed
/// (601 queries × 60 keys per bandwidth) and pixels in every chart.
export async function smoothingDrawn(scope) {
  await waitForText(scope.locator('.kl-table tbody tr').nth(1), /h = 0\.05.*\d\.\d{4}/);
  const sizes = await scope.locator('canvas').evaluateAll((canvases) => canvases.map((canvas) => canvas.width * canvas.height));
  assert.ok(sizes.length > 0 && sizes.every((size) => size > 0), `canvas sizes ${sizes}`);
}

/// Opens the closed <details id="more"> and checks the smoothing figure in it, both forms.
export async function openFolded(page) {
  const element = page.locator('#figure-smoothing');
  assert.equal(await element.isVisible(), false, 'the figure starts folded away');
  await page.locator('#more > summary').click();
  await elementReady(element);
  await smoothingDrawn(element.locator('.kl-widget'));
  await settledFrame(page, '#frame-smoothing');
  await page.waitForSelector('#frame-smoothing[data-kl-ready]');
  await smoothingDrawn(page.frameLocator('#frame-smoothing').locator('.kl-widget'));
}

/// Scrolls an iframe into view and waits until its height fits its document (no inner scroll bar,
/// taller than `min`).
export async function settledFrame(page, selector, min = 300, timeout = 15000) {
  const frame = page.frameLocator(selector);
  // Chromium pauses rendering (and so the embed's ResizeObserver) in a cross-origin iframe out of
  // view: a reader scrolls to it first, and so does the test.
  await page.locator(selector).scrollIntoViewIfNeeded();
  await frame.locator('.kl-widget').waitFor({ timeout });
  const deadline = Date.now() + timeout;
  let last = null;
  while (Date.now() < deadline) {
    const outer = await page.locator(selector).evaluate((node) => node.offsetHeight); // layout px, unscaled
    const inner = await frame.locator('html').evaluate((html) => ({ scroll: html.scrollHeight, client: html.clientHeight }));
    last = { outer, ...inner };
    if (outer > min && inner.scroll <= inner.client) return last;
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  }
  throw new Error(`${selector} never grew to its content: ${JSON.stringify(last)}`);
}

/// The theme a figure shows: `data-kl-theme` on the element, in its shadow root or on the embed's <html>/<body>.
export function themeOf(root) {
  const holder = root.matches?.('[data-kl-theme]') ? root : (root.shadowRoot ?? root).querySelector('[data-kl-theme]');
  return holder?.getAttribute('data-kl-theme') ?? null;
}
