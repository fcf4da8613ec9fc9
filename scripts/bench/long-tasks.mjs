#!/usr/bin/env node
// Main-thread long tasks (PerformanceObserver 'longtask', Chromium headless) while the Monte-Carlo
// audit runs in the worker and while sliders are dragged. Each scenario is split into phases
// (page load, audit running, drag, …); the table prints, per phase, the number of tasks over
// 50 ms, the longest one and the longest gap between animation frames. Goal (issue: "the Monte
// Carlo never freezes the page"): no task over 50 ms while the audit runs or a slider is dragged.
// Page load is reported beside it but not part of that goal.
// KERNEL_LENS_BENCH_INPUTS sets the frames per drag (240), KERNEL_LENS_BENCH_ONLY picks scenarios by name.
// Builds the site first unless KERNEL_LENS_BENCH_NO_BUILD or KERNEL_LENS_DIST is set.
import { loadavg } from 'node:os';
import { BROWSER_ARGS, chromiumPath, distDir, embedPath } from '../../tests/e2e/harness.mjs';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';
import { buildSite } from './build-site.mjs';

const DRAG_FRAMES = Number(process.env.KERNEL_LENS_BENCH_INPUTS ?? 240);
/// KERNEL_LENS_BENCH_ONLY=text runs only the scenarios whose name contains `text`.
const ONLY = process.env.KERNEL_LENS_BENCH_ONLY ?? '';

/// Steps of a scenario, run in order after the page is opened:
/// - { phase, waitFor: selector, text } — wait until the element's text contains `text`;
/// - { phase, drag: slider label, within: optional selector of the slider's figure };
/// - { phase, scrollTo: selector } — scroll the element into view (figures mount near the viewport).
/// A step's phase collects every long task that starts from the step's beginning to the next step.
const SCENARIOS = [
  {
    name: 'audit, 1,000 worlds',
    path: embedPath('bias-variance'),
    steps: [
      { phase: 'load', waitFor: '[data-testid=audit-status]', text: 'bandwidths' },
      { phase: 'audit running', waitFor: '[data-testid=grid-minimum]', text: 'h=' },
      { phase: 'marker drag', drag: 'marker h, marker bandwidth h' },
    ],
  },
  {
    name: 'audit, 50,000 worlds',
    path: embedPath('bias-variance', { worlds: '50000' }),
    steps: [
      { phase: 'load', waitFor: '[data-testid=audit-status]', text: 'bandwidths' },
      { phase: 'audit running + drag', drag: 'marker h, marker bandwidth h' },
      { phase: 'audit running', waitFor: '[data-testid=grid-minimum]', text: 'h=' },
    ],
  },
  {
    name: 'bandwidth selection',
    path: embedPath('bandwidth-selection'),
    steps: [{ phase: 'load', waitFor: '[data-testid=truth-minimum]', text: 'h=' }],
  },
  {
    name: 'attention map 241 × 60',
    path: embedPath('attention-map', { queries: '241' }),
    steps: [
      { phase: 'load', waitFor: '[data-testid=shapes]', text: 'A (241, 60)' },
      { phase: 'bandwidth drag', drag: 'bandwidth h' },
    ],
  },
  {
    name: 'full page',
    path: 'index.html',
    steps: [
      { phase: 'load', scrollTo: '#section-lookup' },
      { phase: 'load', waitFor: '#section-lookup [data-testid=prediction]', text: '.' },
      { phase: 'lookup drag', drag: 'bandwidth h', within: '#section-lookup' },
      { phase: 'load', scrollTo: '#section-smoothing' },
      { phase: 'smoothing drag', drag: 'bandwidth h2', within: '#section-smoothing' },
      { phase: 'load', scrollTo: '#section-bias-variance' },
      { phase: 'load', waitFor: '#section-bias-variance [data-testid=audit-status]', text: 'bandwidths' },
      { phase: 'load', waitFor: '#section-bias-variance [data-testid=grid-minimum]', text: 'h=' },
      { phase: 'load', scrollTo: '#section-attention-map' },
      { phase: 'load', waitFor: '#section-attention-map [data-testid=shapes]', text: 'A (' },
      { phase: 'attention drag', drag: 'bandwidth h', within: '#section-attention-map' },
    ],
  },
];

if (!process.env.KERNEL_LENS_BENCH_NO_BUILD && !process.env.KERNEL_LENS_DIST) buildSite();

/// Installed before any page script: records every long task and the gaps between animation
/// frames, each stamped with the time it started.
function observe() {
  const record = { tasks: [], gaps: [] };
  window.__longTasks = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  let last = performance.now();
  const tick = (now) => {
    if (now - last > 50) record.gaps.push({ start: last, duration: now - last });
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/// Runs in the page: one slider step per animation frame, as a drag does.
async function drag({ label, within, frames }) {
  const scope = within ? document.querySelector(within) : document;
  const slider = Array.from(scope?.querySelectorAll('input[type=range]') ?? []).find(
    (input) => input.getAttribute('aria-label') === label,
  );
  if (!slider) throw new Error(`no slider named ${label}${within ? ` in ${within}` : ''}`);
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

async function runStep(page, step) {
  if (step.drag) {
    await page.evaluate(drag, { label: step.drag, within: step.within, frames: DRAG_FRAMES });
  } else if (step.scrollTo) {
    await page.evaluate((selector) => document.querySelector(selector)?.scrollIntoView(), step.scrollTo);
    await page.waitForTimeout(500);
  } else {
    await page.waitForFunction(
      ({ selector, text }) => (document.querySelector(selector)?.textContent ?? '').includes(text),
      { selector: step.waitFor, text: step.text },
      { timeout: 180000 },
    );
  }
}

const server = await startServer({ root: distDir });
const browser = await chromium.launch({ executablePath: chromiumPath, args: BROWSER_ARGS, headless: true });
/// { scenario, phase, seconds, count, longest, frameGap }
const rows = [];
let errorCount = 0;
try {
  for (const scenario of SCENARIOS.filter((candidate) => candidate.name.includes(ONLY))) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => {
      errorCount += 1;
      console.error(`${scenario.name}: ${error}`);
    });
    await page.addInitScript(observe);
    await page.goto(server.url + scenario.path);
    /// [phase, start, end] in the page's clock; the first step starts at navigation (time 0).
    const spans = [];
    let start = 0;
    for (const step of scenario.steps) {
      await runStep(page, step);
      const end = await page.evaluate(() => performance.now());
      spans.push({ phase: step.phase, start, end });
      start = end;
    }
    const record = await page.evaluate(() => window.__longTasks);
    const phases = new Map();
    for (const span of spans) {
      const inSpan = (item) => item.start >= span.start && item.start < span.end;
      const tasks = record.tasks.filter(inSpan);
      const gaps = record.gaps.filter(inSpan);
      const row = phases.get(span.phase) ?? { scenario: scenario.name, phase: span.phase, seconds: 0, count: 0, longest: 0, frameGap: 0 };
      row.seconds += (span.end - span.start) / 1000;
      row.count += tasks.length;
      row.longest = Math.max(row.longest, ...tasks.map((task) => task.duration));
      row.frameGap = Math.max(row.frameGap, ...gaps.map((gap) => gap.duration));
      phases.set(span.phase, row);
    }
    rows.push(...phases.values());
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}

console.log('Main-thread long tasks while the audit runs and sliders are dragged (Chromium, headless)');
console.log('scenario                  phase                  seconds  tasks >50 ms  longest ms  frame gap >50 ms');
const dash = (x) => (x > 0 ? x.toFixed(0) : '—');
for (const row of rows) {
  console.log(
    `${row.scenario.padEnd(26)}${row.phase.padEnd(22)}${row.seconds.toFixed(1).padStart(8)}${String(row.count).padStart(14)}` +
      `${dash(row.longest).padStart(12)}${dash(row.frameGap).padStart(18)}`,
  );
}
console.log(`machine load average while measuring: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
if (errorCount) console.log(`${errorCount} page errors (printed above)`);
const goalRows = rows.filter((row) => row.phase !== 'load');
const worst = Math.max(0, ...goalRows.map((row) => row.longest));
console.log(
  `longest main-thread task while the audit runs or a slider is dragged: ${worst ? `${worst.toFixed(0)} ms` : 'none over 50 ms'}` +
    ` (goal: none over 50 ms: ${worst > 50 ? 'not met' : 'met'})`,
);
const worstLoad = Math.max(0, ...rows.filter((row) => row.phase === 'load').map((row) => row.longest));
console.log(`longest task while pages and figures load: ${worstLoad ? `${worstLoad.toFixed(0)} ms` : 'none over 50 ms'}`);
