// Docusaurus 3 recipe: the module script on every page through `scripts`; figures in MDX.
// Built by tests/hosts/recipes.mjs when KERNEL_LENS_DOCUSAURUS_MODULES names a node_modules
// folder with @docusaurus/core and @docusaurus/preset-classic (not a dependency of this project).
module.exports = {
  title: 'Course notes (Docusaurus)',
  url: 'http://127.0.0.1',
  baseUrl: '/docusaurus/',
  onBrokenLinks: 'warn',
  scripts: [{ src: 'http://kernel-lens.test/kernel-lens.js', type: 'module' }],
  presets: [['classic', { docs: { routeBasePath: '/' }, blog: false }]],
};
