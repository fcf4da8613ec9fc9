/// Beyond the chapter: Nadaraya–Watson against local linear regression on the chapter's sample.
/// Both curves at one bandwidth, both weight profiles at a draggable query (one-sided at the edge
/// for NW, signed for the line), the exact bias of both across the query range from the
/// laboratory's design, and optionally each curve's ±2 standard-deviation band.
import { bandwidthSlider, button, controlRow, dataTable, querySlider } from '../../ui/controls';
import { fixed } from '../../ui/format';
import { call, keeping } from '../../engine';
import { liveReadout, setText, testNode } from '../../ui/readout';
import { defineWidget } from '../../ui/host/widget';
import { loadChapterSample, type ChapterSample } from '../shared/chapter-sample';
import { axisLimit, localLinearView, type Curves, type Profile } from './view';
import './local-linear.css';
import prose from './prose.html?raw';
import meta from './meta';

/// The query grid of the curves: the keys' whole range, so both edges show.
const DENSE = { start: -3, stop: 3, count: 301 } as const;
/// Queries the table lists: both edges, the middle and two interior points.
const TABLE_QUERIES = [-3, -2.5, 0, 2.5, 3] as const;

const params = {
  h: { kind: 'number', label: 'bandwidth h', default: 0.5, min: 0.05, max: 3, scale: 'log' },
  q: { kind: 'number', label: 'query q', default: -2.9, min: -3, max: 3, scale: 'linear', step: 0.01 },
  band: { kind: 'boolean', label: '±2 sd band shown', default: false },
} as const;

/// Index of the dense query nearest to x.
const denseIndex = (x: number): number => Math.round(((x - DENSE.start) / (DENSE.stop - DENSE.start)) * (DENSE.count - 1));

export default defineWidget({ name: 'local-linear', ...meta, params, prose }, (host) => {
  /// The chapter's sample and the laboratory's noise σ.
  let sample: (ChapterSample & { noise: number }) | null = null;
  let curves: Curves | null = null;
  let profile: Profile | null = null;

  const view = localLinearView(host, DENSE);
  const hSlider = bandwidthSlider({ min: params.h.min, max: params.h.max, scale: 'log' }, host.state.h, (h) => host.update({ h }));
  const qSlider = querySlider({ min: params.q.min, max: params.q.max, scale: 'linear', step: params.q.step }, host.state.q, (q) => {
    host.update({ q });
    paintCurves();
  });
  const bandButton = button('', () => {
    host.update({ band: !host.state.band });
    renderBandButton();
    paintCurves();
  });
  const nwText = testNode('strong', 'nw-prediction');
  const lineText = testNode('strong', 'local-linear-prediction');
  const fallbackText = document.createElement('span');
  const readout = liveReadout('kl-readout', 'At the query: Nadaraya–Watson predicts ', nwText, ', local linear predicts ', lineText, '. ', fallbackText);
  const table = dataTable('Exact bias and standard deviation of both rules at selected queries', [
    'query q',
    'NW bias',
    'local linear bias',
    'NW sd',
    'local linear sd',
  ]);
  table.table.classList.add('kl-table--wrapped-head');
  /// What the table shows at the two edges, and where the line fell back to NW's weights.
  const edgeText = testNode('p', 'edge-summary');
  edgeText.className = 'kl-readout';
  const fallbackCount = testNode('p', 'fallback-count');
  fallbackCount.className = 'kl-readout';
  const waiting = host.waitingNote('Waiting for the laboratory data from the core…');
  const [curveBox, weightBox, biasBox] = view.boxes;
  host.root.append(curveBox, controlRow(hSlider.element, qSlider.element, bandButton), readout, weightBox, biasBox, table.element, edgeText, fallbackCount);

  host.provideExport('curves', () => sample && curves && { s: sample, c: curves }, ({ s, c }) => [
    ['query', 'truth', 'NW prediction', 'local linear prediction', 'NW bias', 'local linear bias', 'NW sd', 'local linear sd'],
    ...Array.from(s.dense, (q, i) => [q, s.truth[i] ?? null, c.nw[i] ?? null, c.line[i] ?? null, c.nwBias[i] ?? null, c.lineBias[i] ?? null, c.nwSd[i] ?? null, c.lineSd[i] ?? null]),
  ]);
  host.provideExport('weights at the query', () => sample && profile && { s: sample, p: profile }, ({ s, p }) => [
    ['key', 'target', 'NW weight', 'local linear weight'],
    ...Array.from(s.keys, (k, i) => [k, s.observed[i] ?? null, p.nwWeights[i] ?? null, p.lineWeights[i] ?? null]),
  ]);

  function renderBandButton(): void {
    setText(bandButton, host.state.band ? 'Hide the ±2 sd band' : 'Show the ±2 sd band');
    bandButton.setAttribute('aria-pressed', String(host.state.band));
  }

  function paintCurves(): void {
    if (sample && curves) view.paintCurves(sample, curves, host.state.q, host.state.band, host.colors);
  }

  function paintProfile(): void {
    const p = profile;
    if (!sample || !p) return;
    view.paintProfile(sample, p, host.state.q, host.colors);
    setText(nwText, fixed(p.nw, 4));
    setText(lineText, fixed(p.line, 4));
    setText(
      fallbackText,
      p.fallback
        ? 'Here the weighted design is numerically singular (one key carries almost all the weight), so the line falls back to the NW weights.'
        : '',
    );
  }

  function renderTable(): void {
    const s = sample;
    const c = curves;
    if (!s || !c) return;
    table.setRows(
      TABLE_QUERIES.map((q) => {
        const i = denseIndex(q);
        return [
          fixed(s.dense[i] ?? Number.NaN, 2),
          fixed(c.nwBias[i] ?? Number.NaN, 4),
          fixed(c.lineBias[i] ?? Number.NaN, 4),
          fixed(c.nwSd[i] ?? Number.NaN, 4),
          fixed(c.lineSd[i] ?? Number.NaN, 4),
        ];
      }),
    );
    const edge = (q: number): string => {
      const i = denseIndex(q);
      const nw = c.nwBias[i] ?? Number.NaN;
      const line = c.lineBias[i] ?? Number.NaN;
      const verdict = Math.abs(line) < Math.abs(nw) ? 'smaller' : Math.abs(line) > Math.abs(nw) ? 'larger' : 'equal';
      return `at q = ${fixed(s.dense[i] ?? Number.NaN, 2)} local linear’s bias is ${fixed(line, 4)} against NW’s ${fixed(nw, 4)} (${verdict} in size)`;
    };
    /// The table's first and last queries: the two edges of the query range.
    setText(edgeText, `At h = ${fixed(host.state.h, 2)}: ${edge(TABLE_QUERIES[0])}; ${edge(TABLE_QUERIES[4])}.`);
    const fallbacks = c.fallbackRows;
    setText(
      fallbackCount,
      fallbacks.length === 0
        ? `The local fit is regular at all ${s.dense.length} queries of the curve: no fallback to NW weights.`
        : `At ${fallbacks.length} of ${s.dense.length} queries (q = ${fallbacks
            .slice(0, 6)
            .map((r) => fixed(s.dense[r] ?? Number.NaN, 2))
            .join(', ')}${fallbacks.length > 6 ? ', …' : ''}) the local fit is numerically singular and the line uses the NW weights there.`,
    );
  }

  /// Both curves across the query range at h, with both rules' exact bias and sd.
  const curveComputation = host.compute({
    key: 'curves',
    reads: ['h'],
    ask: ({ h }) => {
      const s = sample;
      if (!s) return null;
      return [
        keeping(call('attention', s.dense, s.keys, s.observed, 1, 1, h), 'outputs'),
        keeping(call('localLinear', s.dense, s.keys, s.observed, 1, h), 'outputs'),
        call('smootherAudit', s.dense, s.keys, 1, s.truthAtKeys, s.truth, s.noise, h),
      ] as const;
    },
    draw([nw, line, audit]) {
      curves = {
        nw: nw.outputs,
        line: line.outputs,
        nwBias: audit.nadarayaWatson.bias,
        lineBias: audit.localLinear.bias,
        nwSd: audit.nadarayaWatson.sd,
        lineSd: audit.localLinear.sd,
        fallbackRows: audit.fallbackRows,
      };
      paintCurves();
      renderTable();
    },
  });

  /// Both rules' weights and predictions at the query.
  const profileComputation = host.compute({
    key: 'profile',
    reads: ['h', 'q'],
    ask: ({ h, q }) => {
      const s = sample;
      if (!s) return null;
      return [call('attention', [q], s.keys, s.observed, 1, 1, h), call('localLinear', [q], s.keys, s.observed, 1, h)] as const;
    },
    draw([nw, line]) {
      profile = {
        nwWeights: nw.weights,
        lineWeights: line.weights,
        nw: nw.outputs[0] ?? Number.NaN,
        line: line.outputs[0] ?? Number.NaN,
        fallback: line.fallbackRows.length > 0,
      };
      paintProfile();
    },
  });

  async function loadSample(): Promise<void> {
    const [loaded, [config]] = await Promise.all([loadChapterSample(host, DENSE), host.run([call('chapterConfig')] as const)]);
    sample = { ...loaded, noise: config.noise };
    waiting();
    curveComputation.refresh();
    profileComputation.refresh();
  }

  host.onTheme(() => {
    paintCurves();
    paintProfile();
  });
  renderBandButton();
  loadSample().catch((error: unknown) => host.showError(error));
});

/// For tests: the symmetric axis limit rule.
export const testing = { axisLimit, denseIndex };
