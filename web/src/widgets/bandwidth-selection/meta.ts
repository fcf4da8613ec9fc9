/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Exercise 3: choosing h on held-out data',
  order: 13.3,
} as const;
