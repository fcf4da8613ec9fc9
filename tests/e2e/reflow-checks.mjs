// Checks of reflowed text shared by the reflow and text-spacing tests (run in the page with
// `page.evaluate(check, root)`; each function is self-contained).

/// Text in `root` (an element, or the document when null) whose line boxes reach past its edges, or
/// the viewport's, and is not inside a scroll box that takes keyboard focus (run in the page).
export function textPastEdge(root) {
  const scope = root ?? document.body;
  const edge = root ? root.getBoundingClientRect() : { left: 0, right: document.documentElement.clientWidth };
  const scrolledByKeyboard = (element) => {
    for (let box = element; box && box !== scope; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (/auto|scroll/.test(style.overflowX) && box.getAttribute('tabindex') === '0') return true;
    }
    return false;
  };
  const found = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.textContent.trim() || element.closest('.kl-visually-hidden, [hidden], .katex-mathml, script, style')) continue;
    // Text not rendered (in a closed <details>, say) is not cut.
    if (!element.checkVisibility({ contentVisibilityAuto: false, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const past = [...range.getClientRects()].some((box) => box.width > 0 && (box.right > edge.right + 0.5 || box.left < edge.left - 0.5));
    if (past && !scrolledByKeyboard(element)) {
      const figure = element.closest('[data-widget]')?.getAttribute('data-widget') ?? 'page';
      found.push(`${figure}: text past the edge: <${element.tagName.toLowerCase()}.${element.className}> "${node.textContent.trim().slice(0, 40)}" ${JSON.stringify([...range.getClientRects()].map((b) => [Math.round(b.left), Math.round(b.right)]))} edge ${Math.round(edge.left)}..${Math.round(edge.right)}`);
    }
  }
  return found;
}
