// Polish (Poland). Formal and impersonal register (Państwo, "prosimy"), buttons in the imperative as
// Polish interfaces write them. Durations are genitive phrases ("około 5 minut", "niecałej minuty"):
// the sentences around them ("w ciągu …", "od … do …") govern the genitive, so one form fits them all.
// Numbers: no group in four digits ("1200"), U+00A0 from five ("12 000"), decimal comma.
import type { Catalog } from './en-US.js';
import type { LocaleInfo } from '../types.js';

export const info: LocaleInfo = {
  tag: 'pl-PL',
  name: 'Polski',
  dir: 'ltr',
  number: { decimal: ',', group: '\u00a0', minimumGroupingDigits: 2, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Wiadomość od serwisu:',
  languageLabel: 'Język',
  checkNow: 'Sprawdź teraz',

  durationUnknown: 'nieokreślonego czasu',
  durationUnderMinute: 'niecałej minuty',
  durationMinutes:
    '{minutes, plural, =1 {około minuty} one {około # minuty} few {około # minut} many {około # minut} other {około # minuty}}',
  durationHours:
    '{hours, plural, =1 {około godziny} one {około # godziny} few {około # godzin} many {około # godzin} other {około # godziny}}',
  durationRangeMinutes:
    '{to, plural, one {od około {from} do # minuty} few {od około {from} do # minut} many {od około {from} do # minut} other {od około {from} do # minuty}}',
  durationRangeHours:
    '{to, plural, one {od około {from} do # godziny} few {od około {from} do # godzin} many {od około {from} do # godzin} other {od około {from} do # godziny}}',
  durationRange: 'od {from} do {to}',
  peopleNone: 'nikt',
  peopleExact: '{count, plural, one {# osoba} few {# osoby} many {# osób} other {# osoby}}',
  peopleAbout: '{count, plural, one {około # osoby} few {około # osób} many {około # osób} other {około # osoby}}',
  dateUtc: '{weekday}, {day} {month} {year}, {time} UTC',
  weekdays: 'niedziela|poniedziałek|wtorek|środa|czwartek|piątek|sobota',
  months: 'stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia',

  waitingTitleStart: 'Są Państwo w kolejce',
  waitingTitleKeep: 'Wciąż w kolejce',
  waitingIntroStartRandom:
    'Serwis jest teraz bardzo obciążony. Aby działał sprawnie dla wszystkich, wpuszczamy odwiedzających po kilka osób naraz, losując je spośród wszystkich oczekujących.',
  waitingIntroStartFifo:
    'Serwis jest teraz bardzo obciążony. Aby działał sprawnie dla wszystkich, wpuszczamy odwiedzających po kilka osób naraz, w kolejności przybycia.',
  waitingIntroKeepRandom:
    'To jeszcze nie Państwa kolej. Serwis jest bardzo obciążony, więc wpuszczamy odwiedzających po kilka osób naraz, losując je spośród wszystkich oczekujących.',
  waitingIntroKeepFifo:
    'To jeszcze nie Państwa kolej. Serwis jest bardzo obciążony, więc wpuszczamy odwiedzających po kilka osób naraz, w kolejności przybycia.',
  waitingIntroKeepPrequeue:
    'To jeszcze nie Państwa kolej. Gdy sprzedaż się rozpoczęła, wszystkie osoby z kolejki wstępnej, w tym Państwo, otrzymały losowo wybrane miejsca w kolejce. Wpuszczamy odwiedzających po kilka osób naraz, w kolejności tych miejsc.',
  waitingKeepOpen:
    'Prosimy nie zamykać tej strony: sama sprawdza, czy nadeszła Państwa kolej, i wtedy przeniesie Państwa do serwisu. Odświeżanie nie zwiększa szans, a stronę można opuścić w dowolnej chwili.',
  placeHeading: 'Miejsce w kolejce',
  placeAhead: 'Przed Państwem: {people}',
  turnIn: 'Państwa kolej nadejdzie w ciągu {duration}.',
  yourLane: 'Państwa kolejka: {lane}',
  waitHeading: 'Szacowany czas oczekiwania',
  waitWithin: 'Większość osób wchodzi w ciągu {duration}',
  waitWithinMinute: 'Większość osób wchodzi w ciągu minuty',
  waitPending: 'Wciąż to obliczamy. Szacunek pojawi się na tej stronie, gdy tylko będzie znany.',
  wait25: 'Co czwarta osoba wchodzi w ciągu {duration}',
  wait50: 'Połowa – w ciągu {duration}',
  wait75: 'Trzy osoby na cztery – w ciągu {duration}',
  noscriptWaiting:
    'Skrypty są wyłączone, więc ta strona nie może sprawdzać za Państwa. Następna szansa nadejdzie za {seconds, plural, one {około # sekundę} few {około # sekundy} many {około # sekund} other {około # sekundy}}.',
  noscriptProof: 'Dopóki serwis jest tak obciążony, bez skryptów szanse są mniejsze.',
  notifyButton: 'Powiadom mnie, gdy nadejdzie moja kolej',

  prequeueTitle: 'Sprzedaż wkrótce się rozpocznie',
  prequeueIntro:
    'Są Państwo w kolejce wstępnej. Gdy sprzedaż się rozpocznie, każda osoba z kolejki wstępnej otrzyma losowo wybrane miejsce w kolejce.',
  prequeueStartLabel: 'Początek sprzedaży:',
  prequeueNoJump:
    'Wcześniejsze przybycie, odświeżanie strony ani otwieranie kolejnych kart nie przesuwa Państwa do przodu. Prosimy nie zamykać tej strony: gdy sprzedaż się rozpocznie, sama przeniesie Państwa dalej.',
  prequeueNoscript:
    'Skrypty są wyłączone, więc ta strona nie może sprawdzać za Państwa. Prosimy wrócić po rozpoczęciu sprzedaży i sprawdzić ponownie.',

  denyTitle: 'Chwilowo zamknięte',
  denyBody: 'Serwis nie wpuszcza teraz nowych odwiedzających. Po Państwa stronie wszystko jest w porządku.',
  closedTitle: 'Sprzedaż się zakończyła',
  closedBody:
    'To wydarzenie dobiegło końca i serwis nie wpuszcza już przez nie odwiedzających. Po Państwa stronie wszystko jest w porządku.',
  tryLater: 'Prosimy spróbować ponownie później.',
  tryAgain: 'Spróbuj ponownie',
  denyAuto:
    'Dopóki ta strona jest otwarta, co kilka minut sprawdza ponownie i przeniesie Państwa dalej, gdy serwis zacznie wpuszczać odwiedzających.',

  originDownTitle: 'Chwilowo niedostępne',
  originDownHeading: 'Serwis w tej chwili nie odpowiada',
  originDownBody: 'Prosimy spróbować ponownie za chwilę.',
  hammerTitle: 'Trwa oczekiwanie',
  hammerHeading: 'Nadal są Państwo w kolejce',
  hammerBody:
    '{seconds, plural, one {Ta strona była sprawdzana zbyt często. Państwa miejsce jest zachowane: strona sama sprawdzi ponownie za # sekundę.} few {Ta strona była sprawdzana zbyt często. Państwa miejsce jest zachowane: strona sama sprawdzi ponownie za # sekundy.} many {Ta strona była sprawdzana zbyt często. Państwa miejsce jest zachowane: strona sama sprawdzi ponownie za # sekund.} other {Ta strona była sprawdzana zbyt często. Państwa miejsce jest zachowane: strona sama sprawdzi ponownie za # sekundy.}}',

  // {time} is the browser's "45 sekund" / "1 minuta" (nominative), so it stands after a colon.
  clientNextCheck: 'Do następnego sprawdzenia: {time}',
  clientStartsIn: 'Do rozpoczęcia: {time}',
  clientMoment: 'chwila',
  clientNotYet: 'To jeszcze nie Państwa kolej. Do następnego sprawdzenia: {time}.',
  clientTurn: 'Nadeszła Państwa kolej. Wczytywanie serwisu…',
  clientTurnTitle: 'Nadeszła Państwa kolej!',
  clientTurnBody: 'Prosimy wrócić do tej karty, aby przejść do serwisu.',
  clientNotifyOn: 'Otrzymają Państwo powiadomienie, gdy nadejdzie Państwa kolej.',
  clientUnreachable: 'Nie udało się połączyć z serwisem. Za chwilę spróbujemy ponownie.',
  clientStarted: 'Sprzedaż się rozpoczęła. Wczytywanie…',
  clientStillClosed: 'Nadal zamknięte. Strona sprawdzi ponownie za kilka minut.',
  clientProofStarted:
    'Przeglądarka przeprowadza krótką weryfikację, która chroni przed botami zakupowymi: dopiero się rozpoczęła.',
  clientProofQuarter:
    'Przeglądarka przeprowadza krótką weryfikację, która chroni przed botami zakupowymi: ukończono około jednej czwartej.',
  clientProofHalf:
    'Przeglądarka przeprowadza krótką weryfikację, która chroni przed botami zakupowymi: ukończono około połowy.',
  clientProofThreeQuarters:
    'Przeglądarka przeprowadza krótką weryfikację, która chroni przed botami zakupowymi: ukończono około trzech czwartych.',
  clientProofNearly:
    'Przeglądarka przeprowadza krótką weryfikację, która chroni przed botami zakupowymi: prawie gotowe.',
  clientProofDone: 'Weryfikacja zakończona. Biorą Państwo udział w losowaniu.',
};
