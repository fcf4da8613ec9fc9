// What the figures say (a live-region recorder, tests/e2e/live-recorder.mjs): nothing while the
// full page loads and scrolls, at most three announcements in a second of a held arrow key, and
// one sentence naming what changed once the input rests. Also: Play and Drive honour
// prefers-reduced-motion (they go to their end at once instead of animating), and a drive says
// its start and its end only, even when a frame comes late.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, figuresDrawn, nextFrames, openSite } from './harness.mjs';
import { announcements, quiet, recordAnnouncements } from './live-recorder.mjs';
import { settle } from './widget-list.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

test('the full page says nothing while it loads and the reader scrolls through it', async () => {
  const { page } = await site.newPage('index.html', { init: recordAnnouncements });
  await figuresDrawn(page, 30000, 0);
  // Down the page a screen at a time to its end (its height grows as figures mount).
  for (let screens = 0; screens < 300; screens++) {
    const atEnd = await page.evaluate(() => {
      window.scrollBy(0, innerHeight);
      return scrollY + innerHeight >= document.documentElement.scrollHeight - 2;
    });
    await nextFrames(page);
    await figuresDrawn(page, 30000, 0);
    if (atEnd) break;
  }
  const mounted = await page.locator('.kl-widget').count();
  assert.ok(mounted >= 10, `${mounted} figures mounted while scrolling`);
  assert.deepEqual(await announcements(page), []);
  await page.context().close();
});

test('a held arrow key is said at most three times a second, as one sentence once it rests', async () => {
  const { page } = await site.newPage(embedPath('lookup'), { init: recordAnnouncements });
  await settle(page);
  const figure = page.locator('.kl-widget').first();
  await quiet(figure);
  const slider = page.getByRole('slider', { name: 'query q' });
  await slider.focus();
  // About a second of key repeat (30 a second, as a held key gives).
  for (let i = 0; i < 30; i++) {
    await slider.press('ArrowRight');
    await new Promise((done) => setTimeout(done, 33));
  }
  await quiet(figure);
  const said = await announcements(page);
  assert.ok(said.length >= 1 && said.length <= 3, JSON.stringify(said));
  assert.match(said.at(-1), /^Prediction at q = 5\.00, h = 0\.600: \d\.\d{4} \(3 points\)$/);

  // One press: one sentence.
  const before = said.length;
  await afterDrawn(figure, () => slider.press('ArrowLeft'));
  await quiet(figure);
  assert.deepEqual((await announcements(page)).slice(before), [(await announcements(page)).at(-1)]);
  assert.match((await announcements(page)).at(-1), /^Prediction at q = 4\.95, h = 0\.600: /);
  await page.context().close();
});

/// An embed under prefers-reduced-motion, drawn, with `button` focused: { page, figure, button }.
async function reducedMotion(widget, buttonName) {
  const { page } = await site.newPage(embedPath(widget), { init: recordAnnouncements });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await settle(page);
  const button = page.getByRole('button', { name: buttonName });
  await button.focus();
  return { page, figure: page.locator('.kl-widget').first(), button };
}

test('learn-bandwidth: Play under reduced motion goes to the end of the descent at once, and says so once', async () => {
  const { page, figure, button: play } = await reducedMotion('learn-bandwidth', 'Play');
  await afterDrawn(figure, () => page.keyboard.press('Enter'));
  await quiet(figure);
  const steps = Number(await page.getByTestId('learn-step').textContent());
  assert.ok(steps > 5, `Play went to step ${steps} in one drawing`);
  assert.equal(await play.getAttribute('aria-pressed'), 'false');
  const said = await announcements(page);
  assert.equal(said.length, 1, JSON.stringify(said));
  assert.match(said[0], new RegExp(`^Step ${steps}: h = `));
  await page.context().close();
});

test('temperature: Drive under reduced motion sets h to its end at once', async () => {
  const { page, figure, button: drive } = await reducedMotion('temperature', /^Drive h → ∞/);
  await afterDrawn(figure, () => page.keyboard.press('Enter'));
  assert.equal(await page.getByTestId('bandwidth').textContent(), '100');
  assert.notEqual(await drive.getAttribute('aria-pressed'), 'true');
  await quiet(figure);
  const said = await announcements(page);
  assert.equal(said.length, 1, JSON.stringify(said));
  assert.match(said[0], /^h = 100, τ = 2h² = /);
  await page.context().close();
});

test('temperature: a drive says its start and its end, and nothing between, though a frame comes late', async () => {
  // A slow machine stalls now and then: the drive's next step waits, and the sentence a drawing
  // queued would be said in the gap. Here, from the drive's first drawing (its sentence queued),
  // every frame's callbacks wait until a second has passed: longer than the wait before a
  // sentence is said.
  const { page } = await site.newPage(embedPath('temperature'), { init: recordAnnouncements });
  await settle(page);
  const figure = page.locator('.kl-widget').first();
  await quiet(figure);
  await figure.evaluate((frame) => {
    const ask = window.requestAnimationFrame.bind(window);
    let lateUntil = 0;
    window.requestAnimationFrame = (callback) =>
      ask((time) => {
        const wait = lateUntil - performance.now();
        if (wait > 0) setTimeout(() => callback(performance.now()), wait);
        else callback(time);
      });
    frame.addEventListener('kernel-lens:drawn', () => {
      lateUntil = performance.now() + 1000;
      window.__klStalled = true;
    }, { once: true });
  });
  const drive = page.getByRole('button', { name: /^Drive h → 0⁺/ });
  await drive.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__klStalled === true);
  await page.waitForFunction((button) => button.getAttribute('aria-pressed') === 'false', await drive.elementHandle(), { timeout: 30000 });
  await quiet(figure);
  const said = await announcements(page);
  assert.equal(said.length, 2, JSON.stringify(said));
  assert.match(said[0], /^Driving h from .* toward 0⁺\.$/);
  assert.match(said[1], /^h = 0\.0100, τ = 2h² = /);
  await page.context().close();
});

test('temperature: a drive from where it would stop says so, and nothing else', async () => {
  const { page } = await site.newPage(embedPath('temperature', { h: '100' }), { init: recordAnnouncements });
  await settle(page);
  const figure = page.locator('.kl-widget').first();
  await quiet(figure);
  const drive = page.getByRole('button', { name: /^Drive h → ∞/ });
  await drive.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__announcements.length > 0);
  await quiet(figure);
  assert.deepEqual(await announcements(page), ['h is already 100, where the drive toward ∞ stops.']);
  assert.equal(await drive.getAttribute('aria-pressed'), 'false');
  assert.equal(await page.getByTestId('bandwidth').textContent(), '100');
  await page.context().close();
});
