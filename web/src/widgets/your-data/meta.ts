/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Your own data through the same operator',
  order: 14.5,
} as const;
