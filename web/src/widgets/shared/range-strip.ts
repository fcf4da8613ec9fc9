/// A number line with the observed target range shaded and one marker per prediction, so a
/// prediction that leaves [min, max] is seen at a glance (positions only; values come from the core).
import { fixed } from '../../ui/format';
import { setText } from '../../ui/readout';
import { outsideRange } from './verdict';

export interface StripFrame {
  low: number;
  high: number;
  predictions: { label: string; value: number }[];
}

export class RangeStrip {
  readonly element: HTMLDivElement;
  private readonly band: HTMLDivElement;
  private readonly markers = new Map<string, { marker: HTMLDivElement; text: HTMLSpanElement }>();
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
    // The two end ticks, made once and moved (a drag redraws the strip on every frame).
    [frame.low, frame.high].forEach((x, i) => {
      const tick = (this.ticks.children[i] as HTMLSpanElement | undefined) ?? this.ticks.appendChild(document.createElement('span'));
      tick.style.left = `${at(x)}%`;
      const text = fixed(x, 0);
      setText(tick, text);
    });
    for (const { label, value } of frame.predictions) {
      let entry = this.markers.get(label);
      if (!entry) {
        const marker = document.createElement('div');
        marker.className = `kl-strip__marker kl-strip__marker--${label.toLowerCase()}`;
        // The label sits on the page's surface colour, so the band's edge never strikes through it.
        const text = document.createElement('span');
        text.className = 'kl-strip__label';
        marker.append(text);
        this.element.append(marker);
        entry = { marker, text };
        this.markers.set(label, entry);
      }
      const outside = outsideRange(value, frame.low, frame.high) !== null;
      entry.marker.classList.toggle('kl-strip__marker--outside', outside);
      entry.marker.style.left = `${at(value)}%`;
      setText(entry.text, `${label} ${fixed(value, 4)}`);
    }
  }
}
