#!/usr/bin/env node
// Builds the host sites of the host tests:
//   build/hosts/site/notes/  a VitePress site (tests/hosts/vitepress), with dist/kernel-lens-standalone.html in its public/
//   build/hosts/site/deck/   a reveal.js deck (tests/hosts/reveal/index.html beside reveal.js's dist/)
//   build/hosts/recipes/     the recipe sites of tests/hosts/recipes.mjs, each with its host's own tool
// The first two come from the pinned devDependencies installed by `npm ci`, the recipes' hosts from
// `scripts/setup.sh --hosts`; nothing is downloaded.
// Needs dist/ (npm run build:web) for the standalone file. Run once before the host tests.
import { cp, mkdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { buildRecipes } from './recipes.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const here = join(root, 'tests/hosts');
const out = join(root, 'build/hosts');
const site = join(out, 'site');

async function buildVitepress() {
  // A copy of the sources, so that the standalone file can go into public/ as the recipe says
  // without a build output in the source tree.
  const source = join(out, 'vitepress-src');
  await rm(source, { recursive: true, force: true });
  await cp(join(here, 'vitepress'), source, { recursive: true });
  const standalone = join(root, 'dist/kernel-lens-standalone.html');
  if (existsSync(standalone)) {
    await mkdir(join(source, 'public'), { recursive: true });
    await cp(standalone, join(source, 'public/kernel-lens-standalone.html'));
  } else {
    console.warn('hosts: dist/kernel-lens-standalone.html is missing; the offline page will be empty');
  }
  const { build } = await import('vitepress');
  await build(source, { outDir: join(site, 'notes'), logLevel: 'warn' });
}

async function buildReveal() {
  const require = createRequire(import.meta.url);
  const revealDist = dirname(require.resolve('reveal.js/reveal.css'));
  const deck = join(site, 'deck');
  await rm(deck, { recursive: true, force: true });
  await mkdir(deck, { recursive: true });
  await cp(revealDist, join(deck, 'dist'), { recursive: true });
  await cp(join(here, 'reveal/index.html'), join(deck, 'index.html'));
}

const started = Date.now();
await mkdir(site, { recursive: true });
await buildReveal();
await buildVitepress();
console.log(`hosts: built build/hosts/site/{notes,deck} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
buildRecipes();
