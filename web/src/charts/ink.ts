/// Dataset and axis colour fields as canvas inks.
import { palette, type Palette } from '../theme/theme';

/// A colour field (a dataset's or an axis') as a canvas ink: a colour string, else the chart's
/// theme colour `fallback` (its text colour unless named).
export const ink = (chart: { canvas: HTMLCanvasElement | null }, value: unknown, fallback: keyof Omit<Palette, 'series' | 'font'> = 'text'): string =>
  typeof value === 'string' ? value : palette(chart)[fallback];

/// A dataset dash field as a canvas dash pattern (none unless it is an array).
export const dashOf = (value: unknown): number[] => (Array.isArray(value) ? (value as number[]) : []);
