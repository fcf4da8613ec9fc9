/// What a page says about its theme, read from its `<html>`: `data-theme="dark|light"`, a
/// `dark`/`light` class, else its computed `color-scheme` when it names one scheme, else the
/// reader's system setting. No Chart.js here: the loader (web/src/embed/loader.ts) reads it too,
/// to pass the host page's theme to Kernel Lens iframes.
export type Theme = 'light' | 'dark';

/// The message a host page's loader posts to each Kernel Lens iframe: `{ type, theme }`.
export const HOST_THEME_MESSAGE = 'kernel-lens:host-theme';

const schemeQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

/// The page's theme; `readColorScheme` false skips `color-scheme` (a root that sets it itself).
export function pageTheme(readColorScheme = true): Theme {
  const html = document.documentElement;
  const attribute = html.getAttribute('data-theme');
  if (attribute === 'dark' || attribute === 'light') return attribute;
  if (html.classList.contains('dark')) return 'dark';
  if (html.classList.contains('light')) return 'light';
  if (readColorScheme) {
    const scheme = getComputedStyle(html).colorScheme.trim().split(/\s+/);
    if (scheme.length === 1 && (scheme[0] === 'dark' || scheme[0] === 'light')) return scheme[0];
  }
  return schemeQuery?.matches ? 'dark' : 'light';
}

/// Calls `changed()` whenever the page's theme may have changed (its `<html>` class, data-theme
/// or style, or the system setting).
export function watchPageTheme(changed: () => void): void {
  new MutationObserver(changed).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['class', 'data-theme', 'style'],
  });
  schemeQuery?.addEventListener('change', changed);
}
