/// Figure 12.1, live: a three-point Gaussian lookup. Drag the query or the points, add points by
/// clicking empty space, remove them by double-clicking; on the keyboard, each point's key and
/// value are fields in its table row. The weights and prediction come from the core.
import { bandwidthSlider, button, controlRow, dataTable, querySlider } from '../../ui/controls';
import { fixed, pending, precise } from '../../ui/format';
import { echoed } from '../../ui/state';
import { call } from '../../engine';
import { defineWidget } from '../../ui/host/widget';
import { LookupView, X_RANGE, Y_RANGE, type LookupFrame } from './view';
import { liveReadout, setText, testNode } from '../../ui/readout';
import { chartSurface, dragOnAxis, nearestPoint, nearVertical, pointerAt, type AxisPoint } from '../shared/drag-on-axis';
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

/// Pixel tolerance for grabbing a point or the query line.
const GRAB_RADIUS = 14;

const round2 = (x: number): number => Math.round(x * 100) / 100;
const clamp = (x: number, lo: number, hi: number): number => Math.min(Math.max(x, lo), hi);

export default defineWidget({ name: 'lookup', ...meta, params, prose }, (host) => {
  if (host.state.keys.length !== host.state.values.length) {
    const { keys, values } = host.state;
    const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
    host.note(
      `keys=${echoed(keys.join(','))} (${count(keys.length, 'key')}) and values=${echoed(values.join(','))} (${count(values.length, 'value')}) ` +
        `must have the same length; both fall back to the chapter's three points (keys=${params.keys.default.join(',')}, values=${params.values.default.join(',')}).`,
    );
    host.update({ keys: [...params.keys.default], values: [...params.values.default] });
  }
  const view = new LookupView();
  host.own(view.scatter);
  host.own(view.bars);
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
  host.announce(() => {
    if (!lastFrame) return '';
    const points = lastFrame.keys.length;
    return `Prediction at q = ${fixed(lastFrame.query, 2)}, h = ${precise(host.state.h, 3)}: ${fixed(lastFrame.prediction, 4)} (${points} point${points === 1 ? '' : 's'})`;
  });
  // Until the core answers, the read-out's line is there, its number a blank of its width.
  /// Where the prediction is read: the query and bandwidth, as the read-out states them.
  const whereText = (q: number, h: number): string => `f̂(${fixed(q, 2)}) at h = ${precise(h, 3)}`;
  setText(where, whereText(host.state.q, host.state.h));
  setText(prediction, pending('0.0000'));

  const table = dataTable('Observations and their normalized weights', ['point', 'key', 'value', 'weight', '']);
  const addButton = button('Add a point', () => {
    const { keys, values } = host.state;
    if (keys.length >= MAX_POINTS) return;
    const spare = [0.5, 5.5, 2, 4, 0.25, 5.75, 2.5, 4.5].find((x) => !keys.includes(x)) ?? 2;
    host.update({ keys: [...keys, spare], values: [...values, 2] });
    // The new point's row is where the reader places it: its key field takes the focus.
    renderTable({ keys: host.state.keys, values: host.state.values, weights: null });
    fields[host.state.keys.length - 1]?.key.focus();
  });
  const resetButton = button("Reset to the chapter's example", () => {
    host.update({ h: params.h.default, q: params.q.default, keys: [...params.keys.default], values: [...params.values.default] });
    bandwidth.set(host.state.h);
    query.set(host.state.q);
  });

  const bandwidth = bandwidthSlider(params.h, host.state.h, (h) => host.update({ h }));
  const query = querySlider(params.q, host.state.q, (q) => host.update({ q }));

  const charts = document.createElement('div');
  charts.className = 'kl-charts kl-charts--two';
  charts.append(view.scatterBox, view.barBox);
  host.root.append(charts, controlRow(query.element, bandwidth.element), readout, table.element, controlRow(addButton, resetButton));

  /// Each row's Remove button and key and value fields, kept across frames (a drag rewrites only
  /// the numbers).
  const removeButtons: HTMLButtonElement[] = [];
  const fields: { key: HTMLInputElement; value: HTMLInputElement }[] = [];
  /// Where the focus goes once a removal is drawn (the removed row's button or field goes).
  let focusAfterRemove: number | null = null;

  /// A number field for point `index`'s key or value: a committed entry (Enter, leaving the field,
  /// the arrow keys) moves the point; an entry outside the plot is refused and the point stays.
  function pointField(index: number, which: 'key' | 'value'): HTMLInputElement {
    const range = which === 'key' ? X_RANGE : Y_RANGE;
    const input = document.createElement('input');
    input.type = 'number';
    input.className = 'kl-input kl-input--cell';
    input.min = String(range.min);
    input.max = String(range.max);
    input.step = which === 'key' ? '0.05' : '0.1';
    input.setAttribute('aria-label', `k${index + 1} ${which}`);
    input.addEventListener('change', () => {
      const list = which === 'key' ? host.state.keys : host.state.values;
      const text = input.value.trim();
      const x = text === '' ? Number.NaN : Number(text);
      if (!Number.isFinite(x) || x < range.min || x > range.max) {
        host.showError(`k${index + 1}’s ${which} “${text.slice(0, 40)}” is refused: type a number from ${range.min} to ${range.max}.`, 'field');
        input.value = fixed(list[index] ?? Number.NaN, 2);
        return;
      }
      host.clearError('field');
      const next = list.map((old, j) => (j === index ? round2(x) : old));
      host.update(which === 'key' ? { keys: next } : { values: next });
    });
    return input;
  }
  renderTable({ keys: host.state.keys, values: host.state.values, weights: null });
  table.setFooter(['sum', '', '', pending('1.0000'), '']);

  /// The points' rows; until the core's first answer (`weights` null), the weights are blanks of
  /// their width, so the answer arriving shifts nothing.
  function renderTable(frame: Pick<LookupFrame, 'keys' | 'values'> & { weights: Float64Array | null }): void {
    table.setRows(
      frame.keys.map((_, i) => [
        `k${i + 1}`,
        null,
        null,
        frame.weights ? fixed(frame.weights[i] ?? 0, 4) : pending('0.0000'),
        null,
      ]),
    );
    const rows = table.table.tBodies[0]?.rows ?? [];
    Array.from(rows).forEach((row, i) => {
      const pair = (fields[i] ??= { key: pointField(i, 'key'), value: pointField(i, 'value') });
      const shown = [fixed(frame.keys[i] ?? Number.NaN, 2), fixed(frame.values[i] ?? Number.NaN, 2)] as const;
      [pair.key, pair.value].forEach((input, c) => {
        const cell = row.cells[c + 1];
        if (cell && cell.firstChild !== input) cell.replaceChildren(input);
        // A field being typed in keeps the reader's text until it is committed.
        const typing = input === (input.getRootNode() as Document | ShadowRoot).activeElement && Number(input.value) !== Number(shown[c]);
        const text = shown[c] ?? '';
        if (!typing && input.value !== text) {
          input.value = text;
          // The value as shown: a number field's own value is read in binary ("2.7999999523").
          input.setAttribute('aria-valuetext', text);
        }
      });
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
    if (focusAfterRemove !== null && rows.length === frame.keys.length) {
      // The removed row's Remove button now removes the next point (or the last one's, if it was
      // last); with one point left, Remove is disabled and the point's key field takes the focus.
      const index = Math.min(focusAfterRemove, frame.keys.length - 1);
      focusAfterRemove = null;
      const target = frame.keys.length > 1 ? removeButtons[index] : fields[index]?.key;
      target?.focus();
    }
  }

  function removePoint(index: number): void {
    const { keys, values } = host.state;
    if (keys.length <= 1) return;
    const root = host.root.getRootNode() as Document | ShadowRoot;
    if (host.root.contains(root.activeElement)) focusAfterRemove = index;
    host.update({ keys: keys.filter((_, i) => i !== index), values: values.filter((_, i) => i !== index) });
    renderTable({ keys: host.state.keys, values: host.state.values, weights: null });
  }

  host.compute({
    key: 'attention',
    ask: (state) => [call('attention', [state.q], state.keys, state.values, 1, 1, state.h)] as const,
    draw([{ weights, outputs }], state) {
      const frame: LookupFrame = { keys: state.keys, values: state.values, query: state.q, prediction: outputs[0] ?? Number.NaN, weights };
      lastFrame = frame;
      view.draw(frame);
      setText(where, whereText(frame.query, state.h));
      setText(prediction, fixed(frame.prediction, 4));
      renderTable(frame);
      sum.refresh();
    },
  });

  /// The weights' sum from the core, in the weight column's own four decimals (a sum like
  /// 0.9999999999999999 is one to every digit the column shows).
  const sum = host.compute({
    key: 'sum',
    reads: [],
    ask: () => (lastFrame ? ([call('rowSums', lastFrame.weights, lastFrame.keys.length)] as const) : null),
    draw([sums]) {
      table.setFooter(['sum', '', '', fixed(sums[0] ?? Number.NaN, 4), '']);
    },
  });

  // ---- pointer gestures on the left chart ----
  type Gesture = { kind: 'point'; index: number } | { kind: 'query' } | { kind: 'press'; x: number; y: number };
  const surface = chartSurface(view.scatter);

  /// The point under the pointer; of points on one spot, the last drawn (on top).
  function pointAt(at: AxisPoint): number {
    const { keys, values } = host.state;
    const points = keys.map((x, i) => ({ x, y: values[i] ?? 0 })).reverse();
    const found = nearestPoint(surface, at, points, GRAB_RADIUS);
    return found < 0 ? -1 : keys.length - 1 - found;
  }
  const onQuery = (at: AxisPoint): boolean => nearVertical(surface, at, host.state.q, GRAB_RADIUS);
  const snap = (at: AxisPoint): { x: number; y: number } => ({
    x: round2(clamp(at.x, X_RANGE.min, X_RANGE.max)),
    y: round2(clamp(at.y, Y_RANGE.min, Y_RANGE.max)),
  });

  dragOnAxis<Gesture>(host, surface, {
    grab(at) {
      if (!at.inPlot) return null;
      const index = pointAt(at);
      if (index >= 0) return { kind: 'point', index };
      return onQuery(at) ? { kind: 'query' } : { kind: 'press', x: at.px, y: at.py };
    },
    move(held, at) {
      let gesture = held;
      if (gesture.kind === 'press') {
        if (Math.hypot(at.px - gesture.x, at.py - gesture.y) < 5) return;
        gesture = { kind: 'query' };
      }
      if (gesture.kind === 'query') {
        const q = round2(clamp(at.x, params.q.min, params.q.max));
        query.set(q);
        host.update({ q });
      } else {
        const { index } = gesture;
        const to = snap(at);
        host.update({
          keys: host.state.keys.map((k, j) => (j === index ? to.x : k)),
          values: host.state.values.map((v, j) => (j === index ? to.y : v)),
        });
      }
      return gesture;
    },
    release(held, at) {
      if (held.kind !== 'press' || host.state.keys.length >= MAX_POINTS) return;
      const to = snap(at);
      host.update({ keys: [...host.state.keys, to.x], values: [...host.state.values, to.y] });
    },
    hover: (at) => (pointAt(at) >= 0 ? 'grab' : onQuery(at) ? 'ew-resize' : 'crosshair'),
  });
  host.listen(surface.element, 'dblclick', (event) => {
    const index = pointAt(pointerAt(surface, event));
    if (index >= 0) removePoint(index);
  });

  host.onTheme((colors) => view.recolor(colors, lastFrame));
});
