/// The audit's parameters and what they ask of the core: the laboratory config for a set of
/// bandwidths, and the plotted range of h.
import type { ChapterConfig, RiskRow } from '../../engine';
import type { StateOf } from '../../ui/state';
import { laboratoryParams, MAX_SEED } from '../shared/laboratory-fields';

export const params = {
  worlds: { kind: 'integer', label: 'noisy worlds', default: 1000, min: 2, max: 100000 },
  keySeed: { kind: 'integer', label: 'key seed', default: 605012, min: 0, max: MAX_SEED },
  monteCarloSeed: { kind: 'integer', label: 'world seed', default: 605014, min: 0, max: MAX_SEED },
  ...laboratoryParams,
  h: { kind: 'number', label: 'marker bandwidth h', default: 0.18, min: 0.01, max: 6, scale: 'log' },
  look: { kind: 'boolean', label: 'noisy worlds shown', default: false },
  q: { kind: 'number', label: 'query q of the worlds\' histogram', default: 0, min: -3, max: 3, scale: 'linear', step: 0.05 },
} as const;

export type AuditState = StateOf<typeof params>;
/// Everything but the marker and the look at the worlds: what the audit's table depends on.
export type Settings = Omit<AuditState, 'h' | 'look' | 'q'>;

/// The settings' keys (the exact curves read these, not the marker).
export const SETTINGS = ['worlds', 'noise', 'keySeed', 'monteCarloSeed', 'bandwidths'] as const satisfies readonly (keyof Settings)[];

/// The chapter's settings (section 12.4).
export const CHAPTER_SETTINGS: Settings = {
  worlds: params.worlds.default,
  noise: params.noise.default,
  keySeed: params.keySeed.default,
  monteCarloSeed: params.monteCarloSeed.default,
  bandwidths: [...params.bandwidths.default],
};

export function settingsOf(state: AuditState): Settings {
  const { h: _marker, look: _look, q: _query, ...settings } = state;
  return settings;
}

/// The core's partial laboratory config for these settings and bandwidths.
export function labConfig(settings: Settings, bandwidths: readonly number[]): Partial<ChapterConfig> {
  return {
    worlds: settings.worlds,
    noise: settings.noise,
    keySeed: settings.keySeed,
    monteCarloSeed: settings.monteCarloSeed,
    bandwidths: [...bandwidths],
  };
}

export interface Range {
  min: number;
  max: number;
}

/// The plotted h range: the grid with some margin, inside the marker's limits.
export function plotRange(bandwidths: readonly number[]): Range {
  return {
    min: Math.max(params.h.min, Math.min(...bandwidths) / 1.3),
    max: Math.min(params.h.max, Math.max(...bandwidths) * 1.25),
  };
}

/// Log-spaced plotting positions across the range (drawing geometry for the dashed curves).
export function logPositions(range: Range, count: number): number[] {
  const ratio = Math.log(range.max / range.min);
  return Array.from({ length: count }, (_, i) => range.min * Math.exp((ratio * i) / (count - 1)));
}

/// A y-axis top that holds the measured curves (and the exact ones across the grid).
export function yTop(rows: readonly RiskRow[], exact: readonly RiskRow[], gridMax: number): number {
  const values = [...rows.map((r) => r.mse), ...exact.filter((r) => r.bandwidth <= gridMax).map((r) => r.mse)];
  const top = Math.max(0.01, ...values.filter(Number.isFinite)) * 1.1;
  const step = 10 ** Math.floor(Math.log10(top));
  return Math.ceil(top / step) * step;
}
