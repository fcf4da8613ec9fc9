/// What a page says about its theme, read from its `<html>`: `data-theme="dark|light"`, a
/// `dark`/`light` class; else from its `<body>`, where Quarto's toggle puts `quarto-dark` /
/// `quarto-light` (and some themes `data-theme` or `dark`/`light`); else `<html>`'s computed
/// `color-scheme` when it names one scheme, else the reader's system setting. No Chart.js here: the loader (web/src/embed/loader.ts) reads it too,
/// to pass the host page's theme to Kernel Lens iframes.
export type Theme = 'light' | 'dark';


const schemeQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

/// The page's theme; `readColorScheme` false skips `color-scheme` (a root that sets it itself).
export function pageTheme(readColorScheme = true): Theme {
  const html = document.documentElement;
  const marked = markedTheme(html) ?? (document.body ? markedTheme(document.body) : null);
  if (marked) return marked;
  if (readColorScheme) {
    // `light`, `only light` and `light only` name one scheme; `light dark` leaves the choice to the reader's setting.
    const scheme = getComputedStyle(html).colorScheme.trim().split(/\s+/).filter((word) => word !== 'only');
    if (scheme.length === 1 && (scheme[0] === 'dark' || scheme[0] === 'light')) return scheme[0];
  }
  return schemeQuery?.matches ? 'dark' : 'light';
}

/// The theme an element's `data-theme` or class names, if any.
function markedTheme(element: Element): Theme | null {
  const attribute = element.getAttribute('data-theme');
  if (attribute === 'dark' || attribute === 'light') return attribute;
  const classes = element.classList;
  if (classes.contains('dark') || classes.contains('quarto-dark')) return 'dark';
  if (classes.contains('light') || classes.contains('quarto-light')) return 'light';
  return null;
}

/// Calls `changed()` whenever the page's theme may have changed (the class, data-theme or style
/// of its `<html>` or `<body>`, or the system setting).
export function watchPageTheme(changed: () => void): void {
  const observer = new MutationObserver(changed);
  const options = { attributes: true, attributeFilter: ['class', 'data-theme', 'style'] };
  observer.observe(document.documentElement, options);
  const watchBody = (): void => {
    if (document.body) observer.observe(document.body, options);
  };
  // A script in <head> runs before <body> exists.
  if (document.body) watchBody();
  else document.addEventListener('DOMContentLoaded', () => {
    watchBody();
    changed();
  }, { once: true });
  schemeQuery?.addEventListener('change', changed);
}

/// Whether the host page asks for the paper look under screen media (a deck exporter, a print
/// preview): the class `kl-paper` on its `<html>` or `<body>`. Figures then hide their buttons and
/// share row and mount at once, as when printing.
export function pagePaper(): boolean {
  return document.documentElement.classList.contains('kl-paper') || Boolean(document.body?.classList.contains('kl-paper'));
}
