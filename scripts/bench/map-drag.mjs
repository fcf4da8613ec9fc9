#!/usr/bin/env node
// The attention map at 2048 × 2048 while its bandwidth slider is dragged, in headless Chromium:
// how many maps per second the figure draws, at each bandwidth of BANDWIDTHS (the figure opened at
// that h, the thumb swept over 8 % of the slider's track around it: about h / 1.3 to h × 1.3 on
// its log scale). Every move crosses at least one of the slider's steps (1.5 steps a move), so
// every move asks for a new map: a slower sweep would ask for fewer maps than there are frames
// and measure the drag, not the figure (the values per second are printed beside the maps). The
// mouse holds the slider's thumb and sweeps it
// back and forth, one move per display frame (as a reader's drag), for DRAG_MS; every map the
// figure paints is one putImageData on its image canvas, counted by a wrapper installed before the
// page loads. Prints the maps drawn per second (goal: 30 or more) and the median gap between two
// maps. Each mouse move waits for the automation's round trip, so on a busy machine the mouse
// alone can move less often than once a frame (the moves per second are printed); the second
// figure of each run drives the same slider from inside the page instead, one step of the slider per animation frame for DRAG_MS (what
// the figure can draw when the reader's drag delivers an input every frame). The figure is served
// as a plain static site (CORS only, no isolation headers).
// Builds the site first unless KERNEL_LENS_BENCH_NO_BUILD or KERNEL_LENS_DIST is set;
// KERNEL_LENS_BENCH_RUNS sets the runs per bandwidth (3); KERNEL_LENS_BENCH_BANDWIDTHS the
// bandwidths ("0.05,0.18,1").
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';
import { BROWSER_ARGS, chromiumPath, distDir, embedPath, waitForText } from '../../tests/e2e/harness.mjs';
import { buildSite } from './build-site.mjs';

const RUNS = Number(process.env.KERNEL_LENS_BENCH_RUNS ?? 3);
const DRAG_MS = 4000;
const SIZE = 2048;
const BANDWIDTHS = (process.env.KERNEL_LENS_BENCH_BANDWIDTHS ?? '0.05,0.18,1').split(',').map(Number);
/// Half the sweep, as a fraction of the slider's track.
const SWEEP = 0.04;
/// Slider steps the mouse crosses per move.
const STEPS_PER_MOVE = 1.5;

if (!process.env.KERNEL_LENS_BENCH_NO_BUILD && !process.env.KERNEL_LENS_DIST) buildSite();

/// Installed before the page's scripts: records when each image of the map is put on its canvas.
function countMapImages() {
  const put = CanvasRenderingContext2D.prototype.putImageData;
  window.__mapImages = [];
  CanvasRenderingContext2D.prototype.putImageData = function (...args) {
    if (this.canvas.classList.contains('kl-heatmap__image')) window.__mapImages.push(performance.now());
    return put.apply(this, args);
  };
}

async function run(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
  await page.addInitScript(countMapImages);
  await page.goto(url);
  await waitForText(page.getByTestId('shapes'), new RegExp(`A \\(${SIZE}, ${SIZE}\\)`), 60000);
  await page.waitForTimeout(1000);
  const slider = page.getByRole('slider', { name: /^bandwidth h/ }).first();
  const box = await slider.boundingBox();
  if (!box) throw new Error('the bandwidth slider is not on screen');
  const y = box.y + box.height / 2;
  const { at, steps } = await slider.evaluate((input) => {
    const span = Number(input.max) - Number(input.min);
    // The values the drag gives, recorded as they come (a move within one step gives none).
    window.__sliderValues = [];
    input.addEventListener('input', () => window.__sliderValues.push([performance.now(), input.value]));
    return { at: (Number(input.value) - Number(input.min)) / span, steps: input.step === 'any' ? 1000 : span / Number(input.step) };
  });
  const thumb = box.x + box.width * at;
  const left = box.x + box.width * Math.max(0, at - SWEEP);
  const right = box.x + box.width * Math.min(1, at + SWEEP);
  const stride = (STEPS_PER_MOVE * box.width) / steps;
  await page.mouse.move(thumb, y);
  await page.mouse.down();
  const start = await page.evaluate(() => performance.now());
  const moves = Math.round(DRAG_MS / 16.7);
  // One move every 16.7 ms of wall time, as a mouse reports them: a move whose round trip took
  // longer is followed at once by the next (waiting for a frame after each move, as this bench
  // first did, allowed one move per two frames: at most 30 per second whatever the figure does).
  const paced = Date.now();
  let x = thumb;
  let direction = 1;
  for (let i = 0; i < moves; i++) {
    if (x + direction * stride > right || x + direction * stride < left) direction = -direction;
    x += direction * stride;
    await page.mouse.move(x, y);
    const wait = paced + (i + 1) * 16.7 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const end = await page.evaluate(() => performance.now());
  await page.mouse.up();
  const images = (await page.evaluate(() => window.__mapImages)).filter((t) => t >= start && t <= end);
  const values = await page.evaluate(({ start, end }) => {
    const inside = window.__sliderValues.filter(([t]) => t >= start && t <= end);
    return inside.filter(([, v], i) => i === 0 || v !== inside[i - 1][1]).length;
  }, { start, end });
  await page.waitForTimeout(500);
  const framed = await page.evaluate(dragInPage, { ms: DRAG_MS, at, sweep: SWEEP });
  await page.close();
  const gaps = images.slice(1).map((t, i) => t - (images[i] ?? t)).sort((a, b) => a - b);
  return {
    fps: (images.length / (end - start)) * 1000,
    moves,
    movesPerSecond: (moves / (end - start)) * 1000,
    valuesPerSecond: (values / (end - start)) * 1000,
    maps: images.length,
    medianGap: gaps[Math.floor(gaps.length / 2)] ?? Number.NaN,
    framedFps: framed.fps,
    frames: framed.frames,
  };
}

/// In the page: the bandwidth slider moved one step per animation frame across `at` ± `sweep` of
/// its track and back, one input event (a new value) per frame for `ms`; returns the frames and
/// the maps drawn per second.
async function dragInPage({ ms, at, sweep }) {
  const slider = [...document.querySelectorAll('input[type=range]')].find((input) => /^bandwidth h/.test(input.getAttribute('aria-label') ?? input.labels?.[0]?.textContent ?? ''))
    ?? document.querySelector('input[type=range]');
  const min = Number(slider.min);
  const span = Number(slider.max) - min;
  const stepSize = slider.step === 'any' ? span / 1000 : Number(slider.step);
  const low = min + span * Math.max(0, at - sweep);
  const high = min + span * Math.min(1, at + sweep);
  const start = performance.now();
  let frames = 0;
  let value = Number(slider.value);
  let direction = 1;
  await new Promise((resolve) => {
    const step = (now) => {
      frames += 1;
      if (value + direction * stepSize > high || value + direction * stepSize < low) direction = -direction;
      value += direction * stepSize;
      slider.value = String(value);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      if (now - start < ms) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
  const end = performance.now();
  const maps = window.__mapImages.filter((t) => t >= start && t <= end).length;
  return { frames, fps: (maps / (end - start)) * 1000 };
}

const site = await startServer({ root: process.env.KERNEL_LENS_DIST ?? distDir });
const browser = await chromium.launch({ executablePath: chromiumPath, args: BROWSER_ARGS, headless: true });
console.log(`Attention map ${SIZE} × ${SIZE}, bandwidth slider dragged for ${DRAG_MS / 1000} s around each h in headless Chromium (load ${loadavg()[0].toFixed(2)})`);
console.log('   h  run  mouse moves (per s)  values per s  maps drawn  maps per second  median gap   in-page frames  maps per second');
const medians = [];
try {
  for (const h of BANDWIDTHS) {
    const url = `${site.url}${embedPath('attention-map', { queries: String(SIZE), keys: String(SIZE), h: String(h) })}`;
    const results = [];
    for (let i = 1; i <= RUNS; i++) {
      const r = await run(browser, url);
      results.push(r);
      console.log(`${String(h).padStart(4)}  ${String(i).padStart(3)}  ${String(r.moves).padStart(11)} (${r.movesPerSecond.toFixed(1).padStart(4)})  ${r.valuesPerSecond.toFixed(1).padStart(12)}  ${String(r.maps).padStart(10)}  ${r.fps.toFixed(1).padStart(15)}  ${r.medianGap.toFixed(1).padStart(7)} ms  ${String(r.frames).padStart(14)}  ${r.framedFps.toFixed(1).padStart(15)}`);
    }
    const median = (key) => results.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(results.length / 2)];
    medians.push({ h, mouse: median('fps'), framed: median('framedFps') });
  }
} finally {
  await browser.close();
  await site.close();
}
for (const { h, mouse, framed } of medians)
  console.log(`h = ${h}: median ${mouse.toFixed(1)} maps per second with the mouse, ${framed.toFixed(1)} with an input every frame (goal: 30 or more)`);
const load = loadavg()[0];
if (load > 1.5) console.log(`warning: load average ${load.toFixed(2)} on this machine: the figure's worker and the page shared the cores with other work`);
