// The two wasm modules: a figure that only needs the core never downloads the laboratory module;
// the first laboratory call loads it, in the same worker, and the audit then matches the chapter.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { embedPath, openSite, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

/// Opens `path` and records every wasm file fetched by the page or its worker.
async function wasmFetched(path) {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const fetched = [];
  context.on('request', (request) => {
    const name = new URL(request.url()).pathname.split('/').pop() ?? '';
    if (name.endsWith('.wasm')) fetched.push(name);
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(site.url + path);
  return { page, fetched, errors, close: () => context.close() };
}

test('the lookup loads only the core module', async () => {
  const { page, fetched, errors, close } = await wasmFetched(embedPath('lookup'));
  await waitForText(page.getByTestId('prediction'), /2\.7412/);
  await page.waitForTimeout(500);
  assert.ok(fetched.some((name) => name.startsWith('kernel_lens_core')), `fetched: ${fetched.join(', ')}`);
  assert.ok(!fetched.some((name) => name.startsWith('kernel_lens_lab')), `fetched: ${fetched.join(', ')}`);
  assert.deepEqual(errors, []);
  await close();
});

test('the audit loads the laboratory module on its first call and reproduces the chapter minimum', async () => {
  const { page, fetched, errors, close } = await wasmFetched(embedPath('bias-variance'));
  await waitForText(page.getByTestId('grid-minimum'), /h=0\.18, MSE=0\.0236/, 60000);
  assert.equal(fetched.filter((name) => name.startsWith('kernel_lens_lab')).length, 1, `fetched: ${fetched.join(', ')}`);
  assert.deepEqual(errors, []);
  await close();
});
