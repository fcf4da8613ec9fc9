/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'The first attention matrix',
  figure: 'Figure 12.3 (right)',
  order: 12.51,
} as const;
