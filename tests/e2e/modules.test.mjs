// The two wasm modules: a figure that only needs the core never downloads the laboratory module;
// the first laboratory call loads it, in the same worker, and the audit then matches the chapter.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../scripts/serve.mjs';
import { distDir, embedPath, figuresDrawn, openSite, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

/// Opens `path` (on the site, or under `base`) and records every wasm file fetched by the page or
/// its worker.
async function wasmFetched(path, base = site.url) {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const fetched = [];
  context.on('request', (request) => {
    const name = new URL(request.url()).pathname.split('/').pop() ?? '';
    if (name.endsWith('.wasm')) fetched.push(name);
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(base + path);
  return { page, fetched, errors, close: () => context.close() };
}

test('the lookup loads only the core module', async () => {
  const { page, fetched, errors, close } = await wasmFetched(embedPath('lookup'));
  await waitForText(page.getByTestId('prediction'), /2\.7412/);
  // Every call of the figure is answered once it has drawn (a call of the laboratory's among them
  // would have fetched its module by then).
  await figuresDrawn(page);
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

test('a laboratory figure as a custom element on another origin loads the laboratory module there too', async () => {
  const cors = await startServer({ root: distDir, headers: { 'access-control-allow-origin': '*' } });
  const hostDir = await mkdtemp(join(tmpdir(), 'kernel-lens-modules-'));
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>
<script type="module" src="${cors.url}kernel-lens.js"></script></head>
<body><kernel-lens-figure widget="bias-variance" worlds="200"></kernel-lens-figure></body></html>`;
  await writeFile(join(hostDir, 'index.html'), page);
  const host = await startServer({ root: hostDir });
  try {
    const { page: opened, fetched, errors, close } = await wasmFetched('', host.url);
    await waitForText(opened.locator('kernel-lens-figure [data-testid=grid-minimum]'), /h=/, 60000);
    assert.ok(fetched.some((name) => name.startsWith('kernel_lens_lab')), `fetched: ${fetched.join(', ')}`);
    assert.deepEqual(errors, []);
    await close();
  } finally {
    await host.close();
    await cors.close();
    await rm(hostDir, { recursive: true, force: true });
  }
});
