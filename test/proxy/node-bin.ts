/**
 * Runs the Node entry (`venue-booking-proxy`, from source through tsx) as a child process, for the
 * tests that need its real sockets, flags and start-up checks.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../proxy/node/main.ts', import.meta.url));

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs the bin until `until` matches its output (or it exits); returns the output and exit code,
 * and `output()`, everything it has written so far (for what it logs later).
 */
export function runBin(
  env: Record<string, string>,
  args: string[],
  until?: RegExp,
): Promise<{ out: string; code: number | null; stop: () => void; output: () => string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const stop = () => child.kill();
    const output = () => out;
    const timer = setTimeout(() => {
      stop();
      resolve({ out, code: null, stop, output });
    }, 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (until?.test(out)) {
        clearTimeout(timer);
        resolve({ out, code: null, stop, output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ out, code, stop, output });
    });
  });
}
