/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Exercise 2: the five OLS target weights',
  order: 13.2,
} as const;
