// The core worker's message protocol (web/src/engine/protocol.ts, worker.ts, calls.ts), spoken to
// the built worker directly: the compiled module handed over by the page, several calls in one
// request, an argument that is an earlier call's result (`resultOf`), a call that keeps only
// some fields of its result (`keeping`), and a call of a part the page did not hand over.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { distDir, openSite } from './harness.mjs';

let site;
let page;
let errors;
before(async () => {
  site = await openSite();
  ({ page, errors } = await site.newPage('embed.html?widget=none'));
  const names = readdirSync(`${distDir}assets`);
  const worker = names.find((name) => /^worker-.*\.js$/.test(name));
  const wasm = names.find((name) => /^kernel_lens_core-.*\.wasm$/.test(name));
  assert.ok(worker && wasm, 'the built site has a worker script and the core .wasm file');
  // The page compiles the core module, starts the worker, hands it the compiled module (as the
  // engine does) and keeps a function that sends one request and awaits its answer.
  await page.evaluate(
    async ([url, wasmUrl]) => {
      const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
      const core = new Worker(url, { type: 'module' });
      const answers = new Map();
      let started;
      const running = new Promise((resolve) => {
        started = resolve;
      });
      core.onmessage = ({ data }) => {
        if (data.started) started(data);
        else answers.get(data.id)?.(data);
      };
      core.postMessage({ id: -1, part: 'core', module });
      let id = 1;
      globalThis.ask = (calls) =>
        new Promise((resolve) => {
          const mine = id++;
          answers.set(mine, resolve);
          core.postMessage({ id: mine, calls });
        });
      await running;
    },
    [`assets/${worker}`, `assets/${wasm}`],
  );
});
after(async () => {
  await site?.close();
});

const ask = (calls) => page.evaluate((list) => globalThis.ask(list), calls);
const QUERIES = [-1, 0.5, 2, 3.5];
const KEYS = [1, 3, 5];
const VALUES = [1.5, 2.8, 1.8];

test('a call that keeps only the outputs of attention answers them and nothing else', async () => {
  const answer = await ask([
    { fn: 'attention', args: [QUERIES, KEYS, VALUES, 1, 1, 0.6], keep: ['outputs'] },
    { fn: 'attention', args: [QUERIES, KEYS, VALUES, 1, 1, 0.6] },
  ]);
  assert.equal(answer.error, undefined);
  const [kept, full] = answer.results;
  assert.deepEqual(Object.keys(kept), ['outputs']);
  assert.deepEqual(Object.keys(full).sort(), ['outputs', 'weights']);
  assert.deepEqual(kept.outputs, full.outputs);
  assert.equal(full.weights.length, QUERIES.length * KEYS.length);
});

test('an argument can be the result of an earlier call of the same request', async () => {
  const chained = await ask([
    { fn: 'distanceScores', args: [[3.5], KEYS, 1] },
    { fn: 'softmaxWithTemperature', args: [{ $result: 0 }, KEYS.length, 0.72] },
    { fn: 'attention', args: [[3.5], KEYS, VALUES, 1, 1, 0.6] },
  ]);
  assert.equal(chained.error, undefined);
  const [, softmax, attention] = chained.results;
  // τ = 2h² = 0.72: softmax(s / τ) of the unscaled scores is the Gaussian weights (section 12.3).
  for (let i = 0; i < KEYS.length; i++) assert.ok(Math.abs(softmax[i] - attention.weights[i]) < 1e-15);
});

test('keeping a field the result does not have, or keeping fields of an array, is refused with the reason', async () => {
  const missing = await ask([{ fn: 'attention', args: [[3.5], KEYS, VALUES, 1, 1, 0.6], keep: ['prediction'] }]);
  assert.equal(missing.error?.name, 'TypeError');
  assert.match(missing.error.message, /attention answers no field "prediction" \(it has weights, outputs\)/);
  const array = await ask([{ fn: 'olsWeights', args: [KEYS, [3.5], 1], keep: ['weights'] }]);
  assert.equal(array.error?.name, 'TypeError');
  assert.match(array.error.message, /olsWeights answers no object/);
  const empty = await ask([{ fn: 'attention', args: [[3.5], KEYS, VALUES, 1, 1, 0.6], keep: [] }]);
  assert.match(empty.error?.message ?? '', /keep for attention must be a non-empty list of field names/);
  const junk = await ask([{ fn: 'attention', args: [[3.5], KEYS, VALUES, 1, 1, 0.6], keep: 'outputs' }]);
  assert.match(junk.error?.message ?? '', /keep for attention must be a non-empty list of field names/);
  // The worker still answers after refusals.
  const after = await ask([{ fn: 'attention', args: [[3.5], KEYS, VALUES, 1, 1, 0.6], keep: ['outputs'] }]);
  assert.equal(after.results[0].outputs[0].toFixed(4), '2.7412');
  assert.deepEqual(errors, []);
});

test('a call of a part the page did not hand over is refused with the reason; the worker fetches nothing itself', async () => {
  const fetched = [];
  page.on('request', (request) => fetched.push(request.url()));
  const answer = await ask([{ fn: 'looCurve', args: [KEYS, VALUES, 1, [0.5]] }]);
  assert.equal(answer.error?.name, 'Error');
  assert.equal(answer.error.message, 'the page sent no compiled lab module');
  assert.deepEqual(fetched.filter((url) => url.endsWith('.wasm')), []);
  // The core part still answers.
  const after = await ask([{ fn: 'attention', args: [[3.5], KEYS, VALUES, 1, 1, 0.6], keep: ['outputs'] }]);
  assert.equal(after.results[0].outputs[0].toFixed(4), '2.7412');
});
