import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { notebook, parseCells } from './src/listings/cells.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = resolve(webRoot, '..');
/// The wasm module folder; KERNEL_LENS_WASM_DIR points a build at another copy (relative to the repo).
const wasmDir = resolve(repoRoot, process.env.KERNEL_LENS_WASM_DIR ?? 'build/wasm');

/// Three builds share this file. The default one is the site: index.html, embed.html and the
/// custom element's code at the stable path assets/kernel-lens-figure.js, the CSS in one
/// unhashed file (assets/kernel-lens.css) that the element's shadow roots link, but for KaTeX's,
/// linked only where math is typeset. `--mode loader`
/// then adds the loader, dist/kernel-lens.js, as one self-contained file: built with the site,
/// Rollup would move the modules it shares with the charts (charts/host-theme.ts) into a chunk,
/// and a page without figures would fetch more than the loader. It imports the figure code by
/// its stable path, only when a figure nears the viewport. `--mode standalone` builds
/// index.html as one bundle (no chunks, the worker and the one-file wasm inlined, woff2 fonts as
/// data URLs) that scripts/build-standalone.mjs folds into dist/kernel-lens-standalone.html.
/// The core worker as a chunk of the site's own build rather than of Vite's separate worker build:
/// it then shares chunks with the page (the two modules' factory scripts, the call table), so a
/// page that runs calls both on its own core instance and in the worker fetches each factory
/// once. `virtual:kernel-lens-worker-url` is the emitted chunk's URL.
function coreWorkerChunk(): Plugin {
  const virtualId = '\0kernel-lens-worker-url';
  let reference = '';
  return {
    name: 'kernel-lens-core-worker',
    buildStart() {
      reference = this.emitFile({ type: 'chunk', id: resolve(webRoot, 'src/engine/worker.ts'), name: 'worker' });
    },
    resolveId: (id) => (id === 'virtual:kernel-lens-worker-url' ? virtualId : null),
    load: (id) => (id === virtualId ? `export default import.meta.ROLLUP_FILE_URL_${reference};` : null),
  };
}

/// The chapter's code as a Jupyter notebook beside the page (NOTEBOOK_FILE, linked from index.html),
/// written from the same cells the page shows (web/src/listings/chapter.py).
export const NOTEBOOK_FILE = 'kernel-lens-chapter-12.ipynb';
function chapterNotebook(): Plugin {
  const source = resolve(webRoot, 'src/listings/chapter.py');
  return {
    name: 'kernel-lens-chapter-notebook',
    buildStart() {
      this.addWatchFile(source);
    },
    generateBundle() {
      const cells = parseCells(readFileSync(source, 'utf8'));
      this.emitFile({ type: 'asset', fileName: NOTEBOOK_FILE, source: `${JSON.stringify(notebook(cells), null, 1)}\n` });
    },
  };
}

/// V8's explicit compile hint: a script whose first line is this comment has all its functions
/// compiled while it streams in, off the main thread, instead of each on its first call, on the
/// main thread, in the middle of a figure's first layout and draw (Chrome 136 and later; other
/// engines read a comment). Given to the chunks every figure runs as it starts: what the entries
/// import statically (the framework, Chart.js, the charts) and the widgets' own chunks; not to
/// KaTeX, the export code or anything else loaded later or only by some pages.
function compileHints(): Plugin {
  const HINT = '//# allFunctionsCalledOnLoad\n';
  return {
    name: 'kernel-lens-compile-hints',
    // Written into the files as they are on disk: Vite puts a chunk's `__vite__mapDeps` table (a
    // chunk with dynamic imports, Chart.js' among them) in front of its code in a later
    // generateBundle than a plugin's, and the hint counts only as the file's first line.
    writeBundle(options, bundle) {
      const chunks = new Map<string, { code: string; imports: string[]; isEntry: boolean; facadeModuleId: string | null }>();
      for (const [file, output] of Object.entries(bundle)) if (output.type === 'chunk') chunks.set(file, output);
      const starting = new Set<string>();
      const visit = (file: string): void => {
        if (starting.has(file) || !chunks.has(file)) return;
        starting.add(file);
        for (const imported of chunks.get(file)?.imports ?? []) visit(imported);
      };
      for (const [file, chunk] of chunks) {
        if (chunk.isEntry || /\/src\/widgets\/[^/]+\/index\.ts$/.test(chunk.facadeModuleId ?? '')) visit(file);
      }
      for (const file of starting) {
        const chunk = chunks.get(file);
        if (chunk && options.dir && !/(^|\/)worker-[\w-]+\.js$/.test(file)) writeFileSync(resolve(options.dir, file), HINT + chunk.code);
      }
    },
  };
}

export default defineConfig(({ mode }) => {
  const standalone = mode === 'standalone';
  const loader = mode === 'loader';
  const workerFactory = resolve(webRoot, 'src/engine/worker-factory-inline.ts');
  return {
    root: webRoot,
    base: './',
    plugins: standalone || loader ? [] : [coreWorkerChunk(), compileHints(), chapterNotebook()],
    resolve: {
      alias: [
        { find: 'kernel-lens-wasm', replacement: wasmDir },
        ...(standalone ? [{ find: /^\.\/worker-factory$/, replacement: workerFactory }] : []),
      ],
    },
    /// A page on file:// has an opaque origin, and Chromium refuses module workers from its blob
    /// URLs: the standalone bundle inlines a classic worker.
    worker: { format: standalone ? 'iife' : 'es' },
    build: {
      outDir: resolve(repoRoot, standalone ? 'build/standalone' : 'dist'),
      emptyOutDir: !loader,
      target: 'es2022',
      /// terser's two passes take about 4 % off the scripts' compressed size against the default
      /// minifier (the full page's budget).
      minify: 'terser',
      terserOptions: { compress: { passes: 2 } },
      cssCodeSplit: false,
      /// A dynamic import's dependencies are preloaded with <link> tags; the worker has no document.
      modulePreload: {
        resolveDependencies: (_file: string, deps: string[], { hostId }: { hostId: string }) => (/(^|\/)worker-[\w-]+\.js$/.test(hostId) ? [] : deps),
      },
      manifest: !standalone && !loader,
      /// The standalone bundle is one file by design (its wasm alone is about 700 kB of base64).
      chunkSizeWarningLimit: standalone ? 4000 : 500,
      /// The site never inlines fonts (the strict CSP has no `font-src data:`); the standalone file
      /// inlines the woff2 ones (browsers pick woff2 first, the others stay out of the file).
      assetsInlineLimit: (file: string) => (/\.(woff2?|ttf)$/.test(file) ? standalone && file.endsWith('.woff2') : undefined),
      rollupOptions: {
        input: standalone
          ? { index: resolve(webRoot, 'index.html') }
          : loader
            ? { 'kernel-lens': resolve(webRoot, 'src/embed/loader.ts') }
            : {
                index: resolve(webRoot, 'index.html'),
                embed: resolve(webRoot, 'embed.html'),
                'kernel-lens-figure': resolve(webRoot, 'src/embed/figure.ts'),
              },
        /// The figure code is an entry so its exports stay; the loader imports it by name.
        preserveEntrySignatures: 'exports-only',
        output: {
          entryFileNames: (chunk: { name: string }) =>
            chunk.name === 'kernel-lens'
              ? 'kernel-lens.js'
              : chunk.name === 'kernel-lens-figure'
                ? 'assets/kernel-lens-figure.js'
                : 'assets/[name]-[hash].js',
          /// KaTeX's stylesheet stays a file of its own (core/math-text.ts links it where math is).
          assetFileNames: (asset: { names?: string[] }) =>
            asset.names?.some((name) => name.endsWith('.css') && !name.startsWith('katex'))
              ? 'assets/kernel-lens.css'
              : 'assets/[name]-[hash][extname]',
          ...(standalone || loader ? { codeSplitting: false } : {}),
        },
      },
    },
    server: { fs: { allow: [repoRoot] } },
  };
});
