// docs/embedding.md's recipes beyond the VitePress site and the reveal.js deck (Docusaurus,
// MkDocs, Sphinx + MyST, Quarto's pandoc core, Eleventy, Starlight), checked as a reader meets them: each recipe site
// (tests/hosts/recipes.mjs, built by tests/hosts/build.mjs) is served on one origin with dist/ on another (CORS only, no isolation headers) and checked in
// Chromium: the custom element and the iframe show the chapter's numbers, a focused slider
// answers ArrowRight, the iframe sizes itself with no inline code, the host's dark switch is
// followed where the host has one, print media hides the buttons, and nothing is logged as an
// error. Each page folds a worker-using figure (smoothing) into a closed <details>; both
// forms draw it once the reader opens it: the element's `ready`, the iframe's `data-kl-ready`. KERNEL_LENS_RECIPES=text checks only the recipes whose folder name contains `text`.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CHAPTER, middleWeight, openFolded, openHosts, screenshot, settledFrame, themeOf, waitForText } from './harness.mjs';
import { RECIPES, recipesDir as out } from './recipes.mjs';

let hosts;
before(async () => {
  hosts = await openHosts({ root: out });
});
after(async () => {
  await hosts?.close();
});

for (const recipe of RECIPES.filter((candidate) => !candidate.deck && candidate.dir.includes(process.env.KERNEL_LENS_RECIPES ?? ''))) {
  test(recipe.name, async (t) => {
    assert.ok(existsSync(join(out, recipe.dir, 'index.html')), `build/hosts/recipes/${recipe.dir} is missing: run \`node tests/hosts/build.mjs\``);
    t.diagnostic(recipe.version().split('\n')[0]);

    const { page, errors, failures, context } = await hosts.open(recipe.path ?? `${recipe.dir}/index.html`, { viewport: { width: 1200, height: 900 } });
    if (recipe.hydrated) await page.waitForSelector(recipe.hydrated);
    const element = page.locator('#figure-lookup');
    const frame = page.frameLocator('#frame-lookup');
    assert.equal(await waitForText(element.getByTestId('prediction'), /\d/), CHAPTER.prediction);
    assert.equal(await waitForText(middleWeight(element), /\d/), CHAPTER.weight);
    assert.equal(await waitForText(frame.getByTestId('prediction'), /\d/), CHAPTER.prediction);

    // The host's pages take no inline code: the loader in the head sizes the iframe (200 px in the page).
    const fitted = await settledFrame(page, '#frame-lookup');
    assert.ok(fitted.outer > 300, `the iframe grew to its figure: ${JSON.stringify(fitted)}`);

    // Keys a focused control uses stay with it, in both embed forms.
    for (const scope of [element, frame]) {
      await scope.getByRole('slider', { name: /bandwidth/ }).focus();
      await page.keyboard.press('ArrowRight');
      await waitForText(scope.getByTestId('prediction'), /^(?!2\.7412$)\d/);
    }

    if (recipe.darkSwitch) {
      assert.equal(await element.evaluate(themeOf), 'light');
      await page.evaluate(recipe.darkSwitch);
      // The figure follows it: the theme mark on the figure, in its shadow root.
      await page.waitForFunction(
        (node) => node.shadowRoot?.querySelector('[data-kl-theme]')?.getAttribute('data-kl-theme') === 'dark' || node.getAttribute('data-kl-theme') === 'dark',
        await element.elementHandle(),
        { timeout: 5000 },
      );
    }
    await screenshot(page, `hosts-recipe-${recipe.dir}`);

    const visibleButtons = () =>
      element.evaluate((node) => [...node.shadowRoot.querySelectorAll('button')].filter((button) => button.checkVisibility()).length);
    assert.ok((await visibleButtons()) > 0, 'the figure has buttons on screen');
    await page.emulateMedia({ media: 'print' });
    assert.equal(await visibleButtons(), 0, 'print media hides the buttons');
    await page.emulateMedia({ media: 'screen' });

    await openFolded(page);

    assert.deepEqual(errors, [], `console errors (failed requests: ${failures.join('; ')})`);
    await context.close();
  });
}
