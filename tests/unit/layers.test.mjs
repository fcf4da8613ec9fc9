// The layers of web/src, as docs/architecture.md states them, checked on every import: a file may
// import only from the layers its own layer lists. Arrows point down; nothing imports upward.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../../web/src/', import.meta.url));

/// The layer of a file (a path relative to web/src).
export function layerOf(file) {
  if (file === 'engine/worker.ts') return 'worker';
  if (file.startsWith('engine/')) return file === 'engine/index.ts' ? 'engine-api' : 'engine';
  if (file.startsWith('ui/host/')) return 'host';
  if (file === 'widgets/registry.ts') return 'registry';
  if (file.startsWith('widgets/shared/')) return 'widgets-shared';
  if (file.startsWith('widgets/')) return `widget:${file.split('/')[1]}`;
  const top = file.split('/')[0];
  if (['base', 'theme', 'ui', 'charts', 'listings', 'page', 'embed'].includes(top)) return top;
  if (file === 'main.ts' || file === 'embed.ts') return 'entry';
  return 'unknown';
}

/// Which layers each layer may import (besides its own), and which packages.
const RULES = {
  base: { layers: [], packages: [] },
  theme: { layers: ['base'], packages: [] },
  engine: { layers: ['base', 'engine', 'worker'], packages: ['kernel-lens-wasm/', 'virtual:kernel-lens-worker-url'] },
  worker: { layers: ['engine'], packages: ['kernel-lens-wasm/'] },
  'engine-api': { layers: ['engine'], packages: ['kernel-lens-wasm/'] },
  ui: { layers: ['base', 'theme'], packages: ['katex'] },
  charts: { layers: ['base', 'theme', 'ui'], packages: ['chart.js'] },
  host: { layers: ['base', 'theme', 'ui', 'charts', 'engine-api'], packages: [] },
  'widgets-shared': { layers: ['base', 'theme', 'ui', 'charts', 'host', 'engine-api'], packages: [] },
  widget: { layers: ['base', 'theme', 'ui', 'charts', 'host', 'engine-api', 'widgets-shared'], packages: [] },
  registry: { layers: ['ui', 'host', 'widget'], packages: [] },
  listings: { layers: ['base', 'theme', 'ui', 'engine-api'], packages: [] },
  page: { layers: ['base', 'theme', 'ui', 'charts', 'host', 'registry', 'listings', 'embed'], packages: [] },
  embed: { layers: ['base', 'theme', 'ui', 'charts', 'host', 'registry', 'page'], packages: [] },
  entry: { layers: ['page', 'embed'], packages: [] },
};

/// The reason `from` may not import `spec`, or null when it may.
export function violation(from, spec) {
  const layer = layerOf(from);
  const kind = layer.startsWith('widget:') ? 'widget' : layer;
  const rule = RULES[kind];
  if (!rule) return `${from} is in no layer`;
  if (!spec.startsWith('.')) {
    return rule.packages.some((p) => spec === p || spec.startsWith(p)) ? null : `${kind} may not import the package ${spec}`;
  }
  let target = normalize(join(dirname(from), spec.replace(/\?.*$/, '')));
  if (!target.endsWith('.ts')) target = target.endsWith('.html') || target.endsWith('.css') ? target : `${target}.ts`;
  if (target.endsWith('.html') || target.endsWith('.css')) {
    return dirname(target) === dirname(from) || layerOf(target) === 'widgets-shared' ? null : `${from} may import only its own folder's ${target} or widgets/shared/`;
  }
  if (statSafe(join(src, target.replace(/\.ts$/, ''))) || target === 'engine.ts') target = target.replace(/\.ts$/, '/index.ts');
  const to = layerOf(target);
  if (to === layer) return null;
  if (kind === 'widget' && to.startsWith('widget:')) return `${from} imports another widget's ${target}: shared parts go in widgets/shared/`;
  if (kind === 'registry' && to.startsWith('widget:')) return null;
  return rule.layers.includes(to) ? null : `${kind} may not import ${to} (${from} -> ${target})`;
}

function statSafe(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)|(?:^|\n)\s*import\s*'([^']+)'/g;

function importsOf(text) {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
}

test('every import in web/src follows the layers', () => {
  const all = files(src);
  assert.ok(all.length > 50, `expected the site's sources, found ${all.length} files`);
  const problems = [];
  for (const path of all) {
    const from = relative(src, path);
    for (const spec of importsOf(readFileSync(path, 'utf8'))) {
      const why = violation(from, spec);
      if (why) problems.push(why);
    }
  }
  assert.deepEqual(problems, []);
});

test('the layer rules catch what they must', () => {
  assert.match(violation('widgets/lookup/index.ts', '../../engine/worker.ts') ?? '', /may not import worker/);
  assert.match(violation('widgets/lookup/index.ts', '../../engine/bridge') ?? '', /may not import engine/);
  assert.match(violation('charts/bars.ts', '../widgets/lookup/view') ?? '', /may not import widget:lookup/);
  assert.match(violation('widgets/smoothing/index.ts', '../lookup/view') ?? '', /another widget/);
  assert.match(violation('widgets/lookup/view.ts', 'chart.js') ?? '', /package chart.js/);
  assert.match(violation('widgets/lookup/view.ts', 'kernel-lens-wasm/kernel_lens.mjs') ?? '', /package kernel-lens-wasm/);
  assert.match(violation('ui/controls.ts', '../engine') ?? '', /may not import engine-api/);
  assert.match(violation('charts/frame.ts', '../engine') ?? '', /may not import engine-api/);
  assert.match(violation('engine/bridge.ts', '../ui/format') ?? '', /may not import ui/);
  assert.equal(violation('widgets/lookup/index.ts', '../../engine'), null);
  assert.equal(violation('widgets/lookup/index.ts', './prose.html?raw'), null);
});
