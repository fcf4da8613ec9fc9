/// A number line with the observed target range shaded and one marker per prediction, so a
/// prediction that leaves [min, max] is seen at a glance (positions only; values come from the core).
import { fixed } from '../../core/format';

export interface StripFrame {
  low: number;
  high: number;
  predictions: { label: string; value: number }[];
}

export class RangeStrip {
  readonly element: HTMLDivElement;
  private readonly band: HTMLDivElement;
  private readonly markers = new Map<string, HTMLDivElement>();
  private readonly ticks: HTMLDivElement;

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'kl-strip';
    this.element.setAttribute('aria-hidden', 'true');
    this.band = document.createElement('div');
    this.band.className = 'kl-strip__band';
    this.ticks = document.createElement('div');
    this.ticks.className = 'kl-strip__ticks';
    this.element.append(this.band, this.ticks);
  }

  draw(frame: StripFrame): void {
    const span = frame.high - frame.low || 1;
    const from = frame.low - 0.5 * span;
    const to = frame.high + 0.5 * span;
    const at = (x: number): number => Math.min(Math.max(((x - from) / (to - from)) * 100, 0), 100);
    this.band.style.left = `${at(frame.low)}%`;
    this.band.style.width = `${at(frame.high) - at(frame.low)}%`;
    this.ticks.replaceChildren(
      ...[frame.low, frame.high].map((x) => {
        const tick = document.createElement('span');
        tick.style.left = `${at(x)}%`;
        tick.textContent = fixed(x, 0);
        return tick;
      }),
    );
    for (const { label, value } of frame.predictions) {
      let marker = this.markers.get(label);
      if (!marker) {
        marker = document.createElement('div');
        marker.className = `kl-strip__marker kl-strip__marker--${label.toLowerCase()}`;
        this.element.append(marker);
        this.markers.set(label, marker);
      }
      const outside = value < frame.low || value > frame.high;
      marker.classList.toggle('kl-strip__marker--outside', outside);
      marker.style.left = `${at(value)}%`;
      marker.textContent = `${label} ${fixed(value, 4)}`;
    }
  }
}
