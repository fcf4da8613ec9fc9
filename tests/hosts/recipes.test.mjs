// docs/embedding.md's recipes for the hosts that are not npm packages, run as a course author
// would: each recipe site (tests/hosts/recipes/<host>/) is built under build/hosts/recipes/ with
// the host's own tool (MkDocs 1.4 both ways, Sphinx + MyST with sphinx-book-theme, Quarto's pandoc
// core, installed from Debian; Docusaurus 3 from the lock file beside its recipe; all installed by
// `scripts/setup.sh --hosts`, which npm test runs), served on one origin with dist/ on another
// (CORS only, no isolation headers), and checked in Chromium: the custom element and the iframe
// show the chapter's numbers, a focused slider answers ArrowRight, the iframe sizes itself with no
// inline code, the host's dark switch is followed where the host has one, print media hides the
// buttons, and nothing is logged as an error.
// KERNEL_LENS_DOCUSAURUS_MODULES names another node_modules folder with @docusaurus/core and
// @docusaurus/preset-classic to build the Docusaurus recipe with.
// KERNEL_LENS_RECIPES=text runs only the recipes whose folder name contains `text`;
// KERNEL_LENS_RECIPES_NO_BUILD=1 checks the sites built last time.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { CHAPTER, middleWeight, openHosts, screenshot, settledFrame, themeOf, waitForText } from './harness.mjs';

const here = fileURLToPath(new URL('./recipes/', import.meta.url));
const out = fileURLToPath(new URL('../../build/hosts/recipes/', import.meta.url));

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr || result.stdout}`);
  return (result.stdout + result.stderr).trim();
}

const docusaurusModules = process.env.KERNEL_LENS_DOCUSAURUS_MODULES
  ? resolve(process.env.KERNEL_LENS_DOCUSAURUS_MODULES)
  : join(here, 'docusaurus', 'node_modules');
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
  },
].filter((recipe) => recipe.dir.includes(process.env.KERNEL_LENS_RECIPES ?? ''));

let hosts;
before(async () => {
  hosts = await openHosts({ root: out });
});
after(async () => {
  await hosts?.close();
});

for (const recipe of RECIPES) {
  test(recipe.name, async (t) => {
    assert.ok(recipe.installed ? recipe.installed() : has(recipe.tool), `${recipe.dir} is not installed: ${SETUP}`);
    t.diagnostic(recipe.version().split('\n')[0]);
    if (!process.env.KERNEL_LENS_RECIPES_NO_BUILD) recipe.build();
    assert.ok(existsSync(join(out, recipe.dir, 'index.html')), 'the build wrote an index.html');

    const { page, errors, failures, context } = await hosts.open(recipe.path ?? `${recipe.dir}/index.html`, { viewport: { width: 1200, height: 900 } });
    const element = page.locator('#figure-lookup');
    const frame = page.frameLocator('#frame-lookup');
    assert.equal(await waitForText(element.getByTestId('prediction'), /\d/), CHAPTER.prediction);
    assert.equal(await waitForText(middleWeight(element), /\d/), CHAPTER.weight);
    assert.equal(await waitForText(frame.getByTestId('prediction'), /\d/), CHAPTER.prediction);

    // The host's pages take no inline code: the loader in the head sizes the iframe (200 px in the page).
    const fitted = await settledFrame(page, '#frame-lookup');
    assert.ok(fitted.outer > 300, `the iframe grew to its figure: ${JSON.stringify(fitted)}`);

    // Keys a focused control uses stay with it, in both embed forms.
    for (const scope of [element, frame]) {
      await scope.getByRole('slider', { name: /bandwidth/ }).focus();
      await page.keyboard.press('ArrowRight');
      await waitForText(scope.getByTestId('prediction'), /^(?!2\.7412$)\d/);
    }

    if (recipe.darkSwitch) {
      assert.equal(await element.evaluate(themeOf), 'light');
      await page.evaluate(recipe.darkSwitch);
      // The figure follows it: the theme mark on the figure, in its shadow root.
      await page.waitForFunction(
        (node) => node.shadowRoot?.querySelector('[data-kl-theme]')?.getAttribute('data-kl-theme') === 'dark' || node.getAttribute('data-kl-theme') === 'dark',
        await element.elementHandle(),
        { timeout: 5000 },
      );
    }
    await screenshot(page, `hosts-recipe-${recipe.dir}`);

    const visibleButtons = () =>
      element.evaluate((node) => [...node.shadowRoot.querySelectorAll('button')].filter((button) => button.checkVisibility()).length);
    assert.ok((await visibleButtons()) > 0, 'the figure has buttons on screen');
    await page.emulateMedia({ media: 'print' });
    assert.equal(await visibleButtons(), 0, 'print media hides the buttons');
    await page.emulateMedia({ media: 'screen' });

    assert.deepEqual(errors, [], `console errors (failed requests: ${failures.join('; ')})`);
    await context.close();
  });
}
