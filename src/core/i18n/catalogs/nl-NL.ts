// The built-in strings in Dutch (Netherlands), "u": the safe register for a public page that anyone
// may land on. Hours keep the singular after a number ("2,5 uur"), as Dutch writes them.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'nl-NL',
  name: 'Nederlands',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 1, digits: '0123456789' },
};

const proof = 'Uw browser voert een korte controle uit die geautomatiseerde kopers buiten de deur houdt: ';

export const catalog: Catalog = {
  fromSite: 'Bericht van de website:',
  languageLabel: 'Taal',
  checkNow: 'Nu controleren',

  durationUnknown: 'een onbekende tijd',
  durationUnderMinute: 'minder dan een minuut',
  durationMinutes: '{minutes, plural, =1 {ongeveer een minuut} one {ongeveer # minuut} other {ongeveer # minuten}}',
  durationHours: '{hours, plural, =1 {ongeveer een uur} one {ongeveer # uur} other {ongeveer # uur}}',
  durationRangeMinutes: '{to, plural, one {ongeveer {from} tot # minuut} other {ongeveer {from} tot # minuten}}',
  durationRangeHours: '{to, plural, one {ongeveer {from} tot # uur} other {ongeveer {from} tot # uur}}',
  durationRange: 'van {from} tot {to}',
  peopleNone: 'niemand',
  peopleExact: '{count, plural, one {# persoon} other {# personen}}',
  peopleAbout: '{count, plural, one {ongeveer # persoon} other {ongeveer # personen}}',
  dateUtc: '{weekday} {day} {month} {year}, {time} uur UTC',
  weekdays: 'zondag|maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag',
  months: 'januari|februari|maart|april|mei|juni|juli|augustus|september|oktober|november|december',

  waitingTitleStart: 'U staat in de wachtrij',
  waitingTitleKeep: 'U staat nog in de wachtrij',
  waitingIntroStartRandom:
    'Het is erg druk op de website. Om de website voor iedereen bereikbaar te houden, worden bezoekers met een paar tegelijk toegelaten, willekeurig gekozen uit alle wachtenden.',
  waitingIntroStartFifo:
    'Het is erg druk op de website. Om de website voor iedereen bereikbaar te houden, worden bezoekers met een paar tegelijk toegelaten, in volgorde van aankomst.',
  waitingIntroKeepRandom:
    'U bent nog niet aan de beurt. Het is erg druk op de website, daarom worden bezoekers met een paar tegelijk toegelaten, willekeurig gekozen uit alle wachtenden.',
  waitingIntroKeepFifo:
    'U bent nog niet aan de beurt. Het is erg druk op de website, daarom worden bezoekers met een paar tegelijk toegelaten, in volgorde van aankomst.',
  waitingIntroKeepPrequeue:
    'U bent nog niet aan de beurt. Toen de verkoop begon, kreeg iedereen in de voorwachtrij, ook u, een willekeurige plaats in de rij. Bezoekers worden met een paar tegelijk toegelaten, in de volgorde van die plaatsen.',
  waitingKeepOpen:
    'Houd deze pagina open: ze controleert voor u en stuurt u door naar de website zodra u aan de beurt bent. Vernieuwen verandert niets aan uw kansen, en u kunt op elk moment weggaan.',
  placeHeading: 'Uw plaats in de rij',
  placeAhead: 'Vóór u in de rij: {people}',
  turnIn: 'U bent over {duration} aan de beurt.',
  yourLane: 'Uw wachtrij: {lane}',
  waitHeading: 'Geschatte wachttijd',
  waitWithin: 'De meeste bezoekers zijn binnen {duration} aan de beurt',
  waitWithinMinute: 'De meeste bezoekers zijn binnen een minuut aan de beurt',
  waitPending: 'We zijn de wachttijd nog aan het berekenen. Deze pagina toont die zodra hij bekend is.',
  wait25: '1 op de 4 bezoekers is binnen {duration} aan de beurt',
  wait50: 'De helft binnen {duration}',
  wait75: '3 op de 4 binnen {duration}',
  noscriptWaiting:
    'Scripts staan uit, dus deze pagina kan niet voor u controleren. Uw volgende kans komt over {seconds, plural, one {ongeveer # seconde} other {ongeveer # seconden}}.',
  noscriptProof: 'Zolang het zo druk is op de website, zijn uw kansen zonder scripts kleiner.',
  notifyButton: 'Laat het me weten als ik aan de beurt ben',

  prequeueTitle: 'De verkoop begint binnenkort',
  prequeueIntro:
    'U staat in de voorwachtrij. Zodra de verkoop begint, krijgt iedereen in de voorwachtrij een willekeurige plaats in de rij.',
  prequeueStartLabel: 'Start van de verkoop:',
  prequeueNoJump:
    'Vroeg komen, de pagina vernieuwen of meer tabbladen openen brengt u niet verder naar voren. Houd deze pagina open: ze stuurt u door zodra de verkoop begint.',
  prequeueNoscript:
    'Scripts staan uit, dus deze pagina kan niet voor u controleren. Kom na de start terug en controleer het opnieuw.',

  denyTitle: 'Voorlopig gesloten',
  denyBody: 'De website laat op dit moment geen nieuwe bezoekers toe. Aan uw kant is er niets mis.',
  closedTitle: 'De verkoop is afgelopen',
  closedBody:
    'Dit evenement is voorbij en de website laat via deze weg geen bezoekers meer toe. Aan uw kant is er niets mis.',
  tryLater: 'Probeer het later opnieuw.',
  tryAgain: 'Opnieuw proberen',
  denyAuto:
    'Zolang deze pagina openstaat, controleert ze om de paar minuten opnieuw en stuurt ze u door zodra de website opengaat.',

  originDownTitle: 'Tijdelijk niet beschikbaar',
  originDownHeading: 'De website reageert op dit moment niet',
  originDownBody: 'Probeer het zo meteen opnieuw.',
  hammerTitle: 'Nog even geduld',
  hammerHeading: 'U staat nog steeds in de rij',
  hammerBody:
    '{seconds, plural, one {Deze pagina is te vaak opgevraagd. Uw plaats blijft behouden: de pagina controleert over # seconde vanzelf opnieuw.} other {Deze pagina is te vaak opgevraagd. Uw plaats blijft behouden: de pagina controleert over # seconden vanzelf opnieuw.}}',

  clientNextCheck: 'Volgende controle over {time}',
  clientStartsIn: 'Begint over {time}',
  clientMoment: 'een ogenblik',
  clientNotYet: 'U bent nog niet aan de beurt. De volgende controle is over {time}.',
  clientTurn: 'U bent aan de beurt. De website wordt geladen…',
  clientTurnTitle: 'U bent aan de beurt!',
  clientTurnBody: 'Ga terug naar dit tabblad om naar de website te gaan.',
  clientNotifyOn: 'U krijgt een melding zodra u aan de beurt bent.',
  clientUnreachable: 'De website is niet bereikbaar. We proberen het zo opnieuw.',
  clientStarted: 'De verkoop is begonnen. Bezig met laden…',
  clientStillClosed: 'Nog steeds gesloten. Deze pagina controleert over een paar minuten opnieuw.',
  clientProofStarted: `${proof}net begonnen.`,
  clientProofQuarter: `${proof}ongeveer een kwart klaar.`,
  clientProofHalf: `${proof}ongeveer halverwege.`,
  clientProofThreeQuarters: `${proof}ongeveer driekwart klaar.`,
  clientProofNearly: `${proof}bijna klaar.`,
  clientProofDone: 'Controle voltooid. U doet mee aan de loting.',
};
