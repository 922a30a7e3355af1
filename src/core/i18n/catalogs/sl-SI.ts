// Slovenian (Slovenia). Formal "vi" (vikanje), lower-case as Slovenian web interfaces write it.
// Durations are accusative phrases ("približno minuto", "približno 5 minut", "manj kot minuto"), which
// answer "how long?" alone and follow "čakati" and "čez"; Slovenian has a dual ("2 minuti", "2 osebi"),
// and decimals take "few" ("1,5 ure"). The page's script fills {time} with the browser's nominative,
// so client keys put it after a colon. Numbers: no group in four digits ("1200"), "." from five
// ("12.000"), decimal comma. For a reviewer: "predvrsta" for the pre-queue, a word made for it.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'sl-SI',
  name: 'Slovenščina',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 2, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Sporočilo spletnega mesta:',
  languageLabel: 'Jezik',
  checkNow: 'Preveri zdaj',

  durationUnknown: 'neznan čas',
  durationUnderMinute: 'manj kot minuto',
  durationMinutes:
    '{minutes, plural, =1 {približno minuto} one {približno # minuto} two {približno # minuti} few {približno # minute} other {približno # minut}}',
  durationHours:
    '{hours, plural, =1 {približno uro} one {približno # uro} two {približno # uri} few {približno # ure} other {približno # ur}}',
  durationRangeMinutes:
    '{to, plural, one {približno {from}–# minuto} two {približno {from}–# minuti} few {približno {from}–# minute} other {približno {from}–# minut}}',
  durationRangeHours:
    '{to, plural, one {približno {from}–# uro} two {približno {from}–# uri} few {približno {from}–# ure} other {približno {from}–# ur}}',
  durationRange: '{from} – {to}',
  peopleNone: 'nihče',
  peopleExact: '{count, plural, one {# oseba} two {# osebi} few {# osebe} other {# oseb}}',
  peopleAbout:
    '{count, plural, one {približno # oseba} two {približno # osebi} few {približno # osebe} other {približno # oseb}}',
  dateUtc: '{weekday}, {day}. {month} {year} ob {time} UTC',
  weekdays: 'nedelja|ponedeljek|torek|sreda|četrtek|petek|sobota',
  months: 'januar|februar|marec|april|maj|junij|julij|avgust|september|oktober|november|december',

  waitingTitleStart: 'V vrsti ste',
  waitingTitleKeep: 'Še vedno ste v vrsti',
  waitingIntroStartRandom:
    'Spletno mesto je trenutno zelo obremenjeno. Da bi delovalo za vse, obiskovalce spuščamo noter po nekaj naenkrat, naključno izbrane med vsemi, ki čakajo.',
  waitingIntroStartFifo:
    'Spletno mesto je trenutno zelo obremenjeno. Da bi delovalo za vse, obiskovalce spuščamo noter po nekaj naenkrat, po vrstnem redu prihoda.',
  waitingIntroKeepRandom:
    'Še niste na vrsti. Spletno mesto je zelo obremenjeno, zato obiskovalce spuščamo noter po nekaj naenkrat, naključno izbrane med vsemi, ki čakajo.',
  waitingIntroKeepFifo:
    'Še niste na vrsti. Spletno mesto je zelo obremenjeno, zato obiskovalce spuščamo noter po nekaj naenkrat, po vrstnem redu prihoda.',
  waitingIntroKeepPrequeue:
    'Še niste na vrsti. Ko se je prodaja začela, so vsi v predvrsti, tudi vi, naključno dobili mesto v vrsti. Obiskovalce spuščamo noter po nekaj naenkrat, po vrstnem redu teh mest.',
  waitingKeepOpen:
    'Pustite to stran odprto: preverja namesto vas in vas preusmeri na spletno mesto, ko pridete na vrsto. Osvežitev strani ne spremeni vaših možnosti, oditi pa lahko kadar koli.',
  placeHeading: 'Vaše mesto v vrsti',
  placeAhead: 'Pred vami: {people}',
  turnIn: 'Na vrsti boste čez {duration}.',
  yourLane: 'Vaša vrsta: {lane}',
  waitHeading: 'Predvideno čakanje',
  waitWithin: 'Večina obiskovalcev čaka največ {duration}',
  waitWithinMinute: 'Večina obiskovalcev čaka največ minuto',
  waitPending: 'Čas čakanja še ocenjujemo. Stran ga bo prikazala, takoj ko bo znan.',
  wait25: 'Vsak četrti obiskovalec čaka največ {duration}',
  wait50: 'Polovica največ {duration}',
  wait75: 'Trije od štirih največ {duration}',
  noscriptWaiting:
    'Skripti so izklopljeni, zato ta stran ne more preverjati namesto vas. Naslednjo priložnost imate čez {seconds, plural, one {približno # sekundo} two {približno # sekundi} few {približno # sekunde} other {približno # sekund}}.',
  noscriptProof: 'Dokler je spletno mesto tako obremenjeno, so vaše možnosti brez skriptov manjše.',
  notifyButton: 'Obvestite me, ko bom na vrsti',

  prequeueTitle: 'Prodaja se kmalu začne',
  prequeueIntro: 'Ste v predvrsti. Ko se prodaja začne, vsi v predvrsti naključno dobijo mesto v vrsti.',
  prequeueStartLabel: 'Začetek prodaje:',
  prequeueNoJump:
    'Zgodnejši prihod, osveževanje strani ali odpiranje več zavihkov vas ne premakne naprej. Pustite to stran odprto: ko se prodaja začne, vas bo preusmerila naprej.',
  prequeueNoscript:
    'Skripti so izklopljeni, zato ta stran ne more preverjati namesto vas. Vrnite se po začetku in preverite znova.',

  denyTitle: 'Začasno zaprto',
  denyBody: 'Spletno mesto trenutno ne spušča novih obiskovalcev. Na vaši strani je vse v redu.',
  closedTitle: 'Prodaja je končana',
  closedBody:
    'Ta dogodek je končan in spletno mesto po tej poti ne spušča več obiskovalcev. Na vaši strani je vse v redu.',
  tryLater: 'Poskusite znova pozneje.',
  tryAgain: 'Poskusi znova',
  denyAuto:
    'Dokler je ta stran odprta, vsakih nekaj minut znova preveri in vas preusmeri naprej, ko se spletno mesto odpre.',

  originDownTitle: 'Začasno nedosegljivo',
  originDownHeading: 'Spletno mesto se trenutno ne odziva',
  originDownBody: 'Poskusite znova čez trenutek.',
  hammerTitle: 'Čakanje se nadaljuje',
  hammerHeading: 'Še vedno ste v vrsti',
  hammerBody:
    '{seconds, plural, one {Ta stran je bila preverjena prepogosto. Vaše mesto ostaja: sama bo znova preverila čez # sekundo.} two {Ta stran je bila preverjena prepogosto. Vaše mesto ostaja: sama bo znova preverila čez # sekundi.} few {Ta stran je bila preverjena prepogosto. Vaše mesto ostaja: sama bo znova preverila čez # sekunde.} other {Ta stran je bila preverjena prepogosto. Vaše mesto ostaja: sama bo znova preverila čez # sekund.}}',

  clientNextCheck: 'Do naslednjega preverjanja: {time}',
  clientStartsIn: 'Do začetka: {time}',
  clientMoment: 'trenutek',
  clientNotYet: 'Še niste na vrsti. Do naslednjega preverjanja: {time}.',
  clientTurn: 'Na vrsti ste. Nalaganje spletnega mesta …',
  clientTurnTitle: 'Na vrsti ste!',
  clientTurnBody: 'Vrnite se na ta zavihek, da odprete spletno mesto.',
  clientNotifyOn: 'Ko boste na vrsti, boste prejeli obvestilo.',
  clientUnreachable: 'Spletnega mesta ni bilo mogoče doseči. Kmalu poskusimo znova.',
  clientStarted: 'Prodaja se je začela. Nalaganje …',
  clientStillClosed: 'Še vedno zaprto. Stran bo znova preverila čez nekaj minut.',
  clientProofStarted:
    'Vaš brskalnik izvaja kratko preverjanje, ki zaustavi avtomatizirane kupce: pravkar se je začelo.',
  clientProofQuarter:
    'Vaš brskalnik izvaja kratko preverjanje, ki zaustavi avtomatizirane kupce: opravljena je približno četrtina.',
  clientProofHalf:
    'Vaš brskalnik izvaja kratko preverjanje, ki zaustavi avtomatizirane kupce: opravljena je približno polovica.',
  clientProofThreeQuarters:
    'Vaš brskalnik izvaja kratko preverjanje, ki zaustavi avtomatizirane kupce: opravljene so približno tri četrtine.',
  clientProofNearly: 'Vaš brskalnik izvaja kratko preverjanje, ki zaustavi avtomatizirane kupce: skoraj končano.',
  clientProofDone: 'Preverjanje je končano. Sodelujete v žrebanju.',
};
