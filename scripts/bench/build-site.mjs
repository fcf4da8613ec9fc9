// The benches' site build: the site, the loader (dist/kernel-lens.js) beside it and the standalone
// file, as `npm run build:web` does (so a bench leaves dist/ as the tests expect it). `outDir`
// (optional) builds elsewhere.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export function buildSite(outDir) {
  const target = outDir ? ['--outDir', resolve(outDir)] : [];
  for (const mode of [[], ['--mode', 'loader']]) {
    const build = spawnSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error', ...mode, ...target], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const standalone = spawnSync(process.execPath, ['scripts/build-standalone.mjs', ...target], { cwd: repoRoot, stdio: 'inherit' });
  if (standalone.status !== 0) process.exit(standalone.status ?? 1);
}
