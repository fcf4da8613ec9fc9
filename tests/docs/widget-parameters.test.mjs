// docs/embedding.md's table of widget parameters against the widgets' own schemas: the table is
// the one scripts/widget-parameters.mjs generates from them (ranges, options, defaults), every
// widget folder has rows, every schema parameter is documented and every documented one exists,
// with the schema's default (where the table writes it out in full). The schemas are read from the
// widget sources through Vite's module loader (the same transforms as the site build), not copied here.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DOC, loadWidgets, moduleLoader, parameterTable, tableIn } from '../../scripts/widget-parameters.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const widgetNames = readdirSync(`${root}web/src/widgets`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`${root}web/src/widgets/${entry.name}/index.ts`))
  .map((entry) => entry.name)
  .sort();

/// The table's rows as { widget, params: [names], defaults: [texts] }, widget carried down blank cells.
function documentedRows() {
  const text = readFileSync(`${root}docs/embedding.md`, 'utf8');
  const section = text.slice(text.indexOf('## Widget parameters'), text.indexOf('## Shareable state'));
  const rows = [];
  let widget = null;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|') || line.startsWith('| widget') || line.startsWith('| ---')) continue;
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim());
    const named = /^`([\w-]+)`/.exec(cells[0] ?? '');
    if (named) widget = named[1];
    const codes = (cell) => [...(cell ?? '').matchAll(/`([^`]*)`/g)].map((match) => match[1]);
    rows.push({ widget, params: codes(cells[1]), defaults: codes(cells[2]) });
  }
  return rows;
}

/// A default as the table writes it: lists comma-separated, numbers as JavaScript prints them.
const written = (value) => (Array.isArray(value) ? value.join(',') : String(value));

let server;
let widgets = [];
let parseParam;
const schemas = new Map();
before(async () => {
  server = await moduleLoader();
  widgets = await loadWidgets(server);
  for (const widget of widgets) schemas.set(widget.name, widget.params);
  ({ parseParam } = await server.ssrLoadModule('/src/ui/state.ts'));
});
after(async () => {
  await server?.close();
});

test('the table is the one the schemas generate (run node scripts/widget-parameters.mjs after changing one)', () => {
  const documented = tableIn(readFileSync(DOC, 'utf8'));
  assert.ok(documented, 'docs/embedding.md keeps the generated table between its markers');
  assert.equal(documented, parameterTable(widgets));
});

test('every widget has rows in the table, and every row names a widget', () => {
  const rows = documentedRows();
  const documented = new Set(rows.map((row) => row.widget));
  assert.deepEqual([...documented].sort(), widgetNames);
});

test('each widget\'s documented parameters are its schema\'s, with its defaults', () => {
  const rows = documentedRows();
  for (const name of widgetNames) {
    const schema = schemas.get(name);
    const mine = rows.filter((row) => row.widget === name);
    const documented = mine.flatMap((row) => row.params);
    assert.deepEqual([...documented].sort(), Object.keys(schema).sort(), `${name}: documented parameters`);
    for (const row of mine) {
      if (row.defaults.length !== row.params.length) continue;
      row.params.forEach((param, i) => {
        const text = row.defaults[i];
        if (text.includes('…')) return;
        assert.equal(text, written(schema[param].default), `${name}.${param}: documented default`);
      });
    }
  }
});

// The bounds are inclusive, as the table writes them ("0.01–10"): a link carrying a parameter's
// minimum or maximum is accepted, and one a step beyond is refused.
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

test("one h for the whole page: every figure with a bandwidth h takes the page's whole range", async () => {
  const { PAGE_H, PAGE_H_PARAM } = await server.ssrLoadModule('/src/page/one-h.ts');
  const linked = widgets.filter((widget) => widget.params[PAGE_H_PARAM]?.kind === 'number');
  assert.ok(linked.length >= 5, `the link reaches the figures with a bandwidth h (${linked.map((w) => w.name)})`);
  for (const widget of linked) {
    const spec = widget.params[PAGE_H_PARAM];
    assert.ok(spec.min <= PAGE_H.min && spec.max >= PAGE_H.max, `${widget.name}: h in [${spec.min}, ${spec.max}] holds [${PAGE_H.min}, ${PAGE_H.max}]`);
  }
  // A parameter named h that is not one number (a list, a choice) is not linked: no such widget today.
  assert.deepEqual(widgets.filter((widget) => widget.params[PAGE_H_PARAM] && widget.params[PAGE_H_PARAM].kind !== 'number').map((w) => w.name), []);
});
