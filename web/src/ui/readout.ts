/// Small read-out elements: numbers the tests find by `data-testid`, inside polite live paragraphs.

/// An element the tests find by `data-testid`.
export function testNode<K extends keyof HTMLElementTagNameMap>(tag: K, testid: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.dataset.testid = testid;
  return node;
}

/// A polite live paragraph holding `parts`.
export function liveReadout(className: string, ...parts: (string | Node)[]): HTMLParagraphElement {
  const paragraph = document.createElement('p');
  paragraph.className = className;
  paragraph.setAttribute('aria-live', 'polite');
  paragraph.append(...parts);
  return paragraph;
}

/// Sets an element's text, as `textContent =` does. A lone text node is edited in place instead
/// of replaced: a replaced node leaves and re-enters the layout tree, work that a figure's
/// read-outs would otherwise cause on every frame of a drag. Empty text leaves no node.
export function setText(element: Element, text: string): void {
  const node = element.firstChild;
  if (node instanceof Text && node === element.lastChild && text !== '') {
    if (node.data !== text) node.data = text;
  } else if (element.textContent !== text) {
    element.textContent = text;
  }
}
