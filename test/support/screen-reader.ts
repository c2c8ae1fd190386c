/**
 * A virtual screen reader for browser tests: it reads the page as assistive technology does, from
 * the accessibility tree Chromium exposes (shadow DOM included: `accessibility-tree.ts` serves it),
 * never from the DOM, and acts with real key presses. A test walks a booking with it and asserts
 * on what a guest would hear: the focused control as it is spoken (name, role, states and
 * description), the page in reading order (the virtual cursor) and what the live regions say.
 * Chromium only (the tree comes over CDP): a test skips the other engines.
 */
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import type { AxNode } from './accessibility-tree.js';
import { until } from './widget-page.js';

/** One line of the virtual cursor: a control, a heading or a text, as it is spoken. */
export interface Line {
  role: string;
  name: string;
  description: string;
  /** The states a reader says: `disabled`, `pressed`, `expanded`, `collapsed`, `invalid`. */
  states: string[];
  /** The whole utterance: "Monday, 30 November 2026, button, disabled, The Vine Cellar is closed on Mondays". */
  speech: string;
  focused: boolean;
  /** The DOM node behind it, for moving the focus there (`ScreenReader.activate`). */
  node?: number;
}

/** Roles read as one line with what they contain: the cursor does not enter them. */
const LEAVES = new Set(['button', 'link', 'textbox', 'spinbutton', 'checkbox', 'radio', 'combobox', 'StaticText']);

/** The words a reader uses for a role (a text is read as itself). */
const ROLE_WORDS: Record<string, string> = {
  StaticText: '',
  textbox: 'edit',
  spinbutton: 'spin button',
  combobox: 'combo box',
};

/** The reader: each call reads the tree anew, as a reader follows the page's changes. */
export class ScreenReader {
  /** Every node of the page's tree, by id, and the root's id. */
  async tree(): Promise<{ nodes: Map<string, AxNode>; root: string }> {
    const list = (await executeServerCommand<AxNode[], undefined>('ax-tree'))!;
    return { nodes: new Map(list.map((node) => [node.nodeId, node])), root: list[0]!.nodeId };
  }

  /** The page in reading order, as the virtual cursor walks it: controls, headings and texts. */
  async browse(): Promise<Line[]> {
    const { nodes, root } = await this.tree();
    const lines: Line[] = [];
    const text = (id: string): string => {
      const node = nodes.get(id);
      if (node?.role?.value === 'StaticText') return node.ignored ? '' : (node.name?.value ?? '');
      return (node?.childIds ?? []).map(text).join('');
    };
    const control = (id: string): boolean => {
      const node = nodes.get(id);
      const role = node?.role?.value ?? '';
      return (!node?.ignored && LEAVES.has(role) && role !== 'StaticText') || (node?.childIds ?? []).some(control);
    };
    // A heading is one line, its text not read again; a control inside it (a disclosure) is a line of
    // its own. A paragraph or list item of text alone is one line, however many text nodes make it.
    const walk = (id: string, inHeading: boolean) => {
      const node = nodes.get(id);
      if (!node) return;
      const role = node.role?.value ?? '';
      if (!node.ignored && ['paragraph', 'listitem'].includes(role) && !control(id)) {
        const said = text(id).replace(/\s+/g, ' ').trim();
        if (said) lines.push({ ...lineOf(node), name: said, speech: said });
        return;
      }
      if (!node.ignored && LEAVES.has(role)) {
        const line = lineOf(node);
        if (role !== 'StaticText' || (line.name && !inHeading)) lines.push(line);
        return;
      }
      const heading = !node.ignored && role === 'heading';
      if (heading) lines.push(lineOf(node));
      for (const child of node.childIds ?? []) walk(child, inHeading || heading);
    };
    walk(root, false);
    return lines;
  }

  /** What the reader says of the focused control, or null when nothing in the page has focus. */
  async focused(): Promise<Line | null> {
    const { nodes } = await this.tree();
    // The document itself counts as focused while the page has focus: the control is the other one.
    const node = [...nodes.values()].find(
      (item) => !item.ignored && state(item, 'focused') && item.role?.value !== 'RootWebArea',
    );
    return node ? lineOf(node) : null;
  }

  /** What the live regions (`status`, `alert`) say now: each region's text. */
  async announcements(): Promise<string[]> {
    const { nodes } = await this.tree();
    const text = (id: string): string => {
      const node = nodes.get(id);
      if (!node) return '';
      if (node.role?.value === 'StaticText') return node.name?.value ?? '';
      return (node.childIds ?? []).map(text).join('');
    };
    return [...nodes.values()]
      .filter((node) => !node.ignored && ['status', 'alert'].includes(node.role?.value ?? ''))
      .map((node) => text(node.nodeId).trim())
      .filter(Boolean);
  }

  /** Waits until a live region says something matching `expected`, and returns it. */
  async hear(expected: RegExp): Promise<string> {
    return until(
      async () => (await this.announcements()).find((said) => expected.test(said)),
      `an announcement matching ${expected}`,
    );
  }

  /** Presses a key (real key events to the focused element) and says the control that has focus then. */
  async press(key: string): Promise<Line | null> {
    await sendKeys({ press: key });
    return this.focused();
  }

  /** Presses Tab until the focused control matches, as a keyboard user looks for it; fails after `limit` presses. */
  async tabTo(match: (line: Line) => boolean, limit = 40): Promise<Line> {
    for (let count = 0; count < limit; count++) {
      const line = await this.press('Tab');
      if (line && match(line)) return line;
    }
    throw new Error(`Tab never reached the control looked for`);
  }

  /** Waits until the virtual cursor finds a line matching, and returns it. */
  async find(match: (line: Line) => boolean, what: string): Promise<Line> {
    return until(async () => (await this.browse()).find(match), what);
  }

  /**
   * Moves to the first line matching (the focus follows the cursor, as in a reader's browse mode)
   * and activates it with a real Enter; returns the line.
   */
  async activate(match: (line: Line) => boolean, what: string): Promise<Line> {
    const line = await this.find((candidate) => candidate.node !== undefined && match(candidate), what);
    await executeServerCommand('ax-focus', { node: line.node });
    await sendKeys({ press: 'Enter' });
    return line;
  }

  /**
   * Moves the focus to a field (a text or a number) found by its name and types text into it, key
   * by key; `replace` selects what it holds first, as a user retyping a prefilled number does.
   */
  async type(name: string, text: string, replace = false): Promise<void> {
    const field = await this.find(
      (line) => (line.role === 'textbox' || line.role === 'spinbutton') && line.name.startsWith(name),
      `field ${name}`,
    );
    await executeServerCommand('ax-focus', { node: field.node });
    if (replace) await sendKeys({ press: 'ControlOrMeta+A' });
    await sendKeys({ type: text });
  }
}

/** The value of a boolean or token property of a node, or undefined. */
function state(node: AxNode, name: string): unknown {
  return node.properties?.find((property) => property.name === name)?.value.value;
}

/** A node as it is spoken. */
function lineOf(node: AxNode): Line {
  const role = node.role?.value ?? '';
  const states: string[] = [];
  if (state(node, 'disabled')) states.push('disabled');
  if (state(node, 'pressed') === 'true' || state(node, 'pressed') === true) states.push('pressed');
  const expanded = state(node, 'expanded');
  if (expanded !== undefined) states.push(expanded ? 'expanded' : 'collapsed');
  if (state(node, 'invalid') && state(node, 'invalid') !== 'false') states.push('invalid');
  const name = node.name?.value ?? '';
  const description = node.description?.value ?? '';
  const word = role in ROLE_WORDS ? ROLE_WORDS[role] : role;
  return {
    role,
    name,
    description,
    states,
    speech: [name, word, ...states, description].filter(Boolean).join(', '),
    focused: Boolean(state(node, 'focused')),
    node: node.backendDOMNodeId,
  };
}
