// A reveal.js deck (tests/hosts/reveal, built by tests/hosts/build.mjs) embedding Kernel Lens from
// a second origin without isolation headers. The deck's 1280 × 960 slides are scaled down to the
// window with a CSS transform. Checks: both embed forms render the chapter's numbers, the host's
// 42 px centred slide text stops at the figure, ArrowRight on a focused slider moves the slider and
// not the slide, the iframe sizes itself, a click on the scaled chart adds the point under the
// pointer, print media hides the buttons, and worker-using figures on later slides draw when shown.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CHAPTER, elementReady, middleWeight, openHosts, screenshot, settledFrame, smoothingDrawn, waitForText } from './harness.mjs';

const SCALED = { width: 1000, height: 760 }; // reveal.js scale ≈ 0.76
const UNSCALED = { width: 1400, height: 1100 }; // scale 1 (maxScale: 1)

let hosts;
before(async () => {
  hosts = await openHosts();
});
after(async () => {
  await hosts?.close();
});

const slide = (page) => page.evaluate(() => window.deck.getIndices().h);

async function openSlide(index, viewport = SCALED) {
  const opened = await hosts.open(`deck/index.html#/${index}`, { viewport });
  await opened.page.waitForFunction(() => window.deck?.isReady());
  return opened;
}

test('custom element on a scaled slide: the chapter numbers', async () => {
  const { page, errors, context } = await openSlide(1);
  const figure = page.locator('#figure-lookup');
  assert.equal(await waitForText(figure.getByTestId('prediction'), /\d/), CHAPTER.prediction);
  assert.equal(await waitForText(middleWeight(figure), /\d/), CHAPTER.weight);
  const scale = await page.evaluate(() => window.deck.getScale());
  assert.ok(scale < 0.9, `the deck is scaled (${scale})`);
  await screenshot(page, 'hosts-reveal-element');
  assert.deepEqual(errors, []);
  await context.close();
});

test("the slide's 42 px centred text stops at the figure's boundary", async () => {
  const { page, context } = await openSlide(1);
  const figure = page.locator('#figure-lookup');
  await waitForText(figure.getByTestId('prediction'), /\d/);
  const style = await figure.evaluate((element) => {
    const widget = element.shadowRoot.querySelector('.kl-widget');
    const text = widget.querySelector('p') ?? widget;
    const computed = getComputedStyle(text);
    return { fontSize: parseFloat(computed.fontSize), textAlign: computed.textAlign };
  });
  assert.ok(style.fontSize < 24, `the slide's 42 px text reached the figure: ${JSON.stringify(style)}`);
  assert.notEqual(style.textAlign, 'center');
  await context.close();
});

test('custom element: ArrowRight on a focused slider moves the slider, not the slide', async () => {
  const { page, errors, context } = await openSlide(1);
  const figure = page.locator('#figure-lookup');
  await waitForText(figure.getByTestId('prediction'), /^2\.7412$/);
  await figure.getByRole('slider', { name: /bandwidth/ }).focus();
  await page.keyboard.press('ArrowRight');
  // The figure answered the key: the deck, which hears keys on the document, has seen it too.
  await waitForText(figure.getByTestId('prediction'), /^(?!2\.7412$)\d/);
  assert.equal(await slide(page), 1, 'the deck stayed on the figure slide');
  // With nothing focused, the deck's keys work as before.
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.deck.getIndices().h === 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test('iframe: ArrowRight on a focused slider moves the slider, not the slide', async () => {
  const { page, errors, context } = await openSlide(2);
  const frame = page.frameLocator('#frame-lookup');
  assert.equal(await waitForText(frame.getByTestId('prediction'), /\d/), CHAPTER.prediction);
  await frame.getByRole('slider', { name: /bandwidth/ }).focus();
  await page.keyboard.press('ArrowRight');
  await waitForText(frame.getByTestId('prediction'), /^(?!2\.7412$)\d/);
  assert.equal(await slide(page), 2, 'the deck stayed on the iframe slide');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the iframe on a slide sizes itself without inline code', async () => {
  const { page, errors, context } = await openSlide(2);
  const frame = page.frameLocator('#frame-lookup');
  assert.equal(await waitForText(frame.getByTestId('prediction'), /\d/), CHAPTER.prediction);
  const fitted = await settledFrame(page, '#frame-lookup');
  assert.ok(fitted.outer > 300, JSON.stringify(fitted));
  await screenshot(page, 'hosts-reveal-iframe');
  assert.deepEqual(errors, []);
  await context.close();
});

/// Clicks at a fixed place of the lookup's chart (a fraction of its box) and returns the new key.
async function addPointAt(page, fx, fy) {
  const figure = page.locator('#figure-lookup');
  await waitForText(figure.getByTestId('prediction'), /^2\.7412$/);
  const canvas = figure.locator('.kl-chart--interactive canvas');
  const box = await canvas.boundingBox();
  await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
  const row = figure.locator('.kl-table tbody tr').nth(3);
  await row.waitFor({ timeout: 5000 });
  return Number(await row.locator('td:nth-child(2)').textContent());
}

test('a click on the scaled chart adds the point under the pointer', async () => {
  const reference = await openSlide(1, UNSCALED);
  assert.equal(await reference.page.evaluate(() => window.deck.getScale()), 1);
  const expected = await addPointAt(reference.page, 0.85, 0.15);
  await reference.context.close();

  const { page, errors, context } = await openSlide(1, SCALED);
  const added = await addPointAt(page, 0.85, 0.15);
  assert.ok(Number.isFinite(expected) && Math.abs(added - expected) < 0.06, `key ${added}, unscaled ${expected}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('print media hides the buttons of the figure on a slide', async () => {
  const { page, errors, context } = await openSlide(1);
  const figure = page.locator('#figure-lookup');
  await waitForText(figure.getByTestId('prediction'), /^2\.7412$/);
  const visibleButtons = () =>
    figure.evaluate((element) =>
      [...element.shadowRoot.querySelectorAll('button')]
        .filter((button) => button.checkVisibility())
        .map((button) => button.textContent.trim() || button.getAttribute('aria-label')),
    );
  assert.ok((await visibleButtons()).length > 0);
  await page.emulateMedia({ media: 'print' });
  assert.deepEqual(await visibleButtons(), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('worker-using figures on slides not yet shown draw when turned to, both forms', async () => {
  const { page, errors, context } = await openSlide(0);
  const element = page.locator('#figure-smoothing');
  assert.equal(await element.isVisible(), false, 'the smoothing slide is not shown yet');
  await page.evaluate(() => window.deck.slide(3));
  await elementReady(element);
  await smoothingDrawn(element.locator('.kl-widget'));
  await page.evaluate(() => window.deck.slide(4));
  await page.waitForSelector('#frame-smoothing[data-kl-ready]');
  await smoothingDrawn(page.frameLocator('#frame-smoothing').locator('.kl-widget'));
  assert.deepEqual(errors, []);
  await context.close();
});
