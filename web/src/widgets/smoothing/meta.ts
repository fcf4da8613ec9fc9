/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'One fixed noisy sample under three bandwidths',
  figure: 'Figure 12.2',
  caption:
    'The narrow rule follows local noise, the middle rule tracks the signal, and the broad rule erases the function’s smaller-scale structure. The blue bandwidth is the grid minimum in the 1,000-world audit, not a hand-picked attractive curve.',
  order: 12.4,
} as const;
