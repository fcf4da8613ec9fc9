// Shareable state: every change is reflected into the address (replaceState), "Copy link" and
// "Copy embed code" copy it, and opening the link restores the figure exactly.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir, embedPath, openSite, scrollToFigure, waitForText } from './harness.mjs';

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

/// Opens "Copy embed code" in `scope` and copies the form named `label`; returns the copied text.
async function copyEmbed(page, scope, label, read) {
  const details = scope.locator('.kl-share__embed');
  if (!(await details.evaluate((node) => node.open))) await details.locator('summary').click();
  await scope.getByRole('button', { name: label, exact: true }).click();
  await waitForText(scope.locator('.kl-share__status'), new RegExp(`^${label} code copied`));
  return read();
}

test("the share row's disclosures are named by their words alone, not their drawn triangles", async () => {
  const { page } = await site.newPage(embedPath('lookup'));
  await waitForText(page.getByTestId('prediction'), /\d/);
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const names = nodes.filter((node) => node.role?.value === 'DisclosureTriangle').map((node) => node.name?.value);
  for (const words of ['Copy embed code', 'Download']) assert.ok(names.includes(words), `"${words}" among ${JSON.stringify(names)}`);
  assert.deepEqual(names.filter((name) => /[▸▾]/.test(name)), []);
  await cdp.detach();
});

test('Copy embed code offers the custom element and a self-sizing iframe without inline code', async () => {
  const { page } = await site.newPage(embedPath('lookup', { h: '0.8' }));
  await waitForText(page.getByTestId('prediction'), /\d/);
  const read = await clipboard(page);

  const element = await copyEmbed(page, page, 'Custom element', read);
  assert.equal(
    element,
    `<script type="module" src="${site.url}kernel-lens.js"></script>\n<kernel-lens-figure widget="lookup" h="0.8">Kernel Lens figure: loading ${site.url}kernel-lens.js. If this stays, the page's Content-Security-Policy must allow ${site.url.replace(/\/$/, '')} in script-src.</kernel-lens-figure>`,
  );

  const code = await copyEmbed(page, page, 'iframe', read);
  const src = /<iframe data-kernel-lens src="([^"]+)"/.exec(code)?.[1]?.replaceAll('&amp;', '&');
  assert.equal(src, `${site.url}embed.html?widget=lookup&h=0.8`);
  assert.match(code, /title="Kernel Lens: Figure 12\.1, A fixed Gaussian lookup"/);
  assert.match(code, /allow="clipboard-write"/);
  assert.ok(code.includes(`<script type="module" src="${site.url}kernel-lens.js"></script>`), code);
  assert.doesNotMatch(code, /<script>/, 'no inline code');
});

test('a pasted embed code works on another page: both forms render the copied state', async () => {
  const { page } = await site.newPage(embedPath('lookup', { h: '0.8' }));
  const moved = await waitForText(page.getByTestId('prediction'), /\d/);
  const read = await clipboard(page);
  const element = await copyEmbed(page, page, 'Custom element', read);
  const iframe = await copyEmbed(page, page, 'iframe', read);
  const notes = await site.newPage('embed.html');
  // A blank page of the same site stands in for the notes: paste both codes into it.
  await notes.page.setContent(`<!doctype html><html><body>${iframe.replace(/<script[^>]*><\/script>/, '')}${element}</body></html>`, {
    waitUntil: 'load',
  });
  assert.equal(await waitForText(notes.page.locator('kernel-lens-figure').getByTestId('prediction'), /\d/), moved);
  assert.equal(await waitForText(notes.page.frameLocator('iframe[data-kernel-lens]').getByTestId('prediction'), /\d/), moved);
});

test('a page opened from a file offers no link and no embed code, and says why', async () => {
  const context = await site.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${pathToFileURL(join(distDir, 'kernel-lens-standalone.html')).href}?widget=lookup`);
  await waitForText(page.getByTestId('prediction'), /\d/);
  assert.equal(await page.getByRole('button', { name: 'Copy link' }).count(), 0);
  assert.equal(await page.locator('summary', { hasText: 'Copy embed code' }).count(), 0);
  assert.match(await page.locator('.kl-share__why').textContent(), /local file/);
  await context.close();
});

test('the full page keeps each figure in <widget>.<param> entries and a copied link restores that figure', async () => {
  const { page, errors } = await site.newPage('index.html');
  const section = page.locator('#section-lookup');
  await scrollToFigure(page, 'section-lookup');
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
  await scrollToFigure(restored.page, 'section-ols-vs-nw');
  assert.match(await waitForText(restored.page.locator('#section-ols-vs-nw').getByTestId('ols-prediction'), /\d/), /0\.1000$/);
  assert.deepEqual(errors, []);
  assert.deepEqual(restored.errors, []);
});
