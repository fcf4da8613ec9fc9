/// Headings inside a figure continue the document's outline: h3 under the full page's h2 prose
/// headings (and inside <kernel-lens-figure>), h2 under an embed's h1 figure title.
let level: 2 | 3 = 3;

/// Set once by the entry that shows a widget alone on its page.
export function setSubheadingLevel(next: 2 | 3): void {
  level = next;
}

/// `<h2|h3 class="…">text</h2|h3>` at the document's sub-heading level.
export function subheading(text: string, className: string): HTMLHeadingElement {
  const node = document.createElement(`h${level}`) as HTMLHeadingElement;
  node.className = className;
  node.textContent = text;
  return node;
}
