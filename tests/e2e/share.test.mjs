// Shareable state: every change is reflected into the address (replaceState), "Copy link" and
// "Copy embed code" copy it, and opening the link restores the figure exactly.
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

async function clipboard(page) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
  return () => page.evaluate(() => navigator.clipboard.readText());
}

/// Moves the figure's bandwidth and query sliders by the keyboard; returns their read-outs.
async function moveSliders(scope) {
  const bandwidth = scope.getByRole('slider', { name: /bandwidth/ }).first();
  const query = scope.getByRole('slider', { name: /query/ }).first();
  await bandwidth.focus();
  await bandwidth.press('ArrowRight');
  await bandwidth.press('ArrowRight');
  await query.focus();
  await query.press('ArrowLeft');
  return readSliders(scope);
}

async function readSliders(scope) {
  return {
    bandwidth: await scope.getByRole('slider', { name: /bandwidth/ }).first().getAttribute('aria-valuetext'),
    query: await scope.getByRole('slider', { name: /query/ }).first().getAttribute('aria-valuetext'),
  };
}

test('an embed reflects its state into the address and the copied link restores it exactly', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup'));
  const prediction = page.getByTestId('prediction');
  await waitForText(prediction, /^2\.7412$/);
  const sliders = await moveSliders(page);
  await page.waitForFunction(() => /[?&]h=/.test(location.search) && /[?&]q=/.test(location.search));
  const moved = await waitForText(prediction, /^(?!2\.7412$)\d/);
  const address = page.url();
  assert.match(address, /embed\.html\?widget=lookup&/);
  assert.equal(new URL(address).searchParams.get('q'), '3.45');

  const read = await clipboard(page);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await waitForText(page.locator('.kl-share__status'), /copied/);
  assert.equal(await read(), address);

  const restored = await site.newPage(address.slice(site.url.length));
  assert.equal(await waitForText(restored.page.getByTestId('prediction'), /\d/), moved);
  assert.deepEqual(await readSliders(restored.page), sliders);
  assert.deepEqual(errors, []);
  assert.deepEqual(restored.errors, []);
});

test('Copy embed code gives a self-sizing iframe of the current state with the parent listener', async () => {
  const { page } = await site.newPage(embedPath('lookup', { h: '0.8' }));
  await waitForText(page.getByTestId('prediction'), /\d/);
  const read = await clipboard(page);
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  await waitForText(page.locator('.kl-share__status'), /copied/);
  const code = await read();
  const src = /<iframe src="([^"]+)"/.exec(code)?.[1]?.replaceAll('&amp;', '&');
  assert.equal(src, `${site.url}embed.html?widget=lookup&h=0.8`);
  assert.match(code, /data-kernel-lens/);
  assert.match(code, /title="Kernel Lens: Figure 12\.1, A fixed Gaussian lookup"/);
  assert.ok(code.includes(`event.origin !== ${JSON.stringify(new URL(site.url).origin)}`), code);
  assert.match(code, /kernel-lens:height/);
});

test('the full page keeps each figure in <widget>.<param> entries and a copied link restores that figure', async () => {
  const { page, errors } = await site.newPage('index.html');
  const section = page.locator('#section-lookup');
  await waitForText(section.getByTestId('prediction'), /^2\.7412$/);
  const sliders = await moveSliders(section);
  await page.waitForFunction(() => /[?&]lookup\.h=/.test(location.search) && /[?&]lookup\.q=/.test(location.search));
  const moved = await waitForText(section.getByTestId('prediction'), /^(?!2\.7412$)\d/);

  const read = await clipboard(page);
  await section.getByRole('button', { name: 'Copy link' }).click();
  await waitForText(section.locator('.kl-share__status'), /copied/);
  const link = await read();
  assert.match(link, /index\.html\?lookup\.h=[\d.]+&lookup\.q=3\.45#section-lookup$/);

  const restored = await site.newPage(link.slice(site.url.length));
  const again = restored.page.locator('#section-lookup');
  assert.equal(await waitForText(again.getByTestId('prediction'), /\d/), moved);
  assert.deepEqual(await readSliders(again), sliders);
  // The other figures keep their defaults.
  await restored.page.locator('#section-ols-vs-nw').scrollIntoViewIfNeeded();
  assert.match(await waitForText(restored.page.locator('#section-ols-vs-nw').getByTestId('ols-prediction'), /\d/), /0\.1000$/);
  assert.deepEqual(errors, []);
  assert.deepEqual(restored.errors, []);
});
