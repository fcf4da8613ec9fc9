#!/usr/bin/env node
// Writes web/src/listings/chapter.py, the one source of the chapter's code on the page and in the
// notebook, from the chapter's text: every "Code:" and "Figure:" listing verbatim, in the
// chapter's order, as the cells of a percent-format script (`# %%` starts a cell), with a markdown
// cell for the title and for each section that holds a listing.
// Usage: node scripts/extract-listings.mjs [chapter.txt]
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHAPTER_PATH, readChapter } from './chapter-spec.mjs';

/// The name each listing's slot uses on the page (`data-kl-listing`), in the chapter's order.
const IDS = ['attention', 'lookup-figure', 'ols', 'sweep', 'smoothing-figure', 'map-figure', 'underflow'];

const chapter = readChapter(process.argv[2] ?? CHAPTER_PATH);
if (chapter.listings.length !== IDS.length) {
  console.error(`extract-listings: expected ${IDS.length} listings, found ${chapter.listings.length}`);
  process.exit(1);
}
const out = [
  `# The code of "${chapter.title}", in the chapter's order.`,
  '# Written by scripts/extract-listings.mjs from the chapter\'s text: do not edit by hand.',
  '# The page shows each listing where the chapter puts it; the build makes the notebook from it.',
  '',
  '# %% [markdown]',
  `# # ${chapter.title}`,
];
let section = '';
chapter.listings.forEach((listing, i) => {
  if (listing.section !== section) {
    section = listing.section;
    out.push('', '# %% [markdown]', `# ## ${section}`);
  }
  out.push('', `# %% ${listing.kind}: ${listing.title} id="${IDS[i]}"`, ...listing.lines);
});
const target = fileURLToPath(new URL('../web/src/listings/chapter.py', import.meta.url));
writeFileSync(target, `${out.join('\n')}\n`);
console.log(`extract-listings: ${chapter.listings.length} listings -> ${target}`);
