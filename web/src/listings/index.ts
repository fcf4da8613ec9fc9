/// The chapter's code on the page: each `<div data-kl-listing="<id>">` slot (in index.html or a
/// figure's prose) becomes the listing of chapter.py with that id, verbatim and highlighted, with
/// a Copy button and a Show/Hide control whose choice persists, and under it the listing's printed
/// output computed live by the core at the state of the figure it belongs to (LISTINGS). A
/// "Figure:" listing links the live figure that stands for the one its code draws.
///
/// The output element counts its drawings as a figure does: `data-kl-busy` while the core
/// computes, then `data-kl-drawn` counts up and `kernel-lens:drawn` is dispatched (tests wait for
/// it with the harness' `afterDrawn`).
import { sharedBridge } from '../engine';
import { element } from '../ui/dom';
import { copyText } from '../ui/share';
import { parseCells, type CodeCell } from './cells';
import { highlightPython } from './highlight';
import { channelAsk, LISTINGS, type FigureState } from './outputs';
import chapter from './chapter.py?raw';
import './listings.css';

export { parseCells } from './cells';

/// What the page tells the listings about its figures.
export interface ListingContext {
  /// Calls `listener` with the figure's state now (the address's, before it mounts) and after
  /// every change, with the state the chapter's settings give.
  follow(widget: string, listener: (state: FigureState, chapter: FigureState) => void): void;
  /// The figure's label ("Figure 12.1: A fixed Gaussian lookup") and its place on the page.
  figure(widget: string): { label: string; href: string } | null;
}

const listings = new Map(parseCells(chapter).flatMap((cell) => (cell.type === 'code' ? [[cell.id, cell] as const] : [])));

/// The reader's open or closed choice per listing, kept where storage is allowed (a page in a
/// cross-origin iframe may have none: then the choice lasts as long as the page).
const storageKey = (id: string): string => `kernel-lens.listing.${id}`;
function storedOpen(id: string): boolean | null {
  try {
    const value = globalThis.localStorage?.getItem(storageKey(id));
    return value === 'open' ? true : value === 'closed' ? false : null;
  } catch {
    return null;
  }
}
function storeOpen(id: string, open: boolean): void {
  try {
    globalThis.localStorage?.setItem(storageKey(id), open ? 'open' : 'closed');
  } catch {
    // Storage blocked or full: the choice holds for this page only.
  }
}

/// A link to a live figure, or its name when the page has none.
function figureLink(context: ListingContext, widget: string): HTMLElement {
  const figure = context.figure(widget);
  if (!figure) return element('span', '', widget);
  const link = element('a', '', figure.label);
  link.href = figure.href;
  return link;
}

function renderListing(slot: HTMLElement, listing: CodeCell, context: ListingContext): void {
  const spec = LISTINGS[listing.id];
  const frame = element('figure', 'kl-listing');
  frame.id = `listing-${listing.id}`;
  frame.dataset.listing = listing.id;
  const details = element('details', 'kl-listing__details');
  details.open = storedOpen(listing.id) ?? true;
  const summary = element('summary', 'kl-listing__summary');
  const kind = element('span', 'kl-listing__kind', `${listing.kind}:`);
  summary.append(kind, ` ${listing.title}`);
  const tools = element('div', 'kl-listing__tools kl-no-print');
  const copy = element('button', 'kl-listing__copy', 'Copy');
  copy.type = 'button';
  copy.setAttribute('aria-label', `Copy the code: ${listing.title}`);
  // The button says what happened; a status line (read, not shown) announces it.
  const copied = element('span', 'kl-visually-hidden');
  copied.setAttribute('role', 'status');
  copied.setAttribute('aria-live', 'polite');
  let clear: ReturnType<typeof setTimeout> | undefined;
  copy.addEventListener('click', () => {
    void copyText(listing.source).then((done) => {
      copied.textContent = done ? 'Copied' : 'Copy failed: select the code and copy it';
      copy.textContent = done ? 'Copied' : 'Copy failed';
      clearTimeout(clear);
      clear = setTimeout(() => {
        copied.textContent = '';
        copy.textContent = 'Copy';
      }, 4000);
    });
  });
  tools.append(copy, copied);
  const pre = element('pre', 'kl-listing__code');
  // Scrolls sideways inside itself on a narrow screen; focusable so a keyboard can scroll it.
  pre.tabIndex = 0;
  pre.setAttribute('aria-label', `${listing.kind}: ${listing.title} (Python)`);
  const code = element('code', 'language-python');
  code.append(highlightPython(listing.source));
  pre.append(code);
  details.append(summary, tools, pre);
  details.addEventListener('toggle', () => storeOpen(listing.id, details.open));
  frame.append(details);

  if (listing.kind === 'Figure' && spec?.figures.length) {
    const note = element('p', 'kl-listing__note');
    note.append('The figure this code draws is live on this page: ');
    spec.figures.forEach((widget, i) => {
      if (i > 0) note.append(' and ');
      note.append(figureLink(context, widget));
    });
    note.append('.');
    frame.append(note);
  }
  if (spec?.output) renderOutput(frame, spec.output, context);
  slot.replaceChildren(frame);
  slot.dataset.klListingShown = '';
}

function renderOutput(frame: HTMLElement, output: NonNullable<(typeof LISTINGS)[string]['output']>, context: ListingContext): void {
  const box = element('div', 'kl-listing__output');
  const note = element('p', 'kl-listing__note');
  const where = element('span', '');
  note.append('Printed output, computed live by the core at the settings of ', figureLink(context, output.figure), where);
  const printed = element('pre', 'kl-listing__printed');
  printed.tabIndex = 0;
  printed.setAttribute('aria-label', 'Printed output');
  printed.textContent = 'computing…';
  const error = element('p', 'kl-listing__error');
  error.setAttribute('role', 'alert');
  error.hidden = true;
  box.append(note, printed, error);
  frame.append(box);

  const ask = channelAsk(sharedBridge().channel(`listing/${frame.dataset.listing ?? ''}`));
  let drawn = 0;
  let busy = 0;
  let last = '';
  const settle = (): void => {
    busy -= 1;
    if (busy > 0) return;
    printed.removeAttribute('data-kl-busy');
    drawn += 1;
    printed.dataset.klDrawn = String(drawn);
    printed.dispatchEvent(new CustomEvent('kernel-lens:drawn', { bubbles: true, detail: { count: drawn } }));
  };
  whenNear(box, () => context.follow(output.figure, (state, chapter) => {
    const key = JSON.stringify(output.reads.map((read) => state[read]));
    if (key === last) return;
    last = key;
    const atChapter = output.reads.every((read) => JSON.stringify(state[read]) === JSON.stringify(chapter[read]));
    where.textContent = atChapter ? ' (the chapter’s settings):' : ' (not the chapter’s settings):';
    if (!printed.dataset.klDrawn) printed.textContent = `computing…${'\n'.repeat(Math.max(0, output.rows(state) - 1))}`;
    busy += 1;
    printed.setAttribute('data-kl-busy', '');
    output.lines(state, ask).then(
      (lines) => {
        if (lines) {
          printed.textContent = lines.join('\n');
          error.hidden = true;
          error.textContent = '';
        }
        settle();
      },
      (reason: unknown) => {
        // The last good output stays; the refusal is said under it.
        error.textContent = `The core refused these settings: ${reason instanceof Error ? reason.message : String(reason)}`;
        error.hidden = false;
        settle();
      },
    );
  }));
}

/// How far below (and above) the viewport an output starts computing, as a figure mounts.
const NEAR = '800px 0px';

/// Runs `start` once, when `element` nears the viewport or the page is printed: the core computes
/// nothing for a listing far from the reader.
function whenNear(element: HTMLElement, start: () => void): void {
  let started = false;
  const go = (): void => {
    if (started) return;
    started = true;
    observer.disconnect();
    removeEventListener('beforeprint', go);
    start();
  };
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) go();
  }, { rootMargin: NEAR });
  observer.observe(element);
  addEventListener('beforeprint', go);
}

/// Fills every listing slot under `root` not yet filled.
export function renderListings(root: ParentNode, context: ListingContext): void {
  for (const slot of Array.from(root.querySelectorAll<HTMLElement>('[data-kl-listing]'))) {
    if (slot.dataset.klListingShown !== undefined) continue;
    const listing = listings.get(slot.dataset.klListing ?? '');
    if (!listing) {
      slot.textContent = `No listing named “${slot.dataset.klListing ?? ''}”.`;
      continue;
    }
    renderListing(slot, listing, context);
  }
}
