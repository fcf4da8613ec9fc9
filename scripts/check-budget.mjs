#!/usr/bin/env node
// Size budget of the built site, gzip level 9, in kB (1000 bytes). Fails (exit 1) when any line
// is over its limit:
//   wasm (each module)         kernel_lens_core and kernel_lens_lab, each ≤ 83.5 kB, goal 80 kB (their total is printed)
//   embed of one widget (each) embed.html, its scripts, the widget's chunk and the worker ≤ 200 kB
//   full page                  index.html, every script it can load, CSS, worker, both wasm ≤ 427.5 kB, goal 408 kB
//                              (400 kB before the stylesheet was counted, see STYLESHEET_KB)
//   loader                     kernel-lens.js alone (what a page without figures fetches) ≤ 20 kB
//   listings                   the chapter's code listings' chunk (web/src/listings/: the seven
//                              listings' text and what shows them), loaded when the page has a
//                              listing to show, ≤ 10 kB; budgeted on its own line, not in the full page's
// Lazily loaded parts (KaTeX, the export code) count for the full page only. KaTeX's font
// files are left out (the browser fetches the few a formula uses). The standalone file inlines
// everything and is not budgeted.
// Usage: node scripts/check-budget.mjs [dist folder]   (default dist/)
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/// `goal` is where a line should be; a line over its goal but within `limit` is reported, not failed.
/// The full page's 400 kB was set for a line that did not count the site's stylesheet (8.0 kB; no
/// chunk lists it while CSS code splitting is off): counted now, the limit carries it, so the
/// HTML, JavaScript and wasm may weigh what they could before (docs/speed.md).
const STYLESHEET_KB = 8;
/// Each wasm module and the full page may exceed their goals by what the boundary's own checks
/// of every JavaScript argument (before anything is copied into wasm, with the stack restored on a
/// JavaScript exception) and the exp pass's underflow path cost: 0.7 kB a module (docs/speed.md).
const BOUNDARY_KB = 2;
/// The page may exceed the limit above by what every student's access costs (docs/accessibility.md):
/// one spoken sentence per change, the lookup's keyboard fields, a keyboard stop with a summary and
/// a data table for every chart and heat map (3.7 + 3.2 kB, measured when they were added); and by
/// the chapter's whole text, now in index.html (3.1 → 8.7 kB) where figures' notes had stood; and
/// reflow at 320 px (list fields that wrap, numbers kept whole in sentences: 0.4 kB).
const ACCESS_KB = 7.5;
/// The core module carries OLS in the arithmetic order of the chapter's np.linalg.solve route (so its
/// weights are NumPy's bits), compiled at the cold level: 1.1 kB over what it weighed before.
const OLS_ROUTE_KB = 1.5;
const CHAPTER_TEXT_KB = 3;
/// The laboratory module tells how often the smoothing figure's band holds the truth, which needs
/// the normal distribution's tail (libm's erfc): 2.8 kB on the page, measured when it was added.
const BAND_COVERAGE_KB = 3;
/// The laboratory module shows the worlds behind the audit's table (auditWorlds and histogram:
/// 4.3 kB of the lab module, measured when they were added, with their products written as dot
/// products to keep it at that) and the page draws them (2 kB of JavaScript). The core module
/// does not carry either: the lab's limit alone takes the wasm part.
const AUDIT_WORLDS_KB = 4.5;
const AUDIT_WORLDS_JS_KB = 2;
/// One h for the whole page: the header's control, its address entry and the figures' re-mounts
/// (web/src/page/one-h.ts; 1.6 kB of HTML, CSS and JavaScript, measured when it was added).
const ONE_H_KB = 1.6;
/// A slow worker, and a part the worker fetches itself, are said like the page's own slow loads
/// (the worker's `loaded` message and the bridge's list of slow loads: 0.3 kB, measured when added).
const SLOW_WORKER_NOTES_KB = 0.4;
/// The Gaussian scores' pass over eight keys at a time (four independent addition chains; d = 32
/// attention at 2048 x 2048 in about 100 ms instead of 170): 0.2 kB in each module, measured when
/// it was added.
const SCORES_PASS_KB = 0.4;
/// The core module answers every function's work formula (workOf: the formulas, their table and
/// the laboratory's and exercises' config readers they take), so that the page places calls by the
/// core's own numbers: 2.8 kB (82.4 → 85.2 kB), measured when it was added.
const WORK_FORMULAS_KB = 3;
/// A page opened from a file starts its worker through a classic blob worker that holds the
/// page's first messages (engine/worker-factory.ts), and an embed page under the paper look draws
/// in tasks rather than animation frames (charts/frame.ts nextFrame): 0.6 kB (442.6 → 443.2 kB),
/// measured when they were added.
const FILE_AND_PAPER_KB = 0.6;
/// Attention's exp pass at a small bandwidth: a group of eight scores mixing near cells with cells
/// whose weights underflow takes one two-lane road (cpp/src/vector_math.cpp exp_block_sum; d = 1,
/// h = 0.05 with shuffled keys 29 → 24 ms in wasm): 0.6 kB (443.2 → 443.8 kB), measured when added.
const SMALL_BANDWIDTH_EXP_KB = 0.6;
/// Your data's chart names its axes as the table's columns, each title cut to fit the canvas at
/// its size, with the whole names for its keyboard reading and data table: 0.5 kB (443.9 →
/// 444.4 kB), measured when added.
const AXIS_NAMES_KB = 0.5;
/// A figure that could not load a part of the core leaves out its read-out lines whose numbers
/// never arrived, instead of showing and reading "Step : h = , risk ." beside the error (the host's
/// check of each line and its style), and a data table with no cell yet its caption alone:
/// 0.14 kB (444.49 → 444.63 kB), measured when added.
const BLANK_READOUTS_KB = 0.2;
const LIMITS = {
  wasm: { goal: 80, limit: 80 + BOUNDARY_KB + OLS_ROUTE_KB },
  embed: { limit: 200 },
  page: { goal: 400 + STYLESHEET_KB, limit: 400 + STYLESHEET_KB + 2 * BOUNDARY_KB + 4 + ACCESS_KB + CHAPTER_TEXT_KB + OLS_ROUTE_KB + BAND_COVERAGE_KB + AUDIT_WORLDS_KB + AUDIT_WORLDS_JS_KB + ONE_H_KB + SLOW_WORKER_NOTES_KB + SCORES_PASS_KB + WORK_FORMULAS_KB + FILE_AND_PAPER_KB + SMALL_BANDWIDTH_EXP_KB + AXIS_NAMES_KB + BLANK_READOUTS_KB },
  loader: { limit: 20 },
  listings: { limit: 10 },
};
/// The listings' chunk (its own line; its imports are the page's shared chunks, counted there).
const LISTINGS = 'src/listings/index.ts';
/// The wasm modules; Vite names each `assets/kernel_lens_<module>-<hash>.wasm`.
const WASM_MODULES = ['core', 'lab'];
const dist = resolve(process.argv[2] ?? 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const assets = readdirSync(join(dist, 'assets'));

const gzipCache = new Map();
/// Gzipped size of a dist file in bytes.
function gzipped(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gzipCache.get(file);
}

/// The files a manifest entry loads: its chunk, its static imports (recursively), their CSS, and
/// with `lazy` its dynamic imports too.
function closure(key, lazy, found = new Set()) {
  const chunk = manifest[key];
  if (!chunk || found.has(chunk.file)) return found;
  found.add(chunk.file);
  for (const css of chunk.css ?? []) found.add(css);
  for (const next of chunk.imports ?? []) closure(next, lazy, found);
  if (lazy) for (const next of chunk.dynamicImports ?? []) closure(next, lazy, found);
  return found;
}

const total = (files) => [...files].reduce((sum, file) => sum + gzipped(file), 0);
const kB = (bytes) => bytes / 1000;
/// The core worker is a chunk of the site's build: its script and what it imports (the factory
/// scripts it shares with the page's own core instance).
const WORKER = 'src/engine/worker.ts';
if (!manifest[WORKER]) {
  console.error(`size budget: no ${WORKER} in ${dist}/.vite/manifest.json`);
  process.exit(1);
}
/// With its dynamic imports: the laboratory's factory script, which a laboratory figure's first
/// call fetches (an upper bound for the figures that call the core alone).
const workers = [...closure(WORKER, true)];
/// The stylesheets (no chunk lists them): kernel-lens.css, which every page links, and KaTeX's,
/// which the full page links for its math.
const styles = Object.values(manifest).map((chunk) => chunk.file).filter((file) => file.endsWith('.css'));
const wasm = assets.filter((name) => name.endsWith('.wasm')).map((name) => `assets/${name}`);
/// The one emitted file of a wasm module; exits when it is missing or ambiguous.
function moduleFile(module) {
  const found = wasm.filter((file) => new RegExp(`^assets/kernel_lens_${module}-[\\w-]+\\.wasm$`).test(file));
  if (found.length !== 1) {
    console.error(`size budget: expected one kernel_lens_${module}-<hash>.wasm in ${dist}/assets, found ${found.length}`);
    process.exit(1);
  }
  return found[0];
}
const widgets = Object.keys(manifest)
  .map((key) => /^src\/widgets\/([^/]+)\/index\.ts$/.exec(key)?.[1])
  .filter(Boolean)
  .sort();
const js = (files) => [...files].filter((file) => file.endsWith('.js'));

const rows = [];
const check = (what, bytes, { limit, goal = limit }) =>
  rows.push({ what, size: kB(bytes), limit, goal, ok: kB(bytes) <= limit, atGoal: kB(bytes) <= goal });

const moduleFiles = WASM_MODULES.map(moduleFile);
/// What one module carries beyond the shared limit: the lab its band coverage and its worlds, the
/// core the work formulas.
const MODULE_EXTRA_KB = { core: WORK_FORMULAS_KB, lab: BAND_COVERAGE_KB + AUDIT_WORLDS_KB };
WASM_MODULES.forEach((module, i) =>
  check(`wasm: ${module} (${moduleFiles[i]})`, gzipped(moduleFiles[i]), { ...LIMITS.wasm, limit: LIMITS.wasm.limit + (MODULE_EXTRA_KB[module] ?? 0) }),
);
for (const widget of widgets) {
  const files = new Set([...closure('embed.html', false), ...closure(`src/widgets/${widget}/index.ts`, false), ...workers]);
  check(`embed: ${widget} (JavaScript)`, total(js(files)), LIMITS.embed);
}
const page = new Set(['index.html', ...closure('index.html', true), ...closure(WORKER, true), ...styles, ...wasm]);
for (const widget of widgets) closure(`src/widgets/${widget}/index.ts`, true, page);
if (manifest[LISTINGS]) {
  page.delete(manifest[LISTINGS].file);
  check(`listings: ${manifest[LISTINGS].file}`, gzipped(manifest[LISTINGS].file), LIMITS.listings);
}
check('full page (HTML, JavaScript, CSS, wasm)', total(page), LIMITS.page);
check('loader: kernel-lens.js', gzipped('kernel-lens.js'), LIMITS.loader);

const width = Math.max(...rows.map((row) => row.what.length));
for (const row of rows) {
  const mark = !row.ok ? 'OVER' : row.atGoal ? 'ok  ' : 'goal';
  const goal = row.goal < row.limit ? `, goal ${row.goal} kB` : '';
  console.log(`${mark} ${row.what.padEnd(width)} ${row.size.toFixed(1).padStart(7)} kB gzip (limit ${row.limit} kB${goal})`);
}
console.log(`     ${'wasm: both modules'.padEnd(width)} ${kB(total(moduleFiles)).toFixed(1).padStart(7)} kB gzip`);
const over = rows.filter((row) => !row.ok);
if (over.length > 0) {
  console.error(`size budget: ${over.length} over the limit`);
  process.exit(1);
}
const missed = rows.filter((row) => !row.atGoal);
for (const row of missed) console.log(`size budget: ${row.what} is within its limit but over its ${row.goal} kB goal`);
console.log('size budget: all within limits');
