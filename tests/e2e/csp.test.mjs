// Every page of the site under the strict Content-Security-Policy of the embedding guide: no eval,
// no inline script, nothing fetched from another origin, no violation reported, no console error.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { embedPath, openSite, waitForText } from './harness.mjs';
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
  test(`a policy without ${missing}: the figure names the directive, not the connection or the file`, async () => {
    const strict = await openSite({ headers: { 'content-security-policy': policy } });
    try {
      const { page } = await strict.newPage(embedPath('lookup'));
      const message = await waitForText(page.locator('.kl-widget__error'), /could not be/);
      assert.match(message, expected);
      assert.doesNotMatch(message, /check the connection|corrupt/);
    } finally {
      await strict.close();
    }
  });
}
