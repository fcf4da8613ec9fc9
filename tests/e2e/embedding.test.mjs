// The ways to embed, in Chromium, with the site on a plain static host (its files sent with
// `Access-Control-Allow-Origin: *` and nothing else) and the course notes on a second origin:
// iframes sized by the loader alone (no inline code), <kernel-lens-figure> elements that keep the
// host's styles and keys out, pointer input under a slide deck's scaling, print media, a page
// without figures that fetches the loader only, and the standalone file opened from disk.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS, chromiumPath, distDir, figuresDrawn, nextFrames, screenshot, scrollToFigure, waitForText } from './harness.mjs';

/// The chapter's three-point lookup (q = 3.5, h = 0.6) and the OLS witness (q = 1.5): printed digits.
const LOOKUP_PREDICTION = '2.7412';
const OLS_WITNESS = '\u22120.1000';

let site;
let host;
let browser;
let hostDir;

/// A host page with loud inherited styles (a slide deck's 42 px centred capitals) and a document
/// keydown counter, as reveal.js has.
function hostPage(siteUrl, body) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Course notes</title>
<style>
  body { font: 42px/3 Georgia, serif; text-align: center; letter-spacing: 3px; text-transform: uppercase; word-spacing: 9px; }
</style>
<script>
  window.hostKeys = [];
  document.addEventListener('keydown', (event) => window.hostKeys.push(event.key));
</script>
</head>
<body>
<h1>Course notes with Kernel Lens figures</h1>
${body}
<script type="module" src="${siteUrl}kernel-lens.js"></script>
</body>
</html>`;
}

const PAGES = {
  'index.html': (siteUrl) =>
    hostPage(
      siteUrl,
      `<iframe id="frame-lookup" data-kernel-lens title="Kernel Lens: lookup" width="100%" height="150" style="border:0"
        src="${siteUrl}embed.html?widget=lookup&q=3.5&h=0.6" allow="clipboard-write"></iframe>
<iframe id="frame-ols" data-kernel-lens title="Kernel Lens: OLS versus NW" width="100%" height="150" style="border:0"
        src="${siteUrl}embed.html?widget=ols-vs-nw"></iframe>
<kernel-lens-figure id="element-lookup" widget="lookup" h="1" q="3.5"></kernel-lens-figure>
<kernel-lens-figure id="element-ols" widget="ols-vs-nw" theme="dark" font="inherit"></kernel-lens-figure>`,
    ),
  'plain.html': (siteUrl) => hostPage(siteUrl, '<p>No figure on this page.</p>'),
  'far.html': (siteUrl) =>
    hostPage(siteUrl, `<div style="height: 6000px">Scroll</div><kernel-lens-figure id="far" widget="lookup"></kernel-lens-figure>`),
  'far-frame.html': (siteUrl) =>
    hostPage(
      siteUrl,
      `<div style="height: 3000px">Scroll</div>
<iframe id="frame-smoothing" data-kernel-lens title="Kernel Lens: smoothing" width="100%" height="700" style="border:0"
        src="${siteUrl}embed.html?widget=smoothing"></iframe>`,
    ),
  'scaled.html': (siteUrl) =>
    hostPage(
      siteUrl,
      `<div style="width: 900px"><kernel-lens-figure id="plain" widget="lookup"></kernel-lens-figure></div>
<div style="width: 900px; transform: scale(0.5); transform-origin: 0 0; height: 600px"><kernel-lens-figure id="scaled" widget="lookup"></kernel-lens-figure></div>
<div style="width: 900px; zoom: 0.5"><kernel-lens-figure id="zoomed" widget="lookup"></kernel-lens-figure></div>`,
    ),
  'math.html': (siteUrl) =>
    hostPage(siteUrl, `<p class="katex">The host's own element of class katex.</p>
<kernel-lens-figure id="bank" widget="memory-bank"></kernel-lens-figure>`),
};

before(async () => {
  // A plain static host: CORS for the element's script, stylesheet, worker and wasm, no isolation.
  site = await startServer({ root: distDir, headers: { 'access-control-allow-origin': '*' } });
  hostDir = await mkdtemp(join(tmpdir(), 'kernel-lens-host-'));
  for (const [name, page] of Object.entries(PAGES)) await writeFile(join(hostDir, name), page(site.url));
  // Course notes: an ordinary page on another origin, not cross-origin isolated.
  host = await startServer({ root: hostDir });
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
});

after(async () => {
  await browser?.close();
  await host?.close();
  await site?.close();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

async function open(url, viewport = { width: 900, height: 900 }, recordRequests = false) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  if (recordRequests) {
    page.requests = [];
    page.on('request', (request) => page.requests.push(request.url()));
  }
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  return { page, errors, context };
}

/// Waits until the iframe's height equals its document's height (rounded up) and returns both.
/// The iframe is scrolled into view first: a cross-origin iframe out of view is not rendered, so
/// its figure reports a new height only once it comes into view.
async function settledHeight(page, id) {
  const frame = page.frameLocator(`#${id}`);
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
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
    await nextFrames(page);
  }
  throw new Error(`iframe #${id} never fitted its content: ${JSON.stringify(last)}`);
}

test('the loader sizes two iframes to their figures (no scroll bars, no inline code) and they show the chapter numbers', async () => {
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
  // The loader sets the iframe's height from the figure's next height message.
  await page.waitForFunction((height) => document.querySelector('#frame-lookup').getBoundingClientRect().height > height, first.outer);
  const grown = await settledHeight(page, 'frame-lookup');
  assert.ok(grown.outer > first.outer, `the iframe grew with its figure (${first.outer} → ${grown.outer})`);
  await screenshot(page, 'embedding-host');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an iframe in auto theme follows the host page\'s dark switch, which the loader passes on', async () => {
  const { page, errors, context } = await open(host.url);
  const lookup = page.frameLocator('#frame-lookup');
  assert.equal(await waitForText(lookup.getByTestId('prediction'), /\d/), LOOKUP_PREDICTION);
  const frameTheme = () => lookup.locator('html').getAttribute('data-kl-theme');
  assert.equal(await frameTheme(), 'light');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await expectEventually(frameTheme, 'dark');
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
  await expectEventually(frameTheme, 'light');
  assert.deepEqual(errors, []);
  await context.close();
});

async function expectEventually(read, expected) {
  let value;
  for (let attempt = 0; attempt < 100; attempt++) {
    value = await read();
    if (value === expected) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  assert.equal(value, expected);
}

test('height messages from any other window or origin are ignored by the loader', async () => {
  const { page, context } = await open(host.url);
  const lookup = page.frameLocator('#frame-lookup');
  await waitForText(lookup.getByTestId('prediction'), /\d/);
  const { outer } = await settledHeight(page, 'frame-lookup');
  // Same message shape, but posted by the host page itself (the wrong origin and the wrong source).
  // Messages are dispatched in order: once a message posted after it arrives, the loader has
  // handled the forged one.
  await page.evaluate(
    () =>
      new Promise((done) => {
        addEventListener('message', function seen(event) {
          if (event.data !== 'after the forged one') return;
          removeEventListener('message', seen);
          requestAnimationFrame(() => done());
        });
        window.postMessage({ type: 'kernel-lens:height', height: 37 }, '*');
        window.postMessage('after the forged one', '*');
      }),
  );
  const after = await page.locator('#frame-lookup').evaluate((node) => node.getBoundingClientRect().height);
  assert.equal(after, outer);
  await context.close();
});

test('two custom elements: shadow-root styles, one shared core, attributes observed', async () => {
  const { page, errors, context } = await open(host.url);
  const element = page.locator('#element-lookup');
  const prediction = element.getByTestId('prediction');
  await element.scrollIntoViewIfNeeded();
  await waitForText(prediction, /\d/);
  await page.locator('#element-ols').scrollIntoViewIfNeeded();
  assert.equal(await waitForText(page.locator('#element-ols').getByTestId('ols-prediction'), /\d/), OLS_WITNESS);

  // Styles live in the shadow root: the host page's own elements are untouched by them, and the
  // host's inherited text styles stop at the figure's edge.
  const isolated = await page.evaluate(() => {
    const figure = document.querySelector('#element-lookup');
    const frame = figure.shadowRoot.querySelector('.kl-widget');
    const caption = getComputedStyle(figure.shadowRoot.querySelector('.kl-widget__title'));
    const control = getComputedStyle(figure.shadowRoot.querySelector('.kl-control'));
    return {
      open: figure.shadowRoot.mode,
      framed: getComputedStyle(frame).borderRadius,
      leaked: document.querySelectorAll('link[href*="kernel-lens.css"], style').length,
      caption: [caption.fontSize, caption.textAlign, caption.textTransform, caption.letterSpacing, caption.wordSpacing, caption.fontFamily],
      lineHeight: parseFloat(caption.lineHeight) / parseFloat(caption.fontSize),
      control: control.fontSize,
    };
  });
  assert.equal(isolated.open, 'open');
  assert.equal(isolated.framed, '10px');
  assert.equal(isolated.leaked, 1, "only the host page's own <style>");
  assert.deepEqual(isolated.caption.slice(0, 5), ['16px', 'start', 'none', 'normal', '0px']);
  assert.doesNotMatch(isolated.caption[5], /Georgia/);
  assert.ok(Math.abs(isolated.lineHeight - 1.55) < 0.01, `line height ${isolated.lineHeight}`);
  assert.equal(isolated.control, '15.2px');

  // theme="dark" and font="inherit" reach the figure's root; the other figure follows the page (light).
  await page.locator('#element-ols').scrollIntoViewIfNeeded();
  await waitForText(page.locator('#element-ols').getByTestId('ols-prediction'), /\d/);
  const themed = await page.evaluate(() =>
    ['#element-lookup', '#element-ols'].map((id) => {
      // The element is its figure's theme root; the text inside takes the font.
      const element = document.querySelector(id);
      const root = element.shadowRoot.querySelector('.kl-element');
      return { theme: element.dataset.klTheme, font: element.dataset.klFont ?? null, family: getComputedStyle(root).fontFamily };
    }),
  );
  assert.equal(themed[0].theme, 'light');
  assert.equal(themed[1].theme, 'dark');
  assert.equal(themed[1].font, 'inherit');
  assert.match(themed[1].family, /Georgia/);
  await page.evaluate(() => document.querySelector('#element-ols').setAttribute('theme', 'light'));
  await page.waitForFunction(() => document.querySelector('#element-ols').dataset.klTheme === 'light');
  // theme="auto" (the default) follows the host's own dark switch on <html>, live.
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await page.waitForFunction(() => document.querySelector('#element-lookup').dataset.klTheme === 'dark');
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.waitForFunction(() => document.querySelector('#element-lookup').dataset.klTheme === 'light');
  // Quarto's toggle marks <body> instead.
  await page.evaluate(() => document.body.classList.add('quarto-dark'));
  await page.waitForFunction(() => document.querySelector('#element-lookup').dataset.klTheme === 'dark');
  await page.evaluate(() => document.body.classList.replace('quarto-dark', 'quarto-light'));
  await page.waitForFunction(() => document.querySelector('#element-lookup').dataset.klTheme === 'light');

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
  assert.equal(await page.locator('#element-lookup').locator('.kl-widget').count(), 1, 'one figure after the attribute change');
  await screenshot(page, 'embedding-elements');
  assert.deepEqual(errors, []);
  await context.close();
});

test("math in a custom element is set in KaTeX's fonts; KaTeX's stylesheet stays in its shadow root; a figure without math fetches none of it", async () => {
  const { page, errors, context } = await open(`${host.url}math.html`, { width: 900, height: 900 }, true);
  const bank = page.locator('#bank');
  await bank.locator('.kl-bank__jobs .katex').first().waitFor({ timeout: 30000 });
  const fonts = await page.evaluate(async () => {
    await document.fonts.ready;
    const root = document.querySelector('#bank').shadowRoot;
    return {
      loaded: [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family),
      shadowLinks: [...root.querySelectorAll('link[rel=stylesheet]')].map((link) => new URL(link.href).pathname.split('/').pop()),
      documentLinks: [...document.querySelectorAll('link[rel=stylesheet]')].length,
      // The host's own .katex element keeps the host's styles (no KaTeX rule reached the page).
      hostKatexFont: getComputedStyle(document.querySelector('p.katex')).fontFamily,
    };
  });
  assert.ok(fonts.loaded.includes('KaTeX_Main'), JSON.stringify(fonts));
  assert.ok(fonts.shadowLinks.some((name) => /^katex\.min-[\w-]+\.css$/.test(name)), JSON.stringify(fonts));
  assert.equal(fonts.documentLinks, 0);
  assert.match(fonts.hostKatexFont, /Georgia/);
  // The glyphs drawn are KaTeX's (CDP names the platform font used for a formula's text).
  const cdp = await context.newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
  const find = (node) => {
    if (node.attributes?.includes('mord')) return node;
    for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) {
      const found = find(child);
      if (found) return found;
    }
    return null;
  };
  const mord = find(root);
  assert.ok(mord, 'a formula in the shadow root');
  const { fonts: used } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId: mord.nodeId });
  assert.ok(used.every((font) => font.isCustomFont && /^KaTeX_/.test(font.familyName)), JSON.stringify(used));
  assert.deepEqual(errors, []);
  await context.close();

  // The lookup has no math: no KaTeX stylesheet, font or script is fetched, and the site's
  // render-blocking stylesheet carries none of KaTeX's rules.
  const lookup = await open(`${site.url}embed.html?widget=lookup`, { width: 900, height: 900 }, true);
  await waitForText(lookup.page.getByTestId('prediction'), /\d/);
  await figuresDrawn(lookup.page);
  assert.deepEqual(lookup.page.requests.filter((url) => /katex/i.test(url)), []);
  const css = await (await fetch(`${site.url}assets/kernel-lens.css`)).text();
  assert.ok(!/@font-face|KaTeX_|(^|\})\.katex[\w-]*\{/.test(css), 'kernel-lens.css holds KaTeX rules');
  assert.deepEqual(lookup.errors, []);
  await lookup.context.close();
});

test('an iframe whose page is still on its way when the loader runs: no console error, sized once it arrives', async () => {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
  const messages = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') messages.push(message.text());
  });
  // The embed page arrives a second after the loader has run and looked at the iframes.
  await page.route('**/embed.html*', async (route) => {
    await new Promise((done) => setTimeout(done, 1000));
    await route.continue();
  });
  await page.goto(host.url + 'index.html');
  const fitted = await settledHeight(page, 'frame-lookup');
  assert.ok(fitted.outer > 200, JSON.stringify(fitted));
  assert.deepEqual(messages, []);
  await context.close();
});

test('an iframe added after load is sized by the loader too', async () => {
  const { page, errors, context } = await open(host.url + 'plain.html');
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.id = 'late';
    frame.dataset.kernelLens = '';
    frame.title = 'Kernel Lens: lookup';
    frame.width = '100%';
    frame.height = '120';
    frame.style.border = '0';
    frame.src = src;
    document.body.append(frame);
  }, `${site.url}embed.html?widget=lookup`);
  await waitForText(page.frameLocator('#late').getByTestId('prediction'), /\d/);
  await settledHeight(page, 'late');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the loader is small, and a page without figures fetches nothing else', async () => {
  const loader = await readFile(join(distDir, 'kernel-lens.js'));
  const gzip = gzipSync(loader, { level: 9 }).length;
  assert.ok(gzip <= 20000, `kernel-lens.js is ${gzip} bytes gzipped`);

  const { page, errors, context } = await open(host.url + 'plain.html', undefined, true);
  // The loader has run once the element is defined; anything it fetches at load it has asked for.
  await page.evaluate(() => customElements.whenDefined('kernel-lens-figure'));
  await page.waitForLoadState('load');
  await nextFrames(page);
  const fetched = page.requests.filter((url) => url.startsWith(site.url));
  assert.deepEqual(fetched, [`${site.url}kernel-lens.js`]);
  assert.ok(await page.evaluate(() => customElements.get('kernel-lens-figure') !== undefined));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a figure far below the viewport loads its code only when scrolled near, and print media mounts it at once', async () => {
  const { page, errors, context } = await open(host.url + 'far.html', undefined, true);
  await page.evaluate(() => customElements.whenDefined('kernel-lens-figure'));
  await page.waitForLoadState('load');
  await nextFrames(page);
  assert.ok(!page.requests.some((url) => url.includes('kernel-lens-figure')), 'no figure code yet');
  await page.emulateMedia({ media: 'print' });
  const far = page.locator('#far');
  await waitForText(far.getByTestId('prediction'), /\d/);
  const printed = await page.evaluate(() => {
    const root = document.querySelector('#far').shadowRoot;
    const visible = (node) => node.getBoundingClientRect().height > 0;
    return {
      buttons: [...root.querySelectorAll('button, .kl-share, summary')].filter(visible).length,
      sliders: [...root.querySelectorAll('input[type="range"]')].filter(visible).length,
      unbroken: getComputedStyle(document.querySelector('#far')).breakInside,
    };
  });
  assert.equal(printed.buttons, 0, 'buttons and the share row are hidden on paper');
  assert.ok(printed.sliders > 0, 'the sliders stay: they show the values');
  assert.equal(printed.unbroken, 'avoid');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an iframe never scrolled into view prints its chart with every curve', async () => {
  const { page, errors, context } = await open(host.url + 'far-frame.html');
  const frame = page.frameLocator('#frame-smoothing');
  // The figure's numbers arrive; its chart waits for a frame that Chromium does not render for a
  // cross-origin iframe out of view.
  await waitForText(frame.locator('.kl-table tbody td').first(), /\d/);
  // Every curve's numbers have arrived (no row still waits with "…").
  await frame.locator('.kl-table tbody').evaluate(
    (body) =>
      new Promise((done) => {
        const complete = () => !body.textContent.includes('…');
        if (complete()) return done();
        const observer = new MutationObserver(() => {
          if (!complete()) return;
          observer.disconnect();
          done();
        });
        observer.observe(body, { subtree: true, childList: true, characterData: true });
      }),
  );
  /// Pixels of the grid-minimum curve (h = 0.18, the chapter's #0072B2) on the chart's canvas.
  const bluePixels = () =>
    frame.locator('canvas[role="img"]').first().evaluate((canvas) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i] - 0x00) < 40 && Math.abs(data[i + 1] - 0x72) < 40 && Math.abs(data[i + 2] - 0xb2) < 40) count++;
      }
      return count;
    });
  const before = await bluePixels();
  await page.pdf({ format: 'A4' });
  const printed = await bluePixels();
  assert.ok(printed > 200, `the h = 0.18 curve is on the printed canvas (${before} pixels of it before printing, ${printed} after)`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on paper, a figure whose code has not arrived says what it is instead of printing a blank box', async () => {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
  // The browser's print menu does not wait for the code beforeprint starts loading: held here.
  await page.route('**/assets/kernel-lens-figure.js', () => {});
  await page.goto(host.url + 'far.html');
  await page.waitForLoadState('load');
  const note = () => page.evaluate(() => {
    const paragraph = document.querySelector('#far').shadowRoot.querySelector('.kl-element__print-note');
    return paragraph ? { text: paragraph.textContent, shown: getComputedStyle(paragraph).display !== 'none' } : null;
  });
  assert.deepEqual(await note(), { text: 'Interactive figure (Kernel Lens: lookup); it is drawn when the page is open in a browser.', shown: false });
  await page.emulateMedia({ media: 'print' });
  assert.equal((await note()).shown, true, 'the note prints');
  await context.close();
});

test('keys a focused control uses do not reach the host page; the control still answers them', async () => {
  const { page, errors, context } = await open(host.url);
  const figure = page.locator('#element-lookup');
  const prediction = figure.getByTestId('prediction');
  await figure.scrollIntoViewIfNeeded();
  await waitForText(prediction, /\d/);
  const bandwidth = figure.getByRole('slider', { name: /bandwidth/ });
  const before = await bandwidth.getAttribute('aria-valuetext');
  await bandwidth.focus();
  for (const key of ['ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End']) await page.keyboard.press(key);
  assert.notEqual(await bandwidth.getAttribute('aria-valuetext'), before, 'the slider moved');
  const rows = figure.locator('.kl-table tbody tr');
  const count = await rows.count();
  await figure.getByRole('button', { name: 'Add a point' }).focus();
  await page.keyboard.press('Enter');
  await rows.nth(count).waitFor();
  // Add puts the focus in the new row's key field; back on Add, Space adds another.
  await figure.getByRole('button', { name: 'Add a point' }).focus();
  await page.keyboard.press('Space');
  await rows.nth(count + 1).waitFor();
  assert.deepEqual(await page.evaluate(() => window.hostKeys), []);
  // Outside a control the host keeps its keys (a deck still turns slides).
  await page.locator('h1').click();
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await page.evaluate(() => window.hostKeys), ['ArrowRight']);
  assert.deepEqual(errors, []);
  await context.close();
});

/// Clicks the lookup figure's scatter plot at a fraction of its on-screen box (a press without a
/// drag adds a point) and returns the new table row's key and value.
async function addPointAt(page, id, fx, fy) {
  const figure = page.locator(`#${id}`);
  await waitForText(figure.getByTestId('prediction'), /\d/);
  const canvas = figure.locator('canvas[role="img"]').first();
  // The click must land inside the window: scroll the chart there first.
  await canvas.evaluate((node) => node.scrollIntoView({ block: 'center' }));
  const box = await canvas.boundingBox();
  const rows = figure.locator('.kl-table tbody tr');
  const count = await rows.count();
  await page.mouse.click(box.x + fx * box.width, box.y + fy * box.height);
  await rows.nth(count).waitFor();
  // The key and value are the row's number fields.
  const cells = await rows.nth(count).locator('td, th').evaluateAll((all) => all.map((cell) => cell.querySelector('input')?.value ?? cell.textContent));
  return cells.map((cell) => cell.trim()).filter((cell) => /^[\u2212-]?\d/.test(cell)).slice(0, 2);
}

test('a click adds a point at the same chart coordinates under transform: scale(0.5) and zoom: 0.5', async () => {
  const { page, errors, context } = await open(host.url + 'scaled.html', { width: 1000, height: 2400 });
  const plain = await addPointAt(page, 'plain', 0.3, 0.2);
  const scaled = await addPointAt(page, 'scaled', 0.3, 0.2);
  const zoomed = await addPointAt(page, 'zoomed', 0.3, 0.2);
  assert.equal(plain.length, 2, `row cells ${plain}`);
  const close = (a, b) => a.every((value, i) => Math.abs(Number(value.replace('\u2212', '-')) - Number(b[i].replace('\u2212', '-'))) <= 0.05);
  assert.ok(close(scaled, plain), `scaled ${scaled} vs ${plain}`);
  assert.ok(close(zoomed, plain), `zoomed ${zoomed} vs ${plain}`);
  await screenshot(page, 'embedding-scaled');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an LMS-style view of the uploaded standalone file: a sandboxed iframe (opaque origin) from a files domain', async () => {
  // Canvas and Moodle show an uploaded HTML file from a separate files origin, often in a
  // sandboxed frame without allow-same-origin: no storage, an opaque origin, no module workers
  // from blob URLs. The file must still compute and answer the keyboard there.
  const { page, errors, context } = await open(host.url + 'plain.html');
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.id = 'lms';
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.title = 'Uploaded file';
    frame.style.cssText = 'width: 900px; height: 900px; border: 0';
    frame.src = src;
    document.body.append(frame);
  }, `${site.url}kernel-lens-standalone.html?widget=lookup&q=3.5&h=0.6`);
  const frame = page.frameLocator('#lms');
  assert.equal(await waitForText(frame.getByTestId('prediction'), /\d/, 30000), LOOKUP_PREDICTION);
  await frame.getByRole('slider', { name: /bandwidth/ }).focus();
  await page.keyboard.press('ArrowRight');
  await waitForText(frame.getByTestId('prediction'), /^(?!2\.7412$)\d/);
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
  // Each figure mounts once the reader scrolls near it (the chapter's opening comes first).
  await scrollToFigure(full.page, 'section-lookup');
  assert.equal(await waitForText(full.page.locator('#section-lookup').getByTestId('prediction'), /\d/), LOOKUP_PREDICTION);
  await scrollToFigure(full.page, 'section-ols-vs-nw');
  assert.equal(await waitForText(full.page.locator('#section-ols-vs-nw').getByTestId('ols-prediction'), /\d/), OLS_WITNESS);
  assert.deepEqual(full.errors, []);
  await full.context.close();
});
