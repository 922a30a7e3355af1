// The built-in strings in Italian (Italy), "tu": the register Italian consumer sites use; "Lei" reads
// bureaucratic on a shop's page. Millions take "di" ("1.000.000 di persone"): the `many` cases.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'it-IT',
  name: 'Italiano',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 2, digits: '0123456789' },
};

const proof = 'Il tuo browser sta eseguendo un breve controllo che tiene lontani i sistemi di acquisto automatico: ';

export const catalog: Catalog = {
  fromSite: 'Messaggio dal sito:',
  languageLabel: 'Lingua',
  checkNow: 'Controlla ora',

  durationUnknown: 'un tempo non determinabile',
  durationUnderMinute: 'meno di un minuto',
  durationMinutes:
    '{minutes, plural, =1 {circa un minuto} one {circa # minuto} many {circa # di minuti} other {circa # minuti}}',
  durationHours: '{hours, plural, =1 {circa un’ora} one {circa # ora} many {circa # di ore} other {circa # ore}}',
  durationRangeMinutes:
    '{to, plural, one {da {from} a # minuto circa} many {da {from} a # di minuti circa} other {da {from} a # minuti circa}}',
  durationRangeHours:
    '{to, plural, one {da {from} a # ora circa} many {da {from} a # di ore circa} other {da {from} a # ore circa}}',
  durationRange: 'da {from} a {to}',
  peopleNone: 'nessuno',
  peopleExact: '{count, plural, one {# persona} many {# di persone} other {# persone}}',
  peopleAbout: '{count, plural, one {circa # persona} many {circa # di persone} other {circa # persone}}',
  dateUtc: '{weekday} {day, select, 1 {1º} other {{day}}} {month} {year}, ore {time} UTC',
  weekdays: 'domenica|lunedì|martedì|mercoledì|giovedì|venerdì|sabato',
  months: 'gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre',

  waitingTitleStart: 'Sei in coda',
  waitingTitleKeep: 'Sei ancora in coda',
  waitingIntroStartRandom:
    'Il sito è molto affollato. Perché funzioni per tutti, i visitatori entrano pochi alla volta, estratti a sorte tra tutte le persone in attesa.',
  waitingIntroStartFifo:
    'Il sito è molto affollato. Perché funzioni per tutti, i visitatori entrano pochi alla volta, in ordine di arrivo.',
  waitingIntroKeepRandom:
    'Non è ancora il tuo turno. Il sito è molto affollato, quindi i visitatori entrano pochi alla volta, estratti a sorte tra tutte le persone in attesa.',
  waitingIntroKeepFifo:
    'Non è ancora il tuo turno. Il sito è molto affollato, quindi i visitatori entrano pochi alla volta, in ordine di arrivo.',
  waitingIntroKeepPrequeue:
    'Non è ancora il tuo turno. All’inizio della vendita, a tutte le persone in pre-coda, anche a te, è stato assegnato a sorte un posto in coda. I visitatori entrano pochi alla volta, nell’ordine di questi posti.',
  waitingKeepOpen:
    'Tieni aperta questa pagina: controlla al posto tuo e ti porta sul sito quando arriva il tuo turno. Ricaricarla non cambia le tue probabilità e puoi andartene in qualsiasi momento.',
  placeHeading: 'Il tuo posto in coda',
  placeAhead: 'Davanti a te: {people}',
  turnIn: 'Il tuo turno arriverà tra {duration}.',
  yourLane: 'La tua coda: {lane}',
  waitHeading: 'Attesa stimata',
  waitWithin: 'La maggior parte dei visitatori accede entro {duration}',
  waitWithinMinute: 'La maggior parte dei visitatori accede entro un minuto',
  waitPending: 'Stiamo ancora calcolando l’attesa. Questa pagina la mostrerà non appena sarà disponibile.',
  wait25: '1 visitatore su 4 accede entro {duration}',
  wait50: 'La metà entro {duration}',
  wait75: '3 su 4 entro {duration}',
  noscriptWaiting:
    'Gli script sono disattivati, quindi questa pagina non può controllare al posto tuo. La tua prossima possibilità arriverà tra {seconds, plural, one {circa # secondo} many {circa # di secondi} other {circa # secondi}}.',
  noscriptProof: 'Finché il sito è così affollato, senza script le tue probabilità sono più basse.',
  notifyButton: 'Avvisami quando è il mio turno',

  prequeueTitle: 'La vendita inizia a breve',
  prequeueIntro:
    'Sei nella pre-coda. All’inizio della vendita, a tutte le persone in pre-coda verrà assegnato a sorte un posto in coda.',
  prequeueStartLabel: 'Inizio della vendita:',
  prequeueNoJump:
    'Arrivare in anticipo, ricaricare la pagina o aprire altre schede non ti fa avanzare. Tieni aperta questa pagina: ti farà proseguire quando inizia la vendita.',
  prequeueNoscript:
    'Gli script sono disattivati, quindi questa pagina non può controllare al posto tuo. Torna dopo l’inizio e controlla di nuovo.',

  denyTitle: 'Chiuso per il momento',
  denyBody: 'Al momento il sito non accetta nuovi visitatori. Non c’è nessun problema da parte tua.',
  closedTitle: 'La vendita è terminata',
  closedBody:
    'Questo evento è concluso e il sito non accetta più visitatori attraverso questo accesso. Non c’è nessun problema da parte tua.',
  tryLater: 'Riprova più tardi.',
  tryAgain: 'Riprova',
  denyAuto:
    'Finché questa pagina resta aperta, ricontrolla a intervalli di qualche minuto e ti fa entrare quando il sito apre.',

  originDownTitle: 'Temporaneamente non disponibile',
  originDownHeading: 'Il sito non risponde in questo momento',
  originDownBody: 'Riprova tra qualche istante.',
  hammerTitle: 'Ancora in attesa',
  hammerHeading: 'Sei ancora in coda',
  hammerBody:
    '{seconds, plural, one {Questa pagina è stata ricaricata troppo spesso. Il tuo posto è salvo: la pagina ricontrollerà da sola tra # secondo.} many {Questa pagina è stata ricaricata troppo spesso. Il tuo posto è salvo: la pagina ricontrollerà da sola tra # di secondi.} other {Questa pagina è stata ricaricata troppo spesso. Il tuo posto è salvo: la pagina ricontrollerà da sola tra # secondi.}}',

  clientNextCheck: 'Prossimo controllo tra {time}',
  clientStartsIn: 'Inizia tra {time}',
  clientMoment: 'un attimo',
  clientNotYet: 'Non è ancora il tuo turno. Il prossimo controllo è tra {time}.',
  clientTurn: 'È il tuo turno. Caricamento del sito…',
  clientTurnTitle: 'È il tuo turno!',
  clientTurnBody: 'Torna a questa scheda per entrare nel sito.',
  clientNotifyOn: 'Riceverai una notifica quando sarà il tuo turno.',
  clientUnreachable: 'Impossibile raggiungere il sito. Nuovo tentativo a breve.',
  clientStarted: 'La vendita è iniziata. Caricamento…',
  clientStillClosed: 'Ancora chiuso. Questa pagina ricontrollerà tra qualche minuto.',
  clientProofStarted: `${proof}appena avviato.`,
  clientProofQuarter: `${proof}completato per circa un quarto.`,
  clientProofHalf: `${proof}completato per circa la metà.`,
  clientProofThreeQuarters: `${proof}completato per circa tre quarti.`,
  clientProofNearly: `${proof}quasi completato.`,
  clientProofDone: 'Controllo completato. Partecipi all’estrazione.',
};
