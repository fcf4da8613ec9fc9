// Printing: the full page and the standalone file put every section on paper (figures that were
// still waiting mount when printing starts), buttons and the share row are hidden, and no page
// comes out blank. Pages are counted with poppler's pdftoppm (skipped when it is not installed).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { distDir, figuresDrawn, openSite, waitForText } from './harness.mjs';
import { widgetNames } from './widget-list.mjs';

let site;
let work;
before(async () => {
  site = await openSite({ shareContexts: true });
  work = await mkdtemp(join(tmpdir(), 'kernel-lens-print-'));
});
after(async () => {
  await site?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const havePoppler = (() => {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/// Renders `pdf` at 20 dpi and returns, per page, the share of pixels that are not white.
async function inkPerPage(pdf, name) {
  const file = join(work, `${name}.pdf`);
  await writeFile(file, pdf);
  execFileSync('pdftoppm', ['-r', '20', '-gray', file, join(work, name)]);
  const pages = (await readdir(work)).filter((entry) => entry.startsWith(`${name}-`) && entry.endsWith('.pgm')).sort();
  const ink = [];
  for (const page of pages) {
    const bytes = await readFile(join(work, page));
    // Binary PGM: "P5\n<w> <h>\n255\n" then one byte per pixel.
    const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 40).toString('latin1'));
    const pixels = bytes.subarray(header[0].length);
    let dark = 0;
    for (const value of pixels) if (value < 235) dark++;
    ink.push(dark / pixels.length);
  }
  return ink;
}

/// Opens a file:// address (the harness opens the served site only).
async function openFile(url) {
  const context = await site.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  return { page, errors };
}

/// Switches to print media and waits until every section holds a drawn figure with its numbers.
async function prepareForPrint(page) {
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  await page.emulateMedia({ media: 'print' });
  await page.waitForFunction(
    (count) => document.querySelectorAll('.kl-section .kl-widget').length === count && !document.querySelector('.kl-section--waiting'),
    widgetNames.length,
  );
  await waitForText(page.locator('#section-ols-vs-nw').getByTestId('ols-prediction'), /\d/);
  await waitForText(page.locator('#section-lookup').getByTestId('prediction'), /\d/);
  await figuresDrawn(page);
}

test('print media mounts every waiting figure of the full page and hides its buttons', async () => {
  const { page, errors } = await site.newPage('index.html');
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  assert.ok((await page.locator('.kl-section--waiting').count()) > 0, 'figures far down wait on screen');
  await prepareForPrint(page);
  const shown = await page.evaluate(() =>
    [...document.querySelectorAll('.kl-share, .kl-button, .kl-no-print')].filter((node) => node.getBoundingClientRect().height > 0).length,
  );
  assert.equal(shown, 0, 'buttons and share rows are hidden on paper');
  const unbroken = await page.evaluate(() => getComputedStyle(document.querySelector('.kl-widget')).breakInside);
  assert.equal(unbroken, 'avoid');
  assert.deepEqual(errors, []);
});

test('on paper no table is cut: every scroll box holds its content at the width of a printed column', async () => {
  // A4 with Chromium's default margins leaves about 718 CSS px; a scroll box cannot scroll there.
  const { page, errors } = await site.newPage('index.html', { viewport: { width: 718, height: 900 } });
  await prepareForPrint(page);
  // Cut: wider than a box that clips (on screen such a box scrolls; on paper it hid a table's last
  // column).
  const cut = await page.evaluate(() =>
    [...document.querySelectorAll('.kl-scroll')]
      .filter((box) => box.getBoundingClientRect().height > 0 && getComputedStyle(box).overflowX !== 'visible' && box.scrollWidth > box.clientWidth + 1)
      .map((box) => `${box.closest('figure')?.dataset.klWidget ?? box.closest('[id]')?.id} ${box.className} ${box.firstElementChild?.tagName}: ${box.scrollWidth} > ${box.clientWidth}`),
  );
  assert.deepEqual(cut, []);
  assert.deepEqual(errors, []);
});

test('a beforeprint event alone mounts every waiting figure', async () => {
  const { page, errors } = await site.newPage('index.html');
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  await page.evaluate(() => dispatchEvent(new Event('beforeprint')));
  assert.equal(await page.locator('.kl-section--waiting').count(), 0);
  assert.equal(await page.locator('.kl-section .kl-widget').count(), widgetNames.length);
  assert.deepEqual(errors, []);
});

for (const [name, open] of [
  ['the full page', () => site.newPage('index.html')],
  ['the standalone file', () => openFile(pathToFileURL(join(distDir, 'kernel-lens-standalone.html')).href)],
]) {
  test(`${name} prints every section: no blank page`, { skip: !havePoppler && 'pdftoppm is not installed' }, async () => {
    const { page, errors } = await open();
    await prepareForPrint(page);
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    const ink = await inkPerPage(pdf, name.replace(/\W+/g, '-'));
    const blank = ink.map((share, index) => ({ page: index + 1, share })).filter(({ share }) => share < 0.002);
    assert.ok(ink.length >= widgetNames.length / 3, `${ink.length} pages`);
    assert.deepEqual(blank, [], `blank pages of ${ink.length}`);
    assert.deepEqual(errors, []);
  });
}

/// Renders page 1 of `pdf` in colour at `dpi` and counts the pixels within 40 (per channel) of each colour of `colours` ('#rrggbb').
async function pixelsNear(pdf, name, colours, dpi = 96) {
  const file = join(work, `${name}.pdf`);
  await writeFile(file, pdf);
  const image = execFileSync('pdftoppm', ['-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', file], { maxBuffer: 1 << 26 });
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(image.subarray(0, 32).toString('latin1'));
  const targets = colours.map((hex) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)));
  const counts = colours.map(() => 0);
  for (let at = header[0].length; at + 2 < image.length; at += 3) {
    targets.forEach((target, i) => {
      if (target.every((value, channel) => Math.abs(image[at + channel] - value) <= 40)) counts[i]++;
    });
  }
  return counts;
}

test('a printout without background graphics keeps the colour key of each bandwidth', { skip: !havePoppler && 'pdftoppm is not installed' }, async () => {
  const { page, errors } = await site.newPage('embed.html?widget=smoothing');
  await figuresDrawn(page);
  const colours = await page.locator('.kl-control--swatch').evaluateAll((controls) => controls.map((control) => getComputedStyle(control).getPropertyValue('--kl-swatch').trim()));
  assert.equal(colours.length, 3, 'three bandwidths, three swatches');
  assert.ok(colours.every((colour) => /^#[0-9a-f]{6}$/i.test(colour)), `swatch colours ${colours}`);
  // Only the keys can carry the curves' colours: the charts and the sliders are hidden.
  await page.addStyleTag({ content: 'canvas, input { visibility: hidden !important; }' });
  // Browsers print without background graphics unless asked (page.pdf's default too).
  const counts = await pixelsNear(await page.pdf({ format: 'A4' }), 'swatches', colours);
  assert.ok(counts.every((count) => count >= 20), `pixels of each key's colour on paper: ${counts}`);
  assert.deepEqual(errors, []);
});
