/**
 * The one frame of every documentation page: the navigation by reader (from `_data/nav.json`,
 * each page by its own title), the page, and a link to its Markdown. Plain HTML and a little CSS,
 * no script of its own: a page that shows the widget live loads it itself (`widget: true` in its
 * front matter), from the source that `npm start` serves (`demo/widget.ts`).
 */
const escape = (text) =>
  String(text).replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]);

export default function page(data) {
  const titles = new Map(data.collections.all.map((item) => [item.url, item.data.title]));
  const here = data.page.url;
  const nav = data.nav
    .map(
      (section) =>
        `<h2>${escape(section.title)}</h2><ul>${section.pages
          .map((path) => {
            const url = `/${path}/`;
            const current = url === here ? ' aria-current="page"' : '';
            return `<li><a href="${this.url(url)}"${current}>${escape(titles.get(url) ?? path)}</a></li>`;
          })
          .join('')}</ul>`,
    )
    .join('');
  const widget = data.widget ? '<script type="module" src="/widget.ts"></script>' : '';
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(data.title)} · venue-booking docs</title>
<meta name="description" content="${escape(data.description ?? `${data.title}: the documentation of <venue-booking>, its proxy and its sandbox.`)}">
<link rel="stylesheet" href="${this.url('/assets/docs.css')}">
${widget}
</head>
<body>
<a class="skip" href="#main">Skip to the page</a>
<header><a href="${this.url('/')}">&lt;venue-booking&gt; docs</a><a class="contents" href="#contents">Contents</a></header>
<div class="frame">
<nav id="contents" aria-label="Documentation">${nav}</nav>
<main id="main">
${data.content}
<p class="source"><a href="${this.url(`${here}index.md`)}">This page as Markdown</a></p>
</main>
</div>
</body>
</html>`;
}
