/// Numbers the chapter's own prose states, computed live by the core rather than typed in:
/// `<span data-kl-value="h={{audit.best-h}}" data-kl-math>…</span>` shows its template with every
/// `{{name}}` replaced by the named value once all of them are known (and again whenever one
/// changes); with `data-kl-math` the text is a formula typeset by KaTeX (`data-kl-math="display"`:
/// a displayed one). A filled span carries `data-kl-filled`.
///
/// Who computes what: the opening's three-pair lookup, section 12.1's OLS weights and the
/// laboratory's settings (`lab.noise`) are asked of the core here, at the chapter's settings; the audit's numbers (section 12.4, Figure 12.3, the
/// summary) come from the same sweep the audit figure runs, at the chapter's settings at first and
/// then from the audit on screen each time it finishes (`publishAudit`).
import { call, sharedBridge, type RiskRow } from '../../engine';
import { fixed } from '../../ui/format';
import { typeset } from '../../ui/math-text';

/// A grid minimum as the core's gridMinimum returns it.
interface GridMinimum {
  bandwidth: number;
  risk: number;
}

const values = new Map<string, string>();
const spans = new Set<HTMLElement>();
const NAME = /\{\{([\w.-]+)\}\}/g;

/// A number as TeX: fixed decimals with TeX's own minus.
const tex = (x: number, digits: number): string => fixed(x, digits).replace('−', '-');

/// Sets named values and refills every span that shows one of them.
export function publishValues(entries: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(entries)) values.set(name, value);
  for (const span of spans) fill(span);
}

function namesOf(span: HTMLElement): string[] {
  return [...(span.dataset.klValue ?? '').matchAll(NAME)].map((match) => match[1] ?? '');
}

function fill(span: HTMLElement): void {
  const names = namesOf(span);
  if (!names.every((name) => values.has(name))) return;
  const text = (span.dataset.klValue ?? '').replace(NAME, (_, name: string) => values.get(name) ?? '');
  if (span.dataset.klShown === text) return;
  span.dataset.klShown = text;
  const math = span.dataset.klMath;
  if (math === undefined) {
    span.textContent = text;
    span.setAttribute('data-kl-filled', '');
    return;
  }
  span.removeAttribute('data-kl-filled');
  span.textContent = math === 'display' ? `$$${text}$$` : `$${text}$`;
  void typeset(span).then(() => {
    if (span.dataset.klShown === text) span.setAttribute('data-kl-filled', '');
  });
}

/// The audit's grid minimum of the MSE as it last was, and who wants to hear of each new one.
let auditBest: GridMinimum | null = null;
const auditListeners = new Set<(best: GridMinimum) => void>();

/// Calls `listener` with the audit's grid minimum now (when known) and each time it changes (the
/// chapter's settings first, then every finished audit on screen); returns the unsubscriber.
export function onAuditMinimum(listener: (best: GridMinimum) => void): () => void {
  auditListeners.add(listener);
  if (auditBest) listener(auditBest);
  return () => auditListeners.delete(listener);
}

/// The audit's numbers the chapter quotes: its first and last rows, the smallest squared bias and
/// the grid minimum of the MSE (both found by the core), each bandwidth with two decimals.
export function publishAudit(rows: readonly RiskRow[], best: GridMinimum, leastBias: GridMinimum): void {
  const first = rows[0];
  const last = rows.at(-1);
  if (!first || !last) return;
  publishValues({
    'audit.first-h': tex(first.bandwidth, 2),
    'audit.first-variance': tex(first.variance, 4),
    'audit.last-h': tex(last.bandwidth, 2),
    'audit.last-variance': tex(last.variance, 4),
    'audit.last-bias2': tex(last.bias2, 4),
    'audit.least-bias2-h': tex(leastBias.bandwidth, 2),
    'audit.least-bias2': tex(leastBias.risk, 4),
    'audit.best-h': tex(best.bandwidth, 2),
    'audit.best-mse': tex(best.risk, 4),
  });
  if (auditBest?.bandwidth === best.bandwidth) return;
  auditBest = best;
  for (const listener of auditListeners) listener(best);
}

/// The grid minima of an audit's table: of the MSE and of the squared bias.
export function auditMinima(rows: readonly RiskRow[]) {
  const bandwidths = rows.map((row) => row.bandwidth);
  return [call('gridMinimum', bandwidths, rows.map((row) => row.mse)), call('gridMinimum', bandwidths, rows.map((row) => row.bias2))] as const;
}

/// The chapter's settings: the opening's three observed pairs and query, and section 12.1's keys,
/// witness targets and query.
const OPENING = { query: 3.5, keys: [1, 3, 5], values: [1.5, 2.8, 1.8], h: 0.6 } as const;
const OLS = { query: 1.5, keys: [-2, -1, 0, 1, 2], witness: [1, 0, 0, 0, 0] } as const;

const providers: Record<string, () => Promise<void>> = {
  async opening() {
    const [lookup] = await sharedBridge().run([
      call('attention', [OPENING.query], [...OPENING.keys], [...OPENING.values], 1, 1, OPENING.h),
    ] as const);
    const weights = Array.from(lookup.weights);
    publishValues({
      ...Object.fromEntries(weights.map((w, i) => [`opening.w${i + 1}`, tex(w, 4)])),
      'opening.prediction': tex(lookup.outputs[0] ?? NaN, 4),
    });
  },
  async ols() {
    const [ols] = await sharedBridge().run([call('olsPredict', [...OLS.keys], [...OLS.witness], [OLS.query], 1)] as const);
    publishValues({
      ...Object.fromEntries(Array.from(ols.weights, (w, i) => [`ols.w${i + 1}`, tex(w, 2)])),
      'ols.witness': tex(ols.predictions[0] ?? NaN, 2),
    });
  },
  async lab() {
    const [config] = await sharedBridge().run([call('chapterConfig')] as const);
    // The setting as the laboratory holds it (shortest form that reads back the same).
    publishValues({ 'lab.noise': String(config.noise).replace('-', '−') });
  },
  async audit() {
    const [rows] = await sharedBridge().run([call('biasVarianceSweep')] as const);
    // The audit on screen may have finished first (and at the reader's settings): it wins.
    if (values.has('audit.best-h')) return;
    const [best, leastBias] = await sharedBridge().run(auditMinima(rows));
    if (values.has('audit.best-h')) return;
    publishAudit(rows, best, leastBias);
  },
};

/// Fills every `[data-kl-value]` under `root` now and as its values arrive; asks the core once for
/// each group of values the spans name. A refusal leaves the span's placeholder and says why in
/// its title.
export function showLiveValues(root: ParentNode): void {
  const groups = new Set<string>();
  for (const span of root.querySelectorAll<HTMLElement>('[data-kl-value]')) {
    spans.add(span);
    for (const name of namesOf(span)) groups.add(name.split('.')[0] ?? '');
    fill(span);
  }
  for (const group of groups) {
    const provide = providers[group];
    if (!provide) continue;
    delete providers[group];
    provide().catch((error: unknown) => {
      for (const span of spans) {
        if (namesOf(span).some((name) => name.startsWith(`${group}.`))) span.title = `Not computed: ${error instanceof Error ? error.message : String(error)}`;
      }
    });
  }
}
