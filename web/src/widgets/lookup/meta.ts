/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'A fixed Gaussian lookup',
  figure: 'Figure 12.1',
  caption:
    'The bars give the normalized weights, and the connecting lines show which observations feed the query. The query lands close to the second location, so its response dominates the mixture; no similarity function was learned.',
  order: 12.2,
} as const;
