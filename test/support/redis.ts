/**
 * A real `redis-server` for the shared-state tests (Debian's package; `.ci/run` installs it), on a
 * free loopback port with persistence off, that a test can kill, restart empty, or freeze
 * (SIGSTOP: its connections stay open, commands go unanswered), and a TCP relay in front of it that
 * can delay every chunk it passes on: a slow store, made by a slow network rather than by a mock
 * of our code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

/** A free loopback port (the kernel's choice, released for the caller to use). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** A running redis-server. */
export interface RedisServer {
  port: number;
  url: string;
  /** Kills the server at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered. */
  freeze(): void;
  /** Lets a frozen server run again (SIGCONT). */
  thaw(): void;
}

/** Starts redis-server on a free port, without persistence; `kill()` it when done. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const launch = async () => {
    const server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child = server;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
      server.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/Ready to accept connections/.test(output)) resolve();
      });
      // Loglevel warning hides the ready line on some builds: a connection proves it too.
      const probe = () => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve();
        });
        socket.once('error', () => setTimeout(probe, 20));
      };
      probe();
    });
    server.removeAllListeners('exit');
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      running.kill('SIGKILL');
      await once(running, 'exit');
    },
    restart: launch,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
  };
}

/** A TCP relay to `port` that holds every chunk for `delayMs` (changeable while it runs). */
export interface Relay {
  port: number;
  url: string;
  delayMs: number;
  close(): Promise<void>;
}

/** Starts a relay to a loopback port. */
export async function startRelay(port: number, delayMs = 0): Promise<Relay> {
  const sockets = new Set<Socket>();
  const relay: Relay = {
    port: 0,
    url: '',
    delayMs,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
  // Each direction keeps its order: a chunk is written `delayMs` after it arrived.
  const pipe = (from: Socket, to: Socket) =>
    from.on('data', (chunk) => {
      const write = () => to.writable && to.write(chunk);
      if (relay.delayMs > 0) setTimeout(write, relay.delayMs);
      else write();
    });
  const server = createServer((client) => {
    const target = connect(port, '127.0.0.1');
    for (const socket of [client, target]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        target.destroy();
      });
    }
    pipe(client, target);
    pipe(target, client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  relay.port = (server.address() as AddressInfo).port;
  relay.url = `redis://127.0.0.1:${relay.port}`;
  return relay;
}

/** Waits until `check` is true, looking every 20 ms; fails after `limitMs` with `what`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
