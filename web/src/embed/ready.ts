/// The page's readiness for exporters and tests: every Kernel Lens figure on the page (each
/// `<kernel-lens-figure>` and each `<iframe data-kernel-lens>`) carries `data-kl-ready` once it has
/// drawn its numbers; when all of them do, `<html>` gets `data-kl-ready` and the document
/// dispatches `kernel-lens:ready`. A figure added later takes the mark away until it is drawn too.
const FIGURES = 'kernel-lens-figure, iframe[data-kernel-lens]';

let ready = false;

/// Marks `figure` drawn and checks the page.
export function markReady(figure: Element): void {
  if (!figure.hasAttribute('data-kl-ready')) figure.setAttribute('data-kl-ready', '');
  checkPage();
}

/// Re-checks whether every figure on the page is drawn (a figure was added or removed).
export function checkPage(): void {
  const figures = document.querySelectorAll(FIGURES);
  const all = figures.length > 0 && Array.from(figures).every((figure) => figure.hasAttribute('data-kl-ready'));
  if (all === ready) return;
  ready = all;
  document.documentElement.toggleAttribute('data-kl-ready', all);
  if (all) document.dispatchEvent(new CustomEvent('kernel-lens:ready', { detail: { figures: figures.length } }));
}
