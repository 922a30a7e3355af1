// Serbian (Bosnia and Herzegovina), in the Latin script and the ijekavian pronunciation written in
// Bosnia and Herzegovina ("vrijeme", "mjesto", "posjetilac"). Latin rather than Cyrillic: both are
// official there, and Latin is what Serbian e-commerce and ticketing sites in the region mostly show
// and what every reader of Serbian, Bosnian, Croatian or Montenegrin reads, so `sr`, `sr-Latn`,
// `sr-Cyrl`, `sr-RS` and `sr-ME` browsers are served it too (docs/languages.md). A sale aimed at
// Cyrillic readers can override the strings (`npm run pages`). Formal "vi", lower-case. Durations are
// accusative phrases ("otprilike minut", "otprilike 5 minuta", "manje od minuta"); ranges use a dash;
// client keys put the browser's {time} after a colon. Numbers: "." groups from four digits ("1.200"),
// decimal comma. For a reviewer: the script, the ijekavian forms, and "predred" for the pre-queue.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'sr-BA',
  name: 'Srpski',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Poruka sa sajta:',
  languageLabel: 'Jezik',
  checkNow: 'Provjerite sada',

  durationUnknown: 'nepoznato vrijeme',
  durationUnderMinute: 'manje od minuta',
  durationMinutes:
    '{minutes, plural, =1 {otprilike minut} one {otprilike # minut} few {otprilike # minuta} other {otprilike # minuta}}',
  durationHours:
    '{hours, plural, =1 {otprilike sat} one {otprilike # sat} few {otprilike # sata} other {otprilike # sati}}',
  durationRangeMinutes:
    '{to, plural, one {otprilike {from} – # minut} few {otprilike {from} – # minuta} other {otprilike {from} – # minuta}}',
  durationRangeHours:
    '{to, plural, one {otprilike {from} – # sat} few {otprilike {from} – # sata} other {otprilike {from} – # sati}}',
  durationRange: '{from} – {to}',
  peopleNone: 'niko',
  peopleExact: '{count, plural, one {# osoba} few {# osobe} other {# osoba}}',
  peopleAbout: '{count, plural, one {otprilike # osoba} few {otprilike # osobe} other {otprilike # osoba}}',
  dateUtc: '{weekday}, {day}. {month} {year}, {time} UTC',
  weekdays: 'nedjelja|ponedjeljak|utorak|srijeda|četvrtak|petak|subota',
  months: 'januar|februar|mart|april|maj|jun|jul|avgust|septembar|oktobar|novembar|decembar',

  waitingTitleStart: 'U redu ste',
  waitingTitleKeep: 'Još ste u redu',
  waitingIntroStartRandom:
    'Sajt je trenutno veoma opterećen. Da bi radio za sve, posjetioce puštamo po nekoliko odjednom, nasumično izabrane između svih koji čekaju.',
  waitingIntroStartFifo:
    'Sajt je trenutno veoma opterećen. Da bi radio za sve, posjetioce puštamo po nekoliko odjednom, redoslijedom kojim su stigli.',
  waitingIntroKeepRandom:
    'Još niste na redu. Sajt je veoma opterećen, pa posjetioce puštamo po nekoliko odjednom, nasumično izabrane između svih koji čekaju.',
  waitingIntroKeepFifo:
    'Još niste na redu. Sajt je veoma opterećen, pa posjetioce puštamo po nekoliko odjednom, redoslijedom kojim su stigli.',
  waitingIntroKeepPrequeue:
    'Još niste na redu. Kada je prodaja počela, svi u predredu, uključujući vas, nasumično su dobili mjesto u redu. Posjetioce puštamo po nekoliko odjednom, redoslijedom tih mjesta.',
  waitingKeepOpen:
    'Ostavite ovu stranicu otvorenom: ona provjerava umjesto vas i odvešće vas na sajt čim dođete na red. Osvježavanje ne mijenja vaše šanse, a možete otići u bilo kom trenutku.',
  placeHeading: 'Vaše mjesto u redu',
  placeAhead: 'Ispred vas: {people}',
  turnIn: 'Preostalo čekanje: {duration}.',
  yourLane: 'Vaš red: {lane}',
  waitHeading: 'Procijenjeno čekanje',
  waitWithin: 'Većina posjetilaca čeka najviše {duration}',
  waitWithinMinute: 'Većina posjetilaca čeka najviše minut',
  waitPending: 'Još ga procjenjujemo. Stranica će ga prikazati čim bude poznato.',
  wait25: 'Svaki četvrti posjetilac čeka najviše {duration}',
  wait50: 'Polovina najviše {duration}',
  wait75: 'Tri od četiri najviše {duration}',
  noscriptWaiting:
    'Skripte su isključene, pa ova stranica ne može da provjerava umjesto vas. Sljedeću šansu imate za {seconds, plural, one {otprilike # sekundu} few {otprilike # sekunde} other {otprilike # sekundi}}.',
  noscriptProof: 'Dok je sajt ovako opterećen, bez skripti su vaše šanse manje.',
  notifyButton: 'Obavijestite me kada dođem na red',

  prequeueTitle: 'Prodaja uskoro počinje',
  prequeueIntro: 'U predredu ste. Kada prodaja počne, svi u predredu nasumično dobijaju mjesto u redu.',
  prequeueStartLabel: 'Početak prodaje:',
  prequeueNoJump:
    'Raniji dolazak, osvježavanje stranice ili otvaranje više kartica ne pomjera vas naprijed. Ostavite ovu stranicu otvorenom: odvešće vas dalje kada prodaja počne.',
  prequeueNoscript:
    'Skripte su isključene, pa ova stranica ne može da provjerava umjesto vas. Vratite se nakon početka i provjerite ponovo.',

  denyTitle: 'Privremeno zatvoreno',
  denyBody: 'Sajt trenutno ne pušta nove posjetioce. Sa vaše strane je sve u redu.',
  closedTitle: 'Prodaja je završena',
  closedBody: 'Ovaj događaj je završen i sajt ovim putem više ne pušta posjetioce. Sa vaše strane je sve u redu.',
  tryLater: 'Pokušajte ponovo kasnije.',
  tryAgain: 'Pokušajte ponovo',
  denyAuto:
    'Dok je ova stranica otvorena, provjerava ponovo svakih nekoliko minuta i odvešće vas dalje kada se sajt otvori.',

  originDownTitle: 'Privremeno nedostupno',
  originDownHeading: 'Sajt trenutno ne odgovara',
  originDownBody: 'Pokušajte ponovo za trenutak.',
  hammerTitle: 'Čekanje se nastavlja',
  hammerHeading: 'Još ste u redu',
  hammerBody:
    '{seconds, plural, one {Ova stranica je provjeravana prečesto. Vaše mjesto je sačuvano: sama će provjeriti ponovo za # sekundu.} few {Ova stranica je provjeravana prečesto. Vaše mjesto je sačuvano: sama će provjeriti ponovo za # sekunde.} other {Ova stranica je provjeravana prečesto. Vaše mjesto je sačuvano: sama će provjeriti ponovo za # sekundi.}}',

  clientNextCheck: 'Do sljedeće provjere: {time}',
  clientStartsIn: 'Do početka: {time}',
  clientMoment: 'trenutak',
  clientNotYet: 'Još niste na redu. Do sljedeće provjere: {time}.',
  clientTurn: 'Na redu ste. Učitavanje sajta…',
  clientTurnTitle: 'Na redu ste!',
  clientTurnBody: 'Vratite se na ovu karticu da biste otišli na sajt.',
  clientNotifyOn: 'Dobićete obavještenje kada dođete na red.',
  clientUnreachable: 'Sajt nije dostupan. Uskoro pokušavamo ponovo.',
  clientStarted: 'Prodaja je počela. Učitavanje…',
  clientStillClosed: 'Još je zatvoreno. Stranica će ponovo provjeriti za nekoliko minuta.',
  clientProofStarted: 'Vaš pregledač obavlja kratku provjeru koja zaustavlja automatizovane kupce: tek je počela.',
  clientProofQuarter:
    'Vaš pregledač obavlja kratku provjeru koja zaustavlja automatizovane kupce: gotova je otprilike četvrtina.',
  clientProofHalf:
    'Vaš pregledač obavlja kratku provjeru koja zaustavlja automatizovane kupce: gotova je otprilike polovina.',
  clientProofThreeQuarters:
    'Vaš pregledač obavlja kratku provjeru koja zaustavlja automatizovane kupce: gotove su otprilike tri četvrtine.',
  clientProofNearly: 'Vaš pregledač obavlja kratku provjeru koja zaustavlja automatizovane kupce: skoro je završena.',
  clientProofDone: 'Provjera je završena. Učestvujete u izvlačenju.',
};
