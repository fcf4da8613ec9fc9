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
