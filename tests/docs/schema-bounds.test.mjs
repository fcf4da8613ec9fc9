// Every widget's numeric bounds are inclusive, as docs/embedding.md writes them ("0.01–10"):
// a link carrying a parameter's minimum or maximum is accepted, and one a step beyond is refused.
// The schemas and the parser are read from the sources through Vite's module loader.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = fileURLToPath(new URL('../../', import.meta.url));
const widgetNames = readdirSync(`${root}web/src/widgets`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

let server;
let parseParam;
const schemas = new Map();
before(async () => {
  server = await createServer({
    configFile: `${root}web/vite.config.ts`,
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: 'custom',
    logLevel: 'error',
  });
  ({ parseParam } = await server.ssrLoadModule('/src/core/state.ts'));
  for (const name of widgetNames) schemas.set(name, (await server.ssrLoadModule(`/src/widgets/${name}/index.ts`)).default.params);
});
after(async () => {
  await server?.close();
});

/// The text a link carries for `x` under `spec` (a list repeats it to its shortest length).
const text = (spec, x) => (spec.kind === 'numbers' ? Array(spec.minLength).fill(String(x)).join(',') : String(x));

test('each numeric parameter accepts its bounds and refuses what lies beyond them', () => {
  const wrong = [];
  for (const [name, schema] of schemas) {
    for (const [param, spec] of Object.entries(schema)) {
      if (!['number', 'integer', 'numbers'].includes(spec.kind)) continue;
      const beyond = spec.kind === 'integer' ? 1 : Math.max(Math.abs(spec.min), Math.abs(spec.max), 1) * 1e-6;
      for (const bound of [spec.min, spec.max]) {
        if (parseParam(spec, text(spec, bound)) === null) wrong.push(`${name}.${param}=${bound} refused`);
      }
      if (parseParam(spec, text(spec, spec.min - beyond)) !== null) wrong.push(`${name}.${param} below ${spec.min} accepted`);
      if (parseParam(spec, text(spec, spec.max + beyond)) !== null) wrong.push(`${name}.${param} above ${spec.max} accepted`);
    }
  }
  assert.deepEqual(wrong, []);
});
