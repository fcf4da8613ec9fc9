// The full page follows the chapter: its sections 12.1–12.7 under the chapter's own headings and in
// its order, the sidebars, sources and exercises once each, the chapter's equation tags once each
// and in the sections that number them, and no TeX left unrendered once every figure has mounted.
// The widgets' prose lives in prose.html files, not in TypeScript strings.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { nextFrames, openSite } from './harness.mjs';
import { widgetNames } from './widget-list.mjs';

const CHAPTER_SECTIONS = [
  '12.1 Chapter 1 already mixed old answers',
  '12.2 The magnifying glass becomes a kernel',
  '12.3 Chapter 2’s scores-to-weights machine',
  '12.4 Bandwidth: the honesty gate',
  '12.5 From one query to an attention matrix',
  '12.6 Return the fixed operator to the memory bank',
  '12.7 Okay, so —',
  'Sources and further reading',
  'Exercises',
];

/// The chapter's outline: its section headings, its sidebars, and each numbered equation's tag,
/// in the chapter's order.
const h = (text) => ({ heading: text });
const tag = (number) => ({ tag: `(${number})` });
const CHAPTER_OUTLINE = [
  h(CHAPTER_SECTIONS[0]),
  tag('12.1'),
  h(CHAPTER_SECTIONS[1]),
  tag('12.2'),
  tag('12.3'),
  h('Which kernels make a convex average?'),
  h(CHAPTER_SECTIONS[2]),
  tag('12.4'),
  tag('12.5'),
  h(CHAPTER_SECTIONS[3]),
  h('Selecting h when the truth is hidden'),
  h(CHAPTER_SECTIONS[4]),
  tag('12.6'),
  tag('12.7'),
  h('Similarity weights are not uncertainty probabilities'),
  h(CHAPTER_SECTIONS[5]),
  ...CHAPTER_SECTIONS.slice(6).map(h),
];
const OUTLINE_HEADINGS = new Set(CHAPTER_OUTLINE.filter((part) => part.heading).map((part) => part.heading));

const widgetSource = (name) => new URL(`../../web/src/widgets/${name}/`, import.meta.url);

test('index.html reserves each chapter figure\'s place in the slot its order picks, once', () => {
  const html = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
  const slots = [...html.matchAll(/data-order="([\d.]+)">([\s\S]*?)<\/div>/g)].map(([, order, inner]) => ({
    order: Number(order),
    figures: [...inner.matchAll(/id="section-([a-z-]+)"/g)].map((match) => match[1]),
  }));
  assert.ok(slots.length >= 7, `only ${slots.length} slots found`);
  const beyond = Number(/BEYOND_THE_CHAPTER\s*=\s*([\d.]+)/.exec(readFileSync(new URL('../../web/src/ui/host/widget.ts', import.meta.url), 'utf8'))?.[1]);
  assert.ok(beyond > 13, 'BEYOND_THE_CHAPTER found');
  const placed = slots.flatMap((slot) => slot.figures);
  assert.equal(new Set(placed).size, placed.length, `a figure is placed twice: ${placed}`);
  for (const name of widgetNames) {
    const order = Number(/^\s*order:\s*([\d.]+),/m.exec(readFileSync(new URL('meta.ts', widgetSource(name)), 'utf8'))?.[1]);
    const slot = slots.filter((candidate) => candidate.order <= order).at(-1);
    if (order >= beyond) {
      assert.ok(!placed.includes(name), `${name} (order ${order}) is beyond the chapter but placed in index.html`);
      continue;
    }
    assert.ok(slot?.figures.includes(name), `${name} (order ${order}) belongs in the slot ${slot?.order}, which holds ${slot?.figures}`);
  }
});

test('every widget keeps its prose in prose.html (single backslashes), and its order is its own', () => {
  const orders = new Map();
  for (const name of widgetNames) {
    const index = readFileSync(new URL('index.ts', widgetSource(name)), 'utf8');
    assert.doesNotMatch(index, /\bprose\s*:\s*[`'"]/, `${name}/index.ts holds its prose as a string`);
    // The order and caption live in meta.ts, which the page reads before the figure's script.
    const meta = readFileSync(new URL('meta.ts', widgetSource(name)), 'utf8');
    assert.match(index, /defineWidget\(\{[^}]*\.\.\.meta\b/, `${name}/index.ts takes its order and caption from meta.ts`);
    const order = /^\s*order:\s*([\d.]+),/m.exec(meta)?.[1];
    assert.ok(order, `${name} has an order`);
    assert.ok(!orders.has(order), `${name} and ${orders.get(order)} share the order ${order}`);
    orders.set(order, name);
    const file = new URL('prose.html', widgetSource(name));
    if (!existsSync(file)) {
      assert.doesNotMatch(index, /\bprose\b/, `${name} names prose but has no prose.html`);
      continue;
    }
    assert.match(index, /^import prose from '\.\/prose\.html\?raw';$/m, `${name}/index.ts imports its prose.html`);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /\\\\[a-zA-Z]/, `${name}/prose.html doubles a TeX backslash`);
  }
});

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

/// Headings (h2, h3 of the page's prose) and rendered equation tags, in document order.
function outline(page) {
  return page.evaluate(() => {
    const parts = [];
    const beyond = document.getElementById('kl-beyond');
    for (const node of document.querySelectorAll('#kl-page h2, #kl-page h3, #kl-page .katex-html .tag')) {
      // The text as read: KaTeX's MathML copy (for screen readers) left out.
      const copy = node.cloneNode(true);
      for (const mathml of copy.querySelectorAll('.katex-mathml')) mathml.remove();
      const text = copy.textContent.replace(/\s+/g, ' ').trim();
      const inBeyond = beyond?.contains(node) ?? false;
      parts.push(node.matches('.tag') ? { tag: text, inBeyond } : { heading: text, level: node.tagName, inBeyond });
    }
    return parts;
  });
}

/// Text the reader can see that still looks like TeX source: a `$`, or a backslash command.
function rawTex(page) {
  return page.evaluate(() => {
    const found = [];
    const walker = document.createTreeWalker(document.getElementById('kl-page'), NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      const parent = node.parentElement;
      if (!parent || parent.closest('.katex, script, style, textarea, code, pre')) continue;
      if (!parent.checkVisibility()) continue;
      const text = node.nodeValue ?? '';
      if (/\$|\\(?:[a-zA-Z]+|[,;!])/.test(text)) found.push(`${parent.closest('[id]')?.id ?? '?'}: ${text.trim().slice(0, 80)}`);
    }
    return found;
  });
}

test('the chapter headings are on the page before any scrolling, in order', async () => {
  const { page, errors } = await site.newPage('index.html');
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  const headings = (await outline(page)).filter((part) => part.level === 'H2').map((part) => part.heading);
  const chapter = headings.filter((text) => CHAPTER_SECTIONS.includes(text));
  assert.deepEqual(chapter, CHAPTER_SECTIONS);
  assert.deepEqual(errors, []);
});

/// Opens `path`, scrolls to every waiting figure and checks the whole chapter as the reader sees it.
async function followsTheChapter(path) {
  const { page, errors } = await site.newPage(path);
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  // The exercises' answers wait behind "Check your answer": open them, as a reader would.
  await page.evaluate(() => {
    for (const details of document.querySelectorAll('#kl-page details')) details.open = true;
  });
  // Scroll to each figure still waiting (mounting one moves the ones below), as a reader would.
  // Found and scrolled to in one task: a place found by one call and scrolled to by the next can
  // have mounted in between, and a scroll then waits for a place that is gone.
  for (let step = 0; step < 4 * widgetNames.length; step++) {
    const scrolled = await page.evaluate(() => {
      // A section's figure place once its prose is in (the prose, with its code listings, can be tall).
      const waiting = document.querySelector('.kl-section--waiting .kl-figure-waiting, .kl-section--waiting:not(:has(.kl-figure-waiting))');
      waiting?.scrollIntoView({ block: 'center' });
      return Boolean(waiting);
    });
    if (!scrolled) break;
    await nextFrames(page);
  }
  await page.waitForFunction(() => !document.querySelector('.kl-section--waiting'), null, { timeout: 30000 });
  await page.evaluate(() => {
    for (const details of document.querySelectorAll('#kl-page details')) details.open = true;
    window.scrollTo(0, document.documentElement.scrollHeight);
  });
  assert.equal(await page.locator('.kl-section .kl-widget').count(), widgetNames.length);

  // Typesetting is asynchronous: read again after each rendered frame, then name what is still raw.
  let raw = [];
  for (const deadline = Date.now() + 15000; Date.now() < deadline; await nextFrames(page)) {
    raw = await rawTex(page);
    if (raw.length === 0) break;
  }
  assert.deepEqual(raw, [], 'raw TeX on the page');

  const parts = await outline(page);
  const chapterPart = parts.filter((part) => !part.inBeyond);
  // Every h2 before the figures beyond the chapter is one of the chapter's sections, in order.
  assert.deepEqual(
    chapterPart.filter((part) => part.level === 'H2').map((part) => part.heading),
    CHAPTER_SECTIONS,
    'the chapter sections',
  );
  // Headings, sidebars and equation tags as the chapter orders them (each once: a repeat breaks it).
  const skeleton = chapterPart
    .filter((part) => part.tag || OUTLINE_HEADINGS.has(part.heading))
    .map((part) => (part.tag ? { tag: part.tag } : { heading: part.heading }));
  assert.deepEqual(skeleton, CHAPTER_OUTLINE, 'chapter outline');
  // No tag anywhere (beyond the chapter too) reuses one, and no heading appears twice.
  const tags = parts.filter((part) => part.tag).map((part) => part.tag);
  assert.deepEqual(tags, [...new Set(tags)], 'equation tags are unique');
  const headings = parts.filter((part) => part.heading).map((part) => part.heading);
  assert.deepEqual(
    headings.filter((text, i) => headings.indexOf(text) !== i),
    [],
    'headings that appear twice',
  );
  // The figures run in the chapter's numbering.
  const figures = await page
    .locator('.kl-widget__figure')
    .evaluateAll((nodes) => nodes.map((node) => Number(/Figure (\d+\.\d+)/.exec(node.textContent)?.[1])));
  assert.deepEqual(figures, [...figures].sort((a, b) => a - b), 'figure numbers in order');
  assert.deepEqual(errors, []);
}

test('scrolled through, the full page follows the chapter: headings, sidebars, tags, no raw TeX', () => followsTheChapter('index.html'));
test('scrolled through, the standalone file follows the chapter too', () => followsTheChapter('kernel-lens-standalone.html'));
