/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'A fixed Gaussian lookup',
  figure: 'Figure 12.1',
  order: 12.2,
} as const;
