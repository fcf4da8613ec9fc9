/// Printing: figures waiting to mount mount first (`onPrint`), and every chart is drawn with its
/// latest data, redrawn at the printed width and again afterwards (`watchPrintLayout`; Chart.js
/// does not resize by itself when print styles change its box). styles.css hides `.kl-no-print`
/// and keeps figures whole.
import { Chart } from 'chart.js';
import { attachWaitingNow } from './create';
import { drawPendingNow, setFramesOff } from './frame';
import { pagePaper, watchPageTheme } from '../theme/host-theme';

/// Calls `prepare` when printing starts (the `beforeprint` event, and print media for browsers
/// and tools that switch media without it); returns the remover.
export function onPrint(prepare: () => void): () => void {
  const media = matchMedia('print');
  const onMedia = (event: MediaQueryListEvent): void => {
    if (event.matches) prepare();
  };
  addEventListener('beforeprint', prepare);
  media.addEventListener('change', onMedia);
  return () => {
    removeEventListener('beforeprint', prepare);
    media.removeEventListener('change', onMedia);
  };
}

function resizeCharts(): void {
  for (const chart of Object.values(Chart.instances)) chart.resize();
}

/// Before printing, every chart is attached and drawn with its latest data (nothing waits for an
/// animation frame: none runs before the printout is taken), then sized to the paper.
function prepareCharts(): void {
  attachWaitingNow();
  drawPendingNow();
  resizeCharts();
}

let watching = false;

/// Redraws every chart on the page at its box's size when print layout starts and ends.
export function watchPrintLayout(): void {
  if (watching) return;
  watching = true;
  onPrint(prepareCharts);
  addEventListener('afterprint', resizeCharts);
  matchMedia('print').addEventListener('change', (event) => {
    if (!event.matches) resizeCharts();
  });
}

let followingPaper = false;

/// While the page asks for the paper look (html.kl-paper), charts are drawn in tasks rather than
/// animation frames: a page drawn for paper may be an iframe out of the window (a deck exporter
/// lays every slide out on one long page), where the browser runs no frame until it is scrolled
/// to, and its figure would never draw nor say it has.
export function followPaperFrames(): void {
  if (followingPaper) return;
  followingPaper = true;
  const apply = (): void => setFramesOff(pagePaper());
  watchPageTheme(apply);
  apply();
}
