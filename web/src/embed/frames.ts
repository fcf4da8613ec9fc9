/// Sizes every `<iframe data-kernel-lens>` on the page, present or added later, from the height
/// messages its embed page posts (web/src/core/share.ts, reportHeight). A message counts only when
/// it comes from that iframe's window and from the origin its `src` names.
/// It also tells each iframe the host page's theme (`auto` figures inside follow it) and whether the
/// page asks for the paper look, and tells them again whenever either changes; an iframe's figure
/// says when it has drawn (see ready.ts).
import { ASK_HEIGHT_MESSAGE, DRAWN_MESSAGE, HEIGHT_MESSAGE, HOST_THEME_MESSAGE, PAPER_MESSAGE } from '../base/messages';
import { pagePaper, pageTheme, watchPageTheme } from '../theme/host-theme';
import { checkPage, markReady } from './ready';

const SELECTOR = 'iframe[data-kernel-lens]';

function frameOrigin(frame: HTMLIFrameElement): string | null {
  try {
    return new URL(frame.src, document.baseURI).origin;
  } catch {
    return null;
  }
}

/// An iframe still showing its initial empty document (its page has not arrived yet): the
/// browser would refuse, with a console error, a message addressed to the page's origin. Its
/// load event asks it once the page is in. (That empty document shares the host's origin, so it
/// can be read; a loaded cross-origin page cannot.)
function notLoadedYet(frame: HTMLIFrameElement): boolean {
  try {
    return frame.contentDocument?.URL === 'about:blank' && frame.src !== 'about:blank';
  } catch {
    return false;
  }
}

/// Asks an embed page to post its height again (it may have posted before this script ran) and
/// tells it the host page's theme.
function ask(frame: HTMLIFrameElement): void {
  const origin = frameOrigin(frame);
  if (!origin || origin === 'null' || notLoadedYet(frame)) return;
  frame.contentWindow?.postMessage({ type: ASK_HEIGHT_MESSAGE }, origin);
  tellPage(frame, origin);
}

/// Tells an embed page the host page's theme and whether it asks for the paper look.
function tellPage(frame: HTMLIFrameElement, origin = frameOrigin(frame)): void {
  if (!origin || origin === 'null' || notLoadedYet(frame)) return;
  frame.contentWindow?.postMessage({ type: HOST_THEME_MESSAGE, theme: pageTheme() }, origin);
  frame.contentWindow?.postMessage({ type: PAPER_MESSAGE, paper: pagePaper() }, origin);
}

export function sizeFrames(): void {
  /// The iframes whose page has heard the theme and the paper look since it loaded: an embed page
  /// listens only once its figure is mounted, after its load event, so what the load's `ask` told
  /// it may have gone unheard; its first message shows it listens, and it is told again then.
  const heard = new WeakSet<HTMLIFrameElement>();
  addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: unknown; height?: unknown } | null;
    if (!data || (data.type !== HEIGHT_MESSAGE && data.type !== DRAWN_MESSAGE)) return;
    for (const frame of document.querySelectorAll<HTMLIFrameElement>(SELECTOR)) {
      if (frame.contentWindow !== event.source) continue;
      if (frameOrigin(frame) !== event.origin) return;
      if (!heard.has(frame)) {
        heard.add(frame);
        tellPage(frame);
      }
      if (data.type === DRAWN_MESSAGE) markReady(frame);
      else if (typeof data.height === 'number' && Number.isFinite(data.height)) frame.style.height = `${Math.max(0, Math.ceil(data.height))}px`;
      return;
    }
  });
  // Load events do not bubble, but a capturing listener on the document sees every iframe's.
  document.addEventListener(
    'load',
    (event) => {
      const target = event.target;
      if (target instanceof HTMLIFrameElement && target.matches(SELECTOR)) {
        // A new page in the iframe (a navigation): not drawn until it says so.
        target.removeAttribute('data-kl-ready');
        heard.delete(target);
        checkPage();
        ask(target);
      }
    },
    true,
  );
  for (const frame of document.querySelectorAll<HTMLIFrameElement>(SELECTOR)) ask(frame);
  let told = `${pageTheme()} ${pagePaper()}`;
  watchPageTheme(() => {
    const now = `${pageTheme()} ${pagePaper()}`;
    if (now === told) return;
    told = now;
    for (const frame of document.querySelectorAll<HTMLIFrameElement>(SELECTOR)) tellPage(frame);
  });
}
