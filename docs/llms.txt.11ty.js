/** `llms.txt` (llmstxt.org): the site's sections by reader, each page's Markdown, for language models. */
export const data = { permalink: '/llms.txt', layout: null, eleventyExcludeFromCollections: true };

export function render({ nav, collections }) {
  const pages = new Map(collections.pages.map((item) => [item.url, item.data]));
  const sections = nav.map(
    (section) =>
      `## ${section.title}\n\n${section.pages
        .map((path) => `- [${pages.get(`/${path}/`)?.title ?? path}](${path}/index.md)`)
        .join('\n')}`,
  );
  return `# venue-booking\n\n> An embeddable booking widget for restaurants and bars (<venue-booking>), the proxy that keeps the booking service's key on the server, and an offline sandbox of the v4 booking service.\n\n${sections.join('\n\n')}\n`;
}
