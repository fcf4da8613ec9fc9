/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Exercise 1: why kernel weights stay inside the range',
  order: 13.1,
} as const;
