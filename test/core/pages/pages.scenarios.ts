// The pages the byte-for-byte check renders (test/core/pages.parts.test.ts): every built-in page in
// English and in a right-to-left language with links, and the sections a page can show.
import type { PageLanguage } from '../../../src/core/i18n/page-language.js';
import { localeByTag } from '../../../src/core/i18n/locales.js';
import { Strings } from '../../../src/core/i18n/strings.js';
import type { PageVars } from '../../../src/core/pages/pages.js';
import type { PageName } from '../../../src/core/types.js';
import { pageVars } from '../../pages/fake-room.js';

export interface Scenario {
  name: PageName;
  vars: PageVars;
  language?: PageLanguage;
}

function arabic(message: string): PageLanguage {
  const offered = ['en-US', 'ar-EG', 'ja-JP'].map((tag) => localeByTag(tag)!);
  return { strings: new Strings(offered[1]!), offered, search: '?event=summer&x=1', message };
}

const EVENT = { eventStartIso: '2026-12-01T10:00:00.000Z', startsInSeconds: 95 };
const PROOF = { proofRequired: true, proofSeconds: 5, proofCompact: '1.37500.9f2c.ab.0.1.2.3.4.5.6.7' };

export const SCENARIOS: Record<string, Scenario> = {
  startwaiting: { name: 'startwaiting', vars: pageVars('startwaiting') },
  keepwaiting: { name: 'keepwaiting', vars: pageVars('keepwaiting') },
  prequeue: { name: 'prequeue', vars: pageVars('prequeue', EVENT) },
  deny: { name: 'deny', vars: pageVars('deny') },
  'startwaiting pending, proof': {
    name: 'startwaiting',
    vars: pageVars('startwaiting', {
      waitTimePending: true,
      hasEstimate: true,
      waitTime25PercentileSeconds: null,
      waitTime50PercentileSeconds: null,
      waitTime75PercentileSeconds: null,
      ...PROOF,
    }),
  },
  'keepwaiting fifo, place, message, proof': {
    name: 'keepwaiting',
    vars: pageVars('keepwaiting', {
      queueingMethod: 'fifo',
      visitorsAhead: 1234,
      turnInSeconds: 480,
      message: 'Section A is <sold out> & "gone"',
      ...PROOF,
    }),
  },
  'deny closed, message': { name: 'deny', vars: pageVars('deny', { closed: true, message: 'See you next year' }) },
  'startwaiting ar-EG': { name: 'startwaiting', vars: pageVars('startwaiting'), language: arabic('') },
  'keepwaiting, a pre-queue place': {
    name: 'keepwaiting',
    vars: pageVars('keepwaiting', { placeQueue: 'prequeue', hasEstimate: false }),
  },
  'keepwaiting ar-EG, fifo': {
    name: 'keepwaiting',
    vars: pageVars('keepwaiting', { queueingMethod: 'fifo', visitorsAhead: 56, turnInSeconds: 200 }),
    language: arabic('رسالة'),
  },
  'prequeue ar-EG': { name: 'prequeue', vars: pageVars('prequeue', EVENT), language: arabic('') },
  'deny ar-EG': { name: 'deny', vars: pageVars('deny'), language: arabic('') },
};
