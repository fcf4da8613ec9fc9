/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Bandwidth is temperature',
  order: 12.3,
} as const;
