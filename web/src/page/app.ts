/// The two ways the site shows widgets: the full page (the chapter's sections from index.html,
/// every widget in its section in chapter order, each mounted as it nears the viewport, state in `<widget>.<param>` query entries) and one widget alone (`?widget=<name>&<param>=…`, for iframes
/// and the standalone file). Both reflect each widget's state into the address as it changes.
import { pagePaper, watchPageTheme } from '../theme/host-theme';
import { ASK_HEIGHT_MESSAGE, DRAWN_MESSAGE, PAPER_MESSAGE } from '../base/messages';
import { applyTheme, followHostTheme, themeMode } from '../theme/theme';
import { setSubheadingLevel } from '../ui/headings';
import { mountWidget } from '../ui/host/host';
import { nextTask, prepareMath, typeset } from '../ui/math-text';
import { loadWidget, showUnknownWidget, widgetMetas, widgetNames } from '../widgets/registry';
import { noteSentence, pageParamNotes, themeNote } from '../ui/state';
import { BEYOND_THE_CHAPTER } from '../ui/host/widget';
import { showLiveValues } from '../ui/host/live-values';
import {
  elementCode,
  embedAddress,
  iframeCode,
  pageAddress,
  pageParams,
  parentOrigin,
  reportHeight,
  shareUnavailable,
  widgetAddress,
  type EmbedCode,
} from '../ui/share';
import { followPaperFrames, onPrint, watchPrintLayout } from '../charts/print';
import { parseState, serializeState, type StateOf } from '../ui/state';
import { focusPlace, followAudit, restoreFocus } from './follow-audit';
import { givesWayNote, linkOneH, pageHNotes, PAGE_H_PARAM } from './one-h';
import type { ListingContext } from '../listings';

const replaceAddress = (address: string): void => {
  if (address !== location.href) history.replaceState(history.state, '', address);
};

/// Whether a widget follows the page's one h: its schema has a number parameter `h`.
const hasOneH = (widget: { params: object }): boolean =>
  (widget.params as Record<string, { kind: string } | undefined>)[PAGE_H_PARAM]?.kind === 'number';

/// Links and embed code need an address another page can load: a local file gets none.
const online = (): boolean => /^https?:$/.test(location.protocol);

/// "Copy embed code": the custom element and the iframe (embed.html beside the page, with the
/// loader that sizes it), or for the standalone file on a server, an iframe of the file itself.
function embedCodes(widget: string, params: URLSearchParams, schemaKeys: readonly string[], title: string): EmbedCode[] {
  if (import.meta.env.MODE === 'standalone') {
    const src = widgetAddress(widget, params, schemaKeys, location.href.split('#')[0]);
    return [{ label: 'iframe', code: iframeCode(src, title, frameHeight(widget)) }];
  }
  const loader = new URL('kernel-lens.js', location.href).href;
  return [
    { label: 'Custom element', code: elementCode(loader, widget, params) },
    { label: 'iframe', code: iframeCode(embedAddress(new URL('.', location.href), widget, params), title, frameHeight(widget), loader) },
  ];
}

/// The height the iframe starts with: the figure's current height on this page.
function frameHeight(widget: string): number {
  return document.querySelector(`.kl-widget[data-widget="${widget}"]`)?.getBoundingClientRect().height ?? 600;
}

/// The `theme=` query entry (light, dark or auto), followed on the document's root element; in
/// `auto` inside an iframe, the theme the host page's loader posts wins over the system setting.
function followTheme(search: URLSearchParams): void {
  const mode = themeMode(search.get('theme'));
  if (mode === 'auto') followHostTheme();
  applyTheme(document.documentElement, mode);
}

/// What the edition adds to the chapter (figures the chapter does not print, notes beside its
/// figures) says so: a visible label, and the same words in its accessible name.
const EDITION = 'Beyond the chapter';
function markEdition(element: HTMLElement, name: string): void {
  element.setAttribute('data-kl-edition', '');
  element.setAttribute('aria-label', `${EDITION}: ${name}`);
  const badge = document.createElement('p');
  badge.className = 'kl-edition-badge';
  badge.textContent = EDITION;
  element.prepend(badge);
}

/// Resolves when the page is idle (at the latest after a second).
const idle = (): Promise<void> =>
  new Promise((done) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => done(), { timeout: 1000 }) : setTimeout(done, 50)));

/// How far below (and above) the viewport a figure starts: it is typeset and mounted before the
/// reader reaches it, and the figures far down cost nothing at load (Distill's d-figure idea).
const MOUNT_MARGIN_PX = 800;
const MOUNT_MARGIN = `${MOUNT_MARGIN_PX}px 0px`;
/// A section's prose comes in with the section; its figure (charts, tables, the core's first
/// answers: the larger part of a mount) waits until its own place is within half a viewport of
/// the viewport. On a phone the first section's prose fills the first screen and its figure
/// starts below it: the page opens without running a figure the reader cannot see yet.
const FIGURE_MARGIN_SCREENS = 0.5;
const FIGURE_MARGIN = `${FIGURE_MARGIN_SCREENS * 100}% 0px`;

/// The address's entries that no figure and not the page takes, named under the page's heading
/// (and once in the console, for the author of the link).
function showPageNotes(page: HTMLElement, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const message = noteSentence('Parameters with no effect', lines);
  const note = document.createElement('p');
  note.className = 'kl-widget__note kl-page__note';
  note.setAttribute('role', 'note');
  note.textContent = message;
  (page.querySelector('header') ?? page).append(note);
  console.warn(`Kernel Lens: ${message}`);
}

export async function showPage(): Promise<void> {
  const page = document.getElementById('kl-page');
  const container = document.getElementById('kl-widgets');
  if (!page || !container) return;
  /// Figures beyond the chapter follow its exercises.
  const beyond = document.getElementById('kl-beyond') ?? container;
  /// The chapter's sections hold a slot each (`data-order`): a figure goes into the last slot
  /// whose order is at most its own.
  const slots = Array.from(container.querySelectorAll<HTMLElement>('[data-order]'));
  const slotFor = (order: number): HTMLElement =>
    order >= BEYOND_THE_CHAPTER ? beyond : (slots.filter((slot) => Number(slot.dataset.order) <= order).at(-1) ?? container);
  const search = new URLSearchParams(location.search);
  followTheme(search);
  showPageNotes(page, pageParamNotes(search, widgetNames(), new Map([[PAGE_H_PARAM, pageHNotes]])));
  // One h for the whole page (the header's control), kept in the address as the page's `h=`.
  const oneH = linkOneH(page.querySelector<HTMLFormElement>('form.kl-one-h'), search, (h) => {
    const url = new URL(location.href);
    if (h === null) url.searchParams.delete(PAGE_H_PARAM);
    else url.searchParams.set(PAGE_H_PARAM, String(h));
    replaceAddress(url.href);
  }, async () => {
    // The first figure in the chapter's order with a bandwidth h: the h it shows, or will mount with.
    for (const { name } of metas) {
      await load(name);
      const widget = loaded.get(name);
      if (!widget || !hasOneH(widget)) continue;
      const h = (states.get(name) ?? parseState(widget.params, pageParams(name, search)).state)[PAGE_H_PARAM];
      return typeof h === 'number' ? h : null;
    }
    return null;
  });
  watchPrintLayout();
  // The numbers the chapter's prose states, from the core.
  showLiveValues(page);
  /// The page's own prose (sidebars, summary), typeset while the figures' scripts load.
  const staticProse = (async () => {
    for (const part of Array.from(page.querySelectorAll<HTMLElement>('.kl-prose'))) await typeset(part);
  })();
  /// Each figure's script loads when its section nears the viewport; once the first figures
  /// are up, the others load one by one in idle time, so printing finds every figure's script.
  const loaded = new Map<string, NonNullable<Awaited<ReturnType<typeof loadWidget>>>>();
  const load = async (name: string, section?: HTMLElement): Promise<void> => {
    if (loaded.has(name)) return;
    const widget = await loadWidget(name, section);
    if (widget) loaded.set(name, widget);
  };
  const metas = widgetMetas();
  /// The chapter's code listings (their own chunk): each `data-kl-listing` slot in index.html and in
  /// the figures' prose, with its output following its figure's state (see web/src/listings/).
  type FigureState = Readonly<Record<string, unknown>>;
  const states = new Map<string, FigureState>();
  const followers = new Map<string, Array<(state: FigureState) => void>>();
  const chapterState = (name: string): FigureState => {
    const widget = loaded.get(name);
    return widget ? parseState(widget.params, new URLSearchParams()).state : {};
  };
  const publish = (name: string, state: FigureState): void => {
    states.set(name, state);
    for (const listener of followers.get(name) ?? []) listener(state);
  };
  const listingContext: ListingContext = {
    follow(name, listener) {
      const each = (state: FigureState): void => listener(state, chapterState(name));
      followers.set(name, [...(followers.get(name) ?? []), each]);
      const now = states.get(name);
      if (now) each(now);
      // Before the figure mounts: the state it will mount with (the address's, else the defaults).
      else
        void load(name).then(() => {
          const widget = loaded.get(name);
          if (widget && !states.has(name)) publish(name, parseState(widget.params, pageParams(name, search)).state);
        });
    },
    figure(name) {
      const meta = metas.find((m) => m.name === name);
      return meta ? { label: meta.figure ? `${meta.figure}: ${meta.title}` : meta.title, href: `#section-${name}` } : null;
    },
  };
  const showListings = (root: ParentNode): Promise<void> =>
    root.querySelector('[data-kl-listing]')
      ? import('../listings').then(({ renderListings }) => renderListings(root, listingContext)).catch(() => undefined)
      : Promise.resolve();
  void showListings(page);
  /// `show(true)` mounts at once (printing); `show(false)` typesets the prose first.
  type Show = (urgent: boolean) => Promise<void>;
  const pending = new Map<Element, Show>();
  /// Figures that came near the viewport, mounted one per task so the page keeps responding.
  const queue: Array<{ section: Element; show: Show }> = [];
  /// Whether a section is still within the mount margin: a figure mounted above it may have
  /// pushed it far down since it was queued (a placeholder is shorter than most figures).
  const near = (element: Element, margin = MOUNT_MARGIN_PX): boolean => {
    const box = element.getBoundingClientRect();
    return box.bottom >= -margin && box.top <= innerHeight + margin;
  };
  let draining = false;
  let prefetching = false;
  const prefetch = async (): Promise<void> => {
    if (prefetching) return;
    prefetching = true;
    for (const { name } of metas) {
      await idle();
      await load(name).catch(() => undefined);  // a failure shows when the section mounts
    }
    // Every figure's script is here: from now on printing mounts every figure at once.
    container.removeAttribute('aria-busy');
    beyond.removeAttribute('aria-busy');
  };
  const drain = async (): Promise<void> => {
    if (draining) return;
    draining = true;
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (!near(next.section)) {
        // Back to waiting: the observer reports it again when the reader scrolls near.
        pending.set(next.section, next.show);
        observer.unobserve(next.section);
        observer.observe(next.section);
        continue;
      }
      await next.show(false);
      await nextTask();
    }
    draining = false;
    void prefetch();
  };
  /// Printing: every figure still waiting mounts now, in chapter order (their prose is typeset in
  /// place, and each chart draws as soon as the core answers).
  /// Figures whose prose is being typeset before they mount: printing mounts them at once.
  const typesetting = new Set<() => void>();
  /// Figures whose prose is in and whose place is not yet near the viewport.
  const figuresWaiting = new Map<Element, () => void>();
  const figureObserver = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) if (entry.isIntersecting) figuresWaiting.get(entry.target)?.();
    },
    { rootMargin: FIGURE_MARGIN },
  );
  const mountEverything = (): void => {
    for (const mount of [...typesetting]) mount();
    for (const mountFigure of [...figuresWaiting.values()]) mountFigure();
    for (const { show } of queue.splice(0)) void show(true);
    for (const [section, show] of pending) {
      pending.delete(section);
      observer.unobserve(section);
      void show(true);
    }
  };
  onPrint(mountEverything);
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const show = entry.isIntersecting ? pending.get(entry.target) : undefined;
        if (!show) continue;
        pending.delete(entry.target);
        observer.unobserve(entry.target);
        queue.push({ section: entry.target, show });
      }
      void drain();
    },
    { rootMargin: MOUNT_MARGIN },
  );
  for (const { name, order, figure, title } of metas) {
    // The chapter's figures have their place in index.html, reserved before any script runs
    // (a figure's box appearing later would push the text below it: a layout shift).
    let section = document.getElementById(`section-${name}`);
    if (!section) {
      section = document.createElement('section');
      section.className = 'kl-section kl-section--waiting';
      section.id = `section-${name}`;
      slotFor(order).append(section);
    }
    const place = section;
    // A figure the chapter does not print is the edition's own, its notes included.
    if (!figure) markEdition(place, title);
    /// A panel of a two-panel figure: its notes go before the whole figure.
    const pair = place.closest<HTMLElement>('.kl-figure-pair');
    const placeProse = (prose: HTMLElement): void => (pair ? pair.before(prose) : place.append(prose));
    const share = (keys: readonly string[]) => {
      const reflect = (params: URLSearchParams): void => replaceAddress(pageAddress(name, params));
      return online()
        ? {
            link: (params: URLSearchParams) => `${pageAddress(name, params).split('#')[0]}#${place.id}`,
            embedCodes: (params: URLSearchParams, title: string) => embedCodes(name, params, keys, title),
            reflect,
          }
        : { reflect, unavailable: shareUnavailable };
    };
    let shown = false;
    let mounted = false;
    let prose: HTMLElement | undefined;
    /// The figure itself, in place of its placeholder; once.
    const mountFigure = (
      widget: NonNullable<ReturnType<typeof loaded.get>>,
      placeholder: HTMLElement | null,
      params = pageParams(name, search),
    ): void => {
      if (placeholder) {
        figuresWaiting.delete(placeholder);
        figureObserver.unobserve(placeholder);
        placeholder.remove();
      }
      // The first mount: the figure joins the page's one h, and its own `h` from the address,
      // when the page's differs, is named as giving way.
      const first = current === null;
      if (first) linkWhenLoaded(widget);
      const givesWay = first && setByPage.has(PAGE_H_PARAM) ? givesWayNote(params.get(PAGE_H_PARAM), oneH.value) : null;
      current = mountWidget(widget, place, first ? withFollowed(params) : params, {
        embedded: false,
        share: share(Object.keys(widget.params)),
        onStateChange: (state) => {
          publish(name, state);
          if (typeof state[PAGE_H_PARAM] === 'number') oneH.changed(name, state[PAGE_H_PARAM]);
        },
        pageNotes: givesWay ? [givesWay] : [],
      });
      publish(name, current.state);
      place.classList.remove('kl-section--waiting');
    };
    /// The mounted figure, and the parameter values the page set before it mounted (the audit's h
    /// it follows, the page's one h): it mounts with them.
    let current: ReturnType<typeof mountWidget> | null = null;
    const setByPage = new Map<string, number>();
    const withFollowed = (params: URLSearchParams): URLSearchParams => {
      for (const [key, value] of setByPage) params.set(key, String(value));
      return params;
    };
    /// Shows the figure with `key` at `value`: again at its reader's state with the new value,
    /// focus where it was.
    const showAt = (key: string, value: number): void => {
      setByPage.set(key, value);
      const widget = loaded.get(name);
      if (!current || !widget || current.state[key] === value) return;
      const params = serializeState(widget.params, current.state as StateOf<typeof widget.params>);
      params.set(key, String(value));
      const focused = focusPlace(current.frame);
      current.destroy();
      mountFigure(widget, null, params);
      if (current) restoreFocus(current.frame, focused);
    };
    const followed = place.dataset.klFollowAudit;
    if (followed) {
      // The page's one h, when linked, is the reader's choice: the audit's h does not override it.
      followAudit(followed, pageParams(name, search).has(followed) || oneH.value !== null, {
        state: () => current?.state ?? null,
        show: (value) => (followed === PAGE_H_PARAM && oneH.value !== null ? undefined : showAt(followed, value)),
      });
    }
    /// A figure with one bandwidth h follows the page's h while the link is on.
    const linkWhenLoaded = (widget: NonNullable<ReturnType<typeof loaded.get>>): void => {
      if (!hasOneH(widget)) return;
      oneH.add(name, {
        h: () => {
          const h = current?.state[PAGE_H_PARAM];
          return typeof h === 'number' ? h : null;
        },
        show: (h) => showAt(PAGE_H_PARAM, h),
      });
    };
    /// The prose (typeset or not yet), then the figure, at once (printing) or once its place
    /// nears the viewport; once.
    const mount = (urgent = false): void => {
      const widget = loaded.get(name);
      if (mounted || !widget) return;
      mounted = true;
      typesetting.delete(mount);
      if (!prose || urgent) {
        if (prose) placeProse(prose);
        mountFigure(widget, null);
        return;
      }
      placeProse(prose);
      // The figure's place, kept until it mounts: as tall as a waiting section.
      const placeholder = document.createElement('div');
      placeholder.className = 'kl-figure-waiting';
      place.append(placeholder);
      // Near already (a tall window, a section opened by its link): in this task, as the prose,
      // so nothing on screen moves when it arrives.
      if (near(placeholder, innerHeight * FIGURE_MARGIN_SCREENS)) {
        mountFigure(widget, placeholder);
        return;
      }
      figuresWaiting.set(placeholder, () => mountFigure(widget, placeholder));
      figureObserver.observe(placeholder);
    };
    pending.set(place, async (urgent) => {
      if (shown) return;
      shown = true;
      // Printing mounts a figure whose script is here at once; one still loading mounts when it is.
      if (!loaded.has(name)) await load(name, place);
      const widget = loaded.get(name);
      if (!widget) return;
      if (widget.prose) {
        // Beside a chapter's figure, its notes are the edition's (the chapter's words are in index.html).
        prose = document.createElement(figure ? 'aside' : 'div');
        prose.className = 'kl-prose';
        prose.innerHTML = widget.prose;
        showLiveValues(prose);
        if (figure) markEdition(prose, `notes on ${figure}`);
        if (urgent) {
          mount(true);
          void typeset(prose);
          void showListings(prose);
          return;
        }
        // Typeset before it enters the page: formulas replacing their TeX would shift the layout.
        // Printing meanwhile mounts it at once, the typesetting finishing in place.
        typesetting.add(mount);
        await Promise.all([typeset(prose), showListings(prose)]);
      }
      mount();
    });
    observer.observe(place);
  }
  // The paper look asked for under screen media (html.kl-paper): every figure mounts, as for print.
  const paperNow = (): void => {
    if (pagePaper()) mountEverything();
  };
  watchPageTheme(paperNow);
  paperNow();
  if (location.hash) {
    const target = document.getElementById(location.hash.slice(1));
    // A link to an exercise's figure opens its "Check your answer".
    const details = target?.closest('details');
    if (details) details.open = true;
    target?.scrollIntoView();
  }
  await staticProse;
}

/// Shows the widget named by `?widget=` alone in `container` (the whole body when absent).
export async function showEmbed(container?: HTMLElement | null): Promise<void> {
  let target = container;
  if (!target) {
    target = document.createElement('main');
    target.id = 'kl-embed';
    document.body.className = 'kl-embed';
    document.body.replaceChildren(target);
  }
  const params = new URLSearchParams(location.search);
  followTheme(params);
  watchPrintLayout();
  const name = params.get('widget') ?? '';
  const widget = await loadWidget(name, target);
  if (widget?.math) await prepareMath(target);
  if (!widget) {
    showUnknownWidget(target, name);
    return;
  }
  document.title = `${widget.figure ? `${widget.figure}: ` : ''}${widget.title} — Kernel Lens`;
  const keys = Object.keys(widget.params);
  const reflect = (state: URLSearchParams): void => replaceAddress(widgetAddress(name, state, keys));
  const share = online()
    ? {
        link: (state: URLSearchParams) => widgetAddress(name, state, keys),
        embedCodes: (state: URLSearchParams, title: string) => embedCodes(name, state, keys, title),
        reflect,
      }
    : { reflect, unavailable: shareUnavailable };
  setSubheadingLevel(2);
  const theme = themeNote(params.get('theme'));
  const mounted = mountWidget(widget, target, params, {
    embedded: true,
    heading: true,
    share,
    pageParams: ['widget', 'theme'],
    pageNotes: theme ? [theme] : [],
  });
  reportHeight(name, mounted.frame);
  if (window.parent !== window) {
    fitWhenPrinted(mounted.frame);
    followHostPaper();
    followPaperFrames();
    reportDrawn(mounted.frame);
  }
}

/// In an iframe: the paper look while the host page's loader says the page asks for it.
function followHostPaper(): void {
  addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: unknown; paper?: unknown } | null;
    if (event.source !== window.parent || data?.type !== PAPER_MESSAGE || typeof data.paper !== 'boolean') return;
    document.documentElement.classList.toggle('kl-paper', data.paper);
  });
}

/// In an iframe: tells the host page's loader each time the figure has drawn (its readiness).
function reportDrawn(figure: HTMLElement): void {
  const target = parentOrigin();
  let count = 0;
  const send = (): void => window.parent.postMessage({ type: DRAWN_MESSAGE, count }, target);
  figure.addEventListener('kernel-lens:drawn', (event) => {
    count = (event as CustomEvent<{ count: number }>).detail.count;
    send();
  });
  // A loader that arrived after the figure drew asks for its height: it hears of the drawing too.
  addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: unknown } | null;
    if (event.source === window.parent && data?.type === ASK_HEIGHT_MESSAGE && count > 0) send();
  });
}

/// Inside an iframe the host prints the figure in a box of the height it had on screen; a printed
/// page is narrower, so the figure grows taller. While printing, the figure is scaled down to fit
/// its box instead of being cut off.
function fitWhenPrinted(figure: HTMLElement): void {
  const root = document.documentElement;
  const fit = (): void => {
    root.style.zoom = '';
    const height = figure.getBoundingClientRect().height;
    if (height > innerHeight + 1) root.style.zoom = String(Math.max(0.5, innerHeight / height));
  };
  const media = matchMedia('print');
  media.addEventListener('change', () => (media.matches ? fit() : (root.style.zoom = '')));
  addEventListener('afterprint', () => (root.style.zoom = ''));
}
