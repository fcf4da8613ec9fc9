import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = resolve(webRoot, '..');
/// The wasm module folder; KERNEL_LENS_WASM_DIR points a build at another copy (relative to the repo).
const wasmDir = resolve(repoRoot, process.env.KERNEL_LENS_WASM_DIR ?? 'build/wasm');

export default defineConfig({
  root: webRoot,
  base: './',
  resolve: {
    alias: { 'kernel-lens-wasm': wasmDir },
  },
  worker: { format: 'es' },
  build: {
    outDir: resolve(repoRoot, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        index: resolve(webRoot, 'index.html'),
        embed: resolve(webRoot, 'embed.html'),
      },
    },
  },
  server: { fs: { allow: [repoRoot] } },
});
