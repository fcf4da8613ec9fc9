/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Dot product versus distance: magnitude participates',
  order: 12.65,
} as const;
