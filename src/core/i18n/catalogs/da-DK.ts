// Danish (Denmark). Informal "du", as Danish shops and ticket sites address everyone. Numbers: "." groups
// from four digits ("1.200"), decimal comma. Half hours take the singular ("cirka 1,5 time"), as CLDR's
// rule and Danish usage agree. For a reviewer: "webstedet" (the site) against the everyday "siden" or
// "hjemmesiden", and "forkø" for the pre-queue, a word made for it.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'da-DK',
  name: 'Dansk',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Besked fra webstedet:',
  languageLabel: 'Sprog',
  checkNow: 'Tjek nu',

  durationUnknown: 'ukendt tid',
  durationUnderMinute: 'under et minut',
  durationMinutes: '{minutes, plural, =1 {cirka et minut} one {cirka # minut} other {cirka # minutter}}',
  durationHours: '{hours, plural, =1 {cirka en time} one {cirka # time} other {cirka # timer}}',
  durationRangeMinutes: '{to, plural, one {cirka {from} til # minut} other {cirka {from} til # minutter}}',
  durationRangeHours: '{to, plural, one {cirka {from} til # time} other {cirka {from} til # timer}}',
  durationRange: '{from} til {to}',
  peopleNone: 'ingen',
  peopleExact: '{count, plural, one {# person} other {# personer}}',
  peopleAbout: '{count, plural, one {cirka # person} other {cirka # personer}}',
  dateUtc: '{weekday} den {day}. {month} {year} kl. {time} UTC',
  weekdays: 'søndag|mandag|tirsdag|onsdag|torsdag|fredag|lørdag',
  months: 'januar|februar|marts|april|maj|juni|juli|august|september|oktober|november|december',

  waitingTitleStart: 'Du er i køen',
  waitingTitleKeep: 'Stadig i køen',
  waitingIntroStartRandom:
    'Der er meget travlt på webstedet. For at det kan fungere for alle, bliver besøgende lukket ind nogle få ad gangen, udtrukket tilfældigt blandt alle, der venter.',
  waitingIntroStartFifo:
    'Der er meget travlt på webstedet. For at det kan fungere for alle, bliver besøgende lukket ind nogle få ad gangen, i den rækkefølge de kom.',
  waitingIntroKeepRandom:
    'Det er ikke din tur endnu. Der er meget travlt på webstedet, så besøgende bliver lukket ind nogle få ad gangen, udtrukket tilfældigt blandt alle, der venter.',
  waitingIntroKeepFifo:
    'Det er ikke din tur endnu. Der er meget travlt på webstedet, så besøgende bliver lukket ind nogle få ad gangen, i den rækkefølge de kom.',
  waitingIntroKeepPrequeue:
    'Det er ikke din tur endnu. Da salget startede, fik alle i forkøen, også dig, en tilfældig plads i køen. Besøgende bliver lukket ind nogle få ad gangen, i rækkefølge efter de pladser.',
  waitingKeepOpen:
    'Hold denne side åben: den tjekker for dig og sender dig videre til webstedet, når det er din tur. Det ændrer ikke dine chancer at genindlæse siden, og du kan gå når som helst.',
  placeHeading: 'Din plads i køen',
  placeAhead: '{people} foran dig',
  turnIn: 'Din tur om {duration}.',
  yourLane: 'Din kø: {lane}',
  waitHeading: 'Forventet ventetid',
  waitWithin: 'De fleste besøgende kommer ind inden for {duration}',
  waitWithinMinute: 'De fleste besøgende kommer ind inden for et minut',
  waitPending: 'Vi er stadig ved at beregne den. Siden viser den, så snart den kendes.',
  wait25: '1 ud af 4 besøgende kommer ind inden for {duration}',
  wait50: 'Halvdelen inden for {duration}',
  wait75: '3 ud af 4 inden for {duration}',
  noscriptWaiting:
    'Scripts er slået fra, så denne side kan ikke tjekke for dig. Din næste chance kommer om {seconds, plural, one {cirka # sekund} other {cirka # sekunder}}.',
  noscriptProof: 'Så længe der er så travlt på webstedet, er dine chancer lavere uden scripts.',
  notifyButton: 'Giv mig besked, når det er min tur',

  prequeueTitle: 'Salget starter snart',
  prequeueIntro: 'Du er i forkøen. Når salget starter, får alle i forkøen en tilfældig plads i køen.',
  prequeueStartLabel: 'Salget starter:',
  prequeueNoJump:
    'Det hjælper ikke at komme tidligt, genindlæse siden eller åbne flere faner. Hold denne side åben: den sender dig videre, når salget starter.',
  prequeueNoscript:
    'Scripts er slået fra, så denne side kan ikke tjekke for dig. Kom tilbage efter starten, og tjek igen.',

  denyTitle: 'Lukket lige nu',
  denyBody: 'Webstedet lukker ikke nye besøgende ind i øjeblikket. Der er ikke noget galt hos dig.',
  closedTitle: 'Salget er slut',
  closedBody:
    'Dette arrangement er slut, og webstedet lukker ikke længere besøgende ind denne vej. Der er ikke noget galt hos dig.',
  tryLater: 'Prøv igen senere.',
  tryAgain: 'Prøv igen',
  denyAuto:
    'Så længe denne side er åben, tjekker den igen med få minutters mellemrum og sender dig videre, når webstedet åbner.',

  originDownTitle: 'Midlertidigt utilgængeligt',
  originDownHeading: 'Webstedet svarer ikke lige nu',
  originDownBody: 'Prøv igen om et øjeblik.',
  hammerTitle: 'Venter stadig',
  hammerHeading: 'Du er stadig i køen',
  hammerBody:
    '{seconds, plural, one {Siden blev tjekket for ofte. Din plads er gemt: den tjekker selv igen om # sekund.} other {Siden blev tjekket for ofte. Din plads er gemt: den tjekker selv igen om # sekunder.}}',

  clientNextCheck: 'Næste tjek om {time}',
  clientStartsIn: 'Starter om {time}',
  clientMoment: 'et øjeblik',
  clientNotYet: 'Ikke din tur endnu. Næste tjek er om {time}.',
  clientTurn: 'Det er din tur. Webstedet indlæses …',
  clientTurnTitle: 'Det er din tur!',
  clientTurnBody: 'Gå tilbage til denne fane for at komme ind på webstedet.',
  clientNotifyOn: 'Du får en notifikation, når det er din tur.',
  clientUnreachable: 'Kunne ikke få forbindelse til webstedet. Prøver igen om lidt.',
  clientStarted: 'Salget er startet. Indlæser …',
  clientStillClosed: 'Stadig lukket. Siden tjekker igen om nogle minutter.',
  clientProofStarted: 'Din browser udfører et kort tjek, der holder automatiserede købere ude: lige startet.',
  clientProofQuarter:
    'Din browser udfører et kort tjek, der holder automatiserede købere ude: cirka en fjerdedel færdig.',
  clientProofHalf: 'Din browser udfører et kort tjek, der holder automatiserede købere ude: cirka halvvejs.',
  clientProofThreeQuarters:
    'Din browser udfører et kort tjek, der holder automatiserede købere ude: cirka tre fjerdedele færdig.',
  clientProofNearly: 'Din browser udfører et kort tjek, der holder automatiserede købere ude: næsten færdig.',
  clientProofDone: 'Tjekket er gennemført. Du er med i lodtrækningen.',
};
