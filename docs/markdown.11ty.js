/** Each page's Markdown beside it (`<page>/index.md`), as written: for readers that are programs. */
import { readFileSync } from 'node:fs';

export const data = {
  pagination: { data: 'collections.pages', size: 1, alias: 'source' },
  permalink: (data) => `${data.source.url}index.md`,
  layout: null,
  eleventyExcludeFromCollections: true,
};

export function render({ source }) {
  return readFileSync(source.inputPath, 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
}
