import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = resolve(webRoot, '..');
/// The wasm module folder; KERNEL_LENS_WASM_DIR points a build at another copy (relative to the repo).
const wasmDir = resolve(repoRoot, process.env.KERNEL_LENS_WASM_DIR ?? 'build/wasm');

/// Two builds share this file. The default one is the site: index.html, embed.html and the
/// loader at the stable path kernel-lens.js, which imports the custom element's code from the
/// stable path assets/kernel-lens-figure.js (no preload helper, so a page without figures fetches
/// the loader alone), all CSS in one unhashed file (assets/kernel-lens.css) that the element's
/// shadow roots link. `--mode standalone` builds
/// index.html as one bundle (no chunks, the worker and the one-file wasm inlined, woff2 fonts as
/// data URLs) that scripts/build-standalone.mjs folds into dist/kernel-lens-standalone.html.
export default defineConfig(({ mode }) => {
  const standalone = mode === 'standalone';
  const workerFactory = resolve(webRoot, 'src/engine/worker-factory-inline.ts');
  return {
    root: webRoot,
    base: './',
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
      emptyOutDir: true,
      target: 'es2022',
      cssCodeSplit: false,
      manifest: !standalone,
      /// The standalone bundle is one file by design (its wasm alone is about 700 kB of base64).
      chunkSizeWarningLimit: standalone ? 4000 : 500,
      /// The site never inlines fonts (the strict CSP has no `font-src data:`); the standalone file
      /// inlines the woff2 ones (browsers pick woff2 first, the others stay out of the file).
      assetsInlineLimit: (file: string) => (/\.(woff2?|ttf)$/.test(file) ? standalone && file.endsWith('.woff2') : undefined),
      rollupOptions: {
        input: standalone
          ? { index: resolve(webRoot, 'index.html') }
          : {
              index: resolve(webRoot, 'index.html'),
              embed: resolve(webRoot, 'embed.html'),
              'kernel-lens': resolve(webRoot, 'src/embed/loader.ts'),
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
          assetFileNames: (asset: { names?: string[] }) =>
            asset.names?.some((name) => name.endsWith('.css')) ? 'assets/kernel-lens.css' : 'assets/[name]-[hash][extname]',
          ...(standalone ? { codeSplitting: false } : {}),
        },
      },
    },
    server: { fs: { allow: [repoRoot] } },
  };
});
