/// What the page needs of this figure before its script loads: its place in the chapter
/// (`order`) and its caption.
export default {
  title: 'Local linear regression at the edges: its bias and spread against Nadaraya–Watson’s',
  order: 14.1,
} as const;
