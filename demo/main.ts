// The demo pages load the widget from source, exactly as a partner's bundler would import it.
import '../src/index.js';
