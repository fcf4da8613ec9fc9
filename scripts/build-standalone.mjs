#!/usr/bin/env node
// Builds dist/kernel-lens-standalone.html: index.html with its JavaScript (worker and one-file
// wasm included), CSS and woff2 fonts inlined, so it opens from file:// and from an upload folder.
// `?widget=NAME&…` shows one widget, as embed.html does.
// Usage: node scripts/build-standalone.mjs [--outDir DIR]   (DIR defaults to dist, relative to the repo)
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
const outIndex = process.argv.indexOf('--outDir');
const outDir = resolve(repoRoot, outIndex > 0 ? process.argv[outIndex + 1] : 'dist');
const work = join(repoRoot, 'build', `standalone-${process.pid}`);

await build({
  configFile: join(repoRoot, 'web/vite.config.ts'),
  mode: 'standalone',
  logLevel: 'warn',
  build: { outDir: work, emptyOutDir: true },
});

/// `</script` inside inlined code would end the element early.
const scriptText = (code) => code.replace(/<\/(script)/gi, '<\\/$1');
const styleText = (css) => css.replace(/<\/(style)/gi, '<\\/$1');

let html = await readFile(join(work, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<script type="module" crossorigin src="\.\/([^"]+)"><\/script>/g)];
const styles = [...html.matchAll(/<link rel="stylesheet" crossorigin href="\.\/([^"]+)">/g)];
if (scripts.length !== 1) throw new Error(`expected one module script in the standalone build, found ${scripts.length}`);
for (const [tag, path] of styles) {
  html = html.replace(tag, () => '');
  const css = await readFile(join(work, path), 'utf8');
  html = html.replace('</head>', () => `<style>${styleText(css)}</style>\n</head>`);
}
html = html.replace(/<link rel="modulepreload"[^>]*>\s*/g, '');
const [tag, path] = scripts[0];
const code = await readFile(join(work, path), 'utf8');
html = html.replace(tag, () => '');
html = html.replace('</body>', () => `<script type="module">${scriptText(code)}</script>\n</body>`);

const target = join(outDir, 'kernel-lens-standalone.html');
await mkdir(dirname(target), { recursive: true });
await writeFile(target, html);
await rm(work, { recursive: true, force: true });
console.log(`standalone: ${target} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB)`);
