/// Small read-out elements: numbers the tests find by `data-testid`, inside read-out paragraphs.

/// An element the tests find by `data-testid`.
export function testNode<K extends keyof HTMLElementTagNameMap>(tag: K, testid: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.dataset.testid = testid;
  return node;
}

/// A read-out paragraph holding `parts`. It is not a live region: the figure's host says its
/// read-out sentence once the reader's input settles (`host.announce`), and a `.kl-readout` line
/// is that sentence by default.
export function liveReadout(className: string, ...parts: (string | Node)[]): HTMLParagraphElement {
  const paragraph = document.createElement('p');
  paragraph.className = className;
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

/// A number in scientific notation ("2.43e-233", "-1.5e+07"): its hyphen must not break a line.
const SCIENTIFIC = /(-?\d+(?:\.\d+)?e[-+]\d+)/;

/// Sets a sentence's text as `setText` does, with each number in scientific notation kept on one
/// line (a `.kl-number` span): a browser may otherwise break "2.43e-" / "233" at the hyphen in a
/// narrow figure.
export function setSentence(element: Element, text: string): void {
  if (element.textContent === text) return;
  const parts = text.split(SCIENTIFIC);
  if (parts.length === 1) {
    setText(element, text);
    return;
  }
  // The same shape as shown (a drag changes only the numbers): each piece edited in place.
  const nodes = element.childNodes;
  if (nodes.length === parts.length && parts.every((_, i) => (i % 2 === 0) === nodes[i] instanceof Text)) {
    parts.forEach((part, i) => {
      const node = nodes[i];
      if (node && node.textContent !== part) node.textContent = part;
    });
    return;
  }
  element.replaceChildren(
    ...parts.map((part, i) => {
      if (i % 2 === 0) return part;
      const number = document.createElement('span');
      number.className = 'kl-number';
      number.textContent = part;
      return number;
    }),
  );
}
