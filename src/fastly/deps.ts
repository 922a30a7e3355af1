/// <reference types="@fastly/js-compute" />
// RoomDeps from the Fastly runtime: stores, the `origin` backend, named loggers, the client address.
import { configureConsole, Logger } from 'fastly:logger';
import type { RoomDeps } from '../core/types.js';
import { ORIGIN_BACKEND } from './names.js';
import { fastlyStores } from './stores.js';

// One Logger per endpoint name; a name the service lacks is reported once, not per line.
const loggers = new Map<string, Logger | null>();

function logTo(endpoint: string, line: string, diag: (m: string) => void): void {
  let logger = loggers.get(endpoint);
  if (logger === undefined) {
    try {
      logger = new Logger(endpoint);
    } catch (error) {
      diag(`log_endpoint "${endpoint}" is not a log endpoint of this service (${String(error)})`);
      logger = null;
    }
    loggers.set(endpoint, logger);
  }
  logger?.log(line);
}

function diag(message: string): void {
  console.error(`[waiting-room] ${message}`);
}

let consoleReady = false;

export function fastlyDeps(event: FetchEvent): RoomDeps {
  if (!consoleReady) {
    // js-compute writes console.error to stdout unless told otherwise; diagnostics belong on stderr,
    // apart from the guest's ordinary output (Viceroy and the local host show the two separately).
    configureConsole({ stderr: true });
    consoleReady = true;
  }
  let clientIp: string | null = null;
  try {
    clientIp = event.client.address || null;
  } catch {
    clientIp = null;
  }
  return {
    stores: fastlyStores(diag),
    clientIp,
    now: () => Date.now(),
    log: (endpoint, line) => logTo(endpoint, line, diag),
    diag,
    origin: (request) => fetch(request, { backend: ORIGIN_BACKEND }),
  };
}
