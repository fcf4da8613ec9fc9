#!/usr/bin/env node
// Runs docs/embedding.md's recipes for hosts that are not npm packages (not part of npm test):
// builds each recipe site under build/hosts/recipes/ with the host's own tool when it is
// installed, serves it on one origin and dist/ on another (CORS only, no isolation headers), and
// checks in Chromium that the custom element and the iframe show the chapter's numbers and that
// the iframe sizes itself. Prints one row per recipe; exits 1 when a recipe that ran failed.
//   apt-get install -y mkdocs python3-sphinx python3-myst-parser python3-sphinx-book-theme pandoc
//   node tests/hosts/recipes.mjs
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHAPTER, openHosts, settledFrame, waitForText } from './harness.mjs';

const here = fileURLToPath(new URL('./recipes/', import.meta.url));
const out = fileURLToPath(new URL('../../build/hosts/recipes/', import.meta.url));

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const run = (command, args, cwd) => {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr || result.stdout}`);
  return (result.stdout + result.stderr).trim();
};

/// Docusaurus is not a dependency of this project: a node_modules folder with @docusaurus/core
/// and @docusaurus/preset-classic (npm install @docusaurus/core@3 @docusaurus/preset-classic@3
/// react react-dom @mdx-js/react clsx prism-react-renderer) is named by this variable.
const docusaurusModules = process.env.KERNEL_LENS_DOCUSAURUS_MODULES;

function buildDocusaurus() {
  const source = join(out, '..', 'recipes-src', 'docusaurus');
  rmSync(source, { recursive: true, force: true });
  cpSync(join(here, 'docusaurus'), source, { recursive: true });
  symlinkSync(docusaurusModules, join(source, 'node_modules'));
  return run('node', [join(docusaurusModules, '@docusaurus/core/bin/docusaurus.mjs'), 'build', '--out-dir', join(out, 'docusaurus')], source);
}

const RECIPES = [
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
    name: 'Sphinx + MyST (html_js_files with type=module, {raw} html blocks)',
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
      return run('pandoc', ['--standalone', '-H', 'header.html', 'notes.md', '-o', join(out, 'quarto', 'index.html')], join(here, 'quarto'));
    },
    darkSwitch: () => document.body.classList.add('quarto-dark'),
  },
  {
    name: 'Docusaurus 3 (scripts in docusaurus.config.js, figures in MDX)',
    dir: 'docusaurus',
    // The route is /docusaurus/: opening …/index.html makes the client router render another page than the server did.
    path: 'docusaurus/',
    available: () => Boolean(docusaurusModules && existsSync(join(docusaurusModules, '@docusaurus/core'))),
    missing: 'KERNEL_LENS_DOCUSAURUS_MODULES does not name a node_modules folder with @docusaurus/core',
    version: () => `@docusaurus/core ${JSON.parse(run('cat', [join(docusaurusModules, '@docusaurus/core/package.json')], here)).version}`,
    build: buildDocusaurus,
    // Docusaurus's colour mode: data-theme="dark" on <html>, which theme="auto" follows.
    darkSwitch: () => document.documentElement.setAttribute('data-theme', 'dark'),
  },
];

const rows = [];
const hosts = await openHosts({ root: out });
try {
  // KERNEL_LENS_RECIPES=text runs only the recipes whose folder name contains `text`.
  for (const recipe of RECIPES.filter((candidate) => candidate.dir.includes(process.env.KERNEL_LENS_RECIPES ?? ''))) {
    if (recipe.available ? !recipe.available() : !has(recipe.tool)) {
      rows.push({ recipe, result: `not run: ${recipe.missing ?? `${recipe.tool} is not installed`}` });
      continue;
    }
    const row = { recipe, version: recipe.version().split('\n')[0] };
    rows.push(row);
    try {
      // KERNEL_LENS_RECIPES_NO_BUILD=1 checks the sites built last time.
      if (!process.env.KERNEL_LENS_RECIPES_NO_BUILD) recipe.build();
      if (!existsSync(join(out, recipe.dir, 'index.html'))) throw new Error('the build wrote no index.html');
      const { page, errors, failures, context } = await hosts.open(recipe.path ?? `${recipe.dir}/index.html`, { viewport: { width: 1200, height: 900 } });
      const element = await waitForText(page.locator('#figure-lookup').getByTestId('prediction'), /\d/);
      const framed = await waitForText(page.frameLocator('#frame-lookup').getByTestId('prediction'), /\d/);
      if (element !== CHAPTER.prediction || framed !== CHAPTER.prediction) throw new Error(`numbers ${element}, ${framed}`);
      const fitted = await settledFrame(page, '#frame-lookup');
      if (recipe.darkSwitch) {
        await page.evaluate(recipe.darkSwitch);
        await page.waitForFunction(() => {
          const element = document.querySelector('#figure-lookup');
          const holder = element.matches('[data-kl-theme]') ? element : element.shadowRoot?.querySelector('[data-kl-theme]');
          return holder?.getAttribute('data-kl-theme') === 'dark';
        }, null, { timeout: 5000 });
      }
      if (errors.length) throw new Error(`console errors: ${errors.join('; ')} (requests: ${failures.join('; ')})`);
      row.result = `ok: element and iframe show ${CHAPTER.prediction}; iframe ${fitted.outer} px, no inner scroll bar` +
        (recipe.darkSwitch ? "; the element follows the host's dark switch" : '');
      await context.close();
    } catch (error) {
      row.failed = true;
      row.result = `FAILED: ${String(error.message ?? error).split('\n').slice(0, 12).join('\n  ')}`;
    }
  }
} finally {
  await hosts.close();
}
for (const row of rows) console.log(`${row.recipe.name}${row.version ? ` [${row.version}]` : ''}\n  ${row.result}`);
process.exit(rows.some((row) => row.failed) ? 1 : 0);
