// What a page template sees (its Mustache view) and the live text of the JSON answer, in the
// answer's language: the numbers as given, ready-made words for people, every catalog message as
// `t.KEY`, the client messages for the page's script, and the language links.
import {
  enUS,
  type MessageKey,
  type MessageArgs,
  type PageLanguage,
  englishLanguage,
  estimateCoincides,
  estimateWords,
  formatDuration,
  formatDurationRange,
  formatPeople,
  formatUtc,
  waitSummary,
  wordedText,
  type Estimate,
  type EstimateWords,
  type Strings,
} from '../i18n/index.js';
import { sandboxMemory } from '../memory/index.js';
import { SOLVER_PATH } from './solver-asset.js';
import type { PageName, PlaceQueue } from '../types.js';
import { languageLinks, languageLinksHtml, type LanguageLink } from '../answer/index.js';

export interface PageVars {
  status: PageName;
  /** Seconds until the visitor's token may be drawn (the Retry-After header). */
  retryAfterSeconds: number;
  /** Seconds after which a page without script reloads (Retry-After plus the server's jitter). */
  refreshIntervalSeconds: number;
  /** The page adds uniform(0, jitterSeconds) to retryAfterSeconds before checking again. */
  jitterSeconds: number;
  allowPercentage: number;
  waitPeriodSeconds: number;
  /** False when no estimate makes sense (deny, or the room admits nobody). */
  hasEstimate: boolean;
  /** The visitor will be drawn, but the room has no forecast yet (answer.ts): the page says it is working the wait out. Absent: false. */
  waitTimePending?: boolean;
  waitTime25PercentileSeconds: number | null;
  waitTime50PercentileSeconds: number | null;
  waitTime75PercentileSeconds: number | null;
  /** The operator's `message`, '' when none (Mustache escapes it). */
  message: string;
  /** Pre-queue page: the event start as ISO 8601 UTC text, and whole seconds until it; null elsewhere. */
  eventStartIso: string | null;
  startsInSeconds: number | null;
  /** A visitor holding a place (fifo, or the shuffled pre-queue after the start): visitors ahead and whole seconds until their turn; each null when unknown or not in such a queue. */
  visitorsAhead: number | null;
  turnInSeconds: number | null;
  /**
   * The line the visitor's place is in: `prequeue` for a place the sale's pre-queue gave at the start
   * (let in by that shuffled order, not by draw or arrival), `fifo` for a first-come one. Absent: null, no place.
   */
  placeQueue?: PlaceQueue | null;
  /** The deny page shown because the event ended with event_end_action = close. */
  closed: boolean;
  /** `queueing_method`: the pages explain a draw or a line accordingly. */
  queueingMethod: 'random' | 'fifo';
  /** The draw asks for a proof of work (docs/bots.md): the page's solver works it out. Absent: false. */
  proofRequired?: boolean;
  /** Its difficulty, expected seconds on a low-end phone; null (or absent) when none is asked. */
  proofSeconds?: number | null;
  /** The puzzle in its compact form (`1.M.salt.noncePrefix.P0.….P7`) for the page's solver; null (or absent) when none is asked. */
  proofCompact?: string | null;
  /**
   * A preview link's page (docs/operating.md, "Previewing a page"): made-up figures, and the built-in
   * scripts never check the room (they show what a check would say). Absent: false.
   */
  preview?: boolean;
  /** Where the page loads the proof-of-work solver (the edge serves it: src/core/pages/solver-asset.ts). Absent: the built-in solver's path. */
  solverUrl?: string;
  /** The name of the priority lane the visitor waits in (docs/lanes.md); null (or absent) in the general lane. */
  laneName?: string | null;
}

const KEYS = Object.keys(enUS) as MessageKey[];
const CLIENT_KEYS = KEYS.filter((k) => k.startsWith('client'));

const STRINGS = Symbol('strings');
const ARGS = Symbol('args');
const CACHE = Symbol('cache');

/**
 * `t` of the view: every catalog key as a property whose text is formatted on first read, so a
 * render pays only for the messages its template prints (a Mustache lookup is `key in t`, then
 * `t[key]`: both see the getters on the prototype).
 */
class Texts {
  [STRINGS]: Strings;
  [ARGS]: Words;
  [CACHE]: Partial<Record<MessageKey, string>> = {};
  constructor(strings: Strings, args: Words) {
    this[STRINGS] = strings;
    this[ARGS] = args;
  }
}
for (const key of KEYS) {
  Object.defineProperty(Texts.prototype, key, {
    enumerable: true,
    get(this: Texts): string {
      return (this[CACHE][key] ??= wordedText(this[STRINGS], key, this[ARGS].args(key)));
    },
  });
}

/** Every catalog message of the answer, formatted with the arguments the answer has. */
export type PageTexts = Readonly<Record<MessageKey, string>>;

const builtinClientText = sandboxMemory.table<string, string>(
  'derived',
  'client messages as JSON',
  Number.POSITIVE_INFINITY,
);

/** The client messages as written, as JSON: the page's script fills their `{time}` itself. */
export function clientText(strings: Strings): string {
  // The catalog's own messages (no override for them) make the same text in every answer: kept,
  // in the sandbox's memory, made at build time for the languages the warm-up renders (src/core/warm.ts).
  const builtin = CLIENT_KEYS.every((k) => strings.builtin(k));
  const kept = builtin ? builtinClientText.get(strings.tag) : undefined;
  if (kept !== undefined) return kept;
  const out: Record<string, string> = {};
  for (const k of CLIENT_KEYS) out[k] = strings.source(k);
  const json = JSON.stringify(out);
  if (builtin) builtinClientText.set(strings.tag, json);
  return json;
}

/**
 * The answer's words that do not depend on the template, shared by the view and the JSON answer's
 * text. Each is made on first use: a template that does not print one does not pay for it.
 */
class Words {
  readonly estimate: Estimate | null;
  readonly pending: boolean;
  private memo = new Map<string, unknown>();
  constructor(
    private readonly vars: PageVars,
    private readonly strings: Strings,
  ) {
    const p25 = vars.waitTime25PercentileSeconds;
    const p50 = vars.waitTime50PercentileSeconds;
    const p75 = vars.waitTime75PercentileSeconds;
    // A half-filled estimate is a caller's bug; showing nothing beats showing "null minutes".
    this.estimate = vars.hasEstimate && p25 !== null && p50 !== null && p75 !== null ? { p25, p50, p75 } : null;
    this.pending = this.estimate === null && vars.waitTimePending === true;
  }

  private once<T>(name: string, make: () => T): T {
    if (!this.memo.has(name)) this.memo.set(name, make());
    return this.memo.get(name) as T;
  }

  /** A wait in words; null for none, and for one that is not a wait (no "your turn in an unknown time"). */
  private duration(seconds: number | null): string | null {
    return seconds === null || !Number.isFinite(seconds) || seconds < 0 ? null : formatDuration(this.strings, seconds);
  }

  get wait(): EstimateWords | null {
    return this.once('wait', () => this.estimate && estimateWords(this.strings, this.estimate));
  }
  get coincide(): boolean {
    return this.wait !== null && estimateCoincides(this.wait);
  }
  get summary(): string | null {
    return this.once('summary', () => waitSummary(this.strings, this.estimate, this.pending, this.wait));
  }
  get range(): string | null {
    const e = this.estimate;
    const w = this.wait;
    return this.once('range', () => e && w && formatDurationRange(this.strings, e.p25, e.p75, w[0], w[2]));
  }
  get startsIn(): string | null {
    return this.once('startsIn', () => this.duration(this.vars.startsInSeconds));
  }
  get people(): string | null {
    return this.once('people', () => formatPeople(this.strings, this.vars.visitorsAhead));
  }
  get turnIn(): string | null {
    return this.once('turnIn', () => this.duration(this.vars.turnInSeconds));
  }
  get eventStart(): string | null {
    return this.once('eventStart', () => formatUtc(this.strings, this.vars.eventStartIso));
  }
  get retryAfter(): string {
    return this.once('retryAfter', () => formatDuration(this.strings, this.vars.retryAfterSeconds));
  }

  /** The arguments of the messages that take some, from this answer. */
  args(key: MessageKey): MessageArgs | undefined {
    switch (key) {
      case 'placeAhead':
        return { people: this.people ?? '' };
      case 'turnIn':
        return { duration: this.turnIn ?? '' };
      case 'wait25':
      case 'wait50':
      case 'wait75':
        return { duration: this.wait?.[key === 'wait25' ? 0 : key === 'wait50' ? 1 : 2] ?? '' };
      case 'waitWithin':
        return { duration: this.wait?.[2] ?? '' };
      case 'noscriptWaiting':
        return { seconds: this.vars.refreshIntervalSeconds };
      case 'hammerBody':
        return { seconds: this.vars.retryAfterSeconds };
      case 'clientStartsIn':
        return { time: this.startsIn ?? '' };
      case 'clientNextCheck':
        return { time: this.retryAfter };
      case 'yourLane':
        return { lane: this.vars.laneName ?? '' };
      default:
        return undefined;
    }
  }
}

function titleKey(vars: PageVars): MessageKey {
  if (vars.status === 'prequeue') return 'prequeueTitle';
  if (vars.status === 'deny') return vars.closed ? 'closedTitle' : 'denyTitle';
  return vars.status === 'keepwaiting' ? 'waitingTitleKeep' : 'waitingTitleStart';
}

/** The JSON answer's `text`: each live string as the page's first render shows it, null where it shows nothing. */
export interface AnswerText {
  title: string;
  placeAhead: string | null;
  turnIn: string | null;
  waitSummary: string | null;
  wait25: string | null;
  wait50: string | null;
  wait75: string | null;
  startsIn: string | null;
  /** The lane the visitor waits in, in words (`yourLane`); null in the general lane. */
  lane: string | null;
  message: string | null;
}

export function answerText(vars: PageVars, language: PageLanguage = englishLanguage(vars.message)): AnswerText {
  const s = language.strings;
  const w = new Words(vars, s);
  // The list of three figures is shown only when they differ (the summary says it once otherwise).
  const listed = w.coincide ? null : w.wait;
  return {
    title: s.text(titleKey(vars)),
    placeAhead: w.people === null ? null : s.text('placeAhead', w.args('placeAhead')),
    turnIn: w.turnIn === null ? null : s.text('turnIn', w.args('turnIn')),
    waitSummary: w.summary,
    wait25: listed && s.text('wait25', w.args('wait25')),
    wait50: listed && s.text('wait50', w.args('wait50')),
    wait75: listed && s.text('wait75', w.args('wait75')),
    startsIn: w.startsIn === null ? null : s.text('clientStartsIn', w.args('clientStartsIn')),
    lane: vars.laneName ? s.text('yourLane', w.args('yourLane')) : null,
    message: language.message === '' ? null : language.message,
  };
}

const WORDS = Symbol('words');
const LANGUAGE = Symbol('language');
const MEMO = Symbol('memo');

/**
 * The view's words, as getters on a prototype made once: a render pays only for what its template
 * prints (an object literal of getters would cost more to make than the words themselves).
 */
class ViewWords {
  [WORDS]: Words;
  [LANGUAGE]: PageLanguage;
  [MEMO]: { client?: string; links?: LanguageLink[] } = {};
  constructor(words: Words, language: PageLanguage) {
    this[WORDS] = words;
    this[LANGUAGE] = language;
  }
  get waitTimesList(): boolean {
    return this[WORDS].estimate !== null && !this[WORDS].coincide;
  }
  get startsInFormatted(): string | null {
    return this[WORDS].startsIn;
  }
  get eventStartFormatted(): string | null {
    return this[WORDS].eventStart;
  }
  get visitorsAheadFormatted(): string | null {
    return this[WORDS].people;
  }
  get turnInFormatted(): string | null {
    return this[WORDS].turnIn;
  }
  get retryAfterFormatted(): string {
    return this[WORDS].retryAfter;
  }
  get waitTime25Formatted(): string | null {
    return this[WORDS].wait?.[0] ?? null;
  }
  get waitTime50Formatted(): string | null {
    return this[WORDS].wait?.[1] ?? null;
  }
  get waitTime75Formatted(): string | null {
    return this[WORDS].wait?.[2] ?? null;
  }
  /** The middle half of visitors in one phrase, as Cloudflare's `waitTimeFormatted` ("5 minutes to 15 minutes"). */
  get waitTimeFormatted(): string | null {
    return this[WORDS].range;
  }
  /** When the three figures read the same, one sentence says it instead of the same words three times. */
  get waitTimesCoincide(): boolean {
    return this[WORDS].coincide;
  }
  get waitTimeSummary(): string | null {
    return this[WORDS].summary;
  }
  get clientText(): string {
    return (this[MEMO].client ??= clientText(this[LANGUAGE].strings));
  }
  get languageLinks(): LanguageLink[] {
    return (this[MEMO].links ??= languageLinks(this[LANGUAGE]));
  }
  /** The same links as HTML, ready-made: what the built-in templates print (language-links.ts). */
  get languageLinksHtml(): string {
    return languageLinksHtml(this[LANGUAGE]);
  }
}

/** Everything a template can use: the numbers as given plus ready-made text for people, in the answer's language. */
export function templateView(
  vars: PageVars,
  language: PageLanguage = englishLanguage(vars.message),
): Record<string, unknown> {
  const s = language.strings;
  const w = new Words(vars, s);
  const info = s.locale.info;
  const estimate = w.estimate !== null;
  return Object.assign(new ViewWords(w, language), vars, {
    message: language.message,
    preview: vars.preview === true,
    proofRequired: vars.proofRequired === true,
    proofSeconds: vars.proofSeconds ?? null,
    proofCompact: vars.proofCompact ?? null,
    solverUrl: vars.solverUrl ?? SOLVER_PATH,
    laneName: vars.laneName ?? null,
    hasEstimate: estimate,
    waitTimePending: w.pending,
    // The wait's section: the estimate, or the words saying it is being worked out (the page's script
    // fills in the figures when a later check brings them).
    showWait: estimate || w.pending,
    isStartWaiting: vars.status === 'startwaiting',
    isKeepWaiting: vars.status === 'keepwaiting',
    isDeny: vars.status === 'deny',
    isPrequeue: vars.status === 'prequeue',
    isClosed: vars.closed,
    isFifo: vars.queueingMethod === 'fifo',
    // A pre-queue place is let in by the order the start shuffled, in a random room as in a fifo one.
    hasPrequeuePlace: vars.placeQueue === 'prequeue',
    placeQueue: vars.placeQueue ?? null,
    hasMessage: language.message !== '',
    hasPlace: vars.visitorsAhead !== null || vars.turnInSeconds !== null,
    lang: info.tag,
    dir: info.dir,
    language: info.name,
    t: new Texts(s, w),
    hasLanguageLinks: language.offered.length > 1,
  }) as unknown as Record<string, unknown>;
}
