/// Where a pointer event falls inside an element, in the element's own CSS pixels (the units
/// Chart.js scales use). The element's on-screen box may be scaled by a CSS transform (a slide
/// deck's `transform: scale()`) or `zoom`, so the offset is divided by the box's scale.
export function localPoint(element: HTMLElement, event: { clientX: number; clientY: number }): { x: number; y: number } {
  const rect = element.getBoundingClientRect();
  const scaleX = element.offsetWidth > 0 && rect.width > 0 ? rect.width / element.offsetWidth : 1;
  const scaleY = element.offsetHeight > 0 && rect.height > 0 ? rect.height / element.offsetHeight : 1;
  return { x: (event.clientX - rect.left) / scaleX, y: (event.clientY - rect.top) / scaleY };
}
