// Filipino (the Philippines), the standard form of Tagalog, tagged tl-PH as Cloudflare tags it and
// served to `fil` browsers too. Respectful "kayo/ninyo" (the polite plural) rather than "ka/mo", with
// "paki-" for requests; the English loanwords Filipino sites use ("site", "browser", "script", "tab",
// "check", "random"). A noun after a number does not change ("1 minuto", "5 minuto"), so the plural
// cases read alike. Dates run month first ("Disyembre 1, 2026"). Numbers: "," groups from four digits
// ("1,200"), decimal point. For a reviewer: how much English a ticketing crowd expects, "turno" for a
// turn, and "paunang pila" for the pre-queue.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'tl-PH',
  name: 'Filipino',
  dir: 'ltr',
  number: { decimal: '.', group: ',', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Mula sa site:',
  languageLabel: 'Wika',
  checkNow: 'Tingnan ngayon',

  durationUnknown: 'hindi pa alam na tagal',
  durationUnderMinute: 'wala pang isang minuto',
  durationMinutes: '{minutes, plural, =1 {mga isang minuto} one {mga # minuto} other {mga # minuto}}',
  durationHours: '{hours, plural, =1 {mga isang oras} one {mga # oras} other {mga # oras}}',
  durationRangeMinutes: '{to, plural, one {mga {from} hanggang # minuto} other {mga {from} hanggang # minuto}}',
  durationRangeHours: '{to, plural, one {mga {from} hanggang # oras} other {mga {from} hanggang # oras}}',
  durationRange: '{from} hanggang {to}',
  peopleNone: 'wala',
  peopleExact: '{count, plural, one {# tao} other {# tao}}',
  peopleAbout: '{count, plural, one {mga # tao} other {mga # tao}}',
  dateUtc: '{weekday}, {month} {day}, {year}, {time} UTC',
  weekdays: 'Linggo|Lunes|Martes|Miyerkules|Huwebes|Biyernes|Sabado',
  months: 'Enero|Pebrero|Marso|Abril|Mayo|Hunyo|Hulyo|Agosto|Setyembre|Oktubre|Nobyembre|Disyembre',

  waitingTitleStart: 'Nasa pila kayo',
  waitingTitleKeep: 'Nasa pila pa rin kayo',
  waitingIntroStartRandom:
    'Napakaraming tao sa site ngayon. Para gumana ito para sa lahat, iilang bisita lang ang pinapapasok bawat pagkakataon, na pinipili nang random mula sa lahat ng naghihintay.',
  waitingIntroStartFifo:
    'Napakaraming tao sa site ngayon. Para gumana ito para sa lahat, iilang bisita lang ang pinapapasok bawat pagkakataon, ayon sa pagkakasunod-sunod ng kanilang pagdating.',
  waitingIntroKeepRandom:
    'Hindi pa ninyo turno. Napakaraming tao sa site, kaya iilang bisita lang ang pinapapasok bawat pagkakataon, na pinipili nang random mula sa lahat ng naghihintay.',
  waitingIntroKeepFifo:
    'Hindi pa ninyo turno. Napakaraming tao sa site, kaya iilang bisita lang ang pinapapasok bawat pagkakataon, ayon sa pagkakasunod-sunod ng kanilang pagdating.',
  waitingIntroKeepPrequeue:
    'Hindi pa ninyo turno. Nang magsimula ang bentahan, lahat ng nasa paunang pila, kasama kayo, ay nakakuha ng puwesto sa pila nang random. Iilang bisita lang ang pinapapasok bawat pagkakataon, ayon sa pagkakasunod-sunod ng mga puwestong iyon.',
  waitingKeepOpen:
    'Panatilihing bukas ang pahinang ito: ito ang magche-check para sa inyo at magdadala sa inyo sa site pagdating ng turno ninyo. Hindi nababago ng pag-refresh ang tsansa ninyo, at puwede kayong umalis anumang oras.',
  placeHeading: 'Ang puwesto ninyo sa pila',
  placeAhead: '{people} ang nauuna sa inyo',
  turnIn: 'Turno ninyo sa loob ng {duration}.',
  yourLane: 'Ang pila ninyo: {lane}',
  waitHeading: 'Tinatayang paghihintay',
  waitWithin: 'Karamihan sa mga bisita ay nakakapasok sa loob ng {duration}',
  waitWithinMinute: 'Karamihan sa mga bisita ay nakakapasok sa loob ng isang minuto',
  waitPending: 'Kinakalkula pa namin ito. Ipapakita ito ng pahinang ito sa sandaling malaman.',
  wait25: '1 sa 4 na bisita ay nakakapasok sa loob ng {duration}',
  wait50: 'Kalahati sa loob ng {duration}',
  wait75: '3 sa 4 sa loob ng {duration}',
  noscriptWaiting:
    'Naka-off ang mga script, kaya hindi makakapag-check ang pahinang ito para sa inyo. Darating ang susunod ninyong tsansa sa loob ng {seconds, plural, one {mga # segundo} other {mga # segundo}}.',
  noscriptProof: 'Habang ganito kasikip ang site, mas mababa ang tsansa ninyo kung walang script.',
  notifyButton: 'Abisuhan ako pag turno ko na',

  prequeueTitle: 'Malapit nang magsimula ang bentahan',
  prequeueIntro:
    'Nasa paunang pila kayo. Pagsisimula ng bentahan, lahat ng nasa paunang pila ay makakakuha ng puwesto sa pila nang random.',
  prequeueStartLabel: 'Magsisimula ang bentahan:',
  prequeueNoJump:
    'Hindi kayo uusad sa pagdating nang maaga, pag-refresh ng pahina, o pagbubukas ng mas maraming tab. Panatilihing bukas ang pahinang ito: dadalhin kayo nito pagsisimula ng bentahan.',
  prequeueNoscript:
    'Naka-off ang mga script, kaya hindi makakapag-check ang pahinang ito para sa inyo. Bumalik pagkatapos ng simula at mag-check ulit.',

  denyTitle: 'Sarado muna',
  denyBody: 'Hindi muna nagpapapasok ng mga bagong bisita ang site. Walang problema sa panig ninyo.',
  closedTitle: 'Tapos na ang bentahan',
  closedBody:
    'Tapos na ang event na ito at hindi na nagpapapasok ng mga bisita ang site sa pamamagitan nito. Walang problema sa panig ninyo.',
  tryLater: 'Pakisubukan ulit mamaya.',
  tryAgain: 'Subukan ulit',
  denyAuto:
    'Habang nakabukas ang pahinang ito, magche-check ito ulit bawat ilang minuto at dadalhin kayo nito pagbukas ng site.',

  originDownTitle: 'Pansamantalang hindi available',
  originDownHeading: 'Hindi sumasagot ang site ngayon',
  originDownBody: 'Pakisubukan ulit maya-maya.',
  hammerTitle: 'Naghihintay pa rin',
  hammerHeading: 'Nasa pila pa rin kayo',
  hammerBody:
    '{seconds, plural, one {Masyadong madalas na-check ang pahinang ito. Nakatabi ang puwesto ninyo: kusa itong magche-check ulit sa loob ng # segundo.} other {Masyadong madalas na-check ang pahinang ito. Nakatabi ang puwesto ninyo: kusa itong magche-check ulit sa loob ng # segundo.}}',

  clientNextCheck: 'Susunod na check sa loob ng {time}',
  clientStartsIn: 'Magsisimula sa loob ng {time}',
  clientMoment: 'ilang sandali',
  clientNotYet: 'Hindi pa ninyo turno. Ang susunod na check ay sa loob ng {time}.',
  clientTurn: 'Turno na ninyo. Nilo-load ang site…',
  clientTurnTitle: 'Turno na ninyo!',
  clientTurnBody: 'Bumalik sa tab na ito para pumunta sa site.',
  clientNotifyOn: 'Makakatanggap kayo ng notification pagdating ng turno ninyo.',
  clientUnreachable: 'Hindi maabot ang site. Susubukan ulit maya-maya.',
  clientStarted: 'Nagsimula na ang bentahan. Nilo-load…',
  clientStillClosed: 'Sarado pa rin. Magche-check ulit ang pahina sa loob ng ilang minuto.',
  clientProofStarted:
    'Gumagawa ang browser ninyo ng maikling check na humaharang sa mga automated na mamimili: kasisimula pa lang.',
  clientProofQuarter:
    'Gumagawa ang browser ninyo ng maikling check na humaharang sa mga automated na mamimili: mga sangkapat na ang tapos.',
  clientProofHalf:
    'Gumagawa ang browser ninyo ng maikling check na humaharang sa mga automated na mamimili: mga kalahati na ang tapos.',
  clientProofThreeQuarters:
    'Gumagawa ang browser ninyo ng maikling check na humaharang sa mga automated na mamimili: mga tatlong-kapat na ang tapos.',
  clientProofNearly:
    'Gumagawa ang browser ninyo ng maikling check na humaharang sa mga automated na mamimili: malapit nang matapos.',
  clientProofDone: 'Tapos na ang check. Kasali na kayo sa bunutan.',
};
