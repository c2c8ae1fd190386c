/**
 * A test-runner command that reads the page's accessibility tree as Chromium exposes it to
 * assistive technology (through the DevTools protocol, `Accessibility.getFullAXTree`, the tree a
 * screen reader walks, shadow DOM included), so a test can check what a guest hears rather than
 * what the DOM holds. `executeServerCommand('accessibility-tree')` answers `{ nodes }`: the tree's
 * nodes that are not ignored, each as `{ role, name, description, focused }`, in document order;
 * in an engine whose launcher has no such protocol (Firefox through Puppeteer, WebKit through
 * WebDriver) `nodes` is null (a command answering null would read as not handled) and the test
 * says what it cannot check there.
 */

/** The plugin for test/web-test-runner.config.mjs. */
export function accessibilityTreePlugin() {
  return {
    name: 'accessibility-tree',
    async executeCommand({ command, session }) {
      if (command !== 'accessibility-tree') return undefined;
      const page = session.browser.getPage?.(session.id);
      const context = page?.context?.();
      if (!context?.newCDPSession) return { nodes: null };
      const cdp = await context.newCDPSession(page);
      try {
        const { nodes } = await cdp.send('Accessibility.getFullAXTree');
        const value = (property) => property?.value ?? '';
        const flag = (node, name) => node.properties?.find((property) => property.name === name)?.value?.value;
        return {
          nodes: nodes
            .filter((node) => !node.ignored)
            .map((node) => ({
              role: value(node.role),
              name: value(node.name),
              description: value(node.description),
              focused: flag(node, 'focused') === true,
            })),
        };
      } finally {
        await cdp.detach();
      }
    },
  };
}
