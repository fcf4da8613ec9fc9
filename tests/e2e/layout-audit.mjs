// What a reader would see as broken layout, found in the rendered page (run inside it with
// `page.evaluate(auditLayout)`; the function is self-contained). Returns a list of readable
// problems, empty when the page is fine:
// - clipped: a box whose content overflows it (scrollWidth > clientWidth + 1, or the same
//   vertically) while it neither scrolls nor can be scrolled from the keyboard: a scrolling box
//   must be focusable (tabindex="0") and carry an accessible name, and a table's caption in it
//   must wrap within it (not be cut by its edge). Content spilling out of a box
//   that does not clip (overflow: visible) is judged where it is cut: at the nearest ancestor that
//   clips or scrolls, or at the viewport;
// - page wider than the viewport; a text input whose value does not fit it;
// - raw TeX: visible text holding `$…$` or a TeX command, or a KaTeX error;
// - split: a number, or an inline formula narrower than its line, spread over two line boxes
//   ("2.22e-" / "16", "h = / 0.18"); from
//   480 px up, a control's caption spread over two lines.
export function auditLayout() {
  const problems = [];
  const describe = (element) => {
    const id = element.id ? `#${element.id}` : '';
    const classes = typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : '';
    const testid = element.dataset?.testid ? `[data-testid=${element.dataset.testid}]` : '';
    const figure = element.closest('[data-widget]')?.getAttribute('data-widget');
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 50);
    return `${figure ? `${figure}: ` : ''}<${element.tagName.toLowerCase()}${id}${classes}${testid}> "${text}"`;
  };
  const visible = (element) => {
    if (element.closest('.kl-visually-hidden, [hidden], [aria-hidden="true"]')) return false;
    const rect = element.getBoundingClientRect();
    return rect.width > 1 && rect.height > 1 && element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  };

  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) {
    problems.push(`page: ${root.scrollWidth} px wide in a ${root.clientWidth} px viewport`);
  }

  for (const element of document.body.querySelectorAll('*')) {
    // KaTeX lays out its glyphs with boxes that overflow by design; its display box is checked whole.
    if (element.closest('.katex') || element instanceof SVGElement) continue;
    if (['CANVAS', 'INPUT', 'SELECT', 'TEXTAREA', 'SCRIPT', 'STYLE', 'OPTION', 'IMG'].includes(element.tagName)) continue;
    const style = getComputedStyle(element);
    if (style.display === 'inline' || style.display === 'contents' || style.display === 'none') continue;
    const wide = element.scrollWidth > element.clientWidth + 1;
    const tall = element.scrollHeight > element.clientHeight + 1;
    if (!wide && !tall) continue;
    if (!visible(element)) continue;
    if (element === document.body || element === root) continue;
    const overflow = (axis) => (axis === 'x' ? style.overflowX : style.overflowY);
    const overflowing = [wide && 'x', tall && 'y'].filter(Boolean).filter((axis) => overflow(axis) !== 'visible');
    if (overflowing.length === 0) continue;
    const scrolling = overflowing.every((axis) => overflow(axis) === 'auto' || overflow(axis) === 'scroll');
    if (scrolling) {
      const focusable = element.tabIndex >= 0 && element.getAttribute('tabindex') !== null;
      const named = Boolean(element.getAttribute('aria-label') || element.getAttribute('aria-labelledby'));
      if (!focusable || !named) {
        problems.push(`unreachable scroll box (${focusable ? 'no accessible name' : 'not focusable'}): ${describe(element)}`);
      }
      // A table's caption reads whole without scrolling: it wraps within the box.
      const box = element.getBoundingClientRect();
      for (const caption of element.querySelectorAll(':scope > table > caption')) {
        const right = caption.getBoundingClientRect().right;
        if (right > box.left + element.clientLeft + element.clientWidth + 1) problems.push(`caption cut by the scroll box's edge: ${describe(caption)}`);
      }
      continue;
    }
    const by = overflowing[0] === 'x' ? `${element.scrollWidth - element.clientWidth} px wide` : `${element.scrollHeight - element.clientHeight} px tall`;
    problems.push(`clipped ${overflowing.join('/')} by ${by}: ${describe(element)}`);
  }

  for (const input of document.querySelectorAll('input[type="text"], input:not([type]), textarea')) {
    if (visible(input) && input.scrollWidth > input.clientWidth + 1) {
      problems.push(`input text cut by ${input.scrollWidth - input.clientWidth} px: ${describe(input)} "${input.value.slice(0, 40)}"`);
    }
  }
  for (const error of document.querySelectorAll('.katex-error')) {
    if (visible(error)) problems.push(`TeX error: ${describe(error)}`);
  }
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      const parent = node.parentElement;
      if (!parent || parent.closest('.katex, code, pre, script, style, textarea, .kl-share, .kl-visually-hidden')) {
        return NodeFilter.FILTER_REJECT;
      }
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  const number = /[−-]?\d+(?:[.,]\d+)*(?:e[+−-]?\d+)?/g;
  const lines = (rects) => new Set(Array.from(rects, (rect) => Math.round(rect.top))).size;
  while (texts.nextNode()) {
    const node = texts.currentNode;
    const text = node.nodeValue ?? '';
    if (!text.trim() || !visible(node.parentElement)) continue;
    if (/\$[^$\s][^$]*\$|\\(?:vect|matr|norm|frac|alpha|kappa|mathbf|operatorname|sum|widehat)\b/.test(text)) {
      problems.push(`raw TeX: ${describe(node.parentElement)}`);
    }
    for (const match of text.matchAll(number)) {
      if (match[0].length < 2) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = Array.from(range.getClientRects()).filter((rect) => rect.width > 0);
      if (lines(rects) > 1) problems.push(`number split over lines "${match[0]}": ${describe(node.parentElement)}`);
    }
  }
  // A control's caption is in its caption span (bare text beside an input is left to wrap).
  for (const control of document.querySelectorAll('.kl-control')) {
    const bare = Array.from(control.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim() !== '');
    if (bare && visible(control)) problems.push(`control caption outside .kl-control__caption: ${describe(control)}`);
  }
  if (innerWidth >= 480) {
    for (const caption of document.querySelectorAll('.kl-control__caption, .kl-field__caption')) {
      if (!visible(caption)) continue;
      const range = document.createRange();
      range.selectNodeContents(caption);
      if (lines(Array.from(range.getClientRects()).filter((rect) => rect.width > 0)) > 1) {
        problems.push(`caption wraps: ${describe(caption)}`);
      }
    }
  }
  for (const formula of document.querySelectorAll('.katex')) {
    if (formula.closest('.katex-display') || !visible(formula)) continue;
    const html = formula.querySelector('.katex-html') ?? formula;
    const parts = Array.from(html.children, (part) => part.getBoundingClientRect()).filter((rect) => rect.width > 0);
    // A part that starts below the previous one's bottom sits on a new line; a formula wider
    // than the whole line may break (as TeX breaks it), one that would fit may not.
    const natural = parts.reduce((sum, rect) => sum + rect.width, 0);
    const room = formula.parentElement?.closest('p, li, td, th, div, label')?.clientWidth ?? innerWidth;
    if (natural <= room && parts.some((rect, i) => i > 0 && rect.top >= parts[i - 1].bottom - 1)) {
      problems.push(`formula split over lines: ${describe(formula)}`);
    }
  }
  return problems;
}
