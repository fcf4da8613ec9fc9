// The full page holds the chapter's text whole and in its order, checked against the chapter's own
// file (../shared/spec/000_0d1fb23487dad7d4.txt from the repository root, or KERNEL_LENS_CHAPTER),
// parsed here rather than copied: its title, every section heading, every paragraph, table row,
// summary point and exercise, and every figure caption, in order. Between them the page may hold
// only its masthead, what it marks as the edition's own (`[data-kl-edition]`, shown with a "Beyond the chapter"
// label), the chapter's code listings (`[data-kl-listing]`) and the figures' insides (a figure's
// caption is the chapter's; its charts, controls and read-outs are the figure).
//
// Normalisation, the same on both sides: every formula becomes ⟦its TeX with all whitespace
// removed⟧ (the chapter's \( \) and \[ \]; on the page, KaTeX's own annotation of its TeX source),
// then runs of whitespace collapse to one space. Table rows are compared cell by cell joined with
// one space; a block of several lines in the chapter that is not a table (the summary, the sources,
// the exercises) is one item per line. Numbers the chapter prints inside formulas are compared
// too: the page's live numbers are typeset as formulas once the core has answered.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { openSite, screenshot, SCREENSHOTS } from './harness.mjs';
import { loadKernelLens } from '../wasm/load.mjs';
import { CHAPTER_PATH } from '../../scripts/chapter-spec.mjs';

/// The chapter's file (scripts/chapter-spec.mjs: $KERNEL_LENS_CHAPTER, the edition's file beside
/// the repository, or the repository's copy of it).
function chapterPath() {
  assert.ok(existsSync(CHAPTER_PATH), `the chapter's text is not found at ${CHAPTER_PATH}; set KERNEL_LENS_CHAPTER to its path`);
  return CHAPTER_PATH;
}

const SECTION = /^(12\.\d+ .+|Sources and further reading|Exercises)$/;

/// Formulas to ⟦TeX without whitespace⟧, then whitespace collapsed.
function normalise(text) {
  return text
    .replace(/\\\[([\s\S]*?)\\\]|\\\(([\s\S]*?)\\\)/g, (_, display, inline) => `⟦${(display ?? inline).replace(/\s+/g, '')}⟧`)
    .replace(/\s+/g, ' ')
    .trim();
}

/// A prose line: a capitalised word first, and more than one word (a listing's output never is).
const proseLike = (block) => block.length === 1 && /^[A-Z][a-z]/.test(block[0]) && /\s/.test(block[0].trim());

/// The chapter as blocks in its order: { kind: 'title' | 'section' | 'caption' | 'text', text }.
/// Listings ("Code:" / "Figure:" and their code and output, up to the next prose line) are left to
/// the listings' own test.
export function parseChapter(source) {
  const paragraphs = source
    .replace(/\r\n/g, '\n')
    .split(/\n\s*\n/)
    .map((block) => block.split('\n').filter((line) => line.trim() !== ''))
    .filter((block) => block.length > 0);
  const out = [];
  let inListing = false;
  for (const [index, block] of paragraphs.entries()) {
    if (index === 0) {
      out.push({ kind: 'title', text: normalise(block[0].replace(/^\d+\s+/, '')) });
      continue;
    }
    if (block.length === 1 && /^(Code|Figure):\s/.test(block[0])) {
      inListing = true;
      continue;
    }
    if (inListing && !proseLike(block)) continue;
    const wasListing = inListing;
    inListing = false;
    if (block.some((line) => line.includes('\t'))) {
      for (const row of block) out.push({ kind: 'text', text: normalise(row.split('\t').join(' ')) });
      continue;
    }
    for (const line of block) {
      const text = normalise(line);
      const kind = SECTION.test(line.trim()) ? 'section' : /^Figure \d+\.\d+:/.test(line) ? 'caption' : 'text';
      out.push({ kind, text });
    }
    // A listing's printed output may follow the caption of the figure it draws.
    inListing = wasListing && out.at(-1).kind === 'caption';
  }
  return out;
}

/// The page's blocks in document order, normalised like the chapter's, the edition's marked
/// additions, listings and figures' insides left out.
function pageBlocks(page) {
  return page.evaluate(() => {
    const BLOCK = 'h1, h2, h3, h4, p, li, tr, figcaption, dt, dd, blockquote';
    const SKIP = [
      '[data-kl-edition]',
      '[data-kl-listing]',
      '.kl-listing',
      'script, style, template, summary',
      // The edition's masthead above the title: its name and a note on where the numbers come from.
      '#kl-page > header .kl-subtitle',
      // A figure's insides (charts, controls, read-outs, its toolbar) are the figure, not prose;
      // its caption is the chapter's. The panels of a two-panel figure carry their plot titles.
      '.kl-widget > :not(.kl-widget__title)',
      '.kl-figure-pair .kl-widget__title',
    ].join(', ');
    const tex = (node) => node.querySelector('annotation[encoding="application/x-tex"]')?.textContent ?? '';
    const textOf = (element) => {
      const copy = element.cloneNode(true);
      for (const math of copy.querySelectorAll('.katex')) {
        if (math.parentElement?.closest('.katex')) continue;
        math.replaceWith(`⟦${tex(math).replace(/\s+/g, '')}⟧`);
      }
      for (const hidden of copy.querySelectorAll('.kl-visually-hidden, [aria-hidden="true"]:not(.katex *)')) hidden.remove();
      if (copy.matches('tr')) return [...copy.children].map((cell) => cell.textContent).join(' ');
      return copy.textContent;
    };
    const blocks = [];
    for (const element of document.querySelectorAll(`#kl-page :is(${BLOCK})`)) {
      if (element.closest(SKIP)) continue;
      // Only innermost blocks: a list item holding paragraphs is read through its paragraphs.
      if ([...element.querySelectorAll(BLOCK)].some((inner) => !inner.closest(SKIP))) continue;
      const text = textOf(element).replace(/\s+/g, ' ').trim();
      if (text) blocks.push({ tag: element.tagName, text });
    }
    return blocks;
  });
}

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

/// The full page with every figure mounted (as for print), every live number in and typeset.
async function fullPage(viewport) {
  const { page, errors } = await site.newPage('index.html');
  if (viewport) await page.setViewportSize(viewport);
  await page.waitForSelector('#kl-widgets:not([aria-busy])', { timeout: 30000 });
  await page.emulateMedia({ media: 'print' });
  await page.waitForFunction(() => !document.querySelector('.kl-section--waiting, .kl-figure-waiting'), null, { timeout: 30000 });
  await page.emulateMedia({ media: 'screen' });
  await page.waitForFunction(
    () => !document.querySelector('[data-kl-value]:not([data-kl-filled]), #kl-page .kl-math--pending'),
    null,
    { timeout: 60000 },
  ).catch(() => undefined);
  return { page, errors };
}

/// The first place where the page's sequence leaves the chapter's, with the lines around it.
function firstDifference(expected, actual) {
  const at = expected.findIndex((text, i) => actual[i] !== text);
  if (at < 0 && actual.length === expected.length) return null;
  const i = at < 0 ? expected.length : at;
  return [
    `block ${i + 1} of ${expected.length}:`,
    `  chapter: ${expected[i] ?? '(end)'}`,
    `  page:    ${actual[i] ?? '(end)'}`,
    `  before:  ${expected[i - 1] ?? '(start)'}`,
  ].join('\n');
}

test('the chapter file parses into its sections, paragraphs and three captions', () => {
  const chapter = parseChapter(readFileSync(chapterPath(), 'utf8'));
  assert.equal(chapter.filter((b) => b.kind === 'section').length, 9);
  assert.deepEqual(
    chapter.filter((b) => b.kind === 'caption').map((b) => b.text.slice(0, 11)),
    ['Figure 12.1', 'Figure 12.2', 'Figure 12.3'],
  );
  // No code or printed output slipped into the prose.
  for (const block of chapter) assert.doesNotMatch(block.text, /^(def |import |print\(|weights: \[|fig, )|np\.|plt\./, block.text);
  assert.ok(chapter.some((b) => b.text.startsWith('The same code makes the OLS distinction concrete')));
  assert.ok(chapter.some((b) => b.text.startsWith('Similarity weights are not uncertainty probabilities')));
});

test('the full page holds the chapter\'s text whole and in its order, live numbers included', async () => {
  const chapter = parseChapter(readFileSync(chapterPath(), 'utf8'));
  const { page, errors } = await fullPage();
  const blocks = await pageBlocks(page);
  const title = chapter.find((b) => b.kind === 'title').text;
  assert.equal(blocks.find((b) => b.tag === 'H1')?.text, title, 'the chapter title');
  const headings = blocks.filter((b) => b.tag === 'H2').map((b) => b.text);
  assert.deepEqual(headings, chapter.filter((b) => b.kind === 'section').map((b) => b.text), 'the section headings in order');
  const expected = chapter.filter((b) => b.kind !== 'title').map((b) => b.text);
  const actual = blocks.filter((b) => b.tag !== 'H1').map((b) => b.text);
  const difference = firstDifference(expected, actual);
  assert.equal(difference, null, `the page leaves the chapter's text at\n${difference}`);
  // Every caption is a figure's caption.
  const captions = await page.locator('#kl-page figcaption').allTextContents();
  for (const caption of chapter.filter((b) => b.kind === 'caption')) {
    const label = caption.text.slice(0, caption.text.indexOf(':') + 1);
    assert.ok(captions.some((text) => text.replace(/\s+/g, ' ').trim().startsWith(label)), `${label} is a figure's caption`);
  }
  assert.deepEqual(errors, []);
});

test('everything the page adds is marked as the edition\'s, with an accessible name', async () => {
  const { page, errors } = await fullPage();
  // Each exercise's answer waits behind a "Check your answer" disclosure.
  const checks = await page.locator('#kl-exercises .kl-exercise-list > li > details > summary', { hasText: 'Check your answer' }).count();
  assert.equal(checks, 5, 'five "Check your answer" disclosures');
  await page.evaluate(() => {
    for (const details of document.querySelectorAll('#kl-page details')) details.open = true;
  });
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('#kl-page [data-kl-edition]')]
      .filter((element) => !element.parentElement?.closest('[data-kl-edition]'))
      .filter((element) => {
        const badge = element.querySelector('.kl-edition-badge');
        const labelled = element.getAttribute('aria-label') || element.getAttribute('aria-labelledby');
        return !badge || !badge.checkVisibility() || !labelled;
      })
      .map((element) => element.id || element.className || element.tagName),
  );
  assert.deepEqual(unnamed, [], 'edition additions without a visible badge and an accessible name');
  // The edition's notes quote the laboratory's settings from the core too (the band's σ).
  const kl = await loadKernelLens();
  const sigma = await page.evaluate(() => document.querySelector('[data-kl-value*="lab.noise"][data-kl-filled] annotation')?.textContent ?? null);
  assert.equal(sigma, `\\sigma=${kl.chapterConfig().noise}`);
  assert.deepEqual(errors, []);
});

test('each exercise\'s answer is one disclosure on screen, and printed whether open or not', async () => {
  const { page, errors } = await fullPage();
  // Exercises 1 and 2 are figures with a disclosure of their own for embeds: not a second one here.
  assert.equal(await page.locator('#kl-exercises details.kl-check details.kl-reveal').count(), 0, 'a disclosure inside "Check your answer"');
  assert.equal(await page.locator('#kl-exercises details.kl-check .kl-reveal--nested').count(), 2);
  const answers = page.locator('#kl-exercises details.kl-check .kl-widget');
  assert.equal(await answers.count(), 5);
  await page.evaluate(() => {
    for (const details of document.querySelectorAll('#kl-exercises details.kl-check')) details.open = false;
  });
  const shown = () => answers.evaluateAll((figures) => figures.map((figure) => figure.checkVisibility()));
  assert.deepEqual(await shown(), [false, false, false, false, false]);
  await page.emulateMedia({ media: 'print' });
  assert.deepEqual(await shown(), [true, true, true, true, true], 'closed answers on paper');
  await page.emulateMedia({ media: 'screen' });
  await page.evaluate(() => document.documentElement.classList.add('kl-paper'));
  assert.deepEqual(await shown(), [true, true, true, true, true], 'closed answers in the paper look');
  assert.deepEqual(errors, []);
});

test('screenshots of the chapter text and Figure 12.3 at 1100 and 360 px', { skip: !SCREENSHOTS && 'KERNEL_LENS_SCREENSHOTS=1 saves them' }, async () => {
  for (const width of [1100, 360]) {
    const { page } = await fullPage({ width, height: 900 });
    await page.locator('#kl-opening').scrollIntoViewIfNeeded();
    await screenshot(page.locator('#kl-opening'), `chapter-text-opening-${width}`);
    const pair = page.locator('#kl-figure-12-3');
    await pair.scrollIntoViewIfNeeded();
    await screenshot(pair, `chapter-text-figure-12-3-${width}`);
    await screenshot(page.locator('#kl-12-4'), `chapter-text-12-4-${width}`);
    await screenshot(page.locator('#kl-exercises'), `chapter-text-exercises-${width}`);
    await page.close();
  }
});

/// The chapter's printed sweep table: h, 2h², bias², variance, MSE per row.
function chapterSweep(source) {
  return source
    .split('\n')
    .filter((line) => /^\d\.\d\d(\s+\d\.\d{4}){4}\s*$/.test(line))
    .map((line) => line.trim().split(/\s+/));
}

test('the numbers section 12.4 quotes follow the audit on screen', async () => {
  const rows = chapterSweep(readFileSync(chapterPath(), 'utf8'));
  assert.equal(rows.length, 8, 'the chapter prints eight rows');
  // The audit on a grid of three of the chapter's bandwidths: its rows are the chapter's rows.
  const grid = [rows[2], rows[4], rows[6]];
  const { page, errors } = await site.newPage(`index.html?bias-variance.bandwidths=${grid.map((row) => row[0]).join(',')}`);
  await page.waitForSelector('#kl-widgets:not([aria-busy])', { timeout: 30000 });
  await page.emulateMedia({ media: 'print' });
  await page.locator('#section-bias-variance [data-testid="grid-minimum"]').waitFor({ state: 'attached' });
  await page.emulateMedia({ media: 'screen' });
  const best = grid.reduce((a, b) => (Number(b[4]) < Number(a[4]) ? b : a));
  const leastBias = grid.reduce((a, b) => (Number(b[2]) < Number(a[2]) ? b : a));
  const shown = (template) =>
    page.evaluate(
      (t) => document.querySelector(`#kl-12-4 [data-kl-value="${t}"][data-kl-filled] annotation`)?.textContent ?? null,
      template,
    );
  const expected = {
    'h={{audit.best-h}}': `h=${best[0]}`,
    '{{audit.best-mse}}': best[4],
    'h={{audit.least-bias2-h}}': `h=${leastBias[0]}`,
    '{{audit.least-bias2}}': leastBias[2],
    '{{audit.first-variance}}': grid[0][3],
    '{{audit.last-bias2}}': grid[2][2],
  };
  await page.waitForFunction(
    (want) => Object.entries(want).every(([t, text]) => document.querySelector(`#kl-12-4 [data-kl-value="${t}"][data-kl-filled] annotation`)?.textContent === text),
    expected,
    { timeout: 60000 },
  ).catch(() => undefined);
  for (const [template, text] of Object.entries(expected)) assert.equal(await shown(template), text, template);
  // Figure 12.3's right panel is the map at the h its caption names: the audit's, not 0.18.
  assert.notEqual(best[0], '0.18');
  await page.locator('#section-attention-map').scrollIntoViewIfNeeded();
  const mapTitle = page.locator('#section-attention-map .kl-map__title');
  await page.waitForFunction((h) => document.querySelector('#section-attention-map .kl-map__title')?.textContent === `Fixed attention matrix, h = ${h}`, best[0], { timeout: 30000 }).catch(() => undefined);
  assert.equal(await mapTitle.textContent(), `Fixed attention matrix, h = ${best[0]}`);
  assert.equal(await page.locator('#section-attention-map .kl-widget').count(), 1);
  assert.deepEqual(errors, []);
});

test('Figure 12.3\'s map keeps an h the reader chose in the address', async () => {
  const { page, errors } = await site.newPage('index.html?bias-variance.bandwidths=0.12,0.26,0.55&attention-map.h=0.4');
  await page.waitForSelector('#kl-widgets:not([aria-busy])', { timeout: 30000 });
  await page.emulateMedia({ media: 'print' });
  await page.locator('#section-bias-variance [data-testid="grid-minimum"]').waitFor({ state: 'attached' });
  await page.emulateMedia({ media: 'screen' });
  // The audit on screen has finished (its h is in the caption) before the map is read.
  await page.waitForFunction(() => /h=0\.(12|26|55)/.test(document.querySelector('#kl-figure-12-3-caption [data-kl-filled] annotation')?.textContent ?? ''), null, { timeout: 60000 });
  assert.equal(await page.locator('#section-attention-map .kl-map__title').textContent(), 'Fixed attention matrix, h = 0.40');
  assert.deepEqual(errors, []);
});
