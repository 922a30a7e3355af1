// Norwegian Bokmål (Norway), also served to `no` and Nynorsk (`nn`) browsers, who read Bokmål. Informal
// "du", as Norwegian shops and ticket sites write. Numbers: U+00A0 groups from four digits ("1 200"),
// decimal comma. For a reviewer: "nettstedet" (the site) against "siden", and "forhåndskø" for the
// pre-queue, a word made for it.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'nb-NO',
  name: 'Norsk bokmål',
  dir: 'ltr',
  number: { decimal: ',', group: '\u00a0', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Melding fra nettstedet:',
  languageLabel: 'Språk',
  checkNow: 'Sjekk nå',

  durationUnknown: 'ukjent tid',
  durationUnderMinute: 'under ett minutt',
  durationMinutes: '{minutes, plural, =1 {omtrent ett minutt} one {omtrent # minutt} other {omtrent # minutter}}',
  durationHours: '{hours, plural, =1 {omtrent én time} one {omtrent # time} other {omtrent # timer}}',
  durationRangeMinutes: '{to, plural, one {omtrent {from} til # minutt} other {omtrent {from} til # minutter}}',
  durationRangeHours: '{to, plural, one {omtrent {from} til # time} other {omtrent {from} til # timer}}',
  durationRange: '{from} til {to}',
  peopleNone: 'ingen',
  peopleExact: '{count, plural, one {# person} other {# personer}}',
  peopleAbout: '{count, plural, one {omtrent # person} other {omtrent # personer}}',
  dateUtc: '{weekday} {day}. {month} {year} kl. {time} UTC',
  weekdays: 'søndag|mandag|tirsdag|onsdag|torsdag|fredag|lørdag',
  months: 'januar|februar|mars|april|mai|juni|juli|august|september|oktober|november|desember',

  waitingTitleStart: 'Du står i kø',
  waitingTitleKeep: 'Fortsatt i kø',
  waitingIntroStartRandom:
    'Det er svært stor pågang på nettstedet. For at det skal fungere for alle, slippes besøkende inn noen få om gangen, trukket tilfeldig blant alle som venter.',
  waitingIntroStartFifo:
    'Det er svært stor pågang på nettstedet. For at det skal fungere for alle, slippes besøkende inn noen få om gangen, i den rekkefølgen de kom.',
  waitingIntroKeepRandom:
    'Det er ikke din tur ennå. Det er svært stor pågang på nettstedet, så besøkende slippes inn noen få om gangen, trukket tilfeldig blant alle som venter.',
  waitingIntroKeepFifo:
    'Det er ikke din tur ennå. Det er svært stor pågang på nettstedet, så besøkende slippes inn noen få om gangen, i den rekkefølgen de kom.',
  waitingIntroKeepPrequeue:
    'Det er ikke din tur ennå. Da salget startet, fikk alle i forhåndskøen, også du, en tilfeldig plass i køen. Besøkende slippes inn noen få om gangen, i rekkefølgen til disse plassene.',
  waitingKeepOpen:
    'La denne siden være åpen: den sjekker for deg og sender deg videre til nettstedet når det er din tur. Å laste inn siden på nytt endrer ikke sjansene dine, og du kan gå når som helst.',
  placeHeading: 'Din plass i køen',
  placeAhead: '{people} foran deg',
  turnIn: 'Din tur om {duration}.',
  yourLane: 'Din kø: {lane}',
  waitHeading: 'Beregnet ventetid',
  waitWithin: 'De fleste besøkende kommer inn innen {duration}',
  waitWithinMinute: 'De fleste besøkende kommer inn innen ett minutt',
  waitPending: 'Vi beregner den fortsatt. Siden viser den så snart den er kjent.',
  wait25: '1 av 4 besøkende kommer inn innen {duration}',
  wait50: 'Halvparten innen {duration}',
  wait75: '3 av 4 innen {duration}',
  noscriptWaiting:
    'Skript er slått av, så denne siden kan ikke sjekke for deg. Neste sjanse kommer om {seconds, plural, one {omtrent # sekund} other {omtrent # sekunder}}.',
  noscriptProof: 'Så lenge pågangen er så stor, er sjansene dine lavere uten skript.',
  notifyButton: 'Varsle meg når det er min tur',

  prequeueTitle: 'Salget starter snart',
  prequeueIntro: 'Du står i forhåndskøen. Når salget starter, får alle i forhåndskøen en tilfeldig plass i køen.',
  prequeueStartLabel: 'Salget starter:',
  prequeueNoJump:
    'Å komme tidlig, laste inn siden på nytt eller åpne flere faner flytter deg ikke fram. La denne siden være åpen: den sender deg videre når salget starter.',
  prequeueNoscript:
    'Skript er slått av, så denne siden kan ikke sjekke for deg. Kom tilbake etter starten og sjekk på nytt.',

  denyTitle: 'Stengt for øyeblikket',
  denyBody: 'Nettstedet slipper ikke inn nye besøkende akkurat nå. Det er ingenting galt hos deg.',
  closedTitle: 'Salget er over',
  closedBody:
    'Dette arrangementet er over, og nettstedet slipper ikke lenger inn besøkende denne veien. Det er ingenting galt hos deg.',
  tryLater: 'Prøv igjen senere.',
  tryAgain: 'Prøv igjen',
  denyAuto:
    'Så lenge denne siden er åpen, sjekker den på nytt med noen minutters mellomrom og sender deg videre når nettstedet åpner.',

  originDownTitle: 'Midlertidig utilgjengelig',
  originDownHeading: 'Nettstedet svarer ikke akkurat nå',
  originDownBody: 'Prøv igjen om et øyeblikk.',
  hammerTitle: 'Venter fortsatt',
  hammerHeading: 'Du står fortsatt i kø',
  hammerBody:
    '{seconds, plural, one {Siden ble sjekket for ofte. Plassen din er tatt vare på: den sjekker selv på nytt om # sekund.} other {Siden ble sjekket for ofte. Plassen din er tatt vare på: den sjekker selv på nytt om # sekunder.}}',

  clientNextCheck: 'Neste sjekk om {time}',
  clientStartsIn: 'Starter om {time}',
  clientMoment: 'et øyeblikk',
  clientNotYet: 'Ikke din tur ennå. Neste sjekk er om {time}.',
  clientTurn: 'Det er din tur. Laster inn nettstedet …',
  clientTurnTitle: 'Det er din tur!',
  clientTurnBody: 'Gå tilbake til denne fanen for å komme inn på nettstedet.',
  clientNotifyOn: 'Du får et varsel når det er din tur.',
  clientUnreachable: 'Fikk ikke kontakt med nettstedet. Prøver igjen snart.',
  clientStarted: 'Salget har startet. Laster inn …',
  clientStillClosed: 'Fortsatt stengt. Siden sjekker på nytt om noen minutter.',
  clientProofStarted: 'Nettleseren din gjør en kort sjekk som holder automatiserte kjøpere ute: akkurat startet.',
  clientProofQuarter:
    'Nettleseren din gjør en kort sjekk som holder automatiserte kjøpere ute: omtrent en firedel ferdig.',
  clientProofHalf: 'Nettleseren din gjør en kort sjekk som holder automatiserte kjøpere ute: omtrent halvveis.',
  clientProofThreeQuarters:
    'Nettleseren din gjør en kort sjekk som holder automatiserte kjøpere ute: omtrent tre firedeler ferdig.',
  clientProofNearly: 'Nettleseren din gjør en kort sjekk som holder automatiserte kjøpere ute: nesten ferdig.',
  clientProofDone: 'Sjekken er ferdig. Du er med i trekningen.',
};
