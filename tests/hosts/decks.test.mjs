// The slide recipes: Marp (tests/hosts/recipes/marp/deck.md, Marp CLI's bespoke HTML deck with
// --html) and Slidev (tests/hosts/recipes/slidev/slides.md, a static build with Node 22), built by
// tests/hosts/build.mjs, with Kernel Lens on a second origin without isolation headers.
// One figure a slide; each host scales its 1280-px-wide slides to the window. Checks:
// both forms show the chapter's numbers on a phone-width window and keep their two chart columns
// (the slide's width, not the window's); ArrowRight on a focused slider moves the slider and leaves
// the slide; worker-using figures (smoothing) on slides not yet shown draw when the reader turns to
// them, both forms; no console error.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CHAPTER, elementReady, middleWeight, openHosts, screenshot, smoothingDrawn, waitForText } from './harness.mjs';
import { RECIPES, recipesDir } from './recipes.mjs';

const PHONE = { width: 360, height: 740 };
const DECKS = RECIPES.filter((candidate) => candidate.deck);

let hosts;
before(async () => {
  for (const { dir } of DECKS) assert.ok(existsSync(join(recipesDir, dir, 'index.html')), `build/hosts/recipes/${dir} is missing: run \`node tests/hosts/build.mjs\``);
  hosts = await openHosts({ root: recipesDir });
});
after(async () => {
  await hosts?.close();
});

/// The slide on screen: both hosts keep it in the address's fragment, counted from 1.
const slide = (page) => page.evaluate(() => location.hash);
const chartColumns = (scope) => scope.locator('.kl-charts').evaluate((node) => getComputedStyle(node).gridTemplateColumns.split(' ').length);

for (const recipe of DECKS) {
  test(`${recipe.name}: the element and the iframe on phone-width slides, keys kept by a focused slider`, async (t) => {
    t.diagnostic(recipe.version());
    const { page, errors, failures, context } = await hosts.open(`${recipe.dir}/index.html${recipe.deck(2)}`, { viewport: PHONE });
    const element = page.locator('#figure-lookup');
    assert.equal(await waitForText(element.getByTestId('prediction'), /\d/), CHAPTER.prediction);
    assert.equal(await waitForText(middleWeight(element), /\d/), CHAPTER.weight);
    await elementReady(element);
    assert.equal(await chartColumns(element), 2, 'the figure lays out for the 1280-px slide, not the 360-px window');
    await element.getByRole('slider', { name: /bandwidth/ }).focus();
    await page.keyboard.press('ArrowRight');
    await waitForText(element.getByTestId('prediction'), /^(?!2\.7412$)\d/);
    assert.equal(await slide(page), recipe.deck(2), 'the slide stays');
    await screenshot(page, `hosts-${recipe.dir}-element`);

    // Focus outside the figure: the deck turns to the iframe's slide.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((hash) => location.hash === hash, recipe.deck(3));
    const frame = page.frameLocator('#frame-lookup');
    assert.equal(await waitForText(frame.getByTestId('prediction'), /\d/), CHAPTER.prediction);
    await page.waitForSelector('#frame-lookup[data-kl-ready]');
    await frame.getByRole('slider', { name: /bandwidth/ }).focus();
    await page.keyboard.press('ArrowRight');
    await waitForText(frame.getByTestId('prediction'), /^(?!2\.7412$)\d/);
    assert.equal(await slide(page), recipe.deck(3), 'the slide stays');
    assert.deepEqual(errors, [], `console errors (failed requests: ${failures.join('; ')})`);
    await context.close();
  });

  test(`${recipe.name}: worker-using figures on slides not yet shown draw when turned to, both forms`, async () => {
    const { page, errors, failures, context } = await hosts.open(`${recipe.dir}/index.html${recipe.deck(1)}`, { viewport: { width: 1280, height: 720 } });
    const element = page.locator('#figure-smoothing');
    assert.equal(await element.isVisible(), false, 'the smoothing slide is not shown yet');
    await page.evaluate((hash) => (location.hash = hash), recipe.deck(4));
    await elementReady(element);
    await smoothingDrawn(element.locator('.kl-widget'));
    await page.evaluate((hash) => (location.hash = hash), recipe.deck(5));
    await page.waitForSelector('#frame-smoothing[data-kl-ready]');
    await smoothingDrawn(page.frameLocator('#frame-smoothing').locator('.kl-widget'));
    await screenshot(page, `hosts-${recipe.dir}-smoothing`);
    assert.deepEqual(errors, [], `console errors (failed requests: ${failures.join('; ')})`);
    await context.close();
  });
}
