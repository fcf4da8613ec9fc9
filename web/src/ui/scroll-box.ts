/// A box that scrolls sideways when its content is wider than the figure (a table, a display
/// equation on a phone). While it overflows it is a named region the keyboard can reach (Tab,
/// then the arrow keys scroll it); styles.css gives `.kl-scroll` an edge shadow as the visible
/// cue that more lies beyond the edge, and keeps a table's caption in view.

/// Each watched element (the box and its children) → its box and the box's name.
const watched = new WeakMap<Element, { box: HTMLElement; label: string }>();
let observer: ResizeObserver | undefined;

function update(box: HTMLElement, label: string): void {
  // A table's caption stays in view and wraps at the box's width (styles.css), not the table's.
  box.style.setProperty('--kl-scroll-width', `${box.clientWidth}px`);
  if (box.scrollWidth > box.clientWidth + 1) {
    box.tabIndex = 0;
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', label);
  } else {
    for (const name of ['tabindex', 'role', 'aria-label']) box.removeAttribute(name);
  }
}

/// Makes `box` (a new `<div>` when absent) a `.kl-scroll` box named `label`, holding `children`.
export function scrollBox(label: string, children: readonly Node[] = [], box: HTMLElement = document.createElement('div')): HTMLElement {
  box.classList.add('kl-scroll');
  box.append(...children);
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      const found = watched.get(entry.target);
      if (found) update(found.box, found.label);
    }
  });
  for (const element of [box, ...Array.from(box.children)]) {
    watched.set(element, { box, label });
    observer.observe(element);
  }
  return box;
}
