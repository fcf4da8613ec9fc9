/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Bandwidth is a smoothness dial',
  figure: 'Figure 12.2',
  order: 12.4,
} as const;
