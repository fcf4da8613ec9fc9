// A slider's frames take the charts' fast path (web/src/charts/backdrop.ts): the chart keeps its
// layout and is drawn over the picture of its backdrop. Should a Chart.js upgrade stop honouring
// the public hooks it stands on (a cancelled `beforeLayout`, a cancelled `beforeDraw`), every
// frame would quietly fall back to a full update and draw; this test notices. Pages opened with
// `kl-timing` leave a `kernel-lens:chart-frame` mark per chart redraw.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, figuresDrawn, nextFrames, openSite } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const frames = (page) =>
  page.evaluate(() => performance.getEntriesByName('kernel-lens:chart-frame').map((mark) => mark.detail));

/// Moves the slider named `name` by `steps` arrow presses once the figure has drawn, each press
/// once the one before it is drawn (a slow machine would otherwise fold two presses into one
/// frame, as it should); returns the marks of the drag's redraws.
async function drag(page, name, steps) {
  const slider = page.getByRole('slider', { name });
  await slider.waitFor();
  const figure = page.locator('.kl-widget');
  await afterDrawn(figure);
  await slider.focus();
  const start = (await frames(page)).length;
  for (let i = 0; i < steps; i++) {
    await afterDrawn(figure, () => page.keyboard.press('ArrowRight'));
  }
  // The last press answered and drawn.
  await figuresDrawn(page);
  await nextFrames(page);
  return (await frames(page)).slice(start);
}

for (const [widget, name] of [
  ['lookup', /bandwidth/],
  ['temperature', /temperature/],
  ['smoothing', /bandwidth h2/],
  ['attention-map', /bandwidth/],
  // Both charts' axes are fixed from the table (a Nadaraya-Watson curve stays within the values).
  ['your-data', /bandwidth/],
]) {
  test(`${widget}: a drag's redraws keep their layout and draw over the backdrop`, async () => {
    const { page, errors } = await site.newPage(`${embedPath(widget)}&kl-timing`);
    const marks = await drag(page, name, 12);
    assert.ok(marks.length >= 12, `only ${marks.length} chart redraws`);
    const laidOut = marks.filter((mark) => mark.layouts > 0);
    const fast = marks.filter((mark) => mark.fast > 0 && mark.layouts === 0);
    // The drag's first frame may lay a chart out (its legend's text, a new key); the others not.
    assert.ok(laidOut.length <= 2, `${laidOut.length} of ${marks.length} redraws laid the chart out: ${JSON.stringify(laidOut)}`);
    assert.ok(fast.length >= marks.length - 2, `${fast.length} of ${marks.length} redraws took the fast path`);
    assert.deepEqual(errors, []);
  });
}
