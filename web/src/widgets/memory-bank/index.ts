/// Section 12.6's job table beside a small live attention computation (the three-point lookup as a
/// memory bank): selecting a job highlights the part of the computation that does it.
import { bandwidthSlider, controlRow, querySlider } from '../../ui/controls';
import { fixed, indexed, pending, precise } from '../../ui/format';
import { typeset } from '../../ui/math-text';
import { scrollBox } from '../../ui/scroll-box';
import { call } from '../../engine';
import type { StateOf } from '../../ui/state';
import { defineWidget } from '../../ui/host/widget';
import './memory-bank.css';
import { setText, testNode } from '../../ui/readout';
import prose from './prose.html?raw';
import meta from './meta';

/// The chapter's three stored pairs (keys = locations, values = responses).
const KEYS = [1, 3, 5] as const;
const VALUES = [1.5, 2.8, 1.8] as const;

const JOBS = ['query', 'keys', 'values', 'weights', 'output'] as const;
type Job = (typeof JOBS)[number];

/// The chapter's table: job, kernel regression, sequence memory preview.
const TABLE: Record<Job, { regression: string; memory: string }> = {
  query: { regression: 'location $\\vect{q}$ where we need an answer', memory: 'what the decoder needs now' },
  keys: { regression: 'stored coordinates $\\vect{k}_i$', memory: 'descriptors used to match encoder memory slots' },
  values: { regression: 'observed responses $\\vect{v}_i$', memory: 'content retrieved from those slots' },
  weights: { regression: 'normalized fixed similarities $\\alpha_i(\\vect{q})$', memory: 'how much each slot contributes' },
  output: { regression: '$\\sum_i\\alpha_i\\vect{v}_i$', memory: 'a query-specific context vector' },
};

const params = {
  row: { kind: 'enum', label: 'selected job', default: 'query', options: ['none', ...JOBS] },
  q: { kind: 'number', label: 'query q', default: 3.5, min: 0, max: 6, scale: 'linear', step: 0.05 },
  h: { kind: 'number', label: 'bandwidth h', default: 0.6, min: 0.05, max: 5, scale: 'log' },
} as const;

type BankState = StateOf<typeof params>;

function part(tag: 'div' | 'span', job: Job, className: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  node.dataset.part = job;
  return node;
}

export default defineWidget({ name: 'memory-bank', ...meta, params, prose, math: true }, (host) => {
  let last: { q: number; h: number; tau: number; weights: Float64Array; scores: Float64Array; scaled: Float64Array; output: number } | null = null;
  host.provideExport('slots', () => last, (frame) => {
    return [
      ['q', 'h', 'tau', 'slot', 'key', 'value', 'score s', 'scaled score a = s/tau', 'weight'],
      ...KEYS.map((k, i) => [frame.q, frame.h, frame.tau, i + 1, k, VALUES[i] ?? null, frame.scores[i] ?? null, frame.scaled[i] ?? null, frame.weights[i] ?? null]),
    ];
  });
  host.provideExport({
    name: 'output',
    csv: () => (last ? [['q', 'h', 'output'], [last.q, last.h, last.output]] : []),
  });

  // ---- the job table ----
  const jobs = document.createElement('table');
  jobs.className = 'kl-table kl-bank__jobs';
  jobs.createCaption().textContent = 'Each name does a different job (select a row)';
  const head = jobs.createTHead().insertRow();
  for (const text of ['job', 'kernel regression', 'sequence memory preview']) {
    const th = document.createElement('th');
    th.scope = 'col';
    setText(th, text);
    head.append(th);
  }
  const body = jobs.createTBody();
  const rowButtons = new Map<Job, HTMLButtonElement>();
  for (const job of JOBS) {
    const tr = body.insertRow();
    tr.dataset.job = job;
    const th = document.createElement('th');
    th.scope = 'row';
    const choose = document.createElement('button');
    choose.type = 'button';
    choose.className = 'kl-bank__job';
    setText(choose, job);
    choose.setAttribute('aria-label', `Highlight the ${job} in the computation`);
    choose.addEventListener('click', () => select(host.state.row === job ? 'none' : job));
    choose.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
      if (step === 0) return;
      event.preventDefault();
      const next = JOBS[(JOBS.indexOf(job) + step + JOBS.length) % JOBS.length] ?? job;
      rowButtons.get(next)?.focus();
      select(next);
    });
    rowButtons.set(job, choose);
    th.append(choose);
    const regression = tr.insertCell();
    setText(regression, TABLE[job].regression);
    const memory = tr.insertCell();
    setText(memory, TABLE[job].memory);
    tr.prepend(th);
  }
  const jobsBox = scrollBox(jobs.caption?.textContent ?? 'The jobs of query, keys and values', [jobs]);

  // ---- the live computation ----
  const bank = document.createElement('div');
  bank.className = 'kl-bank';
  bank.setAttribute('role', 'group');
  bank.setAttribute('aria-label', 'A live attention computation: one query reads three memory slots');

  const queryCard = part('div', 'query', 'kl-bank__card kl-bank__query');
  const queryText = testNode('strong', 'query');
  queryCard.append('query q = ', queryText);

  const slots = document.createElement('ol');
  slots.className = 'kl-bank__slots';
  const slotParts = KEYS.map((_, i) => {
    const slot = document.createElement('li');
    slot.className = 'kl-bank__slot';
    const title = document.createElement('span');
    title.className = 'kl-bank__slot-title';
    setText(title, `slot ${i + 1}`);
    const key = part('div', 'keys', 'kl-bank__line');
    const value = part('div', 'values', 'kl-bank__line');
    const score = part('div', 'weights', 'kl-bank__line kl-bank__line--score');
    const scaled = part('div', 'weights', 'kl-bank__line kl-bank__line--score');
    const weight = part('div', 'weights', 'kl-bank__line');
    const weightText = testNode('strong', `weight-${i + 1}`);
    const bar = document.createElement('span');
    bar.className = 'kl-bank__bar';
    bar.setAttribute('aria-hidden', 'true');
    const fill = document.createElement('span');
    bar.append(fill);
    weight.append(`${indexed('α', i + 1)} = `, weightText, bar);
    slot.append(title, key, value, score, scaled, weight);
    slots.append(slot);
    return { key, value, score, scaled, weightText, fill };
  });

  const outputCard = part('div', 'output', 'kl-bank__card kl-bank__output');
  const outputText = testNode('strong', 'output');
  outputCard.append('output Σ αᵢvᵢ = ', outputText);
  /// Equation 12.5's symbols: the unscaled score s, the temperature τ, the scaled score a = s/τ.
  const scoreCard = part('div', 'weights', 'kl-bank__card kl-bank__scores');
  const tauText = testNode('strong', 'temperature');
  scoreCard.append('scores sᵢ = −‖q − kᵢ‖², temperature τ = 2h² = ', tauText, ', weights α = softmax(a) of aᵢ = sᵢ/τ');
  bank.append(queryCard, scoreCard, slots, outputCard);

  const lookupLink = document.createElement('a');
  lookupLink.className = 'kl-bank__link';
  const linkLine = document.createElement('p');
  linkLine.append('The same computation drawn as Figure 12.1: ', lookupLink, '.');

  const query = querySlider(params.q, host.state.q, (q) => host.update({ q }));
  const bandwidth = bandwidthSlider(params.h, host.state.h, (h) => host.update({ h }));

  const layout = document.createElement('div');
  layout.className = 'kl-bank__layout';
  layout.append(jobsBox, bank);
  host.root.append(layout, controlRow(query.element, bandwidth.element), linkLine);
  // The bank's fixed keys and values from the start; until the core answers, its scores,
  // weights and output are blanks of about their numbers' widths (no layout shift).
  setText(queryText, fixed(host.state.q, 2));
  slotParts.forEach((slot, i) => {
    setText(slot.key, `key ${indexed('k', i + 1)} = ${fixed(KEYS[i] ?? 0, 0)}`);
    setText(slot.value, `value ${indexed('v', i + 1)} = ${fixed(VALUES[i] ?? 0, 1)}`);
    setText(slot.score, `score ${indexed('s', i + 1)} = ${pending('−0.000')}`);
    setText(slot.scaled, `${indexed('a', i + 1)} = ${indexed('s', i + 1)}/τ = ${pending('−0.000')}`);
    setText(slot.weightText, pending('0.0000'));
  });
  setText(outputText, pending('0.0000'));
  setText(tauText, pending('0.000'));
  setText(lookupLink, host.embedded ? 'open the lookup' : 'the lookup above');
  // The table's TeX is the figure's own: the page typesets only the prose before it. Set in one go,
  // before the first paint: a row whose formula arrived a frame late would move the bank below it.
  void typeset(host.root, { sliceMs: Number.POSITIVE_INFINITY });

  function select(row: BankState['row']): void {
    host.update({ row });
    highlight();
  }

  function highlight(): void {
    for (const [job, choose] of rowButtons) {
      const selected = host.state.row === job;
      choose.setAttribute('aria-pressed', String(selected));
      choose.closest('tr')?.classList.toggle('kl-bank__row--selected', selected);
    }
    for (const node of bank.querySelectorAll<HTMLElement>('[data-part]')) {
      node.classList.toggle('kl-bank--highlight', node.dataset.part === host.state.row);
    }
  }

  host.announce(() =>
    last ? `Query q = ${fixed(last.q, 2)}, h = ${precise(last.h, 3)}: weights ${Array.from(last.weights, (w) => fixed(w, 4)).join(', ')}; output ${fixed(last.output, 4)}.` : '',
  );

  /// The query's reading of the bank: its weights and output, and the scores behind them.
  host.compute({
    key: 'bank',
    reads: ['q', 'h'],
    ask: (state) =>
      [
        call('attention', [state.q], KEYS, VALUES, 1, 1, state.h),
        call('distanceScores', [state.q], KEYS, 1),
        call('logScores', [state.q], KEYS, 1, state.h),
        call('temperatureFromBandwidth', state.h),
      ] as const,
    draw([{ weights, outputs }, scores, scaled, tau], { q, h }) {
      last = { q, h, tau, weights, scores, scaled, output: outputs[0] ?? Number.NaN };
      setText(queryText, fixed(q, 2));
      setText(tauText, precise(tau, 3));
      slotParts.forEach((slot, i) => {
        setText(slot.score, `score ${indexed('s', i + 1)} = ${precise(scores[i] ?? Number.NaN, 3)}`);
        setText(slot.scaled, `${indexed('a', i + 1)} = ${indexed('s', i + 1)}/τ = ${precise(scaled[i] ?? Number.NaN, 3)}`);
        const weight = weights[i] ?? 0;
        setText(slot.weightText, fixed(weight, 4));
        slot.fill.style.width = `${(weight * 100).toFixed(2)}%`;
      });
      setText(outputText, fixed(outputs[0] ?? Number.NaN, 4));
      if (host.embedded) {
        lookupLink.href = `embed.html?widget=lookup&q=${q}&h=${h}`;
        setText(lookupLink, 'open the lookup');
      } else {
        lookupLink.href = '#section-lookup';
        setText(lookupLink, 'the lookup above');
      }
    },
  });

  highlight();
});
