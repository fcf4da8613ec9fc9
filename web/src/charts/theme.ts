/// Which colour theme a figure shows. Placeholder with the contract's signature: it sets
/// `data-kl-theme` on `root` (for `auto` from the host page's own dark-mode markers, else the
/// reader's system setting, kept current) and returns a disposer.
export type ThemeMode = 'light' | 'dark' | 'auto';

function hostIsDark(): boolean {
  const html = document.documentElement;
  if (html.classList.contains('dark') || html.dataset.theme === 'dark') return true;
  if (html.classList.contains('light') || html.dataset.theme === 'light') return false;
  const scheme = getComputedStyle(html).colorScheme.trim();
  if (scheme === 'dark' || scheme === 'only dark') return true;
  if (scheme === 'light' || scheme === 'only light') return false;
  return matchMedia('(prefers-color-scheme: dark)').matches;
}

export function applyTheme(root: HTMLElement, mode: ThemeMode): () => void {
  const set = (): void => {
    const theme = mode === 'auto' ? (hostIsDark() ? 'dark' : 'light') : mode;
    if (root.dataset.klTheme !== theme) root.dataset.klTheme = theme;
  };
  set();
  if (mode !== 'auto') return () => undefined;
  const query = matchMedia('(prefers-color-scheme: dark)');
  const observer = new MutationObserver(set);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'data-theme', 'style'] });
  query.addEventListener('change', set);
  return () => {
    observer.disconnect();
    query.removeEventListener('change', set);
  };
}
