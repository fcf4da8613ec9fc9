// The widget names (one folder each under web/src/widgets/), for tests that visit every embed.
import { existsSync, readdirSync } from 'node:fs';
import { figuresDrawn } from './harness.mjs';

const widgetsDir = new URL('../../web/src/widgets/', import.meta.url);

/// A widget is a folder with an index.ts (widgets/shared/ holds parts, not a widget).
export const widgetNames = readdirSync(widgetsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/index.ts`, widgetsDir)))
  .map((entry) => entry.name)
  .sort();

/// Waits until every figure on the page has drawn (no busy region, no work under way) and its
/// fonts have loaded.
export async function settle(page) {
  // The full page opens on the chapter's text: its first figure mounts when scrolled near.
  await page.evaluate(() => document.querySelector('.kl-section')?.scrollIntoView());
  await page.locator('.kl-widget').first().waitFor({ timeout: 30000 });
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 30000 });
  await figuresDrawn(page);
  await page.evaluate(() => document.fonts.ready);
}
