// What a page template sees (its Mustache view) and the live text of the JSON answer, in the
// answer's language: the numbers as given, ready-made words for people, every catalog message as
// `t.KEY`, the client messages for the page's script, and the language links.
import { enUS, type MessageKey } from './i18n/catalogs/en-US.js';
import type { MessageArgs } from './i18n/message.js';
import type { PageLanguage } from './i18n/page-language.js';
import {
  englishLanguage,
  estimateCoincides,
  formatDuration,
  formatDurationRange,
  formatPeople,
  formatUtc,
  waitSummary,
  type Estimate,
} from './i18n/page-text.js';
import type { Strings } from './i18n/strings.js';
import type { PageVars } from './pages.js';
import { SOLVER_PATH } from './solver-asset.js';

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
  [ARGS]: Partial<Record<MessageKey, MessageArgs>>;
  [CACHE]: Partial<Record<MessageKey, string>> = {};
  constructor(strings: Strings, args: Partial<Record<MessageKey, MessageArgs>>) {
    this[STRINGS] = strings;
    this[ARGS] = args;
  }
}
for (const key of KEYS) {
  Object.defineProperty(Texts.prototype, key, {
    enumerable: true,
    get(this: Texts): string {
      return (this[CACHE][key] ??= this[STRINGS].text(key, this[ARGS][key]));
    },
  });
}

/** Every catalog message of the answer, formatted with the arguments the answer has. */
export type PageTexts = Readonly<Record<MessageKey, string>>;

export interface LanguageLink {
  tag: string;
  name: string;
  href: string;
  current: boolean;
}

/** The request's query with `wr_lang` set to `tag`: every other parameter kept as it was written. */
export function languageHref(search: string, tag: string): string {
  const set = `wr_lang=${encodeURIComponent(tag)}`;
  const parts = search.replace(/^\?/, '').split('&').filter((p) => p !== '');
  let replaced = false;
  const kept: string[] = [];
  for (const p of parts) {
    if (p.split('=')[0] !== 'wr_lang') kept.push(p);
    else if (!replaced) {
      kept.push(set);
      replaced = true;
    }
  }
  if (!replaced) kept.push(set);
  return `?${kept.join('&')}`;
}

export function languageLinks(language: PageLanguage): LanguageLink[] {
  const chosen = language.strings.tag;
  return language.offered.map((l) => ({ tag: l.info.tag, name: l.info.name, href: languageHref(language.search, l.info.tag), current: l.info.tag === chosen }));
}

/** The client messages as written, as JSON: the page's script fills their `{time}` itself. */
export function clientText(strings: Strings): string {
  const out: Record<string, string> = {};
  for (const k of CLIENT_KEYS) out[k] = strings.source(k);
  return JSON.stringify(out);
}

/** The answer's words that do not depend on the template: shared by the view and the JSON answer's text. */
interface Words {
  estimate: Estimate | null;
  coincide: boolean;
  pending: boolean;
  startsIn: string | null;
  people: string | null;
  turnIn: string | null;
  wait: [string, string, string] | null;
  summary: string | null;
  args: Partial<Record<MessageKey, MessageArgs>>;
}

function words(vars: PageVars, strings: Strings): Words {
  const p25 = vars.waitTime25PercentileSeconds;
  const p50 = vars.waitTime50PercentileSeconds;
  const p75 = vars.waitTime75PercentileSeconds;
  // A half-filled estimate is a caller's bug; showing nothing beats showing "null minutes".
  const estimate = vars.hasEstimate && p25 !== null && p50 !== null && p75 !== null ? { p25, p50, p75 } : null;
  const pending = estimate === null && vars.waitTimePending === true;
  const duration = (s: number) => formatDuration(strings, s);
  const wait: Words['wait'] = estimate && [duration(estimate.p25), duration(estimate.p50), duration(estimate.p75)];
  const startsIn = vars.startsInSeconds === null ? null : duration(vars.startsInSeconds);
  const people = formatPeople(strings, vars.visitorsAhead);
  const turnIn = vars.turnInSeconds === null ? null : duration(vars.turnInSeconds);
  const args: Words['args'] = {
    placeAhead: { people: people ?? '' },
    turnIn: { duration: turnIn ?? '' },
    wait25: { duration: wait?.[0] ?? '' },
    wait50: { duration: wait?.[1] ?? '' },
    wait75: { duration: wait?.[2] ?? '' },
    waitWithin: { duration: wait?.[2] ?? '' },
    noscriptWaiting: { seconds: vars.refreshIntervalSeconds },
    hammerBody: { seconds: vars.retryAfterSeconds },
    clientStartsIn: { time: startsIn ?? '' },
    clientNextCheck: { time: duration(vars.retryAfterSeconds) },
  };
  return {
    estimate,
    coincide: estimate !== null && estimateCoincides(strings, estimate),
    pending,
    startsIn,
    people,
    turnIn,
    wait,
    summary: waitSummary(strings, estimate, pending),
    args,
  };
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
  message: string | null;
}

export function answerText(vars: PageVars, language: PageLanguage = englishLanguage(vars.message)): AnswerText {
  const s = language.strings;
  const w = words(vars, s);
  // The list of three figures is shown only when they differ (the summary says it once otherwise).
  const listed = w.coincide ? null : w.wait;
  return {
    title: s.text(titleKey(vars)),
    placeAhead: w.people === null ? null : s.text('placeAhead', w.args.placeAhead),
    turnIn: w.turnIn === null ? null : s.text('turnIn', w.args.turnIn),
    waitSummary: w.summary,
    wait25: listed && s.text('wait25', w.args.wait25),
    wait50: listed && s.text('wait50', w.args.wait50),
    wait75: listed && s.text('wait75', w.args.wait75),
    startsIn: w.startsIn === null ? null : s.text('clientStartsIn', w.args.clientStartsIn),
    message: language.message === '' ? null : language.message,
  };
}

/** Everything a template can use: the numbers as given plus ready-made text for people, in the answer's language. */
export function templateView(vars: PageVars, language: PageLanguage = englishLanguage(vars.message)): Record<string, unknown> {
  const s = language.strings;
  const w = words(vars, s);
  const info = s.locale.info;
  const texts = new Texts(s, w.args) as unknown as PageTexts;
  let client: string | undefined;
  let links: LanguageLink[] | undefined;
  return {
    ...vars,
    message: language.message,
    proofRequired: vars.proofRequired === true,
    proofSeconds: vars.proofSeconds ?? null,
    proofCompact: vars.proofCompact ?? null,
    solverUrl: vars.solverUrl ?? SOLVER_PATH,
    hasEstimate: w.estimate !== null,
    waitTimePending: w.pending,
    // The wait's section: the estimate, or the words saying it is being worked out (the page's script
    // fills in the figures when a later check brings them).
    showWait: w.estimate !== null || w.pending,
    waitTimesList: w.estimate !== null && !w.coincide,
    isStartWaiting: vars.status === 'startwaiting',
    isKeepWaiting: vars.status === 'keepwaiting',
    isDeny: vars.status === 'deny',
    isPrequeue: vars.status === 'prequeue',
    isClosed: vars.closed,
    isFifo: vars.queueingMethod === 'fifo',
    hasMessage: language.message !== '',
    startsInFormatted: w.startsIn,
    eventStartFormatted: formatUtc(s, vars.eventStartIso),
    hasPlace: vars.visitorsAhead !== null || vars.turnInSeconds !== null,
    visitorsAheadFormatted: w.people,
    turnInFormatted: w.turnIn,
    retryAfterFormatted: formatDuration(s, vars.retryAfterSeconds),
    waitTime25Formatted: w.wait && w.wait[0],
    waitTime50Formatted: w.wait && w.wait[1],
    waitTime75Formatted: w.wait && w.wait[2],
    // The middle half of visitors in one phrase, as Cloudflare's `waitTimeFormatted` ("5 minutes to 15 minutes").
    waitTimeFormatted: w.estimate && formatDurationRange(s, w.estimate.p25, w.estimate.p75),
    // When the three figures read the same, one sentence says it instead of the same words three times.
    waitTimesCoincide: w.coincide,
    waitTimeSummary: w.summary,
    lang: info.tag,
    dir: info.dir,
    language: info.name,
    t: texts,
    // Made on first read: a template that never prints them costs nothing.
    get clientText(): string {
      return (client ??= clientText(s));
    },
    get languageLinks(): LanguageLink[] {
      return (links ??= languageLinks(language));
    },
    hasLanguageLinks: language.offered.length > 1,
  };
}
