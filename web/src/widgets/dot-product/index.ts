/// Section 12.6's dot product: with q = (1, 0), k1 = (1, 0), k2 = (2, 0) both keys point along the
/// query, yet qᵀk scores them 1 and 2 while −‖q − k‖² scores them 0 and −1. Drag the arrows and
/// watch magnitude enter one score and not the other.
import { canvasFont, chartCanvas, createChart, scheduleFrame, type Chart } from '../../charts';
import { onThemeChange, palette, type Palette } from '../../theme/theme';
import { button, controlRow, dataTable, slider, type Slider } from '../../ui/controls';
import { fixed, tuple } from '../../ui/format';
import { call } from '../../engine';
import type { StateOf } from '../../ui/state';
import { defineWidget } from '../../ui/host/widget';
import type { Plugin } from '../../charts';
import './dot-product.css';
import { liveReadout, setText, testNode } from '../../ui/readout';
import { localPoint } from '../../ui/pointer';
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

export default defineWidget({
  name: 'dot-product',
  ...meta,
  params,
  prose,

  mount(host, initial) {
    let state: DotState = { q: [...initial.q], k1: [...initial.k1], k2: [...initial.k2] };
    const scoresChannel = host.channel('scores');
    const weightsChannel = host.channel('weights');
    let colors = palette();
    let last: Frame | null = null;
    host.provideExport({
      name: 'scores and weights',
      csv: () => {
        const frame = last;
        if (!frame) return [];
        const header = ['key', 'kᵀk', 'qᵀk', 'softmax(qᵀk)', '−‖q − k‖²', 'softmax(−‖q − k‖²)'];
        return [header, ...Array.from(frame.dot, (dot, i) => [`k${i + 1}`, frame.lengths[i] ?? null, dot, frame.dotWeights[i] ?? null, frame.negativeDistance[i] ?? null, frame.distanceWeights[i] ?? null])];
      },
    });

    const { box, canvas } = chartCanvas(
      'The query q and the keys k1 and k2 as arrows from the origin in the plane; drag an arrow head to move it',
      'kl-chart kl-chart--interactive kl-dot__plane',
    );
    const vectorColor = (name: VectorName, c: Palette): string => (name === 'q' ? c.orange : name === 'k1' ? c.navy : c.brown);
    const chart = createChart<'scatter'>(canvas, {
      type: 'scatter',
      data: {
        datasets: NAMES.map((name) => ({
          label: name,
          data: [],
          showLine: true,
          borderColor: vectorColor(name, colors),
          backgroundColor: vectorColor(name, colors),
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
    });

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
        value: state[name][axis] ?? 0,
        format: (x) => fixed(x, 1),
        onInput: (x) => {
          const next = [...state[name]];
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
          dataset.borderColor = vectorColor(name, colors);
          dataset.backgroundColor = vectorColor(name, colors);
        });
      });
    }

    function winner(scores: Float64Array): string {
      const [a = 0, b = 0] = scores;
      if (a === b) return '(a tie)';
      return a > b ? '→ k1 ranks first' : '→ k2 ranks first';
    }

    async function compute(requested: DotState): Promise<void> {
      const keys = [...requested.k1, ...requested.k2];
      try {
        const first = await scoresChannel.request([
          call('dotProductScores', requested.q, keys, 2),
          call('distanceScores', requested.q, keys, 2),
          call('dotProductScores', keys, keys, 2),
        ] as const);
        if (!first) return;
        /// `negativeDistance`: the distance score s = −‖q − k‖².
        const [dot, negativeDistance, gram] = first;
        const second = await weightsChannel.request([call('rowSoftmax', dot, 2), call('rowSoftmax', negativeDistance, 2)] as const);
        if (!second) return;
        host.clearError();
        const frame: Frame = {
          state: requested,
          dot,
          negativeDistance,
          dotWeights: second[0],
          distanceWeights: second[1],
          lengths: Float64Array.of(gram[0] ?? Number.NaN, gram[3] ?? Number.NaN),
        };
        last = frame;
        paint(frame);
        setText(dotText, tuple(dot, 2));
        setText(distanceText, tuple(negativeDistance, 2));
        setText(dotWinner, winner(dot));
        setText(distanceWinner, winner(negativeDistance));
        table.setRows(
          (['k1', 'k2'] as const).map((name, i) => [
            name,
            tuple(requested[name], 1),
            fixed(frame.lengths[i] ?? Number.NaN, 2),
            fixed(dot[i] ?? Number.NaN, 2),
            fixed(frame.dotWeights[i] ?? Number.NaN, 4),
            fixed(negativeDistance[i] ?? Number.NaN, 2),
            fixed(frame.distanceWeights[i] ?? Number.NaN, 4),
          ]),
        );
      } catch (error) {
        host.showError(error);
      }
    }

    function update(partial: Partial<DotState>): void {
      state = { ...state, ...partial };
      host.setState(partial);
      for (const name of NAMES) {
        sliders.get(`${name}0`)?.set(state[name][0] ?? 0);
        sliders.get(`${name}1`)?.set(state[name][1] ?? 0);
      }
      void compute(state);
    }

    // ---- dragging arrow heads ----
    let dragging: VectorName | null = null;
    /// Head minus pointer at the grab, in data units, so a drag moves the head without a jump.
    let grabOffset = { x: 0, y: 0 };
    function toData(event: PointerEvent): { x: number; y: number; px: number; py: number } {
      const { x: px, y: py } = localPoint(canvas, event);
      const { x, y } = chart.scales;
      return { x: x?.getValueForPixel(px) ?? 0, y: y?.getValueForPixel(py) ?? 0, px, py };
    }
    /// The arrow head under the pointer; keys before the query, so a key hidden under q can be moved.
    function headAt(px: number, py: number): VectorName | null {
      const { x, y } = chart.scales;
      if (!x || !y) return null;
      let best: VectorName | null = null;
      let bestDistance = GRAB_RADIUS;
      for (const name of ['k2', 'k1', 'q'] as const) {
        const [vx = 0, vy = 0] = state[name];
        const d = Math.hypot(x.getPixelForValue(vx) - px, y.getPixelForValue(vy) - py);
        if (d < bestDistance) {
          best = name;
          bestDistance = d;
        }
      }
      return best;
    }
    canvas.addEventListener('pointerdown', (event) => {
      const at = toData(event);
      dragging = headAt(at.px, at.py);
      if (!dragging) return;
      const [hx = 0, hy = 0] = state[dragging];
      grabOffset = { x: hx - at.x, y: hy - at.y };
      canvas.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    canvas.addEventListener('pointermove', (event) => {
      const at = toData(event);
      if (!dragging) {
        canvas.style.cursor = headAt(at.px, at.py) ? 'grab' : 'default';
        return;
      }
      update({ [dragging]: [round1(clamp(at.x + grabOffset.x)), round1(clamp(at.y + grabOffset.y))] });
    });
    const release = (): void => {
      dragging = null;
    };
    canvas.addEventListener('pointerup', release);
    canvas.addEventListener('pointercancel', release);

    const stopTheme = onThemeChange((next) => {
      colors = next;
      if (last) paint(last);
    });
    void compute(state);
    return {
      destroy() {
        stopTheme();
        chart.destroy();
      },
    };
  },
});
