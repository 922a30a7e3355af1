// Croatian (Croatia). Formal "vi", lower-case as Croatian web interfaces write it. Durations are
// accusative phrases ("otprilike minutu", "otprilike 5 minuta", "manje od minute"), which answer "how
// long?" alone and follow "čekati" and "za", so the sentences around them take that case; ranges use a
// dash, as "od … do" would need the genitive. The page's script fills {time} with the browser's
// nominative ("1 sekunda"), so client keys put it after a colon. Numbers: "." groups from four digits
// ("1.200"), decimal comma. For a reviewer: "pretred" for the pre-queue, a word made for it.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'hr-HR',
  name: 'Hrvatski',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Poruka s web-stranice:',
  languageLabel: 'Jezik',
  checkNow: 'Provjeri sada',

  durationUnknown: 'nepoznato vrijeme',
  durationUnderMinute: 'manje od minute',
  durationMinutes:
    '{minutes, plural, =1 {otprilike minutu} one {otprilike # minutu} few {otprilike # minute} other {otprilike # minuta}}',
  durationHours:
    '{hours, plural, =1 {otprilike sat} one {otprilike # sat} few {otprilike # sata} other {otprilike # sati}}',
  durationRangeMinutes:
    '{to, plural, one {otprilike {from} – # minutu} few {otprilike {from} – # minute} other {otprilike {from} – # minuta}}',
  durationRangeHours:
    '{to, plural, one {otprilike {from} – # sat} few {otprilike {from} – # sata} other {otprilike {from} – # sati}}',
  durationRange: '{from} – {to}',
  peopleNone: 'nitko',
  peopleExact: '{count, plural, one {# osoba} few {# osobe} other {# osoba}}',
  peopleAbout: '{count, plural, one {otprilike # osoba} few {otprilike # osobe} other {otprilike # osoba}}',
  dateUtc: '{weekday}, {day}. {month} {year}., {time} UTC',
  weekdays: 'nedjelja|ponedjeljak|utorak|srijeda|četvrtak|petak|subota',
  months: 'siječnja|veljače|ožujka|travnja|svibnja|lipnja|srpnja|kolovoza|rujna|listopada|studenoga|prosinca',

  waitingTitleStart: 'U redu ste',
  waitingTitleKeep: 'Još ste u redu',
  waitingIntroStartRandom:
    'Web-stranica je trenutačno vrlo opterećena. Kako bi radila za sve, posjetitelje puštamo unutra po nekoliko odjednom, nasumično odabrane između svih koji čekaju.',
  waitingIntroStartFifo:
    'Web-stranica je trenutačno vrlo opterećena. Kako bi radila za sve, posjetitelje puštamo unutra po nekoliko odjednom, redoslijedom kojim su došli.',
  waitingIntroKeepRandom:
    'Još niste na redu. Web-stranica je vrlo opterećena, pa posjetitelje puštamo unutra po nekoliko odjednom, nasumično odabrane između svih koji čekaju.',
  waitingIntroKeepFifo:
    'Još niste na redu. Web-stranica je vrlo opterećena, pa posjetitelje puštamo unutra po nekoliko odjednom, redoslijedom kojim su došli.',
  waitingIntroKeepPrequeue:
    'Još niste na redu. Kad je prodaja počela, svi u pretredu, uključujući vas, nasumično su dobili mjesto u redu. Posjetitelje puštamo unutra po nekoliko odjednom, redoslijedom tih mjesta.',
  waitingKeepOpen:
    'Ostavite ovu stranicu otvorenom: ona provjerava umjesto vas i odvest će vas na web-stranicu čim dođete na red. Osvježavanje ne mijenja vaše izglede, a možete otići u bilo kojem trenutku.',
  placeHeading: 'Vaše mjesto u redu',
  placeAhead: 'Ispred vas: {people}',
  turnIn: 'Preostalo čekanje: {duration}.',
  yourLane: 'Vaš red: {lane}',
  waitHeading: 'Procijenjeno čekanje',
  waitWithin: 'Većina posjetitelja čeka najviše {duration}',
  waitWithinMinute: 'Većina posjetitelja čeka najviše minutu',
  waitPending: 'Još ga procjenjujemo. Stranica će ga prikazati čim bude poznato.',
  wait25: 'Svaki četvrti posjetitelj čeka najviše {duration}',
  wait50: 'Polovica najviše {duration}',
  wait75: 'Tri od četiri najviše {duration}',
  noscriptWaiting:
    'Skripte su isključene, pa ova stranica ne može provjeravati umjesto vas. Sljedeću priliku imate za {seconds, plural, one {otprilike # sekundu} few {otprilike # sekunde} other {otprilike # sekundi}}.',
  noscriptProof: 'Dok je web-stranica ovako opterećena, bez skripti su vaši izgledi manji.',
  notifyButton: 'Obavijestite me kad dođem na red',

  prequeueTitle: 'Prodaja uskoro počinje',
  prequeueIntro: 'U pretredu ste. Kad prodaja počne, svi u pretredu nasumično dobivaju mjesto u redu.',
  prequeueStartLabel: 'Početak prodaje:',
  prequeueNoJump:
    'Raniji dolazak, osvježavanje stranice ili otvaranje više kartica ne pomiče vas naprijed. Ostavite ovu stranicu otvorenom: odvest će vas dalje kad prodaja počne.',
  prequeueNoscript:
    'Skripte su isključene, pa ova stranica ne može provjeravati umjesto vas. Vratite se nakon početka i provjerite ponovno.',

  denyTitle: 'Privremeno zatvoreno',
  denyBody: 'Web-stranica trenutačno ne pušta nove posjetitelje. S vaše strane je sve u redu.',
  closedTitle: 'Prodaja je završila',
  closedBody:
    'Ovaj je događaj završio i web-stranica ovim putem više ne pušta posjetitelje. S vaše strane je sve u redu.',
  tryLater: 'Pokušajte ponovno kasnije.',
  tryAgain: 'Pokušaj ponovno',
  denyAuto:
    'Dok je ova stranica otvorena, provjerava ponovno svakih nekoliko minuta i odvest će vas dalje kad se web-stranica otvori.',

  originDownTitle: 'Privremeno nedostupno',
  originDownHeading: 'Web-stranica trenutačno ne odgovara',
  originDownBody: 'Pokušajte ponovno za trenutak.',
  hammerTitle: 'Čekanje se nastavlja',
  hammerHeading: 'Još ste u redu',
  hammerBody:
    '{seconds, plural, one {Ova je stranica provjeravana prečesto. Vaše je mjesto sačuvano: sama će provjeriti ponovno za # sekundu.} few {Ova je stranica provjeravana prečesto. Vaše je mjesto sačuvano: sama će provjeriti ponovno za # sekunde.} other {Ova je stranica provjeravana prečesto. Vaše je mjesto sačuvano: sama će provjeriti ponovno za # sekundi.}}',

  clientNextCheck: 'Do sljedeće provjere: {time}',
  clientStartsIn: 'Do početka: {time}',
  clientMoment: 'trenutak',
  clientNotYet: 'Još niste na redu. Do sljedeće provjere: {time}.',
  clientTurn: 'Na redu ste. Učitavanje web-stranice…',
  clientTurnTitle: 'Na redu ste!',
  clientTurnBody: 'Vratite se na ovu karticu kako biste otišli na web-stranicu.',
  clientNotifyOn: 'Dobit ćete obavijest kad dođete na red.',
  clientUnreachable: 'Web-stranica nije dostupna. Uskoro pokušavamo ponovno.',
  clientStarted: 'Prodaja je počela. Učitavanje…',
  clientStillClosed: 'Još je zatvoreno. Stranica će ponovno provjeriti za nekoliko minuta.',
  clientProofStarted: 'Vaš preglednik obavlja kratku provjeru koja zaustavlja automatizirane kupce: tek je počela.',
  clientProofQuarter:
    'Vaš preglednik obavlja kratku provjeru koja zaustavlja automatizirane kupce: gotova je otprilike četvrtina.',
  clientProofHalf:
    'Vaš preglednik obavlja kratku provjeru koja zaustavlja automatizirane kupce: gotova je otprilike polovica.',
  clientProofThreeQuarters:
    'Vaš preglednik obavlja kratku provjeru koja zaustavlja automatizirane kupce: gotove su otprilike tri četvrtine.',
  clientProofNearly: 'Vaš preglednik obavlja kratku provjeru koja zaustavlja automatizirane kupce: gotovo je završila.',
  clientProofDone: 'Provjera je gotova. Sudjelujete u izvlačenju.',
};
