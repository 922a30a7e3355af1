// What the app client tells an app, and the room's JSON answer as it reads it (docs/apps.md). The
// shapes an app sees: they import nothing, so the built client's declarations stand alone.

/** One ALTCHA v2 challenge of the proof of work (docs/bots.md, "For apps"). */
export interface AltchaChallenge {
  parameters: { algorithm: string; cost: number; keyLength: number; keyPrefix: string; nonce: string; salt: string };
}

/** `waitingRoom.proof`: the puzzle the next check must bring the solution of. */
export interface ProofAsked {
  scheme: string;
  /** The request header the solution goes in: `waiting-room-proof`. */
  header: string;
  /** The difficulty: expected seconds on a low-end phone. */
  seconds: number;
  /** Counters per challenge: each solution is below it. */
  counters: number;
  challenges: AltchaChallenge[];
}

/** The priority lane a visitor waits in (docs/lanes.md): its id, and the name the page shows. */
export interface Lane {
  id: string;
  name: string;
}

/** The page's live words for the figures, in the answer's language, null where the page shows none. */
export interface AnswerText {
  title: string | null;
  placeAhead: string | null;
  turnIn: string | null;
  waitSummary: string | null;
  wait25: string | null;
  wait50: string | null;
  wait75: string | null;
  startsIn: string | null;
  message: string | null;
  /** "Your lane: Members", null in the general lane. */
  lane: string | null;
  [more: string]: string | null;
}

/** The room's JSON answer (`waitingRoom`), as the client read it: each field of a type, or its null. */
export interface RoomAnswer {
  status: 'startwaiting' | 'keepwaiting' | 'prequeue' | 'deny';
  retryAfterSeconds: number | null;
  refreshIntervalSeconds: number | null;
  jitterSeconds: number | null;
  waitTime25PercentileSeconds: number | null;
  waitTime50PercentileSeconds: number | null;
  waitTime75PercentileSeconds: number | null;
  /** The room has no forecast yet: "working out your wait". */
  waitTimePending: boolean;
  allowPercentage: number | null;
  chancePercentage: number | null;
  /** Where the chance comes from: `allow_percentage`, `schedule` or `fallback`. */
  chanceSource: string | null;
  queueingMethod: string | null;
  /** The countdown's start (ISO 8601) and the seconds until it, on `prequeue`. */
  eventStart: string | null;
  startsInSeconds: number | null;
  /** `fifo` or `prequeue` for a place in line, null for a draw's token. */
  placeQueue: string | null;
  visitorsAhead: number | null;
  turnInSeconds: number | null;
  /** The priority lane the visitor waits in (`lane`, `laneName`); null in the general lane. */
  lane: Lane | null;
  /** The operator's message in the answer's language, '' when none. */
  message: string;
  language: string | null;
  languages: string[];
  text: AnswerText | null;
  /** The puzzle of this token's draw; null when none is asked, absent (undefined) when the answer did not say. */
  proof: ProofAsked | null | undefined;
  /** The 429 of `hammer_limit`: checked too often, the token kept. */
  hammering: boolean;
  /** The whole `waitingRoom` object, for fields this client does not name. */
  raw: Record<string, unknown>;
}

/** What the room said, one event per check (and one for a proof the check waits on). */
export type RoomEvent =
  /** In line (`startwaiting`, `keepwaiting`): the figures, and when the client checks again. */
  | { type: 'waiting'; answer: RoomAnswer; httpStatus: number; nextCheckSeconds: number }
  /** A scheduled sale has not started: `answer.startsInSeconds`, `answer.eventStart`. */
  | { type: 'countdown'; answer: RoomAnswer; httpStatus: number; nextCheckSeconds: number }
  /** The room is closed (`deny`): the client checks again after 300 s or more, as the deny page does. */
  | { type: 'denied'; answer: RoomAnswer; httpStatus: number; nextCheckSeconds: number }
  /** A 429 or 503 (the room's hammering answer, or one without the room's body): checked again at its Retry-After. */
  | { type: 'busy'; httpStatus: number; hammering: boolean; nextCheckSeconds: number }
  /** The check is due but waits for the proof of work, which is being solved. */
  | { type: 'solving'; seconds: number }
  /** The network failed (or the room answered what cannot be read): the client backs off. */
  | { type: 'error'; error: unknown; attempt: number; nextCheckSeconds: number }
  /** The visitor's turn: the origin's own answer. The watch ends here. */
  | { type: 'turn'; response: Response };

/** The client's clock: real time unless a test gives its own. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Solves a proof of work: the `waiting-room-proof` header's value (the counters, or `none` when it cannot). */
export type ProofSolver = (proof: ProofAsked, signal: AbortSignal) => Promise<string>;

export interface WatchOptions {
  /** Stops the watch: the iterator ends, waitForTurn rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The fetch to use (default globalThis.fetch): a native shell's, or a test's with its own cookie jar. */
  fetch?: typeof fetch;
  /** Default `include`: the room's cookie rides every check. */
  credentials?: RequestCredentials;
  /** Sent as Accept-Language: the language the answer's `text` and `message` are in (default: the browser's). */
  language?: string;
  /** More request headers (Accept and waiting-room-proof are the client's). */
  headers?: Record<string, string>;
  /** Solves the proof of work (default: the waiting page's own solver, in a Web Worker where there is one). */
  solver?: ProofSolver;
  /** Uniform [0, 1), for the jitter (default Math.random). */
  random?: () => number;
  clock?: Clock;
  /** The longest wait after failed checks, seconds (default 60). */
  maxBackoffSeconds?: number;
}

/** `open`: nobody waits; `queueing`: a visitor arriving now waits; `closed`: nobody new gets in; `countdown`: a sale's pre-queue; `unknown`: not described yet. */
export type StatusState = 'open' | 'queueing' | 'closed' | 'countdown' | 'unknown';

/** A room's public status (docs/status.md), as the client read it: each field of its type, or null. */
export interface RoomStatus {
  room: string;
  state: StatusState;
  /** Why the room is in its state (docs/status.md lists each). */
  reason: string | null;
  /** The wait of a visitor arriving now, seconds: 0 when open, null when none is promised. */
  waitTime25PercentileSeconds: number | null;
  waitTime50PercentileSeconds: number | null;
  waitTime75PercentileSeconds: number | null;
  waitTimePending: boolean;
  chancePercentage: number | null;
  chanceSource: string | null;
  queueingMethod: string | null;
  eventPrequeueStart: string | null;
  eventStart: string | null;
  eventEnd: string | null;
  startsInSeconds: number | null;
  /** When the room's status was last worked out (ISO 8601). */
  updated: string | null;
  raw: Record<string, unknown>;
}

export interface StatusOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
}
