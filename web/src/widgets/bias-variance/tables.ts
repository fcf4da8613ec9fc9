/// The audit's read-outs: the section 12.4 table (one row per bandwidth, the grid minimum
/// highlighted, blanks for the rows still to come) and the marker's two decompositions.
import type { RiskRow } from '../../engine';
import { dataTable } from '../../ui/controls';
import { fixed, pending, precise } from '../../ui/format';
import { liveReadout, setText } from '../../ui/readout';
import { bandwidthText } from '../shared/laboratory-fields';

export interface AuditTable {
  /// The table with the grid-minimum line under it.
  readonly element: HTMLElement;
  /// The finished rows, then a row of blanks (each as wide as its number) for each bandwidth
  /// still `waiting`: the table has its final size from the start and numbers arriving shift
  /// nothing below it.
  render(rows: readonly RiskRow[], bestIndex: number | null, waiting?: readonly number[]): void;
  /// The line under the table ("grid minimum: …").
  say(text: string): void;
}

export function auditTable(): AuditTable {
  const table = dataTable('Fixed-design audit: one row per bandwidth on the grid', ['h', '2h²', 'bias²', 'variance', 'MSE']);
  table.table.dataset.testid = 'audit-table';
  const minimumLine = liveReadout('kl-summary');
  minimumLine.dataset.testid = 'grid-minimum';
  table.element.append(minimumLine);
  return {
    element: table.element,
    render(rows, bestIndex, waiting = []) {
      const blank = pending('0.0000');
      table.setRows([
        ...rows.map((row) => [bandwidthText(row.bandwidth), fixed(row.tau, 4), fixed(row.bias2, 4), fixed(row.variance, 4), fixed(row.mse, 4)]),
        ...waiting.map((h) => [bandwidthText(h), blank, blank, blank, blank]),
      ]);
      const bodyRows = table.table.tBodies[0]?.rows ?? [];
      Array.from(bodyRows).forEach((row, i) => {
        const best = i === bestIndex;
        row.classList.toggle('kl-row--best', best);
        if (best) row.setAttribute('aria-label', 'grid minimum');
      });
    },
    say: (text) => setText(minimumLine, text),
  };
}

export interface MarkerReadout {
  /// The heading line ("At h = …") and the table under it.
  readonly heading: HTMLElement;
  readonly element: HTMLElement;
  show(measured: RiskRow, exact: RiskRow): void;
}

/// The marker's read-out, blank where numbers go until the core answers for `h`.
export function markerReadout(h: number): MarkerReadout {
  const table = dataTable('Both decompositions at the marker: measured over the worlds, and exact', ['estimate', 'bias²', 'variance', 'MSE']);
  table.table.dataset.testid = 'marker-table';
  const heading = liveReadout('kl-readout');
  heading.dataset.testid = 'marker-readout';
  setText(heading, `At h = ${precise(h, 3)} (τ = 2h² = ${pending('0.000')}):`);
  table.setRows(['measured', 'exact'].map((estimate) => [estimate, ...Array<string>(3).fill(pending('0.0000'))]));
  return {
    heading,
    element: table.element,
    show(measured, exact) {
      setText(heading, `At h = ${precise(measured.bandwidth, 3)} (τ = 2h² = ${precise(measured.tau, 3)}):`);
      table.setRows([
        ['measured', fixed(measured.bias2, 4), fixed(measured.variance, 4), fixed(measured.mse, 4)],
        ['exact', fixed(exact.bias2, 4), fixed(exact.variance, 4), fixed(exact.mse, 4)],
      ]);
    },
  };
}
