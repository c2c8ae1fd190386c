/**
 * The script-tag bundle leaves ky's progress streams out (vite.config.ts `kyWithoutProgress`):
 * sound only while the widget passes ky neither `onDownloadProgress` nor `onUploadProgress`, and
 * only effective while ky imports them from where the build expects. Both are held here.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe("ky's progress streams, left out of the bundle", () => {
  it('are never asked for by the widget', () => {
    const sources = readdirSync(`${root}src`, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    const asking = sources.filter((file) =>
      /on(Download|Upload)Progress/.test(readFileSync(`${root}src/${file}`, 'utf8')),
    );
    assert.deepEqual(asking, [], 'a progress option needs ky’s streams back in the bundle (vite.config.ts)');
  });

  it('are imported by ky from the module the build replaces', () => {
    const ky = readFileSync(`${root}node_modules/ky/distribution/core/Ky.js`, 'utf8');
    assert.match(ky, /^import \{ streamRequest, streamResponse \} from '\.\.\/utils\/body\.js';$/m);
  });
});
