/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Exercise 5: units decide the neighbours',
  order: 13.5,
} as const;
