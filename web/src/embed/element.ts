/// `<kernel-lens-figure widget="NAME" theme="light|dark|auto" font="inherit" …params>`: a light
/// element class. It reserves its box in an open shadow root at once; the widget code, charts and
/// the core (./figure.ts and what it imports) are fetched when the first figure nears the viewport,
/// and figures mount one per task so a page of them keeps answering input while it loads. A
/// printout mounts every figure still waiting.
///
/// The paper look under screen media (a deck exporter, a print preview): the attribute `paper` on
/// the element, or the class `kl-paper` on the page's `<html>` or `<body>`, hides the buttons and
/// share row as print does and mounts the figure at once. Readiness: the element gets
/// `data-kl-ready` and its `ready` promise resolves once its figure has drawn its numbers (see
/// ready.ts for the whole page's mark and event).
import { pagePaper, watchPageTheme } from '../theme/host-theme';
import { checkPage, markReady } from './ready';

type FigureModule = typeof import('./figure');
type Handle = Awaited<ReturnType<FigureModule['mountFigure']>>;
type ReaderState = ReturnType<Handle['destroy']>;

/// How far outside the viewport a figure starts loading (Distill's d-figure idea).
const MOUNT_MARGIN = '600px 0px';

/// The site folder this script was loaded from (kernel-lens.js sits at its top).
const siteRoot = new URL(/* @vite-ignore */ '.', import.meta.url);
const stylesheet = new URL('assets/kernel-lens.css', siteRoot).href;

/// Until the site's stylesheet arrives (it resets the host's inherited styles, see styles.css), a
/// waiting figure is an empty block that keeps room for itself. Adopted sheets come after linked
/// ones in the cascade, so this one sets nothing the stylesheet sets otherwise.
/// On paper, a figure that has not mounted yet (the browser's print menu does not wait for the
/// code that `beforeprint` starts loading) says what it is instead of leaving a blank box.
const FIRST_STYLES =
  '.kl-element--waiting{min-height:20rem}.kl-element__print-note{display:none}' +
  '@media print{.kl-element--waiting{min-height:0}.kl-element--waiting .kl-element__print-note{display:block;' +
  'font:italic 11pt/1.4 system-ui,sans-serif;color:#444;border:1px solid #999;border-radius:6px;padding:0.75em 1em;margin:0}}';

/// The figure code, built as its own entry at this stable path (web/vite.config.ts).
const figureCode = new URL('assets/kernel-lens-figure.js', siteRoot).href;
let figureModule: Promise<FigureModule> | null = null;
const loadFigureModule = (): Promise<FigureModule> =>
  (figureModule ??= import(/* @vite-ignore */ figureCode) as Promise<FigureModule>);

/// Gives the browser a turn (input, painting) between two figures.
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((done) => setTimeout(done, 0));
}

const waiting = new Set<KernelLensFigure>();
const queue: KernelLensFigure[] = [];
let draining = false;
let printing = false;

async function drain(): Promise<void> {
  if (draining) return;
  draining = true;
  try {
    const module = await loadFigureModule();
    // The figure code (and Chart.js) was evaluated in this task: the first mount waits for the next.
    if (!printing) await nextTask();
    for (const figure of queue) module.preloadWidget(figure.getAttribute('widget'));
    for (let figure = queue.shift(); figure; figure = queue.shift()) {
      await figure.mount(module);
      if (!printing) await nextTask();
    }
  } finally {
    draining = false;
  }
}

const visibility =
  typeof IntersectionObserver === 'function'
    ? new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            if (entry.isIntersecting) schedule(entry.target as KernelLensFigure);
          }
        },
        { rootMargin: MOUNT_MARGIN },
      )
    : null;

function schedule(figure: KernelLensFigure): void {
  visibility?.unobserve(figure);
  if (!waiting.delete(figure)) return;
  queue.push(figure);
  if (draining) void loadFigureModule().then((module) => module.preloadWidget(figure.getAttribute('widget')));
  void drain();
}

/// Before printing, every waiting figure mounts (in document order).
function mountAllForPrint(): void {
  printing = true;
  const all = [...waiting].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  for (const figure of all) schedule(figure);
}

const connected = new Set<KernelLensFigure>();

let printHooks = false;
function watchPrint(): void {
  if (printHooks) return;
  printHooks = true;
  watchPageTheme(() => {
    for (const figure of connected) figure.applyPaper();
  });
  addEventListener('beforeprint', mountAllForPrint);
  addEventListener('afterprint', () => (printing = false));
  matchMedia('print').addEventListener('change', (event) => {
    if (event.matches) mountAllForPrint();
    else printing = false;
  });
}

export class KernelLensFigure extends HTMLElement {
  readonly container: HTMLElement;
  /// Settles when the shadow root's stylesheet has loaded (or failed): charts read its colours.
  readonly styled: Promise<void>;
  private handle: Handle | null = null;
  /// What the reader had made of the figure when it was last unmounted: a figure put back on the
  /// page mounts with it.
  private kept: ReaderState = null;
  /// The mount in progress: one at a time, and a figure re-added during it keeps its result.
  private mounting: Promise<void> | null = null;
  /// Settles when the element leaves the page (renewed on each connection). A link removed with
  /// its element before its stylesheet arrived never fires `load`: the mount waits for this too,
  /// so one removed figure cannot hold up the queue of the figures after it.
  private removed: Promise<void> = new Promise(() => {});
  private markRemoved: () => void = () => {};
  private readonly attributesWatch = new MutationObserver(() => {
    this.applyPaper();
    void this.handle?.update();
  });
  /// A removal waits for the end of its task before it unmounts: a figure moved in the page
  /// (removed and inserted in one go, as frameworks and slide decks do) keeps its charts as they are.
  private unmountPending = false;
  /// Resolves once the figure has drawn its numbers for the first time.
  readonly ready: Promise<void>;

  constructor() {
    super();
    this.ready = new Promise((done) => {
      this.addEventListener('kernel-lens:drawn', () => {
        markReady(this);
        done();
      });
    });
    const shadow = this.attachShadow({ mode: 'open' });
    try {
      const first = new CSSStyleSheet();
      first.replaceSync(FIRST_STYLES);
      shadow.adoptedStyleSheets = [first];
    } catch {
      // Older browsers: the linked stylesheet alone (it carries the same rules).
    }
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    this.styled = new Promise((done) => {
      link.addEventListener('load', () => done(), { once: true });
      link.addEventListener('error', () => done(), { once: true });
    });
    link.href = stylesheet;
    this.container = document.createElement('div');
    this.container.className = 'kl-element kl-element--waiting';
    shadow.append(link, this.container);
  }

  /// Takes the paper look when the element or the page asks for it; a waiting figure then mounts at once.
  applyPaper(): void {
    const paper = this.hasAttribute('paper') || pagePaper();
    this.container.classList.toggle('kl-paper', paper);
    if (paper && waiting.has(this)) schedule(this);
  }

  connectedCallback(): void {
    watchPrint();
    connected.add(this);
    if (this.container.classList.contains('kl-element--waiting')) {
      const note = document.createElement('p');
      note.className = 'kl-element__print-note';
      const widget = this.getAttribute('widget') ?? 'figure';
      const title = this.getAttribute('title');
      note.textContent = `Interactive figure (Kernel Lens: ${title ?? widget}); it is drawn when the page is open in a browser.`;
      this.container.replaceChildren(note);
    }
    this.removed = new Promise((done) => (this.markRemoved = done));
    this.attributesWatch.observe(this, { attributes: true });
    this.applyPaper();
    if (this.handle) void this.handle.update();
    if (this.handle || this.mounting || queue.includes(this)) return;
    waiting.add(this);
    checkPage();
    if (visibility && !printing) visibility.observe(this);
    else schedule(this);
    this.applyPaper();
  }

  disconnectedCallback(): void {
    connected.delete(this);
    this.attributesWatch.disconnect();
    visibility?.unobserve(this);
    waiting.delete(this);
    const index = queue.indexOf(this);
    if (index >= 0) queue.splice(index, 1);
    if (this.handle && !this.unmountPending) {
      this.unmountPending = true;
      queueMicrotask(() => {
        this.unmountPending = false;
        if (this.isConnected || !this.handle) return;
        this.kept = this.handle.destroy();
        this.handle = null;
      });
    }
    this.markRemoved();
    checkPage();
  }

  /// Mounts the widget (called by the queue with the loaded figure code).
  mount(module: FigureModule): Promise<void> {
    if (!this.isConnected || this.handle || this.mounting) return Promise.resolve();
    const styledOrRemoved = Promise.race([this.styled, this.removed]);
    this.mounting = module.mountFigure(this, this.container, siteRoot, styledOrRemoved, this.kept).then(
      (handle) => {
        this.mounting = null;
        this.container.classList.remove('kl-element--waiting');
        if (this.isConnected && !this.handle) this.handle = handle;
        else this.kept = handle.destroy();
      },
      (error: unknown) => {
        this.mounting = null;
        throw error;
      },
    );
    return this.mounting;
  }
}

export function defineFigureElement(): void {
  if (!customElements.get('kernel-lens-figure')) customElements.define('kernel-lens-figure', KernelLensFigure);
}
