/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'The trade-off is measurable',
  figure: 'Figure 12.3 (left)',
  order: 12.5,
} as const;
