/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Signed OLS weights versus convex kernel weights',
  order: 12.21,
} as const;
