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
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';
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

/// The recipes' build processes started by buildAside (stopped if the rest of the build fails).
const children = [];
/// Builds one recipe in a Node process of its own; resolves once it has built, rejects with its output.
function buildAside(dir) {
  const child = spawn(process.execPath, ['--input-type=module', '-e',
    `import { buildRecipes } from ${JSON.stringify(pathToFileURL(join(here, 'recipes.mjs')).href)}; buildRecipes(${JSON.stringify(dir)});`]);
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(output) : fail(new Error(`hosts: the ${dir} recipe did not build:\n${output}`))));
  });
}

const started = Date.now();
// Docusaurus's build takes about as long as all the others together, mostly on one core: it
// builds in a process of its own beside them.
const aside = ['docusaurus'];
const building = aside.map((dir) => buildAside(dir));
building.forEach((promise) => promise.catch(() => {}));
try {
  await mkdir(site, { recursive: true });
  await buildReveal();
  await buildVitepress();
  console.log(`hosts: built build/hosts/site/{notes,deck} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  buildRecipes('', aside);
} catch (error) {
  for (const child of children) child.kill();
  throw error;
}
for (const output of await Promise.all(building)) process.stdout.write(output);
