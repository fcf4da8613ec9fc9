// Shared set-up of the browser tests: Debian's Chromium through playwright-core, dist/ served on
// a free port, console errors collected per page.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

/// The built site: dist/ by default, or $KERNEL_LENS_DIST (a folder, relative to the working directory).
export const distDir = process.env.KERNEL_LENS_DIST
  ? `${resolve(process.env.KERNEL_LENS_DIST)}/`
  : fileURLToPath(new URL('../../dist/', import.meta.url));
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/// Debian's Chromium flags for every benchmark and test; $KERNEL_LENS_EXTRA_ARGS (space-separated)
/// adds more to every run, `openSite({ extraArgs })` to one.
export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  ...(process.env.KERNEL_LENS_EXTRA_ARGS ? process.env.KERNEL_LENS_EXTRA_ARGS.split(' ') : []),
];

/// The tests' flags: BROWSER_ARGS and one raster thread (the tests run two browsers on two cores,
/// and the default pool of raster threads only contends with them: about 7 % less CPU for the
/// same pages). The benchmarks keep Chromium's own raster threads.
export const CHROMIUM_ARGS = [...BROWSER_ARGS, '--num-raster-threads=1'];

/// Starts the server and the browser once per test file: { url, browser, newPage, close }.
/// `newPage(path, options)` opens `url + path` and returns { page, errors } where `errors`
/// collects console errors and uncaught exceptions; `options.init` is a script (function) run in
/// the page before its own scripts.
/// The site is served as a plain static host serves it; `compress: true` gzips what a host would.
/// `shareContexts: true` opens pages with the same options as tabs of one browser context (a new
/// context costs about 2 s of CPU, a tab a fifth of it): for a file whose tests neither use the
/// page's storage nor change its context (routes, permissions); closing a page's context closes
/// it for the tabs that share it, and the next page gets a new one.
export async function openSite({ headers, compress = false, viewport = { width: 1100, height: 900 }, colorScheme = 'light', extraArgs = [], shareContexts = false } = {}) {
  if (!existsSync(`${distDir}index.html`)) {
    throw new Error('dist/ is missing: run `npm run build:web` first');
  }
  const server = await startServer({ root: distDir, headers, compress });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
  const contexts = [];
  /// The shared contexts by their options (shareContexts).
  const shared = new Map();
  async function contextFor(options) {
    const settings = {
      viewport: options.viewport ?? viewport,
      colorScheme: options.colorScheme ?? colorScheme,
      hasTouch: options.hasTouch ?? false,
      deviceScaleFactor: options.deviceScaleFactor ?? 1,
    };
    const key = shareContexts ? JSON.stringify([settings, String(options.init ?? '')]) : null;
    if (key !== null && shared.has(key)) return shared.get(key);
    const context = await browser.newContext(settings);
    contexts.push(context);
    if (options.init) await context.addInitScript(options.init);
    if (key !== null) {
      shared.set(key, context);
      context.on('close', () => shared.delete(key));
    }
    return context;
  }
  async function newPage(path, options = {}) {
    const context = await contextFor(options);
    const page = await context.newPage();
    const errors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(path === 'about:blank' ? path : server.url + path);
    return { page, errors };
  }
  /// A page that visits address after address (`visit(path)`: a navigation of the same page), for a
  /// test that loads many pages alike: a new browser context costs about 2 s of CPU, a navigation
  /// in the same one a third of that. Each visit is a new document (the init script runs again);
  /// storage and the context's settings carry over. `errors` collects every visit's errors.
  async function visitor(options = {}) {
    const { page, errors } = await newPage('about:blank', options);
    return {
      page,
      errors,
      visit: async (path) => {
        await page.goto(server.url + path);
        return page;
      },
    };
  }
  return {
    url: server.url,
    browser,
    newPage,
    visitor,
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await server.close();
    },
  };
}

/// The embed URL of a widget with extra parameters.
/// The site on a plain static host (CORS only) and course-note pages on a second origin, written
/// from `pages` ({ 'index.html': (siteUrl) => html }), with one browser: { site, host, browser, close }.
export async function openHostedSite(pages) {
  const site = await startServer({ root: distDir, headers: { 'access-control-allow-origin': '*' } });
  const hostDir = await mkdtemp(join(tmpdir(), 'kernel-lens-host-'));
  for (const [name, page] of Object.entries(pages)) await writeFile(join(hostDir, name), page(site.url));
  const host = await startServer({ root: hostDir });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
  return {
    site,
    host,
    browser,
    async close() {
      await browser.close();
      await host.close();
      await site.close();
      await rm(hostDir, { recursive: true, force: true });
    },
  };
}

export function embedPath(widget, params = {}) {
  const search = new URLSearchParams({ widget, ...params });
  return `embed.html?${search}`;
}

/// Waits until the element's text matches `pattern` and returns it; `state: 'attached'` for an
/// element in a hidden box.
export async function waitForText(locator, pattern, timeout = 15000, state = 'visible') {
  await locator.waitFor({ timeout, state });
  const deadline = Date.now() + timeout;
  let text = '';
  while (Date.now() < deadline) {
    text = (await locator.textContent()) ?? '';
    if (pattern.test(text)) return text;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`timed out waiting for ${pattern} (last text: ${JSON.stringify(text)})`);
}

/// Scrolls the full page to a section's figure as a reader does, until the figure is there: the
/// figure mounts only once its own place is near the viewport, and the prose arriving before it
/// (or a figure above mounting) can move that place after a single scroll. Returns the figure.
export async function scrollToFigure(page, sectionId, timeout = 15000) {
  const section = page.locator(`#${sectionId}`);
  // An exercise's figure is its answer, behind "Check your answer": open it as a reader would.
  await section.evaluate((element) => {
    const details = element.closest('details');
    if (details) details.open = true;
  });
  const figure = section.locator('.kl-widget');
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    // The place found and scrolled to in one task: found by one call and scrolled to by the next,
    // it can have mounted in between, and the scroll would wait for a place that is gone.
    await section.evaluate((element) => {
      const place = element.querySelector('.kl-figure-waiting') ?? element;
      const box = place.getBoundingClientRect();
      if (box.bottom < 0 || box.top > innerHeight) place.scrollIntoView({ block: 'center' });
    });
    try {
      await figure.first().waitFor({ timeout: 1000 });
      await figure.first().scrollIntoViewIfNeeded();
      return figure.first();
    } catch {
      // Not mounted yet: scroll again.
    }
  }
  throw new Error(`the figure of #${sectionId} did not mount within ${timeout} ms of scrolling to it`);
}

/// Whether this run saves the screenshots for reading (KERNEL_LENS_SCREENSHOTS=1): a run that only
/// checks skips them, since no test compares them and each costs an encode.
export const SCREENSHOTS = Boolean(process.env.KERNEL_LENS_SCREENSHOTS);

/// Saves a screenshot to build/screenshots/<name>.png (for reading, not asserting) when SCREENSHOTS
/// is set; returns its path, or null.
export async function screenshot(target, name) {
  if (!SCREENSHOTS) return null;
  const path = fileURLToPath(new URL(`../../build/screenshots/${name}.png`, import.meta.url));
  await target.screenshot({ path });
  return path;
}

/// Presses `key` `count` times on a focused element.
export async function press(locator, key, count = 1) {
  await locator.focus();
  for (let i = 0; i < count; i++) await locator.press(key);
}

/// The figure's drawn count (`data-kl-drawn`, see web/src/ui/host/figure-host.ts): how many times
/// it finished its work and drew it; 0 before its first drawing.
export async function drawnCount(figure) {
  return Number((await figure.getAttribute('data-kl-drawn')) ?? 0);
}

/// Runs `action` (optional) and waits until the figure has drawn what it caused: its drawn count
/// passes the count before the action and no work is under way. Without an action, waits for the
/// first drawing. Returns the new count.
export async function afterDrawn(figure, action, timeout = 15000) {
  await figure.waitFor({ timeout });
  const before = action ? await drawnCount(figure) : 0;
  if (action) await action();
  const handle = await figure.elementHandle({ timeout });
  await handle.evaluate(
    (element, { count, timeout: limit }) =>
      new Promise((resolve, reject) => {
        const done = () => Number(element.dataset.klDrawn ?? 0) > count && !element.hasAttribute('data-kl-busy');
        if (done()) return resolve();
        const observer = new MutationObserver(() => {
          if (!done()) return;
          observer.disconnect();
          clearTimeout(timer);
          resolve();
        });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`the figure did not draw within ${limit} ms (drawn ${element.dataset.klDrawn ?? 0} times, busy: ${element.hasAttribute('data-kl-busy')})`));
        }, limit);
        observer.observe(element, { attributes: true, attributeFilter: ['data-kl-drawn', 'data-kl-busy'] });
      }),
    { count: before, timeout },
  );
  return drawnCount(figure);
}

/// Waits for a `<kernel-lens-figure>`'s `ready` promise, at most `timeout` ms; past that it fails
/// with what the figure was doing (its widget's drawn count and busy mark, an error shown, its
/// canvases' sizes, whether it is shown at all), not with a test that never ends.
export async function elementReady(element, timeout = 30000) {
  const state = await element.evaluate(
    (node, limit) =>
      Promise.race([
        node.ready.then(() => null),
        new Promise((resolve) => setTimeout(resolve, limit)).then(() => {
          const widget = node.shadowRoot?.querySelector('.kl-widget');
          const rect = node.getBoundingClientRect();
          return {
            container: node.container?.className ?? null,
            drawn: widget?.dataset.klDrawn ?? null,
            busy: widget?.hasAttribute('data-kl-busy') ?? null,
            error: widget?.querySelector('.kl-widget__error')?.textContent?.trim() || null,
            canvases: [...(widget?.querySelectorAll('canvas') ?? [])].map((canvas) => `${canvas.width}x${canvas.height}${canvas.isConnected ? '' : ' detached'}`),
            box: `${Math.round(rect.width)}x${Math.round(rect.height)}`,
            hidden: document.hidden,
          };
        }),
      ]),
    timeout,
  );
  if (state) throw new Error(`the figure was not ready within ${timeout} ms: ${JSON.stringify(state)}`);
}

/// Waits until every figure mounted on the page (or in a frame) has drawn and none has work under way (the
/// full page mounts figures as the reader nears them: this speaks of those mounted, at least
/// `atLeast` of them: 0 where none may have mounted yet).
/// A timeout names what each figure was doing (as elementReady does).
export async function figuresDrawn(page, timeout = 30000, atLeast = 1) {
  try {
    await page.waitForFunction(
      (least) => {
        const figures = [...document.querySelectorAll('.kl-widget')];
        return figures.length >= least && figures.every((figure) => figure.dataset.klDrawn && !figure.hasAttribute('data-kl-busy'));
      },
      atLeast,
      { timeout },
    );
  } catch (error) {
    const state = await page
      .evaluate(() => ({
        address: location.href.slice(0, 120),
        readyState: document.readyState,
        hidden: document.hidden,
        figures: [...document.querySelectorAll('.kl-widget')].map((figure) => ({
          widget: figure.dataset.widget,
          drawn: figure.dataset.klDrawn ?? null,
          busy: figure.hasAttribute('data-kl-busy'),
          error: figure.querySelector('.kl-widget__error:not([hidden])')?.textContent?.trim() || null,
          notes: [...figure.querySelectorAll('.kl-widget__note:not([hidden])')].map((note) => note.textContent.slice(0, 80)),
          canvases: [...figure.querySelectorAll('canvas')].map((canvas) => `${canvas.width}x${canvas.height}`),
        })),
      }))
      .catch((reason) => `unreadable: ${String(reason).split('\n')[0]}`);
    throw new Error(`${error.message.split('\n')[0]}; the figures: ${JSON.stringify(state)}`);
  }
}

/// Waits until the browser has rendered two frames (what a scroll or a resize changed is laid out).
export async function nextFrames(page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/// Waits until every theme root of the page (`[data-kl-theme]`, at least one) says `theme`, then
/// for two frames.
export async function waitForTheme(page, theme) {
  await page.waitForFunction((theme) => {
    const roots = [...document.querySelectorAll('[data-kl-theme]')];
    return roots.length > 0 && roots.every((root) => root.getAttribute('data-kl-theme') === theme);
  }, theme);
  await nextFrames(page);
}

/// Flips the page's system theme (a page's own `auto` theme follows it) and waits until every theme
/// root says `theme` and the figures have drawn in it.
export async function flipTheme(page, theme) {
  await page.emulateMedia({ colorScheme: theme });
  await waitForTheme(page, theme);
  await figuresDrawn(page);
}

/// The first of `points(box)` (page coordinates, `box` the canvas' bounding box) where the mouse
/// makes `canvas` (a locator) show `cursor`, or null: how a test finds what a chart lets it grab.
export async function findCursor(page, canvas, cursor, points) {
  const box = await canvas.boundingBox();
  for (const { x, y } of points(box)) {
    await page.mouse.move(x, y);
    if ((await canvas.evaluate((c) => c.style.cursor)) === cursor) return { x, y };
  }
  return null;
}

/// Page coordinates from (x0, y0) to (x1, y1) in steps of (dx, dy) (rows of y outer).
export function* grid({ x0, x1, dx }, { y0, y1, dy }) {
  for (let y = y0; dy > 0 ? y < y1 : y > y1; y += dy) {
    for (let x = x0; dx > 0 ? x < x1 : x > x1; x += dx) yield { x, y };
  }
}
