// Romanian (Romania). Formal address (the polite plural, "dumneavoastră" forms: "sunteți", "vă"), as
// Romanian shops and ticket sites write. From 20 on a count takes "de" ("20 de minute", "1.200 de
// persoane"): the `other` cases; 2 to 19 and decimals are `few` ("5 minute", "1,5 ore"). Comma-below
// letters (ș, ț), not cedillas. Numbers: "." groups from four digits ("1.200"), decimal comma. For a
// reviewer: "precoadă" for the pre-queue, a word made for it, and "coadă" against "rând" for the queue.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'ro-RO',
  name: 'Română',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Mesaj de la site:',
  languageLabel: 'Limbă',
  checkNow: 'Verificați acum',

  durationUnknown: 'un timp necunoscut',
  durationUnderMinute: 'mai puțin de un minut',
  durationMinutes:
    '{minutes, plural, =1 {aproximativ un minut} one {aproximativ # minut} few {aproximativ # minute} other {aproximativ # de minute}}',
  durationHours:
    '{hours, plural, =1 {aproximativ o oră} one {aproximativ # oră} few {aproximativ # ore} other {aproximativ # de ore}}',
  durationRangeMinutes:
    '{to, plural, one {aproximativ {from}–# minut} few {aproximativ {from}–# minute} other {aproximativ {from}–# de minute}}',
  durationRangeHours:
    '{to, plural, one {aproximativ {from}–# oră} few {aproximativ {from}–# ore} other {aproximativ {from}–# de ore}}',
  durationRange: '{from} – {to}',
  peopleNone: 'nimeni',
  peopleExact: '{count, plural, one {# persoană} few {# persoane} other {# de persoane}}',
  peopleAbout:
    '{count, plural, one {aproximativ # persoană} few {aproximativ # persoane} other {aproximativ # de persoane}}',
  dateUtc: '{weekday}, {day} {month} {year}, ora {time} UTC',
  weekdays: 'duminică|luni|marți|miercuri|joi|vineri|sâmbătă',
  months: 'ianuarie|februarie|martie|aprilie|mai|iunie|iulie|august|septembrie|octombrie|noiembrie|decembrie',

  waitingTitleStart: 'Sunteți la coadă',
  waitingTitleKeep: 'Încă la coadă',
  waitingIntroStartRandom:
    'Site-ul este foarte aglomerat. Ca să funcționeze pentru toată lumea, vizitatorii intră câte câțiva, aleși la întâmplare dintre toți cei care așteaptă.',
  waitingIntroStartFifo:
    'Site-ul este foarte aglomerat. Ca să funcționeze pentru toată lumea, vizitatorii intră câte câțiva, în ordinea în care au sosit.',
  waitingIntroKeepRandom:
    'Nu a venit încă rândul dumneavoastră. Site-ul este foarte aglomerat, așa că vizitatorii intră câte câțiva, aleși la întâmplare dintre toți cei care așteaptă.',
  waitingIntroKeepFifo:
    'Nu a venit încă rândul dumneavoastră. Site-ul este foarte aglomerat, așa că vizitatorii intră câte câțiva, în ordinea în care au sosit.',
  waitingIntroKeepPrequeue:
    'Nu a venit încă rândul dumneavoastră. Când a început vânzarea, toți cei din precoadă, inclusiv dumneavoastră, au primit la întâmplare un loc la coadă. Vizitatorii intră câte câțiva, în ordinea acestor locuri.',
  waitingKeepOpen:
    'Lăsați această pagină deschisă: verifică în locul dumneavoastră și vă duce pe site când vine rândul dumneavoastră. Reîncărcarea paginii nu vă schimbă șansele și puteți pleca oricând.',
  placeHeading: 'Locul dumneavoastră la coadă',
  placeAhead: 'Înaintea dumneavoastră: {people}',
  turnIn: 'Vine rândul dumneavoastră în {duration}.',
  yourLane: 'Coada dumneavoastră: {lane}',
  waitHeading: 'Timp de așteptare estimat',
  waitWithin: 'Majoritatea vizitatorilor intră în {duration}',
  waitWithinMinute: 'Majoritatea vizitatorilor intră într-un minut',
  waitPending: 'Încă îl calculăm. Pagina îl afișează imediat ce este cunoscut.',
  wait25: '1 din 4 vizitatori intră în {duration}',
  wait50: 'Jumătate în {duration}',
  wait75: '3 din 4 în {duration}',
  noscriptWaiting:
    'Scripturile sunt dezactivate, așa că această pagină nu poate verifica în locul dumneavoastră. Următoarea șansă vine în {seconds, plural, one {aproximativ # secundă} few {aproximativ # secunde} other {aproximativ # de secunde}}.',
  noscriptProof: 'Cât timp site-ul este atât de aglomerat, fără scripturi șansele dumneavoastră sunt mai mici.',
  notifyButton: 'Anunțați-mă când îmi vine rândul',

  prequeueTitle: 'Vânzarea începe în curând',
  prequeueIntro:
    'Sunteți în precoadă. Când începe vânzarea, toți cei din precoadă primesc la întâmplare un loc la coadă.',
  prequeueStartLabel: 'Vânzarea începe:',
  prequeueNoJump:
    'Dacă veniți mai devreme, reîncărcați pagina sau deschideți mai multe file, nu avansați. Lăsați această pagină deschisă: vă duce mai departe când începe vânzarea.',
  prequeueNoscript:
    'Scripturile sunt dezactivate, așa că această pagină nu poate verifica în locul dumneavoastră. Reveniți după începere și verificați din nou.',

  denyTitle: 'Închis momentan',
  denyBody: 'Site-ul nu primește vizitatori noi în acest moment. Nu este nicio problemă din partea dumneavoastră.',
  closedTitle: 'Vânzarea s-a încheiat',
  closedBody:
    'Acest eveniment s-a încheiat, iar site-ul nu mai primește vizitatori pe această cale. Nu este nicio problemă din partea dumneavoastră.',
  tryLater: 'Vă rugăm să încercați din nou mai târziu.',
  tryAgain: 'Încercați din nou',
  denyAuto:
    'Cât timp această pagină rămâne deschisă, verifică din nou la câteva minute și vă duce mai departe când se deschide site-ul.',

  originDownTitle: 'Indisponibil temporar',
  originDownHeading: 'Site-ul nu răspunde în acest moment',
  originDownBody: 'Vă rugăm să încercați din nou peste câteva clipe.',
  hammerTitle: 'Așteptarea continuă',
  hammerHeading: 'Sunteți în continuare la coadă',
  hammerBody:
    '{seconds, plural, one {Această pagină a fost verificată prea des. Locul dumneavoastră este păstrat: va verifica singură din nou în # secundă.} few {Această pagină a fost verificată prea des. Locul dumneavoastră este păstrat: va verifica singură din nou în # secunde.} other {Această pagină a fost verificată prea des. Locul dumneavoastră este păstrat: va verifica singură din nou în # de secunde.}}',

  clientNextCheck: 'Următoarea verificare în {time}',
  clientStartsIn: 'Începe în {time}',
  clientMoment: 'câteva clipe',
  clientNotYet: 'Nu a venit încă rândul dumneavoastră. Următoarea verificare în {time}.',
  clientTurn: 'A venit rândul dumneavoastră. Se încarcă site-ul…',
  clientTurnTitle: 'A venit rândul dumneavoastră!',
  clientTurnBody: 'Reveniți la această filă pentru a intra pe site.',
  clientNotifyOn: 'Veți primi o notificare când vine rândul dumneavoastră.',
  clientUnreachable: 'Site-ul nu a putut fi accesat. Reîncercăm în curând.',
  clientStarted: 'Vânzarea a început. Se încarcă…',
  clientStillClosed: 'Încă închis. Pagina va verifica din nou în câteva minute.',
  clientProofStarted:
    'Browserul dumneavoastră face o scurtă verificare care ține la distanță cumpărătorii automați: abia a început.',
  clientProofQuarter:
    'Browserul dumneavoastră face o scurtă verificare care ține la distanță cumpărătorii automați: cam un sfert gata.',
  clientProofHalf:
    'Browserul dumneavoastră face o scurtă verificare care ține la distanță cumpărătorii automați: cam jumătate gata.',
  clientProofThreeQuarters:
    'Browserul dumneavoastră face o scurtă verificare care ține la distanță cumpărătorii automați: cam trei sferturi gata.',
  clientProofNearly:
    'Browserul dumneavoastră face o scurtă verificare care ține la distanță cumpărătorii automați: aproape gata.',
  clientProofDone: 'Verificarea s-a încheiat. Participați la tragerea la sorți.',
};
