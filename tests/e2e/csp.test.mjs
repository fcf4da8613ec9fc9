// Every page of the site under the strict Content-Security-Policy of the embedding guide: no eval,
// no inline script, nothing fetched from another origin, no violation reported, no console error.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { elementReady, embedPath, openHostedSite, openSite, waitForText } from './harness.mjs';
import { settle, widgetNames } from './widget-list.mjs';

export const STRICT_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "worker-src 'self' blob:",
].join('; ');

let site;
before(async () => {
  site = await openSite({ headers: { 'content-security-policy': STRICT_CSP } });
});
after(async () => {
  await site?.close();
});

/// A page in its own context that records the policy's violation reports, console errors and
/// every request that leaves the site, from `path` on.
async function open() {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  await context.addInitScript(() => {
    window.__violations = [];
    addEventListener('securitypolicyviolation', (event) =>
      window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const page = await context.newPage();
  const errors = [];
  const foreign = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(site.url) && !/^(data|blob):/.test(url)) foreign.push(url);
  });
  return { page, errors, foreign, context };
}

async function visit(path) {
  const opened = await open();
  await opened.page.goto(site.url + path);
  return opened;
}

test('the served pages carry the policy', async () => {
  const response = await fetch(site.url + 'embed.html');
  assert.equal(response.headers.get('content-security-policy'), STRICT_CSP);
});

test('lookup computes the chapter numbers under the policy (worker and wasm allowed)', async () => {
  const { page, errors, context } = await visit(embedPath('lookup'));
  assert.equal(await waitForText(page.getByTestId('prediction'), /\d/), '2.7412');
  await page.getByRole('slider', { name: /bandwidth/ }).press('ArrowRight');
  await waitForText(page.getByTestId('prediction'), /^(?!2\.7412$)\d/);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(errors, []);
  await context.close();
});

// One page visits every address (each visit is a new document under the policy).
let visiting;
const PATHS = ['index.html', ...widgetNames.map((name) => embedPath(name))];
for (const path of PATHS) {
  test(`${path}: no violation, no error, nothing from elsewhere`, async () => {
    visiting ??= await open();
    const { page, errors, foreign, context } = visiting;
    errors.length = 0;
    foreign.length = 0;
    await page.goto(site.url + path);
    await settle(page);
    assert.equal(await page.locator('.kl-widget__error:visible').count(), 0, 'no widget shows an error');
    assert.deepEqual(await page.evaluate(() => window.__violations), []);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, []);
    if (path === PATHS.at(-1)) await context.close();
  });
}

/// A host policy that leaves out what the core needs: the figure names the directive to change.
for (const { missing, policy, expected } of [
  {
    missing: "'wasm-unsafe-eval'",
    policy: STRICT_CSP.replace(" 'wasm-unsafe-eval'", ''),
    expected: /could not be compiled: the page's Content-Security-Policy does not allow WebAssembly; the page must add 'wasm-unsafe-eval' to script-src/,
  },
  {
    missing: 'connect-src',
    policy: `${STRICT_CSP}; connect-src 'none'`,
    expected: /could not be downloaded: the page's Content-Security-Policy blocks it \(connect-src\); the page must allow http:\/\/127\.0\.0\.1:\d+ in connect-src/,
  },
]) {
  test(`a policy without ${missing}: the figure names the directive, not the connection or the file, and the console says it once`, async () => {
    const strict = await openSite({ headers: { 'content-security-policy': policy } });
    try {
      const { page } = await strict.newPage('about:blank');
      const warnings = [];
      page.on('console', (line) => {
        if (line.type() === 'warning' && line.text().startsWith('Kernel Lens:')) warnings.push(line.text());
      });
      await page.goto(strict.url + embedPath('lookup'));
      const message = await waitForText(page.locator('.kl-widget__error'), /could not be/);
      assert.match(message, expected);
      assert.doesNotMatch(message, /check the connection|corrupt/);
      // A second failure of the same kind (Retry) gives the figure's message again, not the console's.
      await page.locator('.kl-widget__retry').click();
      await waitForText(page.locator('.kl-widget__error'), /could not be/);
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(warnings[0], /docs\/embedding\.md/);
      assert.match(warnings[0].replace(/^Kernel Lens: /, ''), new RegExp(expected.source.replace(/^could not be (compiled|downloaded): /, '')));
    } finally {
      await strict.close();
    }
  });
}

/// A host page on another origin whose policy blocks the loader itself (script-src 'self'): no
/// script of ours runs, so the element's own text (as the copied snippet carries it) says what to
/// allow; where the loader runs, that text is replaced by the figure.
test("a host policy that blocks the loader: the element's text says what to allow, and is gone once the figure loads", async () => {
  const element = (siteUrl) =>
    `<script type="module" src="${siteUrl}kernel-lens.js"></script>
<kernel-lens-figure widget="lookup">Kernel Lens figure: loading ${siteUrl}kernel-lens.js. If this stays, the page's Content-Security-Policy must allow ${siteUrl.replace(/\/$/, '')} in script-src.</kernel-lens-figure>`;
  const page = (siteUrl, policy) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">${policy}<title>Notes</title></head>
<body><h1>Notes</h1>${element(siteUrl)}</body></html>`;
  const hosted = await openHostedSite({
    'blocked.html': (siteUrl) => page(siteUrl, `<meta http-equiv="Content-Security-Policy" content="script-src 'self'">`),
    'open.html': (siteUrl) => page(siteUrl, ''),
  });
  try {
    const context = await hosted.browser.newContext();
    const tab = await context.newPage();
    const blocked = new Promise((resolve) => tab.on('console', (line) => /kernel-lens\.js/.test(line.text()) && resolve(line.text())));
    await tab.goto(`${hosted.host.url}blocked.html`);
    await blocked;
    const text = tab.locator('kernel-lens-figure');
    assert.ok(await text.isVisible(), 'the text shows where the loader is blocked');
    assert.match(await text.innerText(), /must allow http:\/\/127\.0\.0\.1:\d+ in script-src/);

    await tab.goto(`${hosted.host.url}open.html`);
    const figure = tab.locator('kernel-lens-figure');
    await elementReady(figure);
    assert.equal(await figure.getByTestId('prediction').textContent(), '2.7412');
    // The light-DOM text is not rendered beside the figure, nor in the accessibility tree.
    assert.equal(await figure.evaluate((node) => [...node.childNodes].some((child) => child.nodeType === 3 && (() => { const range = document.createRange(); range.selectNodeContents(child); return range.getClientRects().length > 0; })())), false);
    const snapshot = await tab.locator('body').ariaSnapshot();
    assert.doesNotMatch(snapshot, /If this stays/);
    await context.close();
  } finally {
    await hosted.close();
  }
});
