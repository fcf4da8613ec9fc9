/// Figure 12.1, live: a three-point Gaussian lookup. Drag the query or the points, add points by
/// clicking empty space, remove them by double-clicking; the weights and prediction come from the core.
import { onThemeChange } from '../../theme/theme';
import { bandwidthSlider, button, controlRow, dataTable, querySlider } from '../../ui/controls';
import { fixed, pending, precise, pythonFloat } from '../../ui/format';
import { call } from '../../engine';
import type { StateOf } from '../../ui/state';
import { defineWidget } from '../../ui/host/widget';
import { LookupView, X_RANGE, Y_RANGE, type LookupFrame } from './view';
import { liveReadout, setText, testNode } from '../../ui/readout';
import { localPoint } from '../../ui/pointer';
import prose from './prose.html?raw';
import meta from './meta';

const MAX_POINTS = 8;

const params = {
  h: { kind: 'number', label: 'bandwidth h', default: 0.6, min: 0.05, max: 5, scale: 'log' },
  q: { kind: 'number', label: 'query q', default: 3.5, min: X_RANGE.min, max: X_RANGE.max, scale: 'linear', step: 0.05 },
  keys: {
    kind: 'numbers',
    label: 'key locations',
    default: [1, 3, 5],
    min: X_RANGE.min,
    max: X_RANGE.max,
    minLength: 1,
    maxLength: MAX_POINTS,
  },
  values: {
    kind: 'numbers',
    label: 'values',
    default: [1.5, 2.8, 1.8],
    min: Y_RANGE.min,
    max: Y_RANGE.max,
    minLength: 1,
    maxLength: MAX_POINTS,
  },
} as const;

type LookupState = StateOf<typeof params>;

/// Pixel tolerance for grabbing a point or the query line.
const GRAB_RADIUS = 14;

const round2 = (x: number): number => Math.round(x * 100) / 100;
const clamp = (x: number, lo: number, hi: number): number => Math.min(Math.max(x, lo), hi);

export default defineWidget({
  name: 'lookup',
  ...meta,
  params,
  prose,

  mount(host, initial) {
    let state: LookupState = { ...initial, keys: [...initial.keys], values: [...initial.values] };
    if (state.keys.length !== state.values.length) {
      host.note(
        `keys and values must have the same length (got ${state.keys.length} and ${state.values.length}); using the chapter's three points.`,
      );
      state = { ...state, keys: [...params.keys.default], values: [...params.values.default] };
    }
    const channel = host.channel('attention');
    const sumChannel = host.channel('sum');
    const view = new LookupView();
    let lastFrame: LookupFrame | null = null;
    host.provideExport({
      name: 'weights',
      csv: () => (lastFrame ? [['key', 'value', 'weight'], ...lastFrame.keys.map((k, i) => [k, lastFrame?.values[i] ?? null, lastFrame?.weights[i] ?? null])] : []),
    });
    host.provideExport({
      name: 'prediction',
      csv: () => (lastFrame ? [['query', 'prediction'], [lastFrame.query, lastFrame.prediction]] : []),
    });

    const prediction = testNode('strong', 'prediction');
    prediction.className = 'kl-number';
    const where = document.createElement('span');
    const readout = liveReadout('kl-readout', 'Prediction ', where, ' = ', prediction);
    // Until the core answers, the read-out's line is there, its number a blank of its width.
    /// Where the prediction is read: the query and bandwidth, as the read-out states them.
    const whereText = (q: number, h: number): string => `f̂(${fixed(q, 2)}) at h = ${precise(h, 3)}`;
    setText(where, whereText(state.q, state.h));
    setText(prediction, pending('0.0000'));

    const table = dataTable('Observations and their normalized weights', ['point', 'key', 'value', 'weight', '']);
    const addButton = button('Add a point', () => {
      if (state.keys.length >= MAX_POINTS) return;
      const spare = [0.5, 5.5, 2, 4, 0.25, 5.75, 2.5, 4.5].find((x) => !state.keys.includes(x)) ?? 2;
      update({ keys: [...state.keys, spare], values: [...state.values, 2] });
    });
    const resetButton = button("Reset to the chapter's example", () => {
      update({ h: params.h.default, q: params.q.default, keys: [...params.keys.default], values: [...params.values.default] });
      bandwidth.set(state.h);
      query.set(state.q);
    });

    const bandwidth = bandwidthSlider(params.h, state.h, (h) => update({ h }));
    const query = querySlider(params.q, state.q, (q) => update({ q }));

    const charts = document.createElement('div');
    charts.className = 'kl-charts kl-charts--two';
    charts.append(view.scatterBox, view.barBox);
    host.root.append(charts, controlRow(query.element, bandwidth.element), readout, table.element, controlRow(addButton, resetButton));

    /// Each row's Remove button, kept across frames (a drag rewrites only the numbers).
    const removeButtons: HTMLButtonElement[] = [];
    renderTable({ keys: state.keys, values: state.values, weights: null });
    table.setFooter(['sum', '', '', pending('1.0'), '']);

    /// The points' rows; until the core's first answer (`weights` null), the weights are blanks of
    /// their width, so the answer arriving shifts nothing.
    function renderTable(frame: Pick<LookupFrame, 'keys' | 'values'> & { weights: Float64Array | null }): void {
      table.setRows(
        frame.keys.map((key, i) => [
          `k${i + 1}`,
          fixed(key, 2),
          fixed(frame.values[i] ?? 0, 2),
          frame.weights ? fixed(frame.weights[i] ?? 0, 4) : pending('0.0000'),
          null,
        ]),
      );
      const rows = table.table.tBodies[0]?.rows ?? [];
      Array.from(rows).forEach((row, i) => {
        let remove = removeButtons[i];
        if (!remove) {
          remove = button('Remove', () => removePoint(i));
          remove.setAttribute('aria-label', `Remove point k${i + 1}`);
          removeButtons[i] = remove;
        }
        remove.disabled = frame.keys.length <= 1;
        const cell = row.cells[4];
        if (cell && cell.firstChild !== remove) cell.replaceChildren(remove);
      });
      addButton.disabled = frame.keys.length >= MAX_POINTS;
    }

    function removePoint(index: number): void {
      if (state.keys.length <= 1) return;
      update({
        keys: state.keys.filter((_, i) => i !== index),
        values: state.values.filter((_, i) => i !== index),
      });
    }

    async function compute(requested: LookupState): Promise<void> {
      try {
        const results = await channel.request([
          call('attention', [requested.q], requested.keys, requested.values, 1, 1, requested.h),
        ] as const);
        if (!results) return;
        const [{ weights, outputs }] = results;
        const frame: LookupFrame = {
          keys: requested.keys,
          values: requested.values,
          query: requested.q,
          prediction: outputs[0] ?? Number.NaN,
          weights,
        };
        lastFrame = frame;
        host.clearError();
        view.draw(frame);
        setText(where, whereText(frame.query, requested.h));
        setText(prediction, fixed(frame.prediction, 4));
        renderTable(frame);
        // The weights' "sum: 1.0", as the chapter's print(..., weights.sum()) shows it.
        const sums = await sumChannel.request([call('rowSums', weights, requested.keys.length)] as const);
        if (sums) table.setFooter(['sum', '', '', pythonFloat(sums[0][0] ?? Number.NaN), '']);
      } catch (error) {
        host.showError(error);
      }
    }

    function update(partial: Partial<LookupState>): void {
      state = { ...state, ...partial };
      host.setState(partial);
      void compute(state);
    }

    // ---- pointer gestures on the left chart ----
    type Gesture = { kind: 'point'; index: number } | { kind: 'query' } | { kind: 'press'; x: number; y: number };
    let gesture: Gesture | null = null;
    const canvas = view.scatter.canvas;

    function toData(event: PointerEvent | MouseEvent): { x: number; y: number; px: number; py: number } {
      const { x: px, y: py } = localPoint(canvas, event);
      const { x, y } = view.scatter.scales;
      return { x: x?.getValueForPixel(px) ?? 0, y: y?.getValueForPixel(py) ?? 0, px, py };
    }

    function pointAt(px: number, py: number): number {
      const { x, y } = view.scatter.scales;
      if (!x || !y) return -1;
      let best = -1;
      let bestDistance = GRAB_RADIUS;
      state.keys.forEach((key, i) => {
        const d = Math.hypot(x.getPixelForValue(key) - px, y.getPixelForValue(state.values[i] ?? 0) - py);
        if (d <= bestDistance) {
          best = i;
          bestDistance = d;
        }
      });
      return best;
    }

    function inPlot(px: number, py: number): boolean {
      const area = view.scatter.chartArea;
      return px >= area.left && px <= area.right && py >= area.top && py <= area.bottom;
    }

    function moveQuery(x: number): void {
      const q = round2(clamp(x, params.q.min, params.q.max));
      query.set(q);
      update({ q });
    }

    const onDown = (event: PointerEvent): void => {
      const at = toData(event);
      if (!inPlot(at.px, at.py)) return;
      const index = pointAt(at.px, at.py);
      const queryPixel = view.scatter.scales.x?.getPixelForValue(state.q) ?? Number.NaN;
      if (index >= 0) gesture = { kind: 'point', index };
      else if (Math.abs(at.px - queryPixel) <= GRAB_RADIUS) gesture = { kind: 'query' };
      else gesture = { kind: 'press', x: at.px, y: at.py };
      canvas.setPointerCapture(event.pointerId);
      event.preventDefault();
    };
    const onMove = (event: PointerEvent): void => {
      if (!gesture) return;
      const at = toData(event);
      if (gesture.kind === 'press') {
        if (Math.hypot(at.px - gesture.x, at.py - gesture.y) < 5) return;
        gesture = { kind: 'query' };
      }
      if (gesture.kind === 'query') {
        moveQuery(at.x);
      } else {
        const i = gesture.index;
        update({
          keys: state.keys.map((k, j) => (j === i ? round2(clamp(at.x, X_RANGE.min, X_RANGE.max)) : k)),
          values: state.values.map((v, j) => (j === i ? round2(clamp(at.y, Y_RANGE.min, Y_RANGE.max)) : v)),
        });
      }
    };
    const onUp = (event: PointerEvent): void => {
      if (gesture?.kind === 'press' && state.keys.length < MAX_POINTS) {
        const at = toData(event);
        update({
          keys: [...state.keys, round2(clamp(at.x, X_RANGE.min, X_RANGE.max))],
          values: [...state.values, round2(clamp(at.y, Y_RANGE.min, Y_RANGE.max))],
        });
      }
      gesture = null;
    };
    const onDoubleClick = (event: MouseEvent): void => {
      const at = toData(event);
      const index = pointAt(at.px, at.py);
      if (index >= 0) removePoint(index);
    };
    const onHover = (event: PointerEvent): void => {
      if (gesture) return;
      const at = toData(event);
      const queryPixel = view.scatter.scales.x?.getPixelForValue(state.q) ?? Number.NaN;
      canvas.style.cursor =
        pointAt(at.px, at.py) >= 0 ? 'grab' : Math.abs(at.px - queryPixel) <= GRAB_RADIUS ? 'ew-resize' : 'crosshair';
    };
    canvas.addEventListener('pointerdown', onDown);
    canvas.addEventListener('pointermove', onMove);
    canvas.addEventListener('pointermove', onHover);
    canvas.addEventListener('pointerup', onUp);
    canvas.addEventListener('pointercancel', () => (gesture = null));
    canvas.addEventListener('dblclick', onDoubleClick);

    const stopTheme = onThemeChange((colors) => view.recolor(colors, lastFrame));
    void compute(state);

    return {
      destroy() {
        stopTheme();
        view.destroy();
      },
    };
  },
});
