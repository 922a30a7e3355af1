// Hungarian (Hungary). Formal "Ön", as Hungarian ticketing and service sites address visitors. A noun
// after a number stays singular ("5 perc", "1200 ember"), so `one` and `other` read alike; durations
// are nominative phrases ("körülbelül 5 perc", "kevesebb mint egy perc"), which stand alone and take
// the postpositions "múlva" and "alatt" as they are. Dates run year first ("2026. december 1., kedd").
// Numbers: no group in four digits ("1200"), U+00A0 from five ("12 000"), decimal comma. For a
// reviewer: "Ön" against the "te" some shops use, and "elősor" for the pre-queue, a word made for it.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'hu-HU',
  name: 'Magyar',
  dir: 'ltr',
  number: { decimal: ',', group: '\u00a0', minimumGroupingDigits: 2, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Üzenet a webhelytől:',
  languageLabel: 'Nyelv',
  checkNow: 'Ellenőrzés most',

  durationUnknown: 'ismeretlen idő',
  durationUnderMinute: 'kevesebb mint egy perc',
  durationMinutes: '{minutes, plural, =1 {körülbelül egy perc} one {körülbelül # perc} other {körülbelül # perc}}',
  durationHours: '{hours, plural, =1 {körülbelül egy óra} one {körülbelül # óra} other {körülbelül # óra}}',
  durationRangeMinutes: '{to, plural, one {körülbelül {from}–# perc} other {körülbelül {from}–# perc}}',
  durationRangeHours: '{to, plural, one {körülbelül {from}–# óra} other {körülbelül {from}–# óra}}',
  durationRange: '{from} – {to}',
  peopleNone: 'senki',
  peopleExact: '{count, plural, one {# ember} other {# ember}}',
  peopleAbout: '{count, plural, one {körülbelül # ember} other {körülbelül # ember}}',
  dateUtc: '{year}. {month} {day}., {weekday}, {time} UTC',
  weekdays: 'vasárnap|hétfő|kedd|szerda|csütörtök|péntek|szombat',
  months: 'január|február|március|április|május|június|július|augusztus|szeptember|október|november|december',

  waitingTitleStart: 'Ön sorban áll',
  waitingTitleKeep: 'Még mindig sorban áll',
  waitingIntroStartRandom:
    'A webhely most nagyon leterhelt. Hogy mindenkinek működjön, a látogatók egyszerre csak néhányan léphetnek be, az összes várakozó közül véletlenszerűen kiválasztva.',
  waitingIntroStartFifo:
    'A webhely most nagyon leterhelt. Hogy mindenkinek működjön, a látogatók egyszerre csak néhányan léphetnek be, érkezési sorrendben.',
  waitingIntroKeepRandom:
    'Még nem Ön következik. A webhely nagyon leterhelt, ezért a látogatók egyszerre csak néhányan léphetnek be, az összes várakozó közül véletlenszerűen kiválasztva.',
  waitingIntroKeepFifo:
    'Még nem Ön következik. A webhely nagyon leterhelt, ezért a látogatók egyszerre csak néhányan léphetnek be, érkezési sorrendben.',
  waitingIntroKeepPrequeue:
    'Még nem Ön következik. Amikor az értékesítés elindult, az elősorban állók, köztük Ön is, véletlenszerűen kaptak helyet a sorban. A látogatók egyszerre csak néhányan léphetnek be, e helyek sorrendjében.',
  waitingKeepOpen:
    'Hagyja nyitva ezt az oldalt: ellenőriz Ön helyett, és amint Ön következik, továbbviszi a webhelyre. Az oldal frissítése nem változtat az esélyein, és bármikor távozhat.',
  placeHeading: 'Az Ön helye a sorban',
  placeAhead: 'Ön előtt: {people}',
  turnIn: 'Ön {duration} múlva következik.',
  yourLane: 'Az Ön sora: {lane}',
  waitHeading: 'Becsült várakozási idő',
  waitWithin: 'A legtöbb látogató {duration} alatt bejut',
  waitWithinMinute: 'A legtöbb látogató egy percen belül bejut',
  waitPending: 'Még számítjuk. Az oldal megmutatja, amint ismert.',
  wait25: 'Minden negyedik látogató {duration} alatt bejut',
  wait50: 'A látogatók fele {duration} alatt',
  wait75: 'Négyből három {duration} alatt',
  noscriptWaiting:
    'A szkriptek ki vannak kapcsolva, ezért ez az oldal nem tud Ön helyett ellenőrizni. A következő esélye {seconds, plural, one {körülbelül # másodperc} other {körülbelül # másodperc}} múlva jön.',
  noscriptProof: 'Amíg a webhely ennyire leterhelt, szkriptek nélkül kisebbek az esélyei.',
  notifyButton: 'Értesítést kérek, amikor sorra kerülök',

  prequeueTitle: 'Az értékesítés hamarosan indul',
  prequeueIntro:
    'Ön az elősorban áll. Amikor az értékesítés elindul, az elősorban mindenki véletlenszerűen kap helyet a sorban.',
  prequeueStartLabel: 'Az értékesítés kezdete:',
  prequeueNoJump:
    'A korai érkezés, az oldal frissítése vagy újabb lapok megnyitása nem viszi Önt előrébb. Hagyja nyitva ezt az oldalt: amikor az értékesítés elindul, továbbviszi.',
  prequeueNoscript:
    'A szkriptek ki vannak kapcsolva, ezért ez az oldal nem tud Ön helyett ellenőrizni. Térjen vissza a kezdés után, és ellenőrizze újra.',

  denyTitle: 'Jelenleg zárva',
  denyBody: 'A webhely jelenleg nem enged be új látogatókat. Az Ön oldalán minden rendben van.',
  closedTitle: 'Az értékesítés véget ért',
  closedBody:
    'Ez az esemény véget ért, és a webhely ezen az úton már nem enged be látogatókat. Az Ön oldalán minden rendben van.',
  tryLater: 'Kérjük, próbálja újra később.',
  tryAgain: 'Újrapróbálás',
  denyAuto:
    'Amíg ez az oldal nyitva marad, néhány percenként újra ellenőriz, és továbbviszi Önt, amint a webhely megnyílik.',

  originDownTitle: 'Átmenetileg nem érhető el',
  originDownHeading: 'A webhely most nem válaszol',
  originDownBody: 'Kérjük, próbálja újra egy pillanat múlva.',
  hammerTitle: 'A várakozás folytatódik',
  hammerHeading: 'Ön még mindig sorban áll',
  hammerBody:
    '{seconds, plural, one {Ezt az oldalt túl gyakran ellenőrizték. A helye megmarad: az oldal # másodperc múlva magától újra ellenőriz.} other {Ezt az oldalt túl gyakran ellenőrizték. A helye megmarad: az oldal # másodperc múlva magától újra ellenőriz.}}',

  clientNextCheck: 'Következő ellenőrzés {time} múlva',
  clientStartsIn: 'Kezdés {time} múlva',
  clientMoment: 'egy pillanat',
  clientNotYet: 'Még nem Ön következik. A következő ellenőrzés {time} múlva lesz.',
  clientTurn: 'Ön következik. A webhely betöltése…',
  clientTurnTitle: 'Ön következik!',
  clientTurnBody: 'Térjen vissza erre a lapra, hogy továbblépjen a webhelyre.',
  clientNotifyOn: 'Értesítést kap, amikor Ön következik.',
  clientUnreachable: 'A webhely nem érhető el. Hamarosan újra próbáljuk.',
  clientStarted: 'Az értékesítés elindult. Betöltés…',
  clientStillClosed: 'Még mindig zárva. Az oldal néhány perc múlva újra ellenőriz.',
  clientProofStarted:
    'A böngészője rövid ellenőrzést végez, amely távol tartja az automatizált vásárlókat: most kezdődött.',
  clientProofQuarter:
    'A böngészője rövid ellenőrzést végez, amely távol tartja az automatizált vásárlókat: körülbelül negyedénél tart.',
  clientProofHalf:
    'A böngészője rövid ellenőrzést végez, amely távol tartja az automatizált vásárlókat: körülbelül felénél tart.',
  clientProofThreeQuarters:
    'A böngészője rövid ellenőrzést végez, amely távol tartja az automatizált vásárlókat: körülbelül háromnegyedénél tart.',
  clientProofNearly:
    'A böngészője rövid ellenőrzést végez, amely távol tartja az automatizált vásárlókat: majdnem kész.',
  clientProofDone: 'Az ellenőrzés kész. Ön részt vesz a sorsoláson.',
};
