// One h for the whole page (web/src/page/one-h.ts), on the full page: the header's checkbox links
// every figure with a bandwidth h to one h; the field sets it, a figure's own slider moves it (the
// others follow), a figure that mounts later mounts at it, the audit's h does not override it on
// Figure 12.3's map, and the address keeps it as `h=`. A value that is no h is refused with the
// reason and the figures keep theirs; unlinking leaves each figure its own h again. From the
// address: `h=` links at load (a figure's own `<figure>.h` gives way, with a note) and junk is named.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openSite, scrollToFigure, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

/// The figure's bandwidth slider's read-out (its aria-valuetext, h to three significant digits).
const bandwidthOf = (page, section) => page.locator(`#${section}`).getByRole('slider', { name: 'bandwidth h', exact: true });
const waitForH = (page, section, text) =>
  page.waitForFunction(
    ([id, want]) => [...document.querySelectorAll(`#${id} input[type="range"]`)].some((input) => input.getAttribute('aria-label') === 'bandwidth h' && input.getAttribute('aria-valuetext') === want),
    [section, text],
  );

test('one h for the whole page: the field sets it, a figure moves it, later figures mount at it, unlinking frees them', async () => {
  const { page, errors } = await site.newPage('index.html');
  const form = page.locator('form.kl-one-h');
  // Its group is named by its legend alone (the badge is the form's name already).
  assert.equal(await page.getByRole('form', { name: 'Beyond the chapter: one h for the whole page' }).getByRole('group', { name: 'One h for the whole page', exact: true }).count(), 1);
  const link = form.getByRole('checkbox', { name: 'Link the bandwidth h of every figure' });
  const field = form.getByRole('spinbutton', { name: 'h for every figure' });
  assert.equal(await link.isChecked(), false);
  assert.equal(await field.isDisabled(), true);
  await scrollToFigure(page, 'section-lookup');
  const lookupH = await bandwidthOf(page, 'section-lookup').getAttribute('aria-valuetext');

  // Linked from the keyboard: the page's h starts at the first figure's own.
  await link.focus();
  await page.keyboard.press('Space');
  assert.equal(await field.isDisabled(), false);
  assert.equal(Number(await field.inputValue()).toPrecision(3), Number(lookupH).toPrecision(3));
  assert.equal(new URL(page.url()).searchParams.get('h'), await field.inputValue());

  // The field sets every figure's h; the status says so.
  await field.fill('0.3');
  await field.press('Enter');
  await waitForH(page, 'section-lookup', '0.300');
  await waitForText(form.getByRole('status'), /^Every figure with a bandwidth h shows h = 0\.3\.$/, 15000, 'attached');
  assert.equal(new URL(page.url()).searchParams.get('h'), '0.3');
  // The field keeps the focus (nothing the reader did was re-mounted under it).
  assert.equal(await field.evaluate((input) => input === document.activeElement), true);

  // A figure that mounts later mounts at the page's h; Figure 12.3's map keeps it when the audit,
  // whose h it otherwise follows, finishes.
  await scrollToFigure(page, 'section-memory-bank');
  await waitForH(page, 'section-memory-bank', '0.300');
  await scrollToFigure(page, 'section-attention-map');
  await waitForH(page, 'section-attention-map', '0.300');
  await page.locator('#section-bias-variance [data-testid="grid-minimum"]').waitFor({ state: 'attached', timeout: 60000 }).catch(() => undefined);
  assert.equal(await bandwidthOf(page, 'section-attention-map').getAttribute('aria-valuetext'), '0.300');

  // Moving one figure's h moves the page's, and the other figures follow; the moved slider keeps
  // the focus.
  const memoryH = bandwidthOf(page, 'section-memory-bank');
  await memoryH.focus();
  await page.keyboard.press('PageUp');
  const moved = await memoryH.getAttribute('aria-valuetext');
  assert.notEqual(moved, '0.300');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('h') !== '0.3');
  let pageH = await field.inputValue();
  assert.equal(Number(pageH).toPrecision(3), Number(moved).toPrecision(3));
  await waitForH(page, 'section-lookup', moved);
  await waitForH(page, 'section-attention-map', moved);
  assert.equal(await memoryH.evaluate((input) => input === document.activeElement), true);
  // Beyond the page's range (the memory bank's h goes to 5): the page's h stops at its end, 3, and
  // the figure itself comes back to it, its slider still focused.
  await page.keyboard.press('End');
  await waitForH(page, 'section-memory-bank', '3.00');
  await waitForH(page, 'section-lookup', '3.00');
  pageH = await field.inputValue();
  assert.equal(pageH, '3');
  assert.equal(await memoryH.evaluate((input) => input === document.activeElement), true, await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200)));
  await page.keyboard.press('PageDown');
  const back = await memoryH.getAttribute('aria-valuetext');
  await waitForH(page, 'section-lookup', back);
  pageH = await field.inputValue();

  // A value that is no h: refused with the reason, the figures keep the page's last h.
  for (const junk of ['9', '0', '-1']) {
    await field.fill(junk);
    await field.press('Enter');
    await waitForText(form.getByRole('alert'), new RegExp(`^h must be a number from 0\\.05 to 3; the figures keep h = ${pageH.replace('.', '\\.')}\\.$`));
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
  }
  assert.equal(await bandwidthOf(page, 'section-lookup').getAttribute('aria-valuetext'), back);
  assert.equal(new URL(page.url()).searchParams.get('h'), pageH);

  // Unlinked: the address forgets the page's h, and each figure's h is its own again.
  await link.focus();
  await page.keyboard.press('Space');
  await waitForText(form.getByRole('status'), /^Each figure keeps its own h now\.$/, 15000, 'attached');
  assert.equal(new URL(page.url()).searchParams.has('h'), false);
  const lookup = bandwidthOf(page, 'section-lookup');
  await lookup.focus();
  await page.keyboard.press('Home');
  const own = await lookup.getAttribute('aria-valuetext');
  assert.notEqual(own, back);
  // The lookup's own h is in the address (its figure reflects it); the memory bank kept the page's last h.
  await page.waitForFunction((h) => new URL(location.href).searchParams.get('lookup.h') === String(Number(h)), own);
  assert.equal(await memoryH.getAttribute('aria-valuetext'), back);
  assert.deepEqual(errors, []);
});

test("the address's h= links the page at load: a figure's own h gives way with a note, and junk is named", async () => {
  const { page, errors } = await site.newPage('index.html?h=0.25&lookup.h=0.8');
  const form = page.locator('form.kl-one-h');
  assert.equal(await form.getByRole('checkbox').isChecked(), true);
  assert.equal(await form.getByRole('spinbutton').inputValue(), '0.25');
  await scrollToFigure(page, 'section-lookup');
  await waitForH(page, 'section-lookup', '0.250');
  await waitForText(page.locator('#section-lookup .kl-widget__note').first(), /h=0\.8 gives way to the page's one h, h=0\.25/);
  assert.deepEqual(errors, []);

  // Linked at the top of the page, before any figure has mounted: the page's h starts at the
  // first figure's, as it will mount (its own h from the address here).
  const top = await site.newPage('index.html?lookup.h=0.45');
  const field = top.page.locator('form.kl-one-h').getByRole('spinbutton');
  await top.page.locator('form.kl-one-h').getByRole('checkbox').check();
  await top.page.waitForFunction(() => document.querySelector('form.kl-one-h input[type="number"]').value !== '');
  assert.equal(await field.inputValue(), '0.45');
  assert.deepEqual(top.errors, []);

  const junk = await site.newPage('index.html?h=%3Cb%3Ewide');
  assert.equal(await junk.page.locator('form.kl-one-h').getByRole('checkbox').isChecked(), false);
  await waitForText(junk.page.locator('.kl-page__note'), /h=<b>wide: one h for the whole page takes a number in \[0\.05, 3\]; each figure keeps its own h/);
  // Page notes also go to the console once, as a warning (not an error).
  assert.deepEqual(junk.errors, []);
});
