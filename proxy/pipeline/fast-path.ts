/**
 * The Node entry's cache in front of the pipeline: a GET the app has just answered from its read
 * cache, asked again, is answered without building a Request, running Hono's router or building a
 * Response. The listener (node/listener.ts) asks it first; an edge runtime never does.
 *
 * It only finds what to send, and defers (null) on any doubt, so the app answers the rest:
 *
 * - a remembered answer (state/answer-memo.ts): this very URL (and, without a public URL, this
 *   Host) answered by the app within the last second from the cache, so its parameters and venue
 *   passed the route's checks, and the cache still holds that very entry;
 * - else, for a row the table lets it run (`fast: 'relay'`), the route's read, when its checks are
 *   simple enough to make here (the row's `fastRead`: an availability GET of a configured venue
 *   with a valid query).
 *
 * What it finds goes through the same pipeline as every request (pipeline/sequence.ts `Sequence`): guards,
 * limit, headers, encoding, record.
 */
import { plainUrl, type RequestUrl } from '../core/url.js';
import { queryParams } from '../guards/validate.js';
import { memoKey, type ProxyContext } from '../context.js';
import { templateMatcher } from '../paths.js';
import type { FastAnswer, FastRequest, Sequence, Source } from './sequence.js';
import type { Route } from '../routes.js';
import type { Memo } from '../state/answer-memo.js';
import { after, type Awaitable } from '../state/types.js';

export type { FastAnswer, FastRequest } from './sequence.js';

/** A row whose answers the cache may give, the matcher of its template, and its route label. */
interface FastRow {
  label: string;
  match: (pathname: string) => Record<string, string> | null;
  /** The row's read, for a row the cache may run itself (`fast: 'relay'`). */
  read?: NonNullable<Route['fastRead']>;
}

/** The Node entry's cache of one proxy. */
export class FastPath {
  private readonly rows: FastRow[];
  private readonly replays = new WeakMap<Memo, Source | null>();

  constructor(
    private readonly ctx: ProxyContext,
    routes: readonly Route[],
    private readonly sequence: Sequence,
  ) {
    this.rows = routes.flatMap((route) =>
      route.fast
        ? [
            {
              label: route.label ?? route.path,
              match: templateMatcher(route.path),
              read: route.fast === 'relay' ? route.fastRead : undefined,
            },
          ]
        : [],
    );
  }

  /**
   * The answer to a GET, or null when the app must answer it (and records it). At once when the
   * state answers at once (the memory state always), so that a remembered read is answered in the
   * turn it arrived; a promise otherwise.
   */
  answer(request: FastRequest): Awaitable<FastAnswer | null> {
    const { answers, config, state } = this.ctx;
    answers.wanted = true;
    const url = requestUrl(request);
    if (!url) return null;
    const key = memoKey(config, url);
    const memo = answers.get(key);
    if (!memo) return this.run(request, url, this.read(url));
    return after(state.peekRead(memo.cacheKey, false), (cached) => {
      if (cached?.value === memo.relayed && cached.source === 'HIT') return this.run(request, url, this.replay(memo));
      answers.drop(key);
      return this.run(request, url, this.read(url));
    });
  }

  /** A remembered answer as a source, labelled by its row (found once per memo). */
  private replay(memo: Memo): Source | null {
    let source = this.replays.get(memo);
    if (source === undefined) {
      const row = this.rows.find((candidate) => candidate.match(memo.pathname));
      source = row
        ? { route: row.label, made: memo.sent, series: this.sequence.series(row.label, memo.sent.status) }
        : null;
      this.replays.set(memo, source);
    }
    return source;
  }

  private run(request: FastRequest, url: RequestUrl, source: Source | null | undefined): Awaitable<FastAnswer | null> {
    return source ? this.sequence.run(request, url, source) : null;
  }

  /** The read of a row the cache may run for a GET of `url`, with its route label; null leaves it to the app. */
  private read(url: RequestUrl): Source | null {
    for (const row of this.rows) {
      const params = row.match(url.pathname);
      if (!params) continue;
      if (!row.read) return null;
      const query = queryParams(url.search);
      if (query.errors.length) return null;
      try {
        const spec = row.read(this.ctx, params, query.raw);
        return spec && { route: row.label, read: spec };
      } catch {
        return null;
      }
    }
    return null;
  }
}

/** The URL of a fast request: split when the host found it plain, else parsed; null when it does not parse. */
function requestUrl(request: FastRequest): RequestUrl | null {
  const { plain } = request;
  const split = plain && plainUrl(plain.scheme, plain.host, plain.target);
  if (split) return split;
  try {
    return new URL(request.url);
  } catch {
    return null;
  }
}
