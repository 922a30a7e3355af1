// What a route is: the stand-in's state, a request as a handler sees it, and the answer it gives.
import type { ServerResponse } from 'node:http';
import type { ComputeAcls } from './compute-acls.js';
import type { Answer, ConfigStores } from './config-store.js';
import type { LogStreams } from './log-tail.js';
import type { SecretStores } from './secret-store.js';
import type { Services } from './services.js';

export interface State {
  config: ConfigStores;
  secrets: SecretStores;
  services: Services;
  logs: LogStreams;
  acls: ComputeAcls;
}

export interface Request {
  method: string;
  params: string[];
  query: URLSearchParams;
  /** The body: JSON parsed, a form as its fields, else null. */
  body: unknown;
  /** A field of a form body, a multipart body or a JSON object body. */
  field(name: string): string | undefined;
  /** Every field of a form or multipart body (strings only of a JSON body). */
  fields(): Record<string, string>;
  /** A file part of a multipart body, its bytes. */
  file(name: string): Buffer | undefined;
  /** The stand-in's own address, for links it hands out. */
  base: string;
  /** Rate-limit headers for answers written directly (a held log-tail poll). */
  headers: Record<string, string>;
}

/** An Answer, or 'streamed' when the handler wrote (or will write) the response itself. */
export type Handler = (state: State, req: Request, res: ServerResponse) => Answer | 'streamed';

export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** Calls that do not spend the rate limit (the log stream, the account endpoint). */
  free?: boolean;
}
