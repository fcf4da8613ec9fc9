// Charts a reader can use without seeing colour or the canvas (WCAG 1.1.1, 1.4.1, 1.4.11, 2.1.1):
// in every figure's embed, light and dark, each chart is one keyboard stop whose arrow keys read
// another point and whose "Show data" table has a row per point; curves sharing a chart differ by
// more than hue (dash or marker); every theme colour drawn on a chart's canvas stands at 3:1 or
// more against the canvas background. Each embed is loaded once, light, and flipped to dark in
// place. The attention map reads q, kᵢ and the weight cell by cell. Screenshots (KERNEL_LENS_SCREENSHOTS=1)
// go to build/screenshots/access-<figure>-<theme>.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { embedPath, flipTheme, openSite, screenshot } from './harness.mjs';
import { settle, widgetNames } from './widget-list.mjs';

let site;
before(async () => {
  site = await openSite({ viewport: { width: 1000, height: 900 } });
});
after(async () => {
  await site?.close();
});

/// Colours drawn on each chart canvas, measured in the page: for every theme colour drawn on 20
/// pixels or more, its contrast against the canvas background; and each text field's border against
/// what is behind it.
function measureCanvases() {
  const rgb = (css) => {
    const probe = document.createElement('canvas').getContext('2d');
    probe.fillStyle = css;
    const hex = probe.fillStyle;
    if (!hex.startsWith('#')) return null;
    const n = parseInt(hex.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  };
  const lum = ([r, g, b]) =>
    [r, g, b].map((c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const root = document.querySelector('[data-kl-theme]') ?? document.documentElement;
  const style = getComputedStyle(root);
  const names = ['navy', 'orange', 'brown', 'grey', 'truth', 'sample', ...[1, 2, 3, 4, 5, 6].map((i) => `series-${i}`)];
  const theme = new Map(names.map((name) => [String(rgb(style.getPropertyValue(`--kl-${name}`).trim())), name]));
  const found = [];
  for (const canvas of document.querySelectorAll('canvas:not(.kl-heatmap canvas)')) {
    const context = canvas.getContext('2d');
    const { width, height } = canvas;
    if (!context || width < 10 || height < 10) continue;
    const pixels = context.getImageData(0, 0, width, height).data;
    const background = [pixels[0], pixels[1], pixels[2]];
    const counts = new Map([...theme.keys()].map((key) => [key, 0]));
    for (let o = 0; o < pixels.length; o += 4) {
      const key = `${pixels[o]},${pixels[o + 1]},${pixels[o + 2]}`;
      if (counts.has(key)) counts.set(key, counts.get(key) + 1);
    }
    for (const [key, count] of counts) {
      if (count < 20) continue;
      found.push({ chart: canvas.getAttribute('aria-label').slice(0, 60), color: theme.get(key), ratio: ratio(key.split(',').map(Number), background) });
    }
  }
  // Text fields: the border against what is behind the field.
  const behind = (element) => {
    for (let node = element.parentElement; node; node = node.parentElement) {
      const color = rgb(getComputedStyle(node).backgroundColor);
      if (color && getComputedStyle(node).backgroundColor !== 'rgba(0, 0, 0, 0)') return color;
    }
    return rgb(style.getPropertyValue('--kl-page').trim());
  };
  for (const field of document.querySelectorAll('input.kl-input, textarea')) {
    const border = rgb(getComputedStyle(field).borderTopColor);
    if (border && field.checkVisibility()) found.push({ chart: `text field ${field.getAttribute('aria-label') ?? ''}`, color: 'border', ratio: ratio(border, behind(field)) });
  }
  return found;
}

// One page visits every figure, each loaded once in the reader's system theme: its colours are
// measured light, then flipped to dark in place (theme-flip.test.mjs shows a flipped figure's
// charts equal a freshly opened dark one's) and measured again; then its charts are read from the
// keyboard (reading and tables do not depend on the theme).
let visitor;
for (const name of widgetNames) {
  test(`${name}: every theme colour on a chart stands at 3:1, light and dark; every chart is explorable, with a data table and no hue-only series`, async () => {
    visitor ??= await site.visitor({ viewport: { width: 1000, height: 900 } });
    const { page, errors } = visitor;
    errors.length = 0;
    const problems = [];
    await page.emulateMedia({ colorScheme: 'light' });
    await visitor.visit(embedPath(name));
    await settle(page);
    for (const theme of ['light', 'dark']) {
      if (theme === 'dark') {
        await flipTheme(page, theme);
        await settle(page);
      }
      for (const { chart, color, ratio } of await page.evaluate(measureCanvases)) {
        if (ratio < 3) problems.push(`${name}: ${color} at ${ratio.toFixed(2)}:1 in "${chart}" (${theme})`);
      }
      await screenshot({ screenshot: (o) => page.screenshot({ ...o, fullPage: true }) }, `access-${name}-${theme}`);
    }
    const charts = page.locator('[data-kl-explore]');
    const count = await charts.count();
    if (count === 0 && (await page.locator('canvas').count()) > 0) problems.push(`${name}: no explorable chart`);
    for (let i = 0; i < count; i++) {
      const chart = charts.nth(i);
      const label = (await chart.getAttribute('aria-label')) ?? '';
      // A chart with nothing to draw (the naive weights, all 0 ÷ 0) says so.
      if (label.includes('. No data drawn.')) continue;
      if (!/\d/.test(label)) problems.push(`${name} chart ${i}: its name states no number: "${label.slice(0, 80)}"`);
      const looks = (await chart.getAttribute('data-kl-looks'))?.split('|') ?? [];
      const lines = looks.filter((look) => !look.startsWith('none '));
      if (new Set(lines).size !== lines.length) problems.push(`${name} chart ${i}: curves told apart by hue alone (${looks.join(' | ')})`);
      await chart.focus();
      const reads = [];
      for (const key of ['ArrowRight', 'Home', 'ArrowDown']) {
        await page.keyboard.press(key);
        reads.push(await chart.getAttribute('data-kl-read'));
      }
      if (!reads[0] || new Set(reads).size < 2) problems.push(`${name} chart ${i}: arrow keys read ${JSON.stringify(reads)}`);
      const live = await chart.evaluate((box) => box.querySelector('[aria-live="polite"]')?.textContent ?? null);
      if (live !== reads.at(-1)) problems.push(`${name} chart ${i}: the live region says ${JSON.stringify(live)}`);
      const table = await chart.evaluate((box) => {
        const details = box.closest('.kl-heatmap')?.nextElementSibling ?? box.nextElementSibling;
        if (!(details instanceof HTMLDetailsElement)) return null;
        details.open = true;
        return new Promise((done) =>
          requestAnimationFrame(() => {
            const t = details.querySelector('table');
            done(t ? { rows: t.tBodies[0].rows.length, headers: t.tHead.querySelectorAll('th').length, caption: Boolean(t.caption?.textContent) } : { note: details.textContent });
          }),
        );
      });
      if (!table) problems.push(`${name} chart ${i}: no Show data disclosure`);
      else if (table.rows !== undefined && (!table.headers || !table.caption || table.rows < 1)) problems.push(`${name} chart ${i}: table ${JSON.stringify(table)}`);
      if (table?.rows !== undefined && !(await chart.evaluate((box) => box.matches('.kl-heatmap__plot')))) {
        // The summary gives each series' count of points ("601 points"; a single point has none).
        const summary = label.slice(label.indexOf(' series; '));
        const points = summary.match(/\d+ points/g)?.map((m) => parseInt(m, 10)) ?? [];
        const series = Number(label.match(/(\d+) series; /)?.[1] ?? 0);
        const expected = points.reduce((a, b) => a + b, 0) + series - points.length;
        if (table.rows !== expected) problems.push(`${name} chart ${i}: table has ${table.rows} rows for ${expected} points`);
      }
    }
    for (const error of errors.splice(0)) problems.push(`${name}: console error ${error}`);
    assert.deepEqual(problems, []);
  });
}

test('the attention map is read cell by cell: q, kᵢ and the weight, also shown beside the cell', async () => {
  const { page } = await site.newPage(embedPath('attention-map'));
  await settle(page);
  const map = page.locator('.kl-heatmap__plot');
  await map.focus();
  await page.keyboard.press('ArrowRight');
  const first = await map.getAttribute('data-kl-read');
  assert.match(first ?? '', /^q = −?\d+\.\d\d, k₂ = −?\d+\.\d\d, weight /);
  await page.keyboard.press('ArrowUp');
  // Another row: its weights are computed, then read.
  await page.waitForFunction(() => /weight \d/.test(document.querySelector('.kl-heatmap__plot')?.dataset.klRead ?? ''));
  const second = await map.getAttribute('data-kl-read');
  assert.notEqual(second, first);
  assert.equal(await page.locator('.kl-heatmap__cell').textContent(), second);
  assert.ok(await page.locator('.kl-heatmap__cell').isVisible());
});
