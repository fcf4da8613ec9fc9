/// The your-data read-outs under the charts: f̂(q) and the leave-one-out error at h, the fitted
/// values at the keys (more key columns) and the leave-one-out table; `show` draws one frame into
/// them and into the charts at once.
import { dataTable } from '../../ui/controls';
import { fixed, precise, significant } from '../../ui/format';
import { liveReadout, setText } from '../../ui/readout';
import { element } from '../../ui/dom';
import type { Frame } from './frame';
import { MAX_EDITABLE_ROWS } from './table';
import type { YourDataView } from './view';

export interface Readouts {
  /// The sentence with f̂(q) (1-D keys) and the leave-one-out error at h.
  readonly readout: HTMLElement;
  readonly fittedBox: HTMLElement;
  readonly looDetails: HTMLDetailsElement;
  /// Shows the parts for one key column (prediction) or more (fitted values).
  layout(oneD: boolean): void;
  show(frame: Frame): void;
}

export function readouts(view: YourDataView): Readouts {
  const where = element('span', '');
  const prediction = element('strong', 'kl-number');
  prediction.dataset.testid = 'prediction';
  const loo = element('strong', 'kl-number');
  loo.dataset.testid = 'loo';
  const predictionPart = element('span', '');
  predictionPart.append(where, ' = ', prediction, '; ');
  const readout = liveReadout('kl-readout', predictionPart, 'leave-one-out MSE at this h = ', loo);

  const fitted = dataTable('Fitted values at the keys, f̂(kᵢ)', ['row', 'value', 'fitted']);
  const looTable = dataTable('Leave-one-out MSE per bandwidth', ['h', 'LOO MSE']);
  const looDetails = element('details', 'kl-your-data__details');
  looDetails.append(element('summary', '', 'Leave-one-out table'), looTable.table);

  return {
    readout,
    fittedBox: fitted.element,
    looDetails,
    layout(oneD) {
      view.showSmoothing(oneD);
      predictionPart.hidden = !oneD;
      fitted.element.hidden = oneD;
    },
    show(frame) {
      const current = frame.table;
      if (current.d === 1 && frame.curve) {
        view.drawSmoothing({ keys: current.keys, values: current.values, grid: frame.grid, curve: frame.curve, query: frame.q, prediction: frame.prediction, keyName: current.header[0] ?? '', valueName: current.header[1] ?? '' });
        setText(where, `f̂(${significant(frame.q, 4)}) at h = ${precise(frame.h, 3)}`);
        setText(prediction, fixed(frame.prediction, 4));
      } else {
        view.drawMap(frame);
        const shown = Math.min(current.n, MAX_EDITABLE_ROWS);
        fitted.setRows(Array.from({ length: shown }, (_, r) => [String(r + 1), significant(current.values[r] ?? 0, 4), fixed(frame.fitted[r] ?? Number.NaN, 4)]));
      }
      const { bandwidths, errors } = frame;
      const atH = errors[bandwidths.length] ?? Number.NaN;
      setText(loo, Number.isFinite(atH) ? fixed(atH, 4) : 'undefined (a point sees no other key)');
      view.drawLoo({ bandwidths, errors: errors.subarray(0, bandwidths.length), bandwidth: frame.h, error: atH });
      looTable.setRows(bandwidths.map((b, i) => [precise(b, 3), Number.isFinite(errors[i] ?? Number.NaN) ? fixed(errors[i] ?? 0, 4) : '—']));
    },
  };
}
