/// Your own data: paste, upload or edit a table of 1–8 key columns and one value column; the core
/// parses and checks it, then smooths it (1-D keys) and scores every bandwidth by leave-one-out.
/// A refused table leaves the last good data on screen with a message naming the row and column.
import type { CsvTable, KernelName } from '../../engine';
import { onThemeChange } from '../../theme/theme';
import { bandwidthSlider, button, controlRow, dataTable, slider, type Slider } from '../../ui/controls';
import { fixed, precise, significant } from '../../ui/format';
import { evenTickIndices, Heatmap } from '../../charts/heatmap';
import type { Channel } from '../../engine';
import { call, keeping } from '../../engine';
import { decodeUpload } from './decode-upload';
import type { StateOf } from '../../ui/state';
import { defineWidget } from '../../ui/host/widget';
import { paddedRange, YourDataView } from './view';
import './your-data.css';
import { liveReadout, setText } from '../../ui/readout';
import prose from './prose.html?raw';
import meta from './meta';

/// Links carry at most this many numbers; larger tables stay on the page only.
const MAX_URL_NUMBERS = 200;
/// Editable cells are offered up to this many rows; larger tables are edited as text.
const MAX_EDITABLE_ROWS = 30;
const CURVE_POINTS = 241;
const BANDWIDTH_POINTS = 25;
/// Work that takes longer than this says so in a note.
const BUSY_NOTE_MS = 400;
/// The attention map draws at most this many query rows (the first data points); columns are all keys.
/// Its CSV download holds the same rows: a 5,000-row table's full matrix would be 25 million numbers.
const MAP_ROWS = 200;
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

type YourDataState = StateOf<typeof params>;
type Source = 'url' | 'text' | 'table' | 'file' | 'reset';

/// The core's numbers behind one drawing of the figure.
interface Frame {
  table: CsvTable;
  h: number;
  q: number;
  kernel: KernelName;
  /// The plotted bandwidth grid; `errors` holds its leave-one-out errors, then the error at h.
  bandwidths: number[];
  errors: Float64Array;
  /// f̂ at every key, (n).
  fitted: Float64Array;
  /// The first `mapRows` rows of the weight matrix, (mapRows, n).
  mapRows: number;
  mapWeights: Float64Array;
  /// The smoothing curve on `grid` and the prediction at q (1-D keys; null and NaN otherwise).
  grid: number[];
  curve: Float64Array | null;
  prediction: number;
}

function clampToRange(x: number, range: { min: number; max: number }): number {
  return Math.min(Math.max(x, range.min), range.max);
}

/// Comma-separated text of a table (what the text box shows for the current data).
function toCsv(header: readonly string[], keys: ArrayLike<number>, values: ArrayLike<number>, d: number): string {
  const quote = (name: string): string => (/[",\n;\t]/.test(name) ? `"${name.replaceAll('"', '""')}"` : name);
  const lines = [header.map(quote).join(',')];
  for (let r = 0; r < values.length; r++) {
    const row = Array.from({ length: d }, (_, c) => String(keys[r * d + c]));
    lines.push([...row, String(values[r])].join(','));
  }
  return lines.join('\n');
}

function logGrid(low: number, high: number, count: number): number[] {
  const step = Math.log(high / low) / (count - 1);
  return Array.from({ length: count }, (_, i) => Number((low * Math.exp(i * step)).toPrecision(3)));
}

/// The largest spread of any key column: sets the span of the plotted bandwidths.
function keySpread(table: CsvTable): number {
  let spread = 0;
  for (let c = 0; c < table.d; c++) {
    const column = Array.from({ length: table.n }, (_, r) => table.keys[r * table.d + c] ?? 0);
    spread = Math.max(spread, Math.max(...column) - Math.min(...column));
  }
  return spread > 0 ? spread : 1;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export default defineWidget({
  name: 'your-data',
  ...meta,
  params,
  prose,

  mount(host, initial) {
    let state: YourDataState = { ...initial, keys: [...initial.keys], values: [...initial.values] };
    if (state.keys.length !== state.d * state.values.length) {
      host.note(
        `keys must hold d = ${state.d} numbers per value (got ${state.keys.length} keys for ${state.values.length} values); using the chapter's three points.`,
      );
      state = { ...state, d: params.d.default, keys: [...params.keys.default], values: [...params.values.default] };
    }
    const parser = host.channel('parse');
    const compute = host.channel('compute');
    const view = new YourDataView();
    let table: CsvTable | null = null;
    let maxBytes = Infinity;
    /// The core's numbers behind the current drawing, for the downloads.
    let computed: Frame | null = null;
    /// The leave-one-out errors over the bandwidth grid depend on the table and the kernel only:
    /// kept, so moving h or q asks for the error at h alone.
    let looGrid: { table: CsvTable; kernel: KernelName; bandwidths: number[]; errors: Float64Array } | null = null;
    /// Bumped by every parse: an older parse that answers late is dropped.
    let generation = 0;
    host.provideExport({
      name: 'data and fitted values',
      csv: () => {
        const frame = computed;
        if (!frame) return [];
        const { d, n, keys, values, header } = frame.table;
        return [
          [...header, 'fitted', 'h', 'kernel'],
          ...Array.from({ length: n }, (_, r) => [...keys.subarray(r * d, (r + 1) * d), values[r] ?? null, frame.fitted[r] ?? null, frame.h, frame.kernel]),
        ];
      },
    });
    host.provideExport({
      name: 'leave-one-out curve',
      csv: () => (computed ? [['h', 'leave-one-out MSE'], ...computed.bandwidths.map((b, i) => [b, computed?.errors[i] ?? null])] : []),
    });
    host.provideExport({
      name: 'attention matrix',
      csv: () => {
        const frame = computed;
        if (!frame) return [];
        const n = frame.table.n;
        return [
          ['query row / key row', ...Array.from({ length: n }, (_, c) => c + 1)],
          ...Array.from({ length: frame.mapRows }, (_, r) => [r + 1, ...frame.mapWeights.subarray(r * n, (r + 1) * n)]),
        ];
      },
    });

    // ---- data entry ----
    const textId = `${host.root.closest('figure')?.id ?? 'kl-your-data'}-text`;
    const textLabel = element('label', 'kl-your-data__label', 'CSV: 1–8 key columns, then one value column (comma, tab or semicolon separated)');
    textLabel.htmlFor = textId;
    const text = element('textarea', 'kl-your-data__text');
    text.id = textId;
    text.rows = 6;
    text.spellcheck = false;
    text.dataset.testid = 'csv-text';
    const file = element('input', 'kl-your-data__file');
    file.type = 'file';
    file.accept = '.csv,.tsv,.txt,text/csv,text/plain,text/tab-separated-values';
    file.setAttribute('aria-label', 'Upload a CSV file');
    const useButton = button('Use this data', () => void parse(text.value, 'text'));
    const resetButton = button("Reset to the chapter's example", () => {
      update({ h: params.h.default, q: params.q.default, kernel: params.kernel.default });
      bandwidth.set(state.h);
      kernelSelect.value = state.kernel;
      void parse(toCsv(['location', 'response'], params.keys.default, params.values.default, 1), 'reset');
    });
    const fileLabel = element('label', 'kl-your-data__upload', 'Upload ');
    fileLabel.append(file);

    const message = element('p', 'kl-your-data__message');
    message.setAttribute('role', 'alert');
    message.dataset.testid = 'data-message';
    message.hidden = true;
    const warnings = element('ul', 'kl-your-data__warnings');
    warnings.dataset.testid = 'data-warnings';
    const summary = liveReadout('kl-your-data__summary');
    summary.dataset.testid = 'data-summary';

    // ---- controls ----
    const kernelSelect = element('select', 'kl-input kl-your-data__kernel');
    kernelSelect.setAttribute('aria-label', 'kernel');
    for (const name of KERNELS) kernelSelect.append(new Option(name, name));
    kernelSelect.value = state.kernel;
    kernelSelect.addEventListener('change', () => update({ kernel: kernelSelect.value as KernelName }));
    const kernelLabel = element('label', 'kl-control kl-your-data__kernel-control');
    kernelLabel.append(element('span', 'kl-control__caption', 'kernel'), kernelSelect);
    const bandwidth = bandwidthSlider(params.h, state.h, (h) => update({ h }));
    let query: Slider = makeQuery({ min: params.q.default - 3, max: params.q.default + 3 });
    const queryBox = element('div', 'kl-your-data__query');
    queryBox.append(query.element);

    const where = element('span', '');
    const prediction = element('strong', 'kl-number');
    prediction.dataset.testid = 'prediction';
    const loo = element('strong', 'kl-number');
    loo.dataset.testid = 'loo';
    const predictionPart = element('span', '');
    predictionPart.append(where, ' = ', prediction, '; ');
    const readout = liveReadout('kl-readout', predictionPart, 'leave-one-out MSE at this h = ', loo);

    const dataView = dataTable('Your data (edit a cell and press Enter)', []);
    const dataBox = dataView.element;
    const heatmap = new Heatmap({
      label: 'Attention map of your data: one row per data point as the query (row 1 at the bottom), one column per key in file order, brighter cells carry more weight; a white trace marks each point’s own key',
      xTitle: 'key (data row)',
      yTitle: 'query (data row)',
      colorbarTitle: 'weight',
    });
    heatmap.canvas.dataset.exportName = 'attention map';
    const mapTitle = element('p', 'kl-your-data__map-title');
    mapTitle.dataset.testid = 'map-title';
    const mapBox = element('div', 'kl-your-data__map');
    mapBox.dataset.testid = 'attention-map';
    mapBox.append(mapTitle, heatmap.element);
    const fitted = dataTable('Fitted values at the keys, f̂(kᵢ)', ['row', 'value', 'fitted']);
    const fittedBox = fitted.element;
    const looTable = dataTable('Leave-one-out MSE per bandwidth', ['h', 'LOO MSE']);
    const looDetails = element('details', 'kl-your-data__details');
    looDetails.append(element('summary', '', 'Leave-one-out table'), looTable.table);

    const charts = element('div', 'kl-charts kl-charts--pair');
    charts.append(view.smoothingBox, mapBox, view.looBox);
    const entry = element('div', 'kl-your-data__entry');
    entry.append(textLabel, text, controlRow(useButton, fileLabel, resetButton), message, warnings, summary);
    host.root.append(entry, charts, controlRow(kernelLabel, bandwidth.element), queryBox, readout, dataBox, fittedBox, looDetails);

    function makeQuery(range: { min: number; max: number }): Slider {
      const span = range.max - range.min;
      return slider({
        label: 'query q',
        spec: { min: range.min, max: range.max, scale: 'linear', step: Number((span / 200).toPrecision(2)) },
        value: Math.min(Math.max(state.q, range.min), range.max),
        format: (q) => significant(q, 4),
        onInput: (q) => update({ q }),
      });
    }

    function showMessage(text: string | null): void {
      message.hidden = text === null;
      setText(message, text ?? '');
    }

    function refuse(reason: string, source?: Source): void {
      if (source === 'table' && table) {
        // The refused edit does not stay in its cell: every cell shows the accepted table again.
        restoreCells(table);
        showMessage(`${reason}. The previous data is still shown; the edited cell is back to its last accepted value.`);
        return;
      }
      showMessage(`${reason}. The previous data is still shown.`);
    }

    function cellText(current: CsvTable, r: number, c: number): string {
      return String(c < current.d ? current.keys[r * current.d + c] : current.values[r]);
    }

    function renderDataTable(current: CsvTable): void {
      const head = dataView.table.tHead?.rows[0];
      head?.replaceChildren(
        ...['row', ...current.header].map((name) => {
          const th = document.createElement('th');
          th.scope = 'col';
          setText(th, name);
          return th;
        }),
      );
      const shown = Math.min(current.n, MAX_EDITABLE_ROWS);
      const rows: string[][] = [];
      for (let r = 0; r < shown; r++) rows.push([String(r + 1), ...Array.from({ length: current.d + 1 }, (_, c) => cellText(current, r, c))]);
      const body = dataView.table.tBodies[0];
      while (body && body.rows.length > shown) body.deleteRow(-1);
      dataView.setRows(rows);
      const editable = current.n <= MAX_EDITABLE_ROWS;
      Array.from(body?.rows ?? []).forEach((row, r) => {
        while (row.cells.length > current.d + 2) row.deleteCell(-1);
        Array.from(row.cells).forEach((cell, c) => {
          if (c === 0 || !editable) return;
          const input = element('input', 'kl-input');
          input.value = cell.textContent ?? '';
          input.setAttribute('aria-label', `row ${r + 1}, ${current.header[c - 1] ?? `column ${c}`}`);
          input.addEventListener('change', () => void parse(tableText(), 'table'));
          cell.replaceChildren(input);
        });
      });
      dataView.table.caption!.textContent = editable
        ? 'Your data (edit a cell and press Enter)'
        : `Your data: the first ${shown} of ${current.n.toLocaleString('en-US')} rows (edit larger tables as text)`;
    }

    /// Puts the accepted table's numbers back into the editable cells (focus stays where it is).
    function restoreCells(current: CsvTable): void {
      Array.from(dataView.table.tBodies[0]?.rows ?? []).forEach((row, r) => {
        Array.from(row.querySelectorAll('input')).forEach((input, c) => {
          if (r < current.n && c <= current.d) input.value = cellText(current, r, c);
        });
      });
    }

    /// The editable table as CSV text, cells exactly as typed, so the core checks them.
    function tableText(): string {
      const header = table?.header ?? [];
      const lines = [header.map((name) => (/[",\n;\t]/.test(name) ? `"${name.replaceAll('"', '""')}"` : name)).join(',')];
      for (const row of Array.from(dataView.table.tBodies[0]?.rows ?? [])) {
        const cells = Array.from(row.querySelectorAll('input'), (input) => input.value);
        lines.push(cells.map((cell) => (/[",\n;\t]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(','));
      }
      return lines.join('\n');
    }

    /// Commits a parsed table and its computed frame at once: the text, the table, the summary,
    /// the query slider, the link, the charts and the read-outs all switch together.
    function accept(current: CsvTable, source: Source, frame: Frame): void {
      table = current;
      showMessage(null);
      warnings.replaceChildren(...current.warnings.map((warning) => element('li', 'kl-your-data__warning', warning)));
      const keyNames = current.header.slice(0, current.d).join(', ');
      setText(summary, `${current.n.toLocaleString('en-US')} rows; ${current.d} key ${current.d === 1 ? 'column' : 'columns'} (${keyNames}); value column: ${current.header[current.d] ?? 'y'}.`);
      if (source !== 'text') text.value = toCsv(current.header, current.keys, current.values, current.d);
      renderDataTable(current);
      const oneD = current.d === 1;
      view.showSmoothing(oneD);
      queryBox.hidden = !oneD;
      predictionPart.hidden = !oneD;
      fittedBox.hidden = oneD;
      mapBox.hidden = oneD;
      if (oneD) {
        const fresh = makeQuery(paddedRange(current.keys));
        query.element.replaceWith(fresh.element);
        query = fresh;
        state = { ...state, q: frame.q };
      }
      const fits = current.keys.length + current.values.length <= MAX_URL_NUMBERS;
      const data = fits
        ? { d: current.d, keys: Array.from(current.keys), values: Array.from(current.values) }
        : { d: params.d.default, keys: [...params.keys.default], values: [...params.values.default] };
      host.setState({ ...data, q: state.q });
      if (!fits) warnings.append(element('li', 'kl-your-data__warning', 'This table is too large for a link; a shared link shows the chapter\'s example.'));
      draw(frame);
      host.clearError();
      // The reader moved h, q or the kernel while the new table was being computed: catch up.
      if (frame.h !== state.h || frame.kernel !== state.kernel || (oneD && frame.q !== state.q)) void recompute();
    }

    /// A note that shows only if the work outlasts a glance (a 5,000-row table's leave-one-out
    /// curve takes seconds); returns its remover.
    function busy(message: string): () => void {
      let remove: (() => void) | null = null;
      const timer = setTimeout(() => (remove = host.waitingNote(message)), BUSY_NOTE_MS);
      return () => {
        clearTimeout(timer);
        remove?.();
      };
    }

    async function parse(csv: string, source: Source): Promise<void> {
      const mine = ++generation;
      if (csv.length > maxBytes) {
        refuse(`the data is at least ${csv.length.toLocaleString('en-US')} bytes; the limit is ${maxBytes.toLocaleString('en-US')} bytes (4 MiB)`, source);
        return;
      }
      try {
        // Parsing and computing share one latest-wins channel: a newer parse drops this one.
        const results = await parser.request([call('parseCsv', csv)] as const);
        if (!results || mine !== generation) return;
        const candidate = results[0];
        const q = candidate.d === 1 ? clampToRange(state.q, paddedRange(candidate.keys)) : state.q;
        const done = busy(
          `Computing the leave-one-out errors of ${candidate.n.toLocaleString('en-US')} rows over ${BANDWIDTH_POINTS} bandwidths; the figure keeps the previous data until they are ready…`,
        );
        const frame = await computeFrame(parser, candidate, { h: state.h, q, kernel: state.kernel as KernelName }).finally(done);
        if (!frame || mine !== generation) return;
        accept(candidate, source, frame);
      } catch (error) {
        if (mine === generation) refuse(error instanceof Error ? error.message : String(error), source);
      }
    }

    file.addEventListener('change', () => {
      const chosen = file.files?.[0];
      file.value = '';
      if (!chosen) return;
      if (chosen.size > maxBytes) {
        refuse(`the file "${chosen.name}" is ${chosen.size.toLocaleString('en-US')} bytes; the limit is ${maxBytes.toLocaleString('en-US')} bytes (4 MiB), so it was not read`);
        return;
      }
      chosen.arrayBuffer().then(
        (bytes) => {
          const decoded = decodeUpload(new Uint8Array(bytes));
          if ('refusal' in decoded) {
            refuse(`the file "${chosen.name}" ${decoded.refusal}`);
            return;
          }
          text.value = decoded.text;
          void parse(decoded.text, 'text');
        },
        (error: unknown) => refuse(`the file "${chosen.name}" could not be read: ${String(error)}`),
      );
    });
    text.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void parse(text.value, 'text');
    });

    /// Everything the figure shows for one table at one (h, q, kernel), from one request: the
    /// leave-one-out curve over the bandwidth grid (once per table and kernel), the fitted values
    /// and the leave-one-out error at h in one pass over the keys (never an n × n matrix), the
    /// map's first rows, and the curve and the prediction (1-D keys). Null when a newer request on
    /// the same channel replaced it.
    async function computeFrame(channel: Channel, current: CsvTable, requested: { h: number; q: number; kernel: KernelName }): Promise<Frame | null> {
      const { d, n, keys, values } = current;
      const { h, q, kernel } = requested;
      const cached = looGrid && looGrid.table === current && looGrid.kernel === kernel ? looGrid : null;
      const bandwidths = cached?.bandwidths ?? logGrid(keySpread(current) / 500, keySpread(current) * 2, BANDWIDTH_POINTS);
      const mapRows = Math.min(n, MAP_ROWS);
      const range = paddedRange(keys);
      const grid = Array.from({ length: CURVE_POINTS }, (_, i) => range.min + ((range.max - range.min) * i) / (CURVE_POINTS - 1));
      const oneD = d === 1;
      const results = await channel.request([
        call('looFit', keys, values, d, h, kernel),
        call('attention', keys.subarray(0, mapRows * d), keys, values, d, 1, h, kernel, 'nearest'),
        ...(oneD
          ? [
              keeping(call('attention', grid, keys, values, 1, 1, h, kernel, 'nearest'), 'outputs'),
              keeping(call('attention', [q], keys, values, 1, 1, h, kernel, 'nearest'), 'outputs'),
            ]
          : []),
        ...(cached ? [] : [call('looCurve', keys, values, d, bandwidths, kernel)]),
      ] as const);
      if (!results) return null;
      const [fit, map, ...rest] = results as unknown as [
        { fitted: Float64Array; mse: number },
        { weights: Float64Array; outputs: Float64Array },
        ...({ outputs: Float64Array } | Float64Array)[],
      ];
      const curve = oneD ? (rest.shift() as { outputs: Float64Array }) : undefined;
      const atQuery = oneD ? (rest.shift() as { outputs: Float64Array }) : undefined;
      const gridErrors = cached?.errors ?? (rest.shift() as Float64Array);
      const errors = new Float64Array(bandwidths.length + 1);
      errors.set(gridErrors, 0);
      errors[bandwidths.length] = fit.mse;
      looGrid = { table: current, kernel, bandwidths, errors: errors.subarray(0, bandwidths.length) };
      return {
        table: current,
        h,
        q,
        kernel,
        bandwidths,
        errors,
        fitted: fit.fitted,
        mapRows,
        mapWeights: map.weights,
        grid,
        curve: curve?.outputs ?? null,
        prediction: atQuery?.outputs[0] ?? Number.NaN,
      };
    }

    /// Draws one frame everywhere at once: charts, map, fitted values and read-outs.
    function draw(frame: Frame): void {
      computed = frame;
      const current = frame.table;
      if (current.d === 1 && frame.curve) {
        view.drawSmoothing({ keys: current.keys, values: current.values, grid: frame.grid, curve: frame.curve, query: frame.q, prediction: frame.prediction });
        setText(where, `f̂(${significant(frame.q, 4)}) at h = ${precise(frame.h, 3)}`);
        setText(prediction, fixed(frame.prediction, 4));
      } else {
        drawMap(frame);
        const shown = Math.min(current.n, MAX_EDITABLE_ROWS);
        fitted.setRows(Array.from({ length: shown }, (_, r) => [String(r + 1), significant(current.values[r] ?? 0, 4), fixed(frame.fitted[r] ?? Number.NaN, 4)]));
      }
      showLoo(frame.bandwidths, frame.errors, frame.h);
    }

    async function recompute(): Promise<void> {
      const current = table;
      if (!current) return;
      try {
        const done = busy(`Computing the fit of ${current.n.toLocaleString('en-US')} rows at the new setting…`);
        const frame = await computeFrame(compute, current, { h: state.h, q: state.q, kernel: state.kernel as KernelName }).finally(done);
        if (!frame || current !== table) return;
        draw(frame);
        host.clearError();
      } catch (error) {
        if (current === table) host.showError(error);
      }
    }

    /// The (rows, n) top of the (n, n) weight matrix: data points as queries against every key.
    function drawMap(frame: Frame): void {
      const current = frame.table;
      const n = current.n;
      const rows = frame.mapRows;
      heatmap.draw({
        values: frame.mapWeights.subarray(0, rows * n),
        rows,
        cols: n,
        scale: 'linear',
        xTicks: evenTickIndices(n).map((c) => ({ at: c, label: String(c + 1) })),
        yTicks: evenTickIndices(rows).map((r) => ({ at: r, label: String(r + 1) })),
        trace: Array.from({ length: rows }, (_, r) => r),
      });
      const shown = rows < n ? `the first ${rows} of ${n} points as queries` : `all ${n} points as queries`;
      setText(mapTitle, `Attention weights αⱼ(kᵢ), ${frame.kernel} kernel, h = ${precise(frame.h, 3)}: ${shown}, ${n} keys (${current.d} columns each). The fitted values below are each row’s weights times the values.`);
    }

    function showLoo(bandwidths: number[], errors: Float64Array, h: number): void {
      const atH = errors[bandwidths.length] ?? Number.NaN;
      setText(loo, Number.isFinite(atH) ? fixed(atH, 4) : 'undefined (a point sees no other key)');
      view.drawLoo({ bandwidths, errors: errors.subarray(0, bandwidths.length), bandwidth: h, error: atH });
      looTable.setRows(bandwidths.map((b, i) => [precise(b, 3), Number.isFinite(errors[i] ?? Number.NaN) ? fixed(errors[i] ?? 0, 4) : '—']));
    }

    function update(partial: Partial<YourDataState>): void {
      state = { ...state, ...partial };
      host.setState(partial);
      void recompute();
    }

    const stopTheme = onThemeChange((colors) => view.recolor(colors));
    host.bridge
      .run([call('csvLimits')] as const)
      .then(([limits]) => {
        maxBytes = limits.maxBytes;
      })
      .catch(() => undefined);
    void parse(
      toCsv(state.d === 1 ? ['x', 'y'] : [...Array.from({ length: state.d }, (_, c) => `x${c + 1}`), 'y'], state.keys, state.values, state.d),
      'url',
    );

    return {
      destroy() {
        stopTheme();
        view.destroy();
        heatmap.destroy();
      },
    };
  },
});
