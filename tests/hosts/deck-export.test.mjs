// The decks' PDF exports: `marp --pdf` (tests/hosts/recipes/marp/export.md) and `slidev export`
// (tests/hosts/recipes/slidev/export.md: the element slides of its slides.md), each run once by its own exporter
// with the machine's Chromium, Kernel Lens on a second origin (127.0.0.1, another port). Both decks
// ask for the paper look the way docs/embedding.md says. Each PDF is read with poppler's pdftotext and
// rendered with pdftoppm: the chapter's numbers are there (the lookup's prediction and middle
// weight), no button or "drawn when open in a browser" note is, and the band between each figure's
// caption and its controls (where its charts are) is inked, in colour.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { CHAPTER, startKernelLens } from './harness.mjs';
import { RECIPES } from './recipes.mjs';

const exportsDir = fileURLToPath(new URL('../../build/hosts/export/', import.meta.url));
const DECKS = RECIPES.filter((candidate) => candidate.exportPdf);
const poppler = (command, args, encoding = 'utf8') => promisify(execFile)(command, args, { encoding, maxBuffer: 1 << 26 }).then(({ stdout }) => stdout);

/// What the figures show on screen only (`.kl-no-print`, `.kl-button`, the share row): none of it may reach paper.
const SCREEN_ONLY = [
  'Add a point',
  "Reset to the chapter's example",
  'Remove',
  'Show data',
  'Copy link',
  'Copy embed code',
  'Download',
  'Add a bandwidth',
  'Show the ±2 sd bands',
  // The note a figure that never mounted prints in its place.
  'drawn when the page is open in a browser',
  // A figure whose work could not be done (the worker's script not started, say).
  'could not',
];

/// Where each figure's charts are: below the last word of its caption, above the first word of its controls.
const CHARTS = [
  { figure: 'lookup', below: 'learned.', above: 'query' },
  { figure: 'smoothing', below: 'curve.', above: 'h1' },
];

/// The words of each page with their boxes in points: [{ width, height, words: [{ text, top, bottom }] }].
async function pageWords(pdf) {
  const html = await poppler('pdftotext', ['-bbox', pdf, '-']);
  return html.split('<page ').slice(1).map((page) => ({
    width: Number(/width="([\d.]+)"/.exec(page)[1]),
    height: Number(/height="([\d.]+)"/.exec(page)[1]),
    words: [...page.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g)].map(([, top, bottom, text]) => ({
      text,
      top: Number(top),
      bottom: Number(bottom),
    })),
  }));
}

/// Renders page `number` (from 1) at `dpi` and counts, between `top` and `bottom` (points), the
/// pixels with ink (any channel below 235) and those in colour (channels 60 or more apart).
async function inkBetween(pdf, number, top, bottom, dpi = 36) {
  const image = await poppler('pdftoppm', ['-r', String(dpi), '-f', String(number), '-l', String(number), '-singlefile', pdf], 'buffer');
  const [header, width, height] = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(image.toString('latin1', 0, 32));
  const scale = dpi / 72;
  const first = Math.max(0, Math.round(top * scale));
  const last = Math.min(Number(height), Math.round(bottom * scale));
  let ink = 0;
  let colour = 0;
  for (let row = first; row < last; row++) {
    for (let column = 0; column < Number(width); column++) {
      const at = header.length + 3 * (row * Number(width) + column);
      const [red, green, blue] = image.subarray(at, at + 3);
      if (Math.min(red, green, blue) < 235) ink++;
      if (Math.max(red, green, blue) - Math.min(red, green, blue) >= 60) colour++;
    }
  }
  return { ink: ink / ((last - first) * Number(width)), colour, rows: last - first };
}

let kernelLens;
before(async () => {
  kernelLens = await startKernelLens();
});
after(async () => {
  await kernelLens?.close();
});

for (const recipe of DECKS) {
  test(`${recipe.name}: the PDF export shows the figures' numbers and charts and no buttons`, async (t) => {
    assert.ok(recipe.installed(), `${recipe.dir} is not installed: run \`bash scripts/setup.sh --hosts\``);
    const started = Date.now();
    const exported = () => recipe.exportPdf({ origin: kernelLens.url.replace(/\/$/, ''), dir: `${exportsDir}${recipe.dir}` });
    let pdf = await exported();
    t.diagnostic(`${recipe.version()}: exported in ${((Date.now() - started) / 1000).toFixed(1)} s to ${pdf}`);
    let text = await poppler('pdftotext', [pdf, '-']);
    // Slidev's exporter now and then prints every page blank (no text at all, not even the slides'
    // own headings: seen in 3 of about 12 runs, with a warm and with a cold dev-server cache). One
    // more export is made then; the checks below hold for that one, which must not be blank.
    if (!text.trim()) {
      t.diagnostic(`the export came out blank (${text.length} characters of text); exporting once more`);
      pdf = await exported();
      text = await poppler('pdftotext', [pdf, '-']);
    }
    const log = readFileSync(pdf.replace(/\.pdf$/, '.log'), 'utf8');
    assert.match(text, new RegExp(`Prediction .* = ${CHAPTER.prediction.replace('.', '\\.')}`), `the lookup's prediction; the exporter said:\n${log}`);
    assert.ok(text.includes(CHAPTER.weight), `the lookup's middle weight ${CHAPTER.weight}`);
    const shown = SCREEN_ONLY.filter((words) => text.includes(words));
    assert.deepEqual(shown, [], 'screen-only controls or notes on paper');

    const pages = await pageWords(pdf);
    for (const { figure, below, above } of CHARTS) {
      // Each page with the figure's caption (the deck gives some figures twice: as an element and as an iframe).
      const numbers = pages.flatMap((page, number) => (page.words.some((word) => word.text === below) ? [number] : []));
      assert.equal(numbers.length, recipe.exported[figure], `${figure}: pages with its caption`);
      for (const number of numbers) {
        const { words } = pages[number];
        const caption = words.find((word) => word.text === below);
        const controls = words.find((word) => word.text === above && word.top > caption.bottom);
        assert.ok(controls, `${figure} (page ${number + 1}): no "${above}" below its caption`);
        const band = await inkBetween(pdf, number + 1, caption.bottom + 2, controls.top - 2);
        t.diagnostic(`${figure} (page ${number + 1}): charts band ${band.rows} px tall, ${(band.ink * 100).toFixed(1)} % inked, ${band.colour} px in colour`);
        assert.ok(band.rows > 60, `${figure} (page ${number + 1}): the charts band is only ${band.rows} px tall`);
        assert.ok(band.ink > 0.03 && band.colour > 200, `${figure} (page ${number + 1}): the charts are blank (${JSON.stringify(band)})`);
      }
    }
  });
}
