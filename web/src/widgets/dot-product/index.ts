/// Section 12.6's dot product: with q = (1, 0), k1 = (1, 0), k2 = (2, 0) both keys point along the
/// query, yet qᵀk scores them 1 and 2 while −‖q − k‖² scores them 0 and −1. Drag the arrows and
/// watch magnitude enter one score and not the other.
import { canvasFont, chartCanvas, createChart, scheduleFrame, type Chart } from '../../charts';
import { type Palette } from '../../theme/theme';
import { button, controlRow, dataTable, slider, type Slider } from '../../ui/controls';
import { fixed, tuple } from '../../ui/format';
import { call, resultOf } from '../../engine';
import type { StateOf } from '../../ui/state';
import { defineWidget } from '../../ui/host/widget';
import type { Plugin } from '../../charts';
import './dot-product.css';
import { liveReadout, setText, testNode } from '../../ui/readout';
import { chartSurface, dragOnAxis, nearestPoint, type AxisPoint } from '../shared/drag-on-axis';
import prose from './prose.html?raw';
import meta from './meta';

const AXIS = { min: -3, max: 3 } as const;
const GRAB_RADIUS = 16;

const vectorParam = (label: string, value: readonly number[]) =>
  ({ kind: 'numbers', label, default: value, ...AXIS, minLength: 2, maxLength: 2 }) as const;

const params = {
  q: vectorParam('query q', [1, 0]),
  k1: vectorParam('key k1', [1, 0]),
  k2: vectorParam('key k2', [2, 0]),
} as const;

type DotState = StateOf<typeof params>;
type VectorName = keyof DotState;
const NAMES: readonly VectorName[] = ['q', 'k1', 'k2'];

interface Frame {
  state: DotState;
  dot: Float64Array;
  negativeDistance: Float64Array;
  dotWeights: Float64Array;
  distanceWeights: Float64Array;
  lengths: Float64Array;
}

type XY = { x: number; y: number };

const round1 = (x: number): number => Math.round(x * 10) / 10;
const clamp = (x: number): number => Math.min(Math.max(x, AXIS.min), AXIS.max);
/// The arrow heads in the order a press takes them: keys before the query, so a key hidden under q
/// can be moved.
const GRAB_ORDER: readonly VectorName[] = ['k2', 'k1', 'q'];

/// Writes "q", "k1", "k2" beside each arrow head.
const arrowLabels: Plugin<'scatter'> = {
  id: 'klArrowLabels',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.font = canvasFont(13, 600, chart);
    chart.data.datasets.forEach((dataset, index) => {
      const head = chart.getDatasetMeta(index).data[1];
      if (!head) return;
      ctx.fillStyle = String(dataset.borderColor);
      ctx.textAlign = 'left';
      ctx.fillText(String(dataset.label), head.x + 9, head.y + (index === 0 ? -9 : 16));
    });
    ctx.restore();
  },
};

export default defineWidget({ name: 'dot-product', ...meta, params, prose }, (host) => {
  let last: Frame | null = null;
  host.provideExport('scores and weights', () => last, (frame) => {
    const header = ['key', 'kᵀk', 'qᵀk', 'softmax(qᵀk)', '−‖q − k‖²', 'softmax(−‖q − k‖²)'];
    return [header, ...Array.from(frame.dot, (dot, i) => [`k${i + 1}`, frame.lengths[i] ?? null, dot, frame.dotWeights[i] ?? null, frame.negativeDistance[i] ?? null, frame.distanceWeights[i] ?? null])];
  });

  const { box, canvas } = chartCanvas(
    'The query q and the keys k1 and k2 as arrows from the origin in the plane; drag an arrow head to move it',
    'kl-chart kl-chart--interactive kl-dot__plane',
  );
  const vectorColor = (name: VectorName, c: Palette): string => (name === 'q' ? c.orange : name === 'k1' ? c.navy : c.brown);
  const chart = host.own(
    createChart<'scatter'>(canvas, {
      type: 'scatter',
      data: {
        datasets: NAMES.map((name) => ({
          label: name,
          data: [],
          showLine: true,
          borderColor: vectorColor(name, host.colors),
          backgroundColor: vectorColor(name, host.colors),
          borderWidth: name === 'q' ? 2 : 3,
          borderDash: name === 'q' ? [6, 4] : [],
          pointRadius: [0, name === 'q' ? 6 : 7],
          pointStyle: name === 'q' ? 'rectRot' : 'circle',
        })),
      },
      options: {
        scales: {
          x: { type: 'linear', ...AXIS, ticks: { stepSize: 1 }, title: { display: true, text: 'feature 1' } },
          y: { type: 'linear', ...AXIS, ticks: { stepSize: 1 }, title: { display: true, text: 'feature 2' } },
        },
      },
      plugins: [arrowLabels],
    }),
  );

  const dotText = testNode('strong', 'dot-scores');
  const distanceText = testNode('strong', 'distance-scores');
  const dotWinner = document.createElement('span');
  const distanceWinner = document.createElement('span');
  const readout = liveReadout('kl-readout', 'Dot products qᵀk = ', dotText, ' ', dotWinner, '; negative squared distances −‖q − k‖² = ', distanceText, ' ', distanceWinner, '.');

  const table = dataTable('Both scores per key, and the softmax weights each score gives', [
    'key',
    'coordinates',
    'kᵀk',
    'qᵀk',
    'softmax(qᵀk)',
    '−‖q − k‖²',
    'softmax(−‖q − k‖²)',
  ]);
  const tableBox = table.element;

  const sliders = new Map<string, Slider>();
  const coordinateSlider = (name: VectorName, axis: 0 | 1): Slider => {
    const role = name === 'q' ? 'query q' : `key ${name}`;
    const control = slider({
      label: `${role} coordinate ${axis + 1}`,
      caption: `${name}${axis === 0 ? '₁' : '₂'}`,
      spec: { ...AXIS, scale: 'linear', step: 0.1 },
      value: host.state[name][axis] ?? 0,
      format: (x) => fixed(x, 1),
      onInput: (x) => {
        const next = [...host.state[name]];
        next[axis] = x;
        update({ [name]: next });
      },
    });
    sliders.set(`${name}${axis}`, control);
    return control;
  };
  const controls = document.createElement('div');
  controls.className = 'kl-dot__sliders';
  for (const name of NAMES) controls.append(coordinateSlider(name, 0).element, coordinateSlider(name, 1).element);
  const reset = button("Reset to the chapter's example", () => update({ q: [...params.q.default], k1: [...params.k1.default], k2: [...params.k2.default] }));

  const layout = document.createElement('div');
  layout.className = 'kl-dot';
  layout.append(box, controls);
  host.root.append(layout, controlRow(reset), readout, tableBox);

  function paint(frame: Frame): void {
    scheduleFrame(chart, () => {
      chart.data.datasets.forEach((dataset, i) => {
        const name = NAMES[i];
        if (!name) return;
        const [x = 0, y = 0] = frame.state[name];
        dataset.data = [{ x: 0, y: 0 }, { x, y }] as XY[];
        dataset.borderColor = vectorColor(name, host.colors);
        dataset.backgroundColor = vectorColor(name, host.colors);
      });
    });
  }

  function winner(scores: Float64Array): string {
    const [a = 0, b = 0] = scores;
    if (a === b) return '(a tie)';
    return a > b ? '→ k1 ranks first' : '→ k2 ranks first';
  }

  /// Both scores of each key, the keys' lengths kᵀk, and the softmax weights of each score,
  /// in one round trip (the softmaxes take the scores computed just before them).
  host.compute({
    key: 'scores',
    ask: (state) => {
      const keys = [...state.k1, ...state.k2];
      return [
        call('dotProductScores', state.q, keys, 2),
        call('distanceScores', state.q, keys, 2),
        call('dotProductScores', keys, keys, 2),
        call('rowSoftmax', resultOf<Float64Array>(0), 2),
        call('rowSoftmax', resultOf<Float64Array>(1), 2),
      ] as const;
    },
    /// `negativeDistance`: the distance score s = −‖q − k‖².
    draw([dot, negativeDistance, gram, dotWeights, distanceWeights], state) {
      const frame: Frame = { state, dot, negativeDistance, dotWeights, distanceWeights, lengths: Float64Array.of(gram[0] ?? Number.NaN, gram[3] ?? Number.NaN) };
      last = frame;
      paint(frame);
      setText(dotText, tuple(dot, 2));
      setText(distanceText, tuple(negativeDistance, 2));
      setText(dotWinner, winner(dot));
      setText(distanceWinner, winner(negativeDistance));
      table.setRows(
        (['k1', 'k2'] as const).map((name, i) => [
          name,
          tuple(state[name], 1),
          fixed(frame.lengths[i] ?? Number.NaN, 2),
          fixed(dot[i] ?? Number.NaN, 2),
          fixed(dotWeights[i] ?? Number.NaN, 4),
          fixed(negativeDistance[i] ?? Number.NaN, 2),
          fixed(distanceWeights[i] ?? Number.NaN, 4),
        ]),
      );
    },
  });

  function update(partial: Partial<DotState>): void {
    host.update(partial);
    for (const name of NAMES) {
      sliders.get(`${name}0`)?.set(host.state[name][0] ?? 0);
      sliders.get(`${name}1`)?.set(host.state[name][1] ?? 0);
    }
  }

  // ---- dragging arrow heads ----
  const surface = chartSurface(chart);
  /// The arrow head under the pointer.
  const headAt = (at: AxisPoint): VectorName | null => {
    const heads = GRAB_ORDER.map((name) => ({ x: host.state[name][0] ?? 0, y: host.state[name][1] ?? 0 }));
    return GRAB_ORDER[nearestPoint(surface, at, heads, GRAB_RADIUS)] ?? null;
  };
  /// The head held, and head minus pointer at the grab in data units, so a drag moves the head
  /// without a jump.
  dragOnAxis<{ name: VectorName; offset: { x: number; y: number } }>(host, surface, {
    grab(at) {
      const name = headAt(at);
      if (!name) return null;
      const [hx = 0, hy = 0] = host.state[name];
      return { name, offset: { x: hx - at.x, y: hy - at.y } };
    },
    move({ name, offset }, at) {
      update({ [name]: [round1(clamp(at.x + offset.x)), round1(clamp(at.y + offset.y))] });
    },
    hover: (at) => (headAt(at) ? 'grab' : 'default'),
  });

  host.onTheme(() => {
    if (last) paint(last);
  });
});
