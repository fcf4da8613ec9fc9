// A small course site, set up as docs/embedding.md's VitePress recipe says. The Kernel Lens
// origin is the placeholder http://kernel-lens.test; tests/hosts/harness.mjs replaces it with the
// second test origin while serving, so the site is built once.
import { defineConfig } from 'vitepress';

const KERNEL_LENS = 'http://kernel-lens.test/';

export default defineConfig({
  title: 'Course notes',
  description: 'Kernel regression, with Kernel Lens figures',
  base: '/notes/',
  // The one include, on every page: a small loader that fetches the rest only where figures are.
  head: [
    ['script', { type: 'module', src: `${KERNEL_LENS}kernel-lens.js` }],
    ['link', { rel: 'icon', href: 'data:,' }],
  ],
  vue: {
    template: {
      // <kernel-lens-figure> is not a Vue component: render it as it is, on the server too.
      compilerOptions: { isCustomElement: (tag) => tag.startsWith('kernel-lens-') },
    },
  },
  themeConfig: {
    nav: [
      { text: 'Home', link: '/' },
      { text: 'Lookup', link: '/lookup' },
    ],
    sidebar: [
      {
        text: 'Week 3',
        items: [
          { text: 'Introduction', link: '/' },
          { text: 'A soft lookup (element)', link: '/lookup' },
          { text: 'A soft lookup (iframe)', link: '/iframe' },
          { text: 'Offline copy', link: '/offline' },
          { text: 'Reading list', link: '/reading' },
        ],
      },
    ],
  },
});
