/**
 * The documentation site: Eleventy turns the Markdown in docs/ into dist/docs, one page per file,
 * in one frame (`_includes/page.11ty.js`) with the navigation by reader from `_data/nav.json`.
 * `npm start` builds it and serves it under /docs/ beside the demo, so the pages' live widgets book
 * against the embedded sandbox; `npm run docs:build` builds it alone (CI does, in
 * test/package/docs-site.test.ts). Markdown is Markdown only (no template language inside it), so
 * code samples with `{{ }}` print as written. Each page is also served as its Markdown beside it
 * (`index.md`), and `llms.txt` lists them, for readers that are programs.
 */
export default function (eleventyConfig) {
  eleventyConfig.addPassthroughCopy({ 'docs/*.png': '.', 'docs/assets': 'assets' });
  eleventyConfig.addGlobalData('layout', 'page.11ty.js');
  eleventyConfig.ignores.add('docs/README.md');
  // Every Markdown page: what the navigation, the Markdown copies and llms.txt list.
  eleventyConfig.addCollection('pages', (api) => api.getFilteredByGlob('docs/**/*.md'));
  return {
    dir: { input: 'docs', output: 'dist/docs', includes: '_includes', data: '_data' },
    pathPrefix: '/docs/',
    markdownTemplateEngine: false,
    htmlTemplateEngine: false,
  };
}
