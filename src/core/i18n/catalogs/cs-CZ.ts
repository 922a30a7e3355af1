// Czech (Czechia). Formal "vy" (vykání), lower-case as Czech web interfaces write it. Durations are
// accusative phrases ("asi minutu", "asi 5 minut", "méně než minutu"), which answer "how long?" alone
// and follow "čekat" and "za", so the sentences around them take that case; decimals take "many"
// ("1,5 hodiny"). The page's script fills {time} with the browser's nominative ("1 sekunda"), so
// client keys put it after a colon. Numbers: U+00A0 groups from four digits ("1 200"), decimal comma.
// For a reviewer: "předfronta" for the pre-queue, a word made for it.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'cs-CZ',
  name: 'Čeština',
  dir: 'ltr',
  number: { decimal: ',', group: '\u00a0', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Zpráva od webu:',
  languageLabel: 'Jazyk',
  checkNow: 'Zkontrolovat',

  durationUnknown: 'neznámou dobu',
  durationUnderMinute: 'méně než minutu',
  durationMinutes:
    '{minutes, plural, =1 {asi minutu} one {asi # minutu} few {asi # minuty} many {asi # minuty} other {asi # minut}}',
  durationHours:
    '{hours, plural, =1 {asi hodinu} one {asi # hodinu} few {asi # hodiny} many {asi # hodiny} other {asi # hodin}}',
  durationRangeMinutes:
    '{to, plural, one {asi {from} až # minutu} few {asi {from} až # minuty} many {asi {from} až # minuty} other {asi {from} až # minut}}',
  durationRangeHours:
    '{to, plural, one {asi {from} až # hodinu} few {asi {from} až # hodiny} many {asi {from} až # hodiny} other {asi {from} až # hodin}}',
  durationRange: '{from} až {to}',
  peopleNone: 'nikdo',
  peopleExact: '{count, plural, one {# osoba} few {# osoby} many {# osoby} other {# osob}}',
  peopleAbout: '{count, plural, one {asi # osoba} few {asi # osoby} many {asi # osoby} other {asi # osob}}',
  dateUtc: '{weekday} {day}. {month} {year}, {time} UTC',
  weekdays: 'neděle|pondělí|úterý|středa|čtvrtek|pátek|sobota',
  months: 'ledna|února|března|dubna|května|června|července|srpna|září|října|listopadu|prosince',

  waitingTitleStart: 'Jste ve frontě',
  waitingTitleKeep: 'Stále ve frontě',
  waitingIntroStartRandom:
    'Web je právě velmi vytížený. Aby fungoval pro všechny, pouštíme návštěvníky dovnitř po několika, náhodně vybrané ze všech čekajících.',
  waitingIntroStartFifo:
    'Web je právě velmi vytížený. Aby fungoval pro všechny, pouštíme návštěvníky dovnitř po několika, v pořadí, v jakém přišli.',
  waitingIntroKeepRandom:
    'Ještě nejste na řadě. Web je velmi vytížený, proto pouštíme návštěvníky dovnitř po několika, náhodně vybrané ze všech čekajících.',
  waitingIntroKeepFifo:
    'Ještě nejste na řadě. Web je velmi vytížený, proto pouštíme návštěvníky dovnitř po několika, v pořadí, v jakém přišli.',
  waitingIntroKeepPrequeue:
    'Ještě nejste na řadě. Když začal prodej, všichni v předfrontě, včetně vás, dostali náhodně místo ve frontě. Návštěvníky pouštíme dovnitř po několika, v pořadí těchto míst.',
  waitingKeepOpen:
    'Nechte tuto stránku otevřenou: kontroluje za vás a převede vás na web, jakmile budete na řadě. Obnovení stránky vaše šance nezmění a odejít můžete kdykoli.',
  placeHeading: 'Vaše místo ve frontě',
  placeAhead: 'Před vámi: {people}',
  turnIn: 'Zbývá čekat {duration}.',
  yourLane: 'Vaše fronta: {lane}',
  waitHeading: 'Odhadovaná doba čekání',
  waitWithin: 'Většina návštěvníků čeká nejvýše {duration}',
  waitWithinMinute: 'Většina návštěvníků čeká nejvýše minutu',
  waitPending: 'Dobu čekání ještě odhadujeme. Stránka ji ukáže, jakmile bude známa.',
  wait25: 'Každý čtvrtý návštěvník čeká nejvýše {duration}',
  wait50: 'Polovina nejvýše {duration}',
  wait75: 'Tři ze čtyř nejvýše {duration}',
  noscriptWaiting:
    'Skripty jsou vypnuté, takže tato stránka nemůže kontrolovat za vás. Další šanci máte {seconds, plural, one {asi za # sekundu} few {asi za # sekundy} many {asi za # sekundy} other {asi za # sekund}}.',
  noscriptProof: 'Dokud je web takto vytížený, máte bez skriptů menší šance.',
  notifyButton: 'Upozornit mě, až budu na řadě',

  prequeueTitle: 'Prodej brzy začne',
  prequeueIntro: 'Jste v předfrontě. Až prodej začne, každý v předfrontě dostane náhodně místo ve frontě.',
  prequeueStartLabel: 'Začátek prodeje:',
  prequeueNoJump:
    'Dřívější příchod, obnovování stránky ani otevírání dalších karet vás neposune dopředu. Nechte tuto stránku otevřenou: až prodej začne, převede vás dál.',
  prequeueNoscript:
    'Skripty jsou vypnuté, takže tato stránka nemůže kontrolovat za vás. Vraťte se po začátku prodeje a zkontrolujte to znovu.',

  denyTitle: 'Dočasně zavřeno',
  denyBody: 'Web teď nové návštěvníky nepouští. Na vaší straně je vše v pořádku.',
  closedTitle: 'Prodej skončil',
  closedBody: 'Tato akce skončila a web už touto cestou návštěvníky nepouští. Na vaší straně je vše v pořádku.',
  tryLater: 'Zkuste to prosím později.',
  tryAgain: 'Zkusit znovu',
  denyAuto:
    'Dokud zůstane tato stránka otevřená, každých několik minut to zkusí znovu a převede vás dál, jakmile se web otevře.',

  originDownTitle: 'Dočasně nedostupné',
  originDownHeading: 'Web teď neodpovídá',
  originDownBody: 'Zkuste to prosím za chvíli znovu.',
  hammerTitle: 'Stále čekáte',
  hammerHeading: 'Jste stále ve frontě',
  hammerBody:
    '{seconds, plural, one {Tato stránka byla kontrolována příliš často. Vaše místo zůstává: stránka to sama zkusí znovu za # sekundu.} few {Tato stránka byla kontrolována příliš často. Vaše místo zůstává: stránka to sama zkusí znovu za # sekundy.} many {Tato stránka byla kontrolována příliš často. Vaše místo zůstává: stránka to sama zkusí znovu za # sekundy.} other {Tato stránka byla kontrolována příliš často. Vaše místo zůstává: stránka to sama zkusí znovu za # sekund.}}',

  clientNextCheck: 'Do další kontroly: {time}',
  clientStartsIn: 'Do začátku: {time}',
  clientMoment: 'okamžik',
  clientNotYet: 'Ještě nejste na řadě. Do další kontroly: {time}.',
  clientTurn: 'Jste na řadě. Načítáme web…',
  clientTurnTitle: 'Jste na řadě!',
  clientTurnBody: 'Vraťte se na tuto kartu a přejděte na web.',
  clientNotifyOn: 'Až budete na řadě, dostanete oznámení.',
  clientUnreachable: 'Web se nepodařilo zastihnout. Brzy to zkusíme znovu.',
  clientStarted: 'Prodej začal. Načítání…',
  clientStillClosed: 'Stále zavřeno. Stránka to zkusí znovu za několik minut.',
  clientProofStarted: 'Váš prohlížeč provádí krátkou kontrolu, která brání automatizovaným nákupům: právě začala.',
  clientProofQuarter:
    'Váš prohlížeč provádí krátkou kontrolu, která brání automatizovaným nákupům: asi z jedné čtvrtiny hotovo.',
  clientProofHalf:
    'Váš prohlížeč provádí krátkou kontrolu, která brání automatizovaným nákupům: asi z poloviny hotovo.',
  clientProofThreeQuarters:
    'Váš prohlížeč provádí krátkou kontrolu, která brání automatizovaným nákupům: asi ze tří čtvrtin hotovo.',
  clientProofNearly: 'Váš prohlížeč provádí krátkou kontrolu, která brání automatizovaným nákupům: téměř hotovo.',
  clientProofDone: 'Kontrola je hotová. Jste zařazeni do losování.',
};
