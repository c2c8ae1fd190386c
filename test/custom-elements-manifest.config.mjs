// Custom Elements Manifest analyzer settings, for `npm run analyze` (the packed
// dist/custom-elements.json) and for the README tables (scripts/api-tables.ts), so both read
// the element's JSDoc (@attr, @fires, @csspart, @cssproperty) the same way.

/**
 * Keeps the manifest to the public surface. The analyzer's Lit plugin reads `static properties`
 * but not `state: true`, so the element's private reactive state would show up as attributes
 * (`_choices`…) that editors then suggest; private members are implementation, not API.
 */
function publicSurfaceOnly() {
  return {
    name: 'venue-booking-public-surface-only',
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules ?? []) {
        for (const declaration of module.declarations ?? []) {
          if (declaration.kind !== 'class') continue;
          const hidden = (member) =>
            member.privacy === 'private' || member.privacy === 'protected' || /^[_#]/.test(member.name);
          const hiddenFields = new Set((declaration.members ?? []).filter(hidden).map((member) => member.name));
          declaration.members = (declaration.members ?? []).filter((member) => !hidden(member) && !member.static);
          if (declaration.attributes) {
            declaration.attributes = declaration.attributes.filter(
              (attribute) => !hiddenFields.has(attribute.fieldName) && !/^_/.test(attribute.name),
            );
          }
        }
      }
    },
  };
}

/**
 * Makes the manifest describe the package as shipped, so that generators (Vue, Svelte, JSX typings)
 * can use it: only the registered element (the class with a tag name) is a custom element — the
 * API base class `VenueBookingApi` is its superclass, not a second element — and every module path
 * names the built file in dist/lib (which the package ships, with its .d.ts), not the TypeScript
 * source it was read from.
 */
function shippedPackage() {
  const shipped = (path) => path.replace(/^\/?src\/(.*)\.(ts|js)$/, 'dist/lib/$1.js');
  const rewrite = (value) => {
    if (Array.isArray(value)) return value.forEach(rewrite);
    if (!value || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value)) {
      if ((key === 'path' || key === 'module') && typeof item === 'string') value[key] = shipped(item);
      else rewrite(item);
    }
  };
  return {
    name: 'venue-booking-shipped-package',
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules ?? []) {
        for (const declaration of module.declarations ?? []) {
          if (declaration.customElement && !declaration.tagName) delete declaration.customElement;
        }
      }
      rewrite(customElementsManifest.modules);
    },
  };
}

export default {
  globs: ['src/**/*.ts'],
  exclude: ['src/**/*.test.ts', 'src/**/*.d.ts'],
  outdir: 'dist', // packed with the npm package; package.json `customElements` points here
  litelement: true,
  packagejson: false, // package.json already names the manifest; the analyzer must not rewrite it
  plugins: [publicSurfaceOnly(), shippedPackage()],
};
