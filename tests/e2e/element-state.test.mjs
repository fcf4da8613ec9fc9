// A <kernel-lens-figure> keeps the reader's work while the host page and its framework restyle it,
// move it, or take it out and put it back; a change of one of its own parameters applies that
// parameter and keeps the reader's others.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { nextFrames, openHostedSite, waitForText } from './harness.mjs';

let hosted;

before(async () => {
  hosted = await openHostedSite({
    'index.html': (siteUrl) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Notes</title></head>
<body><h1>Notes</h1><div id="first"><kernel-lens-figure id="figure" widget="lookup"></kernel-lens-figure></div><div id="second"></div>
<script type="module" src="${siteUrl}kernel-lens.js"></script></body></html>`,
  });
});

after(() => hosted?.close());

test('restyling, moving and re-inserting the element keep the reader’s h; a parameter change keeps it too', async () => {
  const context = await hosted.browser.newContext({ viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`${hosted.host.url}index.html`);
  const figure = page.locator('#figure');
  const bandwidth = figure.getByRole('slider', { name: /bandwidth/ });
  const prediction = figure.getByTestId('prediction');
  await waitForText(prediction, /^2\.7412$/);

  // The reader widens h by two steps.
  await bandwidth.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const readerH = await bandwidth.inputValue();
  assert.notEqual(Number(readerH), 0.6);
  const readerPrediction = await waitForText(prediction, /^(?!2\.7412$)\d/);
  // Marks this very frame: a re-mount would replace it.
  await figure.evaluate((element) => element.shadowRoot.querySelector('.kl-widget').setAttribute('data-test-frame', 'kept'));

  // What hosts and frameworks do to an element.
  const restyles = [
    (element) => element.classList.add('wide'),
    (element) => element.setAttribute('style', 'margin: 1rem'),
    (element) => (element.hidden = true),
    (element) => (element.hidden = false),
    (element) => element.setAttribute('aria-describedby', 'notes'),
    (element) => element.setAttribute('data-v-7ba5bd90', ''),
    (element) => element.setAttribute('title', 'A lookup'),
    // A framework's new id, then the page's own back (the locator finds the element by it).
    (element) => {
      element.id = 'renamed';
      element.id = 'figure';
    },
    (element) => document.querySelector('#second').append(element),
  ];
  for (const restyle of restyles) {
    await figure.evaluate(restyle);
    // Attribute observers report in a microtask and re-mounts take a task: two frames is past both.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    assert.equal(await figure.evaluate((element) => element.shadowRoot.querySelector('[data-test-frame="kept"]') !== null), true, `kept after ${restyle}`);
    assert.equal(await bandwidth.inputValue(), readerH, `h after ${restyle}`);
  }

  // Taken out for a while (a framework's keep-alive, a slide left), then put back: the reader's h.
  await figure.evaluate((element) => {
    window.parked = element;
    element.remove();
  });
  await page.evaluate(() => new Promise((done) => setTimeout(done, 0)));
  await page.evaluate(() => document.querySelector('#first').append(window.parked));
  await waitForText(prediction, new RegExp(`^${readerPrediction.replace('.', '\\.')}$`));
  assert.equal(await bandwidth.inputValue(), readerH);

  // The lecturer's script changes q: q applies, the reader's h stays.
  await figure.evaluate((element) => element.setAttribute('q', '3'));
  const query = figure.getByRole('slider', { name: /query/ });
  await figure.getByTestId('prediction').waitFor();
  for (let frames = 0; Number(await query.inputValue().catch(() => NaN)) !== 3; frames++) {
    assert.ok(frames < 600, 'q never became 3');
    await nextFrames(page);
  }
  assert.equal(await bandwidth.inputValue(), readerH);
  assert.deepEqual(errors, []);
  await context.close();
});
