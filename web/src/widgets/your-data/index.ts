/// Your own data: paste, upload or edit a table of 1–8 key columns and one value column; the core
/// parses and checks it, then smooths it (1-D keys) and scores every bandwidth by leave-one-out.
/// A refused table leaves the last good data on screen with a message naming the row and column.
import { call, type CsvTable } from '../../engine';
import { bandwidthSlider, controlRow, slider, type Slider } from '../../ui/controls';
import { significant } from '../../ui/format';
import { defineWidget } from '../../ui/host/widget';
import { sameValue } from '../../ui/state';
import { element } from '../../ui/dom';
import { dataEntry } from './entry';
import { askFor, BANDWIDTH_POINTS, frameCalls, frameOf, frameTables, type Asked, type Frame, type LooGrid } from './frame';
import { readouts } from './readouts';
import { editableTable, toCsv } from './table';
import { paddedRange, YourDataView } from './view';
import './your-data.css';
import prose from './prose.html?raw';
import meta from './meta';

/// Links carry at most this many numbers; larger tables stay on the page only.
const MAX_URL_NUMBERS = 200;
const KERNELS = ['gaussian', 'laplacian', 'epanechnikov', 'tricube'] as const;

const params = {
  d: { kind: 'integer', label: 'key columns', default: 1, min: 1, max: 8 },
  keys: {
    kind: 'numbers',
    label: 'keys (row-major, d per row)',
    default: [1, 3, 5],
    min: -1e12,
    max: 1e12,
    minLength: 2,
    maxLength: MAX_URL_NUMBERS,
  },
  values: { kind: 'numbers', label: 'values', default: [1.5, 2.8, 1.8], min: -1e12, max: 1e12, minLength: 2, maxLength: MAX_URL_NUMBERS },
  h: { kind: 'number', label: 'bandwidth h', default: 0.6, min: 0.001, max: 1000, scale: 'log' },
  q: { kind: 'number', label: 'query q', default: 3.5, min: -1e12, max: 1e12, scale: 'linear' },
  kernel: { kind: 'enum', label: 'kernel', default: 'gaussian', options: KERNELS },
} as const;

type Source = 'url' | 'text' | 'upload' | 'table' | 'reset';

/// A table and where it came from.
interface Sourced {
  table: CsvTable;
  source: Source;
}

/// The column names of a table from the figure's parameters: the chapter's (its table's
/// "location" and "response") for its own three points, as Reset gives them; x, y (x1 … xd, y) for
/// any other data.
function columnNames(d: number, keys: readonly number[], values: readonly number[]): string[] {
  if (d === 1 && sameValue(keys, params.keys.default) && sameValue(values, params.values.default)) return ['location', 'response'];
  return d === 1 ? ['x', 'y'] : [...Array.from({ length: d }, (_, c) => `x${c + 1}`), 'y'];
}

function clampToRange(x: number, range: { min: number; max: number }): number {
  return Math.min(Math.max(x, range.min), range.max);
}

export default defineWidget({ name: 'your-data', ...meta, params, prose }, (host) => {
  if (host.state.keys.length !== host.state.d * host.state.values.length) {
    host.note(
      `keys must hold d = ${host.state.d} numbers per value (got ${host.state.keys.length} keys for ${host.state.values.length} values); using the chapter's three points.`,
    );
    host.update({ d: params.d.default, keys: [...params.keys.default], values: [...params.values.default] });
  }
  const view = new YourDataView(host);
  /// The accepted table, on screen.
  let table: CsvTable | null = null;
  let maxBytes = Infinity;
  /// The core's numbers behind the current drawing, for the downloads.
  let computed: Frame | null = null;
  let kept: LooGrid | null = null;
  /// The text the core is asked to check (null after a refusal before the core).
  let asked: { csv: string; source: Source } | null = null;
  /// A checked table waiting for its first drawing: the figure switches to it once that is drawn.
  let candidate: Sourced | null = null;
  /// What the fit computation asked for last (its answer is the one drawn).
  let sent: Asked | null = null;
  for (const exported of frameTables(() => computed)) host.provideExport(exported);

  const entry = dataEntry({
    id: `${host.root.closest('figure')?.id ?? 'kl-your-data'}-text`,
    maxBytes: () => maxBytes,
    use: (csv, from) => parse(csv, from),
    reset() {
      host.update({ h: params.h.default, q: params.q.default, kernel: params.kernel.default });
      bandwidth.set(host.state.h);
      kernelSelect.value = host.state.kernel;
      parse(toCsv(columnNames(1, params.keys.default, params.values.default), params.keys.default, params.values.default, 1), 'reset');
    },
    refuse: (reason) => refuse(reason),
  });
  const cells = editableTable(() => parse(cells.text(table?.header ?? []), 'table'));

  // ---- controls ----
  const kernelSelect = element('select', 'kl-input kl-your-data__kernel');
  kernelSelect.setAttribute('aria-label', 'kernel');
  for (const name of KERNELS) kernelSelect.append(new Option(name, name));
  kernelSelect.value = host.state.kernel;
  kernelSelect.addEventListener('change', () => {
    const kernel = KERNELS.find((name) => name === kernelSelect.value);
    if (kernel) host.update({ kernel });
  });
  const kernelLabel = element('label', 'kl-control kl-your-data__kernel-control');
  kernelLabel.append(element('span', 'kl-control__caption', 'kernel'), kernelSelect);
  const bandwidth = bandwidthSlider(params.h, host.state.h, (h) => host.update({ h }));
  let query: Slider = makeQuery({ min: params.q.default - 3, max: params.q.default + 3 }, host.state.q);
  const queryBox = element('div', 'kl-your-data__query');
  queryBox.append(query.element);

  const numbers = readouts(view);

  const charts = element('div', 'kl-charts kl-charts--pair');
  charts.append(view.smoothingBox, view.mapBox, view.looBox);
  host.root.append(entry.element, charts, controlRow(kernelLabel, bandwidth.element), queryBox, numbers.readout, cells.element, numbers.fittedBox, numbers.looDetails);
  // Laid out at once for the table the state holds (the one parsed first), so that nothing moves
  // when its numbers land.
  numbers.layout(host.state.d === 1);
  queryBox.hidden = host.state.d !== 1;

  function makeQuery(range: { min: number; max: number }, q: number): Slider {
    const span = range.max - range.min;
    return slider({
      label: 'query q',
      spec: { min: range.min, max: range.max, scale: 'linear', step: Number((span / 200).toPrecision(2)) },
      value: clampToRange(q, range),
      format: (value) => significant(value, 4),
      onInput: (value) => host.update({ q: value }),
    });
  }

  function refuse(reason: string, source?: Source): void {
    if (source === 'table' && table) {
      // The refused edit does not stay in its cell: every cell shows the accepted table again.
      cells.restore(table);
      entry.showMessage(`${reason}. The previous data is still shown; the edited cell is back to its last accepted value.`);
      return;
    }
    entry.showMessage(`${reason}. The previous data is still shown.`);
  }

  /// Asks the core to check `csv`; a table it accepts is computed, then shown.
  function parse(csv: string, source: Source): void {
    // A newer text replaces the table still being computed.
    candidate = null;
    if (csv.length > maxBytes) {
      asked = null;
      refuse(`the data is at least ${csv.length.toLocaleString('en-US')} bytes; the limit is ${maxBytes.toLocaleString('en-US')} bytes (4 MiB)`, source);
      return;
    }
    asked = { csv, source };
    checking.refresh();
  }

  /// Commits a checked table and its first frame at once: the text, the table, the summary,
  /// the query slider, the link, the charts and the read-outs all switch together.
  function accept({ table: current, source }: Sourced, frame: Frame): void {
    table = current;
    candidate = null;
    entry.showMessage(null);
    entry.describe(current);
    if (source !== 'text') entry.text.value = toCsv(current.header, current.keys, current.values, current.d);
    cells.render(current);
    const oneD = current.d === 1;
    numbers.layout(oneD);
    queryBox.hidden = !oneD;
    if (oneD) {
      const fresh = makeQuery(paddedRange(current.keys), frame.q);
      query.element.replaceWith(fresh.element);
      query = fresh;
    }
    const fits = current.keys.length + current.values.length <= MAX_URL_NUMBERS;
    const data = fits
      ? { d: current.d, keys: Array.from(current.keys), values: Array.from(current.values) }
      : { d: params.d.default, keys: [...params.keys.default], values: [...params.values.default] };
    show(frame);
    host.update({ ...data, q: oneD ? frame.q : host.state.q });
    if (!fits) entry.warn("This table is too large for a link; a shared link shows the chapter's example.");
  }

  /// Draws one frame everywhere at once: charts, map, fitted values and read-outs.
  function show(frame: Frame): void {
    computed = frame;
    numbers.show(frame);
  }

  /// The core checks the text; an accepted table goes to the fit before it is shown.
  const checking = host.compute({
    key: 'parse',
    reads: [],
    ask: () => (asked ? ([call('parseCsv', asked.csv)] as const) : null),
    draw([parsed]) {
      if (!asked) return;
      candidate = { table: parsed, source: asked.source };
      fit.refresh();
    },
    refused(error) {
      // A refused table is named beside the data entry, not under the figure.
      host.clearError('parse');
      if (asked) refuse(error.message, asked.source);
    },
  });

  /// The numbers for the table being switched to (else the one on screen) at the state's h, q
  /// and kernel; a new table's q is kept within its keys' range.
  const fit = host.compute({
    key: 'fit',
    reads: ['h', 'q', 'kernel'],
    ask(state) {
      const current = candidate?.table ?? table;
      if (!current) return null;
      const q = candidate && current.d === 1 ? clampToRange(state.q, paddedRange(current.keys)) : state.q;
      sent = askFor(current, { h: state.h, q, kernel: state.kernel }, kept);
      return frameCalls(sent);
    },
    // Shown if the work outlasts a glance (a 5,000-row table's leave-one-out curve takes seconds).
    busyNote() {
      if (!sent) return null;
      const rows = sent.table.n.toLocaleString('en-US');
      return candidate
        ? `Computing the leave-one-out errors of ${rows} rows over ${BANDWIDTH_POINTS} bandwidths; the figure keeps the previous data until they are ready…`
        : `Computing the fit of ${rows} rows at the new setting…`;
    },
    draw(results) {
      // A table no longer asked for (a newer text replaced it) is not drawn.
      if (!sent || sent.table !== (candidate?.table ?? table)) return;
      const answer = frameOf(results, sent);
      kept = answer.kept;
      if (candidate) accept(candidate, answer.frame);
      else show(answer.frame);
    },
    refused(error) {
      if (candidate && sent?.table === candidate.table) {
        // A new table the core cannot compute is refused as a table: the previous one stays.
        host.clearError('fit');
        refuse(error.message, candidate.source);
        candidate = null;
      } else if (sent?.table !== table) host.clearError('fit');
    },
  });

  host.run([call('csvLimits')] as const).then(
    ([limits]) => {
      maxBytes = limits.maxBytes;
    },
    // Without the limit the core still refuses a text too large, when it reads it.
    () => undefined,
  );
  const { d, keys, values } = host.state;
  parse(toCsv(columnNames(d, keys, values), keys, values, d), 'url');
});
