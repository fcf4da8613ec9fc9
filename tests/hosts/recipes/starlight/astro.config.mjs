// Starlight (Astro 7) recipe: the module script on every page through Starlight's `head`; figures
// as raw HTML in Markdown. Built with Node 22 by tests/hosts/recipes.mjs.
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';

export default defineConfig({
  base: '/starlight',
  integrations: [
    starlight({
      title: 'Course notes (Starlight)',
      head: [{ tag: 'script', attrs: { type: 'module', src: 'http://kernel-lens.test/kernel-lens.js' } }],
    }),
  ],
});
