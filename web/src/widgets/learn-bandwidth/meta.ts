/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Learning the bandwidth by gradient descent',
  order: 14.3,
} as const;
