/**
 * The server side of the virtual screen reader (`screen-reader.ts`): web-test-runner commands that
 * read the page's accessibility tree as Chromium exposes it to assistive technology
 * (`Accessibility.getFullAXTree` over CDP, shadow DOM included) and move the focus to a node of it,
 * as a screen reader's virtual cursor does before activating a control. Chromium through Playwright
 * only: the other launchers have no CDP session, so the commands refuse to run there.
 */
import type { TestRunnerPlugin } from '@web/test-runner';
import type { Page } from 'playwright';

/** One node of the tree, as CDP gives it (the fields the screen reader reads). */
export interface AxNode {
  nodeId: string;
  ignored: boolean;
  role?: { value: string };
  name?: { value: string };
  description?: { value: string };
  properties?: { name: string; value: { value: unknown } }[];
  childIds?: string[];
  backendDOMNodeId?: number;
}

/** A CDP session on the test's page, for one command. */
async function cdp(session: { browser: { type: string }; id: string }) {
  const browser = session.browser as unknown as { type: string; getPage?: (id: string) => Page };
  const page = browser.type === 'playwright' ? browser.getPage?.(session.id) : undefined;
  if (!page || page.context().browser()?.browserType().name() !== 'chromium')
    throw new Error('The accessibility tree commands need Chromium through Playwright');
  return page.context().newCDPSession(page);
}

/** `ax-tree` (every node of the page's tree) and `ax-focus` (`{ node }`: focus a node's DOM node). */
export function accessibilityTreePlugin(): TestRunnerPlugin {
  return {
    name: 'accessibility-tree',
    async executeCommand({ command, payload, session }) {
      if (command !== 'ax-tree' && command !== 'ax-focus') return undefined;
      const client = await cdp(session);
      try {
        if (command === 'ax-tree') return (await client.send('Accessibility.getFullAXTree')).nodes as AxNode[];
        await client.send('DOM.enable');
        await client.send('DOM.focus', { backendNodeId: (payload as { node: number }).node });
        return true;
      } finally {
        await client.detach();
      }
    },
  };
}
