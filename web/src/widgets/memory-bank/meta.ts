/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'The fixed operator as a memory bank',
  order: 12.6,
} as const;
