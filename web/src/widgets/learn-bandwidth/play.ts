/// Play and Pause on one button: while playing, `tick` runs every `ms` milliseconds. Owned by the
/// figure's host, so its timer stops when the figure goes.
import { setText } from '../../ui/readout';

export interface Player {
  readonly playing: boolean;
  play(): void;
  stop(): void;
  destroy(): void;
}

/// Shows `button` as Play (aria-pressed false) until `play()`.
export function player(button: HTMLButtonElement, tick: () => void, ms: number): Player {
  let timer: ReturnType<typeof setInterval> | null = null;
  const show = (on: boolean): void => {
    setText(button, on ? 'Pause' : 'Play');
    button.setAttribute('aria-pressed', String(on));
  };
  const stop = (): void => {
    if (timer) clearInterval(timer);
    timer = null;
    show(false);
  };
  show(false);
  return {
    get playing() {
      return timer !== null;
    },
    play() {
      if (timer) return;
      show(true);
      timer = setInterval(tick, ms);
    },
    stop,
    destroy: stop,
  };
}
