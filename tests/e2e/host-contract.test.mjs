// What a host page can count on, checked on a course page of another site (Kernel Lens on a plain
// static host that sends only CORS; the notes page on a second site, so third-party storage is
// blocked in the iframes as in Incognito): no console error from a worker-using figure in an
// iframe, a figure hidden then shown, layout from the figure's own width, the paper look and the
// readiness signal, notes for parameters that had no effect, and `color-scheme: only light`.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { afterDrawn, CHROMIUM_ARGS, elementReady, chromiumPath, distDir, waitForText } from './harness.mjs';

/// The notes' own site name, mapped to the loopback address by Chromium's resolver rules.
const NOTES_HOST = 'notes.test';

let site;
let notes;
let notesDir;
let browser;

const page = (siteUrl, body, head = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Notes</title>${head}</head>
<body>${body}
<script type="module" src="${siteUrl}kernel-lens.js"></script>
</body></html>`;

const PAGES = {
  'frame-smoothing.html': (siteUrl) =>
    page(siteUrl, `<iframe id="frame" data-kernel-lens title="Kernel Lens: smoothing" width="100%" height="700" style="border:0" src="${siteUrl}embed.html?widget=smoothing"></iframe>`),
  'hidden.html': (siteUrl) =>
    page(
      siteUrl,
      `<div id="box" style="display:none"><kernel-lens-figure id="element" widget="smoothing"></kernel-lens-figure>
<iframe id="frame" data-kernel-lens title="Kernel Lens: smoothing" width="100%" height="700" style="border:0" src="${siteUrl}embed.html?widget=smoothing"></iframe></div>`,
    ),
  'narrow.html': (siteUrl) => page(siteUrl, `<div style="width: 380px"><kernel-lens-figure id="narrow" widget="lookup"></kernel-lens-figure></div>`),
  'paper.html': (siteUrl) =>
    page(
      siteUrl,
      `<kernel-lens-figure id="element" widget="lookup"></kernel-lens-figure>
<iframe id="frame" data-kernel-lens title="Kernel Lens: lookup" width="100%" height="700" style="border:0" src="${siteUrl}embed.html?widget=lookup"></iframe>
<div style="height: 5000px"></div><kernel-lens-figure id="far" widget="ties"></kernel-lens-figure>`,
    ),
  // A page that asks for the paper look from its first byte (a deck exporter's page): the iframe's
  // page starts listening after its load event, and must still take the look.
  'paper-first.html': (siteUrl) =>
    page(
      siteUrl,
      `<iframe id="frame" data-kernel-lens title="Kernel Lens: lookup" width="100%" height="700" style="border:0" src="${siteUrl}embed.html?widget=lookup"></iframe>`,
      '<script>document.documentElement.classList.add("kl-paper")</script>',
    ),
  // A deck exporter's long page: every slide laid out, the iframe far below the window, where the
  // browser runs no animation frame for it.
  'paper-far.html': (siteUrl) =>
    page(
      siteUrl,
      `<div style="height: 4000px"></div><iframe id="frame" data-kernel-lens title="Kernel Lens: smoothing" width="100%" height="700" style="border:0" src="${siteUrl}embed.html?widget=smoothing"></iframe>`,
      '<script>document.documentElement.classList.add("kl-paper")</script>',
    ),
  'frame-file.html': (siteUrl) =>
    page(siteUrl, `<iframe id="frame" data-kernel-lens title="Kernel Lens: lookup" width="100%" height="700" style="border:0" src="${siteUrl}embed.html?widget=lookup"></iframe>`),
  'element-file.html': (siteUrl) => page(siteUrl, `<kernel-lens-figure id="element" widget="smoothing"></kernel-lens-figure>`),
  'misspelt.html': (siteUrl) => page(siteUrl, `<kernel-lens-figure id="element" widget="lookup" bandwith="0.2" h="0.6"></kernel-lens-figure>`),
  'light-only.html': (siteUrl) =>
    page(siteUrl, `<kernel-lens-figure id="element" widget="lookup" theme="auto"></kernel-lens-figure>`, '<style>html { color-scheme: only light; }</style>'),
};

before(async () => {
  site = await startServer({ root: distDir, isolated: false, headers: { 'access-control-allow-origin': '*' } });
  notesDir = await mkdtemp(join(tmpdir(), 'kernel-lens-notes-'));
  for (const [name, body] of Object.entries(PAGES)) await writeFile(join(notesDir, name), body(site.url));
  notes = await startServer({ root: notesDir, isolated: false });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${NOTES_HOST} 127.0.0.1`],
    headless: true,
  });
});

after(async () => {
  await browser?.close();
  await notes?.close();
  await site?.close();
  if (notesDir) await rm(notesDir, { recursive: true, force: true });
});

/// Opens a notes page on the notes' own site; `messages` collects every console message.
async function open(name, { viewport = { width: 1100, height: 900 }, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport, colorScheme });
  const tab = await context.newPage();
  const messages = [];
  tab.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
  tab.on('pageerror', (error) => messages.push(`uncaught: ${error}`));
  const port = new URL(notes.url).port;
  await tab.goto(`http://${NOTES_HOST}:${port}/${name}`);
  return { tab, messages, context };
}

const problems = (messages) => messages.filter((line) => /^(error|uncaught)/.test(line));

test('a worker-using figure in an iframe of another site logs nothing (Web Locks denied there)', async () => {
  const { tab, messages, context } = await open('frame-smoothing.html');
  const figure = tab.frameLocator('#frame').locator('.kl-widget');
  await afterDrawn(figure);
  // The curve rows come from the worker (601 queries × 60 keys per bandwidth).
  assert.match((await figure.locator('.kl-table tbody tr').nth(1).textContent()) ?? '', /h = 0\.05/);
  await tab.waitForSelector('#frame[data-kl-ready]');
  assert.deepEqual(problems(messages), []);
  await context.close();
});

test('figures hidden at load draw when shown, with no console error', async () => {
  const { tab, messages, context } = await open('hidden.html');
  // Printing or paper is not asked: the hidden element waits; the hidden iframe loads its figure,
  // and its worker's answers arrive while it has no size.
  const inFrame = tab.frameLocator('#frame').locator('.kl-widget');
  await waitForText(inFrame.locator('.kl-table tbody tr').nth(1), /h = 0\.05.*\d\.\d{4}/, 15000, 'attached');
  await tab.locator('#box').evaluate((box) => (box.style.display = 'block'));
  await afterDrawn(inFrame, async () => {
    await inFrame.locator('input[type="range"]').first().focus();
    await inFrame.locator('input[type="range"]').first().press('ArrowRight');
  });
  await elementReady(tab.locator('#element'));
  const element = tab.locator('#element .kl-widget');
  assert.match((await element.locator('.kl-table tbody tr').nth(1).textContent()) ?? '', /h = 0\.05/);
  // Every chart has pixels once shown.
  const sizes = await element.locator('canvas').evaluateAll((canvases) => canvases.map((canvas) => canvas.width * canvas.height));
  assert.ok(sizes.length > 0 && sizes.every((size) => size > 0), `canvas sizes ${sizes}`);
  assert.deepEqual(problems(messages), []);
  await context.close();
});

test('a figure takes its layout from its own width, not the window', async () => {
  const { tab, context } = await open('narrow.html', { viewport: { width: 1280, height: 900 } });
  await elementReady(tab.locator('#narrow'));
  const columns = await tab.locator('#narrow .kl-charts').evaluate((node) => getComputedStyle(node).gridTemplateColumns.split(' ').length);
  assert.equal(columns, 1, 'a 380-px figure stacks its charts, whatever the window');
  const overflow = await tab.locator('#narrow .kl-widget').evaluate((node) => node.scrollWidth - node.clientWidth);
  assert.ok(overflow <= 0, `the figure overflows by ${overflow}px`);
  await context.close();
  const wide = await open('narrow.html', { viewport: { width: 360, height: 800 } });
  await wide.tab.locator('#narrow').evaluate((element) => (element.parentElement.style.width = '960px'));
  await elementReady(wide.tab.locator('#narrow'));
  const wideColumns = await wide.tab.locator('#narrow .kl-charts').evaluate((node) => getComputedStyle(node).gridTemplateColumns.split(' ').length);
  assert.equal(wideColumns, 2, 'a 960-px figure (a slide scaled down on a phone) keeps its two columns');
  await wide.context.close();
});

test('the page can ask for the paper look under screen media, and await every figure drawn', async () => {
  const { tab, messages, context } = await open('paper.html');
  const buttonsShown = async () => ({
    element: await tab.locator('#element .kl-button').first().evaluate((node) => getComputedStyle(node).display !== 'none'),
    frame: await tab.frameLocator('#frame').locator('.kl-button').first().evaluate((node) => getComputedStyle(node).display !== 'none'),
  });
  await elementReady(tab.locator('#element'));
  // A cross-origin iframe below the window is not rendered, so its charts wait to be drawn.
  await tab.locator('#frame').evaluate((frame) => frame.scrollIntoView());
  await tab.waitForSelector('#frame[data-kl-ready]');
  await tab.evaluate(() => scrollTo(0, 0));
  assert.deepEqual(await buttonsShown(), { element: true, frame: true });
  // The far figure has not mounted: the page is not ready.
  assert.equal(await tab.locator('html').getAttribute('data-kl-ready'), null);
  const ready = tab.evaluate(() => new Promise((done) => document.addEventListener('kernel-lens:ready', (event) => done(event.detail.figures), { once: true })));
  await tab.locator('html').evaluate((html) => html.classList.add('kl-paper'));
  assert.equal(await ready, 3, 'every figure drew, the far one included, once paper is asked');
  await tab.waitForSelector('html[data-kl-ready]');
  await tab.frameLocator('#frame').locator('html.kl-paper').waitFor();
  assert.deepEqual(await buttonsShown(), { element: false, frame: false });
  await tab.locator('html').evaluate((html) => html.classList.remove('kl-paper'));
  await tab.frameLocator('#frame').locator('html:not(.kl-paper)').waitFor();
  assert.deepEqual(await buttonsShown(), { element: true, frame: true });
  // The element's own attribute.
  await tab.locator('#element').evaluate((element) => element.setAttribute('paper', ''));
  assert.equal(await tab.locator('#element .kl-button').first().evaluate((node) => getComputedStyle(node).display), 'none');
  assert.deepEqual(problems(messages), []);
  await context.close();
});

test('an iframe on a page that asks for the paper look from the start takes it', async () => {
  const { tab, messages, context } = await open('paper-first.html');
  await tab.waitForSelector('#frame[data-kl-ready]');
  await tab.frameLocator('#frame').locator('html.kl-paper').waitFor();
  assert.equal(await tab.frameLocator('#frame').locator('.kl-button').first().evaluate((node) => getComputedStyle(node).display), 'none');
  assert.deepEqual(problems(messages), []);
  await context.close();
});

test('an iframe far out of the window draws and says so when the page asks for the paper look', async () => {
  const { tab, messages, context } = await open('paper-far.html');
  await tab.waitForSelector('html[data-kl-ready]', { state: 'attached', timeout: 30000 });
  const top = await tab.locator('#frame').evaluate((frame) => frame.getBoundingClientRect().top);
  assert.ok(top > 3000, `the iframe stayed out of the window (top ${top})`);
  const figure = tab.frameLocator('#frame').locator('.kl-widget');
  assert.match((await figure.locator('.kl-table tbody tr').nth(1).textContent()) ?? '', /h = 0\.05.*\d\.\d{4}/);
  const sizes = await figure.locator('canvas').evaluateAll((canvases) => canvases.map((canvas) => canvas.width * canvas.height));
  assert.ok(sizes.length > 0 && sizes.every((size) => size > 0), `canvas sizes ${sizes}`);
  assert.deepEqual(problems(messages), []);
  await context.close();
});

test('an iframe on a page opened from a file sizes itself and says it has drawn', async () => {
  const { tab, messages, context } = await open('paper.html');
  await tab.goto(`file://${join(notesDir, 'frame-file.html')}`);
  await tab.waitForSelector('#frame[data-kl-ready]');
  const height = await tab.locator('#frame').evaluate((frame) => frame.getBoundingClientRect().height);
  assert.notEqual(Math.round(height), 700, "the iframe took its figure's height");
  assert.deepEqual(problems(messages), []);
  await context.close();
});

test('an element on a page opened from a file starts the worker (a page with no origin of its own)', async () => {
  const { tab, messages, context } = await open('paper.html');
  await tab.goto(`file://${join(notesDir, 'element-file.html')}`);
  await elementReady(tab.locator('#element'));
  // Smoothing's curves come from the worker: it started there and stays up for heavier work
  // (a page whose origin is opaque cannot start a module worker; the one started is classic).
  assert.match((await tab.locator('#element .kl-table tbody tr').nth(1).textContent()) ?? '', /h = 0\.05.*\d\.\d{4}/);
  const workers = tab.workers();
  assert.equal(workers.length, 1, 'one worker, alive');
  assert.equal(await workers[0].evaluate(() => self.name), 'kernel-lens-core');
  assert.deepEqual(problems(messages), []);
  await context.close();
});

test('a misspelt parameter is named in the figure and once in the console', async () => {
  const { tab, messages, context } = await open('misspelt.html');
  await elementReady(tab.locator('#element'));
  const note = (await tab.locator('#element .kl-widget__notes').textContent()) ?? '';
  assert.match(note, /bandwith is not a parameter of this figure; did you mean bandwidth h \(h\)\?/);
  assert.equal(messages.filter((line) => line.includes('bandwith')).length, 1, messages.join('\n'));
  assert.deepEqual(problems(messages), []);
  await context.close();

  const embed = await open('paper.html');
  await embed.tab.goto(`${site.url}embed.html?widget=lookup&H=2&h=1&h=0.5&theme=dark`);
  const notesText = (await embed.tab.locator('.kl-widget__notes').textContent()) ?? '';
  assert.match(notesText, /H is not a parameter of this figure; did you mean bandwidth h \(h\)\?/);
  assert.match(notesText, /h is given 2 times; the first, h=1, counts/);
  await embed.context.close();
});

test('theme="auto" follows a page that is light only, on a dark system', async () => {
  const { tab, context } = await open('light-only.html', { colorScheme: 'dark' });
  await elementReady(tab.locator('#element'));
  const surface = await tab.locator('#element .kl-widget').evaluate((node) => getComputedStyle(node).backgroundColor);
  const [r, g, b] = surface.match(/\d+/g).map(Number);
  assert.ok(r + g + b > 600, `a light surface, got ${surface}`);
  await context.close();
});
