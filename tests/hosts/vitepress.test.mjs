// A VitePress course site (tests/hosts/vitepress, built by tests/hosts/build.mjs) embedding
// Kernel Lens from a second origin that sends only `Access-Control-Allow-Origin: *`: both embed
// forms render the chapter's numbers and answer the keyboard, the iframe sizes itself with no
// inline code, client-side navigation leaves one worker and one figure, the figure follows
// VitePress's dark switch, print media hides the buttons, and a worker-using figure folded into a
// closed <details> draws when opened.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CHAPTER, elementReady, middleWeight, openFolded, openHosts, screenshot, settledFrame, themeOf, waitForText } from './harness.mjs';

let hosts;
before(async () => {
  hosts = await openHosts();
});
after(async () => {
  await hosts?.close();
});

/// Errors a test tolerates: none. (Listed here so that a failure prints them.)
function assertNoErrors(errors) {
  assert.deepEqual(errors, []);
}

test('custom element: the chapter numbers, and a focused slider answers ArrowRight', async () => {
  const { page, errors, context } = await hosts.open('notes/lookup.html');
  const figure = page.locator('#figure-lookup');
  assert.equal(await waitForText(figure.getByTestId('prediction'), /\d/), CHAPTER.prediction);
  assert.equal(await waitForText(middleWeight(figure), /\d/), CHAPTER.weight);
  await figure.getByRole('slider', { name: /bandwidth/ }).focus();
  await page.keyboard.press('ArrowRight');
  await waitForText(figure.getByTestId('prediction'), /^(?!2\.7412$)\d/);
  await screenshot(page, 'hosts-vitepress-element');
  assertNoErrors(errors);
  await context.close();
});

test('iframe[data-kernel-lens]: the chapter numbers, and a focused slider answers ArrowRight', async () => {
  const { page, errors, context } = await hosts.open('notes/iframe.html');
  const frame = page.frameLocator('#frame-lookup');
  assert.equal(await waitForText(frame.getByTestId('prediction'), /\d/), CHAPTER.prediction);
  assert.equal(await waitForText(middleWeight(frame), /\d/), CHAPTER.weight);
  await frame.getByRole('slider', { name: /bandwidth/ }).focus();
  await page.keyboard.press('ArrowRight');
  await waitForText(frame.getByTestId('prediction'), /^(?!2\.7412$)\d/);
  assertNoErrors(errors);
  await context.close();
});

test('iframe[data-kernel-lens] grows to its figure (no inner scroll bar) with no inline code', async () => {
  const { page, errors, context } = await hosts.open('notes/iframe.html');
  const frame = page.frameLocator('#frame-lookup');
  await waitForText(frame.getByTestId('prediction'), /\d/);
  // The page has no script of its own: the loader in the site's head sizes the iframe (200 px in the HTML).
  const fitted = await settledFrame(page, '#frame-lookup');
  assert.ok(fitted.outer > 300, `the iframe grew to its figure: ${JSON.stringify(fitted)}`);
  await screenshot(page, 'hosts-vitepress-iframe');
  assertNoErrors(errors);
  await context.close();
});

test('client-side navigation away and back leaves one worker and one figure', async () => {
  const { page, errors, context } = await hosts.open('notes/lookup.html');
  const figure = page.locator('#figure-lookup');
  await waitForText(figure.getByTestId('prediction'), /^2\.7412$/);
  // A marker on window survives only client-side navigation (a full load would drop it).
  await page.evaluate(() => { window.klMarker = 1; });
  for (let round = 0; round < 2; round++) {
    await page.locator('.VPSidebar').getByRole('link', { name: 'Reading list' }).click();
    await page.waitForURL(/reading\.html$/);
    await page.getByRole('heading', { name: 'Reading list' }).waitFor();
    assert.equal(await page.locator('kernel-lens-figure').count(), 0);
    await page.locator('.VPSidebar').getByRole('link', { name: 'A soft lookup (element)' }).click();
    await page.waitForURL(/lookup\.html$/);
    assert.equal(await waitForText(figure.getByTestId('prediction'), /\d/), CHAPTER.prediction);
  }
  await page.goBack();
  await page.waitForURL(/reading\.html$/);
  await page.goForward();
  await page.waitForURL(/lookup\.html$/);
  assert.equal(await waitForText(figure.getByTestId('prediction'), /\d/), CHAPTER.prediction);
  assert.equal(await page.evaluate(() => window.klMarker), 1, 'the navigation was client-side');

  const counts = await page.evaluate(() => ({
    elements: document.querySelectorAll('kernel-lens-figure').length,
    widgets: [...document.querySelectorAll('kernel-lens-figure')]
      .map((element) => element.shadowRoot?.querySelectorAll('.kl-widget').length ?? 0)
      .reduce((a, b) => a + b, 0),
  }));
  assert.deepEqual(counts, { elements: 1, widgets: 1 });
  // Once the figure has drawn, every worker it asked for exists: at most one (the figures' shared worker).
  await elementReady(page.locator('kernel-lens-figure').first());
  const workers = page.workers().map((worker) => worker.url());
  assert.ok(workers.length <= 1, `workers after navigation: ${workers.join(', ')}`);
  assertNoErrors(errors);
  await context.close();
});

test("the figure follows VitePress's dark switch (html.dark), both ways", async () => {
  const { page, errors, context } = await hosts.open('notes/lookup.html', { colorScheme: 'light' });
  const figure = page.locator('#figure-lookup');
  await waitForText(figure.getByTestId('prediction'), /^2\.7412$/);
  const theme = () => figure.evaluate(themeOf);
  assert.equal(await theme(), 'light');
  const background = () =>
    figure.evaluate((element) => {
      const widget = element.shadowRoot.querySelector('.kl-widget');
      const [r, g, b] = getComputedStyle(widget).backgroundColor.match(/\d+(\.\d+)?/g).map(Number);
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    });
  const lightBackground = await background();

  const toggle = page.locator('.VPNavBarAppearance .VPSwitchAppearance');
  await toggle.click();
  await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
  await page.waitForFunction((element) => {
    const holder = element.matches('[data-kl-theme]') ? element : element.shadowRoot?.querySelector('[data-kl-theme]');
    return holder?.getAttribute('data-kl-theme') === 'dark';
  }, await figure.elementHandle());
  const darkBackground = await background();
  assert.ok(darkBackground < 0.35 && lightBackground > 0.65, `background luminance ${lightBackground} → ${darkBackground}`);
  await screenshot(page, 'hosts-vitepress-dark');

  await toggle.click();
  await page.waitForFunction(() => !document.documentElement.classList.contains('dark'));
  await page.waitForFunction((element) => {
    const holder = element.matches('[data-kl-theme]') ? element : element.shadowRoot?.querySelector('[data-kl-theme]');
    return holder?.getAttribute('data-kl-theme') === 'light';
  }, await figure.elementHandle());
  assertNoErrors(errors);
  await context.close();
});

test('print media hides the buttons of the figure', async () => {
  const { page, errors, context } = await hosts.open('notes/lookup.html');
  const figure = page.locator('#figure-lookup');
  await waitForText(figure.getByTestId('prediction'), /^2\.7412$/);
  const visibleButtons = () =>
    figure.evaluate((element) =>
      [...element.shadowRoot.querySelectorAll('button')]
        .filter((button) => button.checkVisibility())
        .map((button) => button.textContent.trim() || button.getAttribute('aria-label')),
    );
  assert.ok((await visibleButtons()).length > 0, 'the figure has buttons on screen');
  await page.emulateMedia({ media: 'print' });
  assert.deepEqual(await visibleButtons(), []);
  // The numbers stay on paper.
  assert.ok(await figure.getByTestId('prediction').isVisible());
  await page.emulateMedia({ media: 'screen' });
  assertNoErrors(errors);
  await context.close();
});

test('the standalone file from the site\'s public/ folder works on the host\'s own origin', async () => {
  const { page, errors, context } = await hosts.open('notes/offline.html');
  const frame = page.frameLocator('#frame-standalone');
  assert.equal(await waitForText(frame.getByTestId('prediction'), /\d/, 30000), CHAPTER.prediction);
  assertNoErrors(errors);
  await context.close();
});

test('a worker-using figure folded into a closed <details> draws when opened, both forms', async () => {
  const { page, errors, context } = await hosts.open('notes/folded.html');
  await openFolded(page);
  assertNoErrors(errors);
  await context.close();
});
