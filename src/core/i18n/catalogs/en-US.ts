// The built-in strings in English (United States): the reference catalog. Every other catalog has
// exactly these keys (TypeScript holds them to it) and every plural form its language needs
// (test/core/i18n/locales.test.ts). Messages are ICU MessageFormat: `{name}` is an argument,
// `{n, plural, one {…} other {…}}` chooses by the language's plural rules, `#` is the number.
// Keys under "client" are sent to the page's script and may hold only plain `{name}` arguments.
import type { LocaleInfo } from '../types.js';

export const info: LocaleInfo = {
  tag: 'en-US',
  name: 'English',
  dir: 'ltr',
  number: { decimal: '.', group: ',', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const enUS = {
  // Shared by every page.
  fromSite: 'From the site:',
  languageLabel: 'Language',
  checkNow: 'Check now',

  // Durations and counts, as the edge writes them (estimates are rough: "about 3 minutes").
  durationUnknown: 'an unknown time',
  durationUnderMinute: 'less than a minute',
  durationMinutes: '{minutes, plural, =1 {about a minute} one {about # minute} other {about # minutes}}',
  durationHours: '{hours, plural, =1 {about an hour} one {about # hour} other {about # hours}}',
  durationRangeMinutes: '{to, plural, one {about {from} to # minute} other {about {from} to # minutes}}',
  durationRangeHours: '{to, plural, one {about {from} to # hour} other {about {from} to # hours}}',
  durationRange: '{from} to {to}',
  peopleNone: 'nobody',
  peopleExact: '{count, plural, one {# person} other {# people}}',
  peopleAbout: '{count, plural, one {about # person} other {about # people}}',
  dateUtc: '{weekday} {day} {month} {year}, {time} UTC',
  weekdays: 'Sunday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday',
  months: 'January|February|March|April|May|June|July|August|September|October|November|December',

  // The waiting pages (startwaiting, keepwaiting).
  waitingTitleStart: 'You are in the queue',
  waitingTitleKeep: 'Still in the queue',
  waitingIntroStartRandom:
    'The site is very busy. To keep it working for everyone, visitors are let in a few at a time, picked at random among everyone waiting.',
  waitingIntroStartFifo:
    'The site is very busy. To keep it working for everyone, visitors are let in a few at a time, in the order they arrived.',
  waitingIntroKeepRandom:
    'It is not your turn yet. The site is very busy, so visitors are let in a few at a time, picked at random among everyone waiting.',
  waitingIntroKeepFifo:
    'It is not your turn yet. The site is very busy, so visitors are let in a few at a time, in the order they arrived.',
  // keepwaiting, for a visitor holding the place a sale's pre-queue gave them at the start (any queueing_method).
  waitingIntroKeepPrequeue:
    'It is not your turn yet. When the sale started, everyone in the pre-queue, you included, got a place in line at random. Visitors are let in a few at a time, in the order of those places.',
  waitingKeepOpen:
    'Keep this page open: it checks for you and takes you to the site when it is your turn. Refreshing does not change your chances, and you can leave at any time.',
  placeHeading: 'Your place in line',
  placeAhead: '{people} ahead of you',
  turnIn: 'Your turn in {duration}.',
  // A lane invitation's visitor (docs/lanes.md): {lane} is the lane's name as the operator wrote it (lane_names).
  yourLane: 'Your lane: {lane}',
  waitHeading: 'Estimated wait',
  waitWithin: 'Most visitors get in within {duration}',
  waitWithinMinute: 'Most visitors get in within a minute',
  waitPending: 'We are still working it out. This page shows it as soon as it is known.',
  wait25: '1 in 4 visitors get in within {duration}',
  wait50: 'Half within {duration}',
  wait75: '3 in 4 within {duration}',
  noscriptWaiting:
    'Scripts are off, so this page cannot check for you. Your next chance comes in {seconds, plural, one {about # second} other {about # seconds}}.',
  noscriptProof: 'While the site is this busy, without scripts your chances are lower.',
  // The waiting pages' button that asks for a notification at the turn (pages/README.md).
  notifyButton: 'Notify me when it is my turn',

  // The countdown page (prequeue).
  prequeueTitle: 'The sale starts soon',
  prequeueIntro:
    'You are in the pre-queue. When the sale starts, everyone in the pre-queue gets a place in line at random.',
  prequeueStartLabel: 'The sale starts:',
  prequeueNoJump:
    'Arriving early, refreshing or opening more tabs does not move you forward. Keep this page open: it takes you on when the sale starts.',
  prequeueNoscript: 'Scripts are off, so this page cannot check for you. Come back after the start and check again.',

  // The deny page, and the closed page after an event.
  denyTitle: 'Closed for now',
  denyBody: 'The site is not letting new visitors in at the moment. Nothing is wrong on your side.',
  closedTitle: 'The sale has ended',
  closedBody:
    'This event is over and the site is not letting visitors in through it any more. Nothing is wrong on your side.',
  tryLater: 'Please try again later.',
  tryAgain: 'Try again',
  denyAuto: 'While this page stays open it checks again every few minutes and takes you on when the site opens.',

  // Errors the room answers itself.
  originDownTitle: 'Temporarily unavailable',
  originDownHeading: 'The site is not answering right now',
  originDownBody: 'Please try again in a moment.',
  hammerTitle: 'Still waiting',
  hammerHeading: 'You are still in line',
  hammerBody:
    '{seconds, plural, one {This page was checked too often. Your place is kept: it checks again by itself in # second.} other {This page was checked too often. Your place is kept: it checks again by itself in # seconds.}}',

  // client: the page's script shows these (plain {name} arguments only; {time} is the browser's own
  // rendering of a countdown in the page's language).
  clientNextCheck: 'Next check in {time}',
  clientStartsIn: 'Starts in {time}',
  clientMoment: 'a moment',
  clientNotYet: 'Not your turn yet. The next check is in {time}.',
  clientTurn: 'Your turn has come. Loading the site…',
  // At the turn in a hidden tab: the tab's title and the notification's title, then its text;
  // the confirmation once the visitor asked for the notification.
  clientTurnTitle: 'It is your turn!',
  clientTurnBody: 'Come back to this tab to go to the site.',
  clientNotifyOn: 'You will get a notification when it is your turn.',
  clientUnreachable: 'Could not reach the site. Trying again shortly.',
  clientStarted: 'The sale has started. Loading…',
  clientStillClosed: 'Still closed. This page will check again in a few minutes.',
  clientProofStarted: 'Your browser is doing a short check that keeps automated buyers out: just started.',
  clientProofQuarter: 'Your browser is doing a short check that keeps automated buyers out: about a quarter done.',
  clientProofHalf: 'Your browser is doing a short check that keeps automated buyers out: about half done.',
  clientProofThreeQuarters:
    'Your browser is doing a short check that keeps automated buyers out: about three quarters done.',
  clientProofNearly: 'Your browser is doing a short check that keeps automated buyers out: nearly done.',
  clientProofDone: 'Check done. You are in the draw.',
} as const;

export type MessageKey = keyof typeof enUS;
/** A complete catalog: every key of the English one. */
export type Catalog = { readonly [K in MessageKey]: string };

export const catalog: Catalog = enUS;
