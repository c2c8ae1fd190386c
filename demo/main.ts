// Every gallery page: the harness first (it may re-point the widgets' `api`), then the widget
// from source, exactly as a partner's bundler would import the package.
import './harness.js';
import '../src/index.js';
