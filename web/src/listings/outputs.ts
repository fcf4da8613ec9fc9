/// What each listing prints, computed live by the core at the state of the figure it belongs to,
/// in the listing's own print format (NumPy's arrays, its f-strings). The calls are the ones the
/// figures themselves ask; nothing here computes what the core computes.
import { call, type Channel, type CoreCall, type CoreResults } from '../engine';
import { ndarray, pyBool, pyExp, pyFixed, pyFloat, pyShape } from './numpy-print';

export type FigureState = Readonly<Record<string, unknown>>;

/// Asks the core on the listing's latest-wins channel: null when a newer state superseded it.
export type Ask = <const C extends readonly CoreCall[]>(calls: C) => Promise<CoreResults<C> | null>;

export interface ListingOutput {
  /// The figure whose state the output follows.
  figure: string;
  /// The state keys it reads (the chapter's settings are their defaults).
  reads: readonly string[];
  /// How many lines it prints at `state` (held blank until the first answer: nothing moves then).
  rows(state: FigureState): number;
  /// The printed lines at `state`, or null when superseded.
  lines(state: FigureState, ask: Ask): Promise<string[] | null>;
}

export interface ListingSpec {
  /// The live figures the listing's code draws (a "Figure:" listing), or belongs to.
  figures: readonly string[];
  output?: ListingOutput;
}

const numbers = (x: unknown): number[] => (Array.isArray(x) ? x.map(Number) : []);
const number = (x: unknown): number => Number(x);

/// The keys of the chapter's OLS comparison, `ols_keys` in its code (the ols-vs-nw figure's keys).
const OLS_KEYS = [-2, -1, 0, 1, 2];

export function channelAsk(channel: Channel): Ask {
  return (calls) => channel.request(calls);
}

export const LISTINGS: Readonly<Record<string, ListingSpec>> = {
  attention: {
    figures: ['lookup'],
    output: {
      figure: 'lookup',
      reads: ['q', 'h', 'keys', 'values'],
      rows: () => 2,
      async lines(state, ask) {
        const answer = await ask([call('attention', [number(state.q)], numbers(state.keys), numbers(state.values), 1, 1, number(state.h))] as const);
        if (!answer) return null;
        const [{ weights, outputs }] = answer;
        return [`weights: ${ndarray(weights)}`, `prediction: ${pyFixed(outputs[0] ?? Number.NaN, 4)}`];
      },
    },
  },
  'lookup-figure': { figures: ['lookup'] },
  ols: {
    figures: ['ols-vs-nw'],
    output: {
      figure: 'ols-vs-nw',
      reads: ['q', 'h', 'targets'],
      rows: () => 3,
      async lines(state, ask) {
        const q = number(state.q);
        const targets = numbers(state.targets);
        const first = await ask([call('olsPredict', OLS_KEYS, targets, [q], 1), call('attention', [q], OLS_KEYS, targets, 1, 1, number(state.h))] as const);
        if (!first) return null;
        const [ols, nw] = first;
        const sums = await ask([call('rowSums', ols.weights, OLS_KEYS.length), call('rowSums', nw.weights, OLS_KEYS.length)] as const);
        if (!sums) return null;
        const [olsSum, nwSum] = sums;
        return [
          `OLS weights: ${ndarray(ols.weights)} sum: ${pyFloat(olsSum[0] ?? Number.NaN)}`,
          `NW  weights: ${ndarray(nw.weights)} sum: ${pyFloat(nwSum[0] ?? Number.NaN)}`,
          `witness predictions: OLS ${pyFixed(ols.predictions[0] ?? Number.NaN, 4)}, NW ${pyFixed(nw.outputs[0] ?? Number.NaN, 4)}; target range [0, 1]`,
        ];
      },
    },
  },
  sweep: {
    figures: ['bias-variance'],
    output: {
      figure: 'bias-variance',
      reads: ['worlds', 'noise', 'keySeed', 'monteCarloSeed', 'bandwidths'],
      rows: (state) => numbers(state.bandwidths).length + 2,
      async lines(state, ask) {
        const settings = { worlds: number(state.worlds), noise: number(state.noise), keySeed: number(state.keySeed), monteCarloSeed: number(state.monteCarloSeed) };
        const rows = [];
        // One bandwidth a request, as the figure's audit asks them (each within the core's limits).
        for (const h of numbers(state.bandwidths)) {
          const answer = await ask([call('biasVarianceSweep', { ...settings, bandwidths: [h] })] as const);
          if (!answer) return null;
          rows.push(...answer[0]);
        }
        const minimum = await ask([call('gridMinimum', rows.map((r) => r.bandwidth), rows.map((r) => r.mse))] as const);
        if (!minimum) return null;
        const [best] = minimum;
        return [
          ' h     2h^2    bias^2  variance     MSE',
          ...rows.map((r) => `${pyFixed(r.bandwidth, 2)}   ${pyFixed(r.tau, 4)}   ${pyFixed(r.bias2, 4)}   ${pyFixed(r.variance, 4)}   ${pyFixed(r.mse, 4)}`),
          `grid minimum: h=${pyFixed(best.bandwidth, 2)}, MSE=${pyFixed(best.risk, 4)}`,
        ];
      },
    },
  },
  'smoothing-figure': { figures: ['smoothing'] },
  'map-figure': {
    figures: ['bias-variance', 'attention-map'],
    output: {
      figure: 'attention-map',
      reads: ['h', 'queries', 'keys'],
      rows: () => 2,
      async lines(state, ask) {
        const data = await ask([call('chapterDataset', { queries: number(state.queries), keys: number(state.keys) })] as const);
        if (!data) return null;
        const [{ queries, keys, observedValues }] = data;
        // The map's own call, at one pixel: its outputs and row-sum error without A leaving the core.
        const view = { width: 1, height: 1, palette: new Uint8Array(257 * 4) };
        const answer = await ask([call('attentionMap', queries, keys, observedValues, 1, 1, number(state.h), view)] as const);
        if (!answer) return null;
        const [map] = answer;
        return [
          `Q ${pyShape(queries.length, 1)}, K ${pyShape(keys.length, 1)}, V ${pyShape(observedValues.length, 1)}, A ${pyShape(queries.length, keys.length)}, AV ${pyShape(map.outputs.length, 1)}`,
          `maximum row-sum error: ${pyExp(map.maxRowSumError, 2)}`,
        ];
      },
    },
  },
  underflow: {
    figures: ['underflow'],
    output: {
      figure: 'underflow',
      reads: ['q', 'h', 'iq', 'ih'],
      rows: () => 3,
      async lines(state, ask) {
        const data = await ask([call('chapterDataset')] as const);
        if (!data) return null;
        const [{ keys }] = data;
        const answer = await ask([call('underflowReport', [number(state.iq)], keys, 1, number(state.ih)), call('underflowReport', [number(state.q)], keys, 1, number(state.h))] as const);
        if (!answer) return null;
        const [identity, far] = answer;
        return [
          `max |normalize(K)-softmax(log K)|: ${pyExp(identity.maxAbsDifference ?? Number.NaN, 2)}`,
          `far query: naive denominator=${pyFixed(far.naiveDenominator, 1)}, all finite=${pyBool(far.naiveAllFinite)}`,
          `stable: sum=${pyFixed(far.stableSum, 1)}, nearest key=${pyFixed(keys[far.nearestIndex] ?? Number.NaN, 4)}`,
        ];
      },
    },
  },
};
