/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Exercise 4: an exact tie as h → 0⁺',
  order: 13.4,
} as const;
