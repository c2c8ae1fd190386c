// The widget from source, for pages served beside the gallery that are not its own: the docs
// site's live widgets (docs/_includes/page.11ty.js) load this under `npm start`.
import '../src/index.js';
