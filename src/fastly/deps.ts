/// <reference types="@fastly/js-compute" />
// RoomDeps from the Fastly runtime: stores, the `origin` backend, named loggers, the client address.
import { PenaltyBox, RateCounter } from 'fastly:edge-rate-limiter';
import { env } from 'fastly:env';
import { configureConsole, Logger } from 'fastly:logger';
import { type SandboxMemory, sandboxMemory } from '../core/memory/index.js';
import type { AdmissionCounter, PenaltyBox as Box, RoomDeps } from '../core/types.js';
import { fastlyEdgeLookups } from './edge-lookups.js';
import { ADMISSION_COUNTER, HAMMER_BOX, ORIGIN_BACKEND, STDOUT_LOG } from './names.js';
import { fastlyStores } from './stores.js';

// One Logger per endpoint name; a name the service lacks is reported once, not per line.
const loggers = sandboxMemory.table<string, Logger | null>('service', 'log endpoints', Number.POSITIVE_INFINITY);

function logTo(endpoint: string, line: string, diag: (m: string) => void): void {
  // What `fastly log-tail` shows: the instance's stdout, for a controller that tails it.
  if (endpoint === STDOUT_LOG) {
    console.log(line);
    return;
  }
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

// The POP's admissions counter and hammer_limit's penalty box, each opened once per sandbox.
const counters = sandboxMemory.table<string, AdmissionCounter | null>('service', 'rate counters', 1);
const boxes = sandboxMemory.table<string, Box | null>('service', 'penalty boxes', 1);

// A runtime without a counter is reported by what needed it (the ceiling, hammer_limit), once and in
// its own words: a message here would be a second one.
function admissionCounter(): AdmissionCounter | null {
  let counter = counters.get(ADMISSION_COUNTER);
  if (counter !== undefined) return counter;
  try {
    const rc = new RateCounter(ADMISSION_COUNTER);
    counter = {
      increment: (entry, delta) => rc.increment(entry, delta),
      count: (entry, seconds) => rc.lookupCount(entry, seconds),
    };
  } catch {
    counter = null;
  }
  counters.set(ADMISSION_COUNTER, counter);
  return counter;
}

// Without a penalty box the limit counts alone (a service without the edge rate limiter has no
// counter either, and hammer_limit says so).
function penaltyBox(): Box | null {
  let box = boxes.get(HAMMER_BOX);
  if (box !== undefined) return box;
  try {
    const pb = new PenaltyBox(HAMMER_BOX);
    box = { has: (entry) => pb.has(entry), add: (entry, minutes) => pb.add(entry, minutes) };
  } catch {
    box = null;
  }
  boxes.set(HAMMER_BOX, box);
  return box;
}

/**
 * The visitor's request sent on to the origin as it is. A method the client spelled in lower case
 * (`get`, `post`) js-compute reads as the fetch spec says (`GET`, `POST`), and then refuses to build
 * any request from that one (`Request constructor: |init| parameter can't be converted to a
 * dictionary`): fetch throws before anything is sent, so the request is built anew from its URL,
 * method, headers and body. Only then: copying the headers would cost every request ~0.3 ms. The
 * error is recognised by its type and the text js-compute 3.46.0 gives it; test/e2e/origin.test.ts
 * sends lower-case methods through the built room, so an upgrade that changes the text shows there.
 */
async function toOrigin(request: Request): Promise<Response> {
  try {
    return await fetch(request, { backend: ORIGIN_BACKEND });
  } catch (error) {
    if (!(error instanceof TypeError) || !error.message.startsWith('Request constructor')) throw error;
    const bodyless = request.method === 'GET' || request.method === 'HEAD';
    return fetch(request.url, {
      backend: ORIGIN_BACKEND,
      method: request.method,
      headers: request.headers,
      body: bodyless ? null : request.body,
    });
  }
}

function popName(): string | null {
  try {
    return env('FASTLY_POP') || null;
  } catch {
    return null;
  }
}

/** What the room needs for one request; `memory` is the sandbox's, kept between its requests. */
export function fastlyDeps(event: FetchEvent, memory?: SandboxMemory): RoomDeps {
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
    stores: fastlyStores(diag, memory),
    memory,
    clientIp,
    now: () => Date.now(),
    log: (endpoint, line) => logTo(endpoint, line, diag),
    diag,
    origin: toOrigin,
    pop: popName(),
    edge: fastlyEdgeLookups(event),
    // Opened only when a ceiling or hammer_limit is set: Fastly's edge rate limiter is a paid feature.
    get rateCounter() {
      return admissionCounter();
    },
    get penaltyBox() {
      return penaltyBox();
    },
  };
}
