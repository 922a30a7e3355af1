// Slovak (Slovakia). Formal "vy" (vykanie), lower-case as Slovak web interfaces write it. Durations are
// accusative phrases ("asi minútu", "asi 5 minút", "menej ako minútu"), which answer "how long?" alone
// and follow "čakať" and "o", so the sentences around them take that case; decimals take "many"
// ("1,5 hodiny"). The page's script fills {time} with the browser's nominative ("1 sekunda"), so
// client keys put it after a colon. Numbers: U+00A0 groups from four digits ("1 200"), decimal comma.
// For a reviewer: "predrad" for the pre-queue, a word made for it.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'sk-SK',
  name: 'Slovenčina',
  dir: 'ltr',
  number: { decimal: ',', group: '\u00a0', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Správa od webu:',
  languageLabel: 'Jazyk',
  checkNow: 'Skontrolovať',

  durationUnknown: 'neznámy čas',
  durationUnderMinute: 'menej ako minútu',
  durationMinutes:
    '{minutes, plural, =1 {asi minútu} one {asi # minútu} few {asi # minúty} many {asi # minúty} other {asi # minút}}',
  durationHours:
    '{hours, plural, =1 {asi hodinu} one {asi # hodinu} few {asi # hodiny} many {asi # hodiny} other {asi # hodín}}',
  durationRangeMinutes:
    '{to, plural, one {asi {from} až # minútu} few {asi {from} až # minúty} many {asi {from} až # minúty} other {asi {from} až # minút}}',
  durationRangeHours:
    '{to, plural, one {asi {from} až # hodinu} few {asi {from} až # hodiny} many {asi {from} až # hodiny} other {asi {from} až # hodín}}',
  durationRange: '{from} až {to}',
  peopleNone: 'nikto',
  peopleExact: '{count, plural, one {# osoba} few {# osoby} many {# osoby} other {# osôb}}',
  peopleAbout: '{count, plural, one {asi # osoba} few {asi # osoby} many {asi # osoby} other {asi # osôb}}',
  dateUtc: '{weekday} {day}. {month} {year}, {time} UTC',
  weekdays: 'nedeľa|pondelok|utorok|streda|štvrtok|piatok|sobota',
  months: 'januára|februára|marca|apríla|mája|júna|júla|augusta|septembra|októbra|novembra|decembra',

  waitingTitleStart: 'Ste v rade',
  waitingTitleKeep: 'Stále v rade',
  waitingIntroStartRandom:
    'Web je práve veľmi vyťažený. Aby fungoval pre všetkých, púšťame návštevníkov dnu po niekoľkých, náhodne vybraných spomedzi všetkých čakajúcich.',
  waitingIntroStartFifo:
    'Web je práve veľmi vyťažený. Aby fungoval pre všetkých, púšťame návštevníkov dnu po niekoľkých, v poradí, v akom prišli.',
  waitingIntroKeepRandom:
    'Ešte nie ste na rade. Web je veľmi vyťažený, preto púšťame návštevníkov dnu po niekoľkých, náhodne vybraných spomedzi všetkých čakajúcich.',
  waitingIntroKeepFifo:
    'Ešte nie ste na rade. Web je veľmi vyťažený, preto púšťame návštevníkov dnu po niekoľkých, v poradí, v akom prišli.',
  waitingIntroKeepPrequeue:
    'Ešte nie ste na rade. Keď sa začal predaj, všetci v predrade, vrátane vás, dostali náhodne miesto v rade. Návštevníkov púšťame dnu po niekoľkých, v poradí týchto miest.',
  waitingKeepOpen:
    'Nechajte túto stránku otvorenú: kontroluje za vás a presmeruje vás na web, hneď ako budete na rade. Obnovenie stránky vaše šance nezmení a odísť môžete kedykoľvek.',
  placeHeading: 'Vaše miesto v rade',
  placeAhead: 'Pred vami: {people}',
  turnIn: 'Zostáva čakať {duration}.',
  yourLane: 'Váš rad: {lane}',
  waitHeading: 'Odhadovaný čas čakania',
  waitWithin: 'Väčšina návštevníkov čaká najviac {duration}',
  waitWithinMinute: 'Väčšina návštevníkov čaká najviac minútu',
  waitPending: 'Čas čakania ešte odhadujeme. Stránka ho ukáže, hneď ako bude známy.',
  wait25: 'Každý štvrtý návštevník čaká najviac {duration}',
  wait50: 'Polovica najviac {duration}',
  wait75: 'Traja zo štyroch najviac {duration}',
  noscriptWaiting:
    'Skripty sú vypnuté, takže táto stránka nemôže kontrolovať za vás. Ďalšiu šancu máte {seconds, plural, one {asi o # sekundu} few {asi o # sekundy} many {asi o # sekundy} other {asi o # sekúnd}}.',
  noscriptProof: 'Kým je web takto vyťažený, bez skriptov máte menšie šance.',
  notifyButton: 'Upozorniť ma, keď budem na rade',

  prequeueTitle: 'Predaj sa čoskoro začne',
  prequeueIntro: 'Ste v predrade. Keď sa predaj začne, každý v predrade dostane náhodne miesto v rade.',
  prequeueStartLabel: 'Začiatok predaja:',
  prequeueNoJump:
    'Skorší príchod, obnovovanie stránky ani otváranie ďalších kariet vás neposunie dopredu. Nechajte túto stránku otvorenú: keď sa predaj začne, presmeruje vás ďalej.',
  prequeueNoscript:
    'Skripty sú vypnuté, takže táto stránka nemôže kontrolovať za vás. Vráťte sa po začiatku predaja a skontrolujte to znova.',

  denyTitle: 'Dočasne zatvorené',
  denyBody: 'Web teraz nových návštevníkov nepúšťa. Na vašej strane je všetko v poriadku.',
  closedTitle: 'Predaj sa skončil',
  closedBody:
    'Táto akcia sa skončila a web už touto cestou návštevníkov nepúšťa. Na vašej strane je všetko v poriadku.',
  tryLater: 'Skúste to, prosím, neskôr.',
  tryAgain: 'Skúsiť znova',
  denyAuto:
    'Kým zostane táto stránka otvorená, každých niekoľko minút to skúsi znova a presmeruje vás ďalej, hneď ako sa web otvorí.',

  originDownTitle: 'Dočasne nedostupné',
  originDownHeading: 'Web práve neodpovedá',
  originDownBody: 'Skúste to, prosím, o chvíľu znova.',
  hammerTitle: 'Stále čakáte',
  hammerHeading: 'Ste stále v rade',
  hammerBody:
    '{seconds, plural, one {Táto stránka bola kontrolovaná príliš často. Vaše miesto zostáva: stránka to sama skúsi znova o # sekundu.} few {Táto stránka bola kontrolovaná príliš často. Vaše miesto zostáva: stránka to sama skúsi znova o # sekundy.} many {Táto stránka bola kontrolovaná príliš často. Vaše miesto zostáva: stránka to sama skúsi znova o # sekundy.} other {Táto stránka bola kontrolovaná príliš často. Vaše miesto zostáva: stránka to sama skúsi znova o # sekúnd.}}',

  clientNextCheck: 'Do ďalšej kontroly: {time}',
  clientStartsIn: 'Do začiatku: {time}',
  clientMoment: 'okamih',
  clientNotYet: 'Ešte nie ste na rade. Do ďalšej kontroly: {time}.',
  clientTurn: 'Ste na rade. Načítavame web…',
  clientTurnTitle: 'Ste na rade!',
  clientTurnBody: 'Vráťte sa na túto kartu a prejdite na web.',
  clientNotifyOn: 'Keď budete na rade, dostanete upozornenie.',
  clientUnreachable: 'Web sa nepodarilo zastihnúť. Čoskoro to skúsime znova.',
  clientStarted: 'Predaj sa začal. Načítava sa…',
  clientStillClosed: 'Stále zatvorené. Stránka to skúsi znova o niekoľko minút.',
  clientProofStarted: 'Váš prehliadač vykonáva krátku kontrolu, ktorá bráni automatizovaným nákupom: práve sa začala.',
  clientProofQuarter:
    'Váš prehliadač vykonáva krátku kontrolu, ktorá bráni automatizovaným nákupom: asi zo štvrtiny hotovo.',
  clientProofHalf:
    'Váš prehliadač vykonáva krátku kontrolu, ktorá bráni automatizovaným nákupom: asi z polovice hotovo.',
  clientProofThreeQuarters:
    'Váš prehliadač vykonáva krátku kontrolu, ktorá bráni automatizovaným nákupom: asi z troch štvrtín hotovo.',
  clientProofNearly: 'Váš prehliadač vykonáva krátku kontrolu, ktorá bráni automatizovaným nákupom: takmer hotovo.',
  clientProofDone: 'Kontrola je hotová. Ste zaradení do žrebovania.',
};
