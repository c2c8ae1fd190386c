/**
 * What the proxy bench runs in its own process to relay reads (`relayingEntry`): the proxy's Node
 * parts and the bin's logger. Built by `builtRelayingParts` as the bin is built; imported as it is
 * by the profiling tools (relay-latency.ts, relay-micro.ts), which run the sources.
 */
export { createProxy } from '../../proxy/app.js';
export { Metrics } from '../../proxy/core/metrics.js';
export { nodeListener } from '../../proxy/node/listener.js';
export { prometheusBackend } from '../../proxy/node/prometheus.js';
export { nodeTransport } from '../../proxy/node/transport.js';
export { binLogger } from './bin-logger.js';
