/**
 * `venue-booking-proxy`: the proxy as a Node server. Settings come from the environment (see
 * config.ts); with no credentials it runs on the embedded sandbox, and says so.
 */
import { serve } from '@hono/node-server';
import { createProxy } from './app.js';
import { configFromEnv, ConfigError } from './config.js';
import { createStack } from './stack.js';

const port = Number(process.env.PORT ?? 8080);

function start() {
  let config;
  try {
    config = configFromEnv(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const origin = `http://localhost:${port}`;
  const handler = config.embedded
    ? createStack({ origin, proxy: config.venues.length ? { venues: config.venues } : {} })
    : createProxy(config);
  serve({ fetch: handler.fetch, port }, (info) => {
    const mode = config.embedded
      ? 'on the embedded sandbox (no VENUE_BOOKING_APP_ID / VENUE_BOOKING_API_KEY set): bookings are not real'
      : `upstream ${config.upstream}`;
    console.log(JSON.stringify({ level: 'info', msg: `venue-booking-proxy listening on http://localhost:${info.port}`, mode }));
  });
}

start();
