/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'The distant-query trap',
  order: 12.55,
} as const;
