#!/usr/bin/env node
// Main-thread long tasks (PerformanceObserver 'longtask', Chromium headless) while the Monte-Carlo
// audit runs in the worker and while bandwidth sliders are dragged; prints the longest task per
// scenario and overall, plus the longest gap between animation frames. Goal: no task over 50 ms.
// Builds the site first unless KERNEL_LENS_BENCH_NO_BUILD is set; KERNEL_LENS_DIST picks the site.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, chromiumPath, distDir, embedPath } from '../../tests/e2e/harness.mjs';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const DRAG_FRAMES = Number(process.env.KERNEL_LENS_BENCH_INPUTS ?? 240);

/// Each scenario loads a page, waits for `ready` (a selector whose text must match `pattern`),
/// and optionally drags the slider named `slider` for DRAG_FRAMES frames.
const SCENARIOS = [
  { name: 'audit load + 1,000 worlds', path: embedPath('bias-variance'), ready: '[data-testid=grid-minimum]', pattern: 'h=' },
  { name: 'audit, 20,000 worlds', path: embedPath('bias-variance', { worlds: '20000' }), ready: '[data-testid=grid-minimum]', pattern: 'h=' },
  {
    name: 'audit running + marker drag',
    path: embedPath('bias-variance', { worlds: '50000' }),
    ready: '[data-testid=audit-status]',
    pattern: 'of 8',
    slider: 'marker bandwidth h',
  },
  { name: 'selection load', path: embedPath('bandwidth-selection'), ready: '[data-testid=truth-minimum]', pattern: 'h=' },
  { name: 'full page load', path: 'index.html', ready: '[data-testid=grid-minimum]', pattern: 'h=' },
];

if (!process.env.KERNEL_LENS_BENCH_NO_BUILD && !process.env.KERNEL_LENS_DIST) {
  const build = spawnSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/// Installed before any page script: records every long task and the largest rAF gap.
function observe() {
  const record = { tasks: [], frameGap: 0 };
  window.__longTasks = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  let last = performance.now();
  const tick = (now) => {
    record.frameGap = Math.max(record.frameGap, now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/// Runs in the page: one slider step per animation frame, as a drag does.
async function drag({ label, frames }) {
  const slider = Array.from(document.querySelectorAll('input[type=range]')).find((input) => input.getAttribute('aria-label') === label);
  if (!slider) throw new Error(`no slider named ${label}`);
  const low = Number(slider.min);
  const high = Number(slider.max);
  let position = Number(slider.value);
  let direction = 1;
  await new Promise((done) => {
    let count = 0;
    const step = () => {
      const size = (high - low) / 150;
      if (position + direction * size > high || position + direction * size < low) direction *= -1;
      position += direction * size;
      slider.value = String(position);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      if (++count < frames) requestAnimationFrame(step);
      else setTimeout(done, 300);
    };
    requestAnimationFrame(step);
  });
}

const server = await startServer({ root: distDir });
const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
const rows = [];
try {
  for (const scenario of SCENARIOS) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.addInitScript(observe);
    const started = Date.now();
    await page.goto(server.url + scenario.path);
    await page.waitForFunction(
      ({ selector, pattern }) => (document.querySelector(selector)?.textContent ?? '').includes(pattern),
      { selector: scenario.ready, pattern: scenario.pattern },
      { timeout: 120000 },
    );
    if (scenario.slider) await page.evaluate(drag, { label: scenario.slider, frames: DRAG_FRAMES });
    const seconds = (Date.now() - started) / 1000;
    const record = await page.evaluate(() => window.__longTasks);
    const longest = Math.max(0, ...record.tasks.map((task) => task.duration));
    rows.push({ name: scenario.name, seconds, count: record.tasks.length, longest, frameGap: record.frameGap, errors: errors.length });
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}

console.log('Main-thread long tasks while the audit runs and sliders are dragged (Chromium, headless)');
console.log('scenario                         seconds  tasks ≥50 ms  longest ms  max frame gap ms');
for (const row of rows) {
  console.log(
    `${row.name.padEnd(33)}${row.seconds.toFixed(1).padStart(7)}${String(row.count).padStart(14)}${(row.count ? row.longest.toFixed(0) : '—').padStart(12)}${row.frameGap
      .toFixed(0)
      .padStart(18)}${row.errors ? `  (${row.errors} page errors)` : ''}`,
  );
}
const audit = rows.filter((row) => !row.name.startsWith('full page'));
const worst = Math.max(0, ...audit.map((row) => row.longest));
console.log(
  `longest main-thread task during the audit and drags: ${worst ? `${worst.toFixed(0)} ms` : 'none over 50 ms'} (goal: none over 50 ms: ${worst > 50 ? 'not met' : 'met'})`,
);
