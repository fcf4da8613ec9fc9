// Eleventy 3 recipe: the module script in the layout's <head> (_includes/base.njk); figures as
// raw HTML in Markdown (Eleventy's markdown-it passes HTML through). Built by tests/hosts/recipes.mjs.
export default function () {
  return { dir: { input: '.', includes: '_includes' }, markdownTemplateEngine: false };
}
