// Lithuanian (Lithuania). Formal "jūs", lower-case as Lithuanian web interfaces write it. Durations are
// accusative phrases after "apie" ("apie minutę", "apie 5 minutes", "apie 10 minučių"), which answer
// "how long?" alone and follow "laukti", so the sentences around them say "laukti {duration}";
// decimals take "many" ("apie 1,5 valandos"). The page's script fills {time} with the browser's
// nominative, so client keys put it after a colon. Numbers: U+00A0 groups from four digits
// ("1 200"), decimal comma. For a reviewer: "išankstinė eilė" for the pre-queue.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'lt-LT',
  name: 'Lietuvių',
  dir: 'ltr',
  number: { decimal: ',', group: '\u00a0', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Svetainės pranešimas:',
  languageLabel: 'Kalba',
  checkNow: 'Tikrinti dabar',

  durationUnknown: 'nežinomą laiką',
  durationUnderMinute: 'mažiau nei minutę',
  durationMinutes:
    '{minutes, plural, =1 {apie minutę} one {apie # minutę} few {apie # minutes} many {apie # minutės} other {apie # minučių}}',
  durationHours:
    '{hours, plural, =1 {apie valandą} one {apie # valandą} few {apie # valandas} many {apie # valandos} other {apie # valandų}}',
  durationRangeMinutes:
    '{to, plural, one {apie {from}–# minutę} few {apie {from}–# minutes} many {apie {from}–# minutės} other {apie {from}–# minučių}}',
  durationRangeHours:
    '{to, plural, one {apie {from}–# valandą} few {apie {from}–# valandas} many {apie {from}–# valandos} other {apie {from}–# valandų}}',
  durationRange: '{from} – {to}',
  peopleNone: 'nė vieno',
  peopleExact: '{count, plural, one {# žmogus} few {# žmonės} many {# žmogaus} other {# žmonių}}',
  peopleAbout: '{count, plural, one {apie # žmogų} few {apie # žmones} many {apie # žmogaus} other {apie # žmonių}}',
  dateUtc: '{year} m. {month} {day} d., {weekday}, {time} UTC',
  weekdays: 'sekmadienis|pirmadienis|antradienis|trečiadienis|ketvirtadienis|penktadienis|šeštadienis',
  months: 'sausio|vasario|kovo|balandžio|gegužės|birželio|liepos|rugpjūčio|rugsėjo|spalio|lapkričio|gruodžio',

  waitingTitleStart: 'Jūs esate eilėje',
  waitingTitleKeep: 'Vis dar eilėje',
  waitingIntroStartRandom:
    'Svetainėje šiuo metu labai daug lankytojų. Kad ji veiktų visiems, lankytojus įleidžiame po kelis, atsitiktinai išrinktus iš visų laukiančiųjų.',
  waitingIntroStartFifo:
    'Svetainėje šiuo metu labai daug lankytojų. Kad ji veiktų visiems, lankytojus įleidžiame po kelis, jų atvykimo tvarka.',
  waitingIntroKeepRandom:
    'Jūsų eilė dar neatėjo. Svetainėje labai daug lankytojų, todėl juos įleidžiame po kelis, atsitiktinai išrinktus iš visų laukiančiųjų.',
  waitingIntroKeepFifo:
    'Jūsų eilė dar neatėjo. Svetainėje labai daug lankytojų, todėl juos įleidžiame po kelis, jų atvykimo tvarka.',
  waitingIntroKeepPrequeue:
    'Jūsų eilė dar neatėjo. Prasidėjus pardavimui, visi išankstinėje eilėje, taip pat ir jūs, atsitiktinai gavo vietą eilėje. Lankytojus įleidžiame po kelis, šių vietų tvarka.',
  waitingKeepOpen:
    'Neuždarykite šio puslapio: jis tikrina už jus ir nukreips jus į svetainę, kai ateis jūsų eilė. Puslapio atnaujinimas jūsų galimybių nekeičia, o išeiti galite bet kada.',
  placeHeading: 'Jūsų vieta eilėje',
  placeAhead: 'Prieš jus: {people}',
  turnIn: 'Liko laukti {duration}.',
  yourLane: 'Jūsų eilė: {lane}',
  waitHeading: 'Numatomas laukimas',
  waitWithin: 'Dauguma lankytojų laukia {duration} ar trumpiau',
  waitWithinMinute: 'Dauguma lankytojų laukia ne ilgiau kaip minutę',
  waitPending: 'Laukimo trukmę dar skaičiuojame. Puslapis ją parodys, kai tik ji bus žinoma.',
  wait25: 'Kas ketvirtas lankytojas laukia {duration} ar trumpiau',
  wait50: 'Pusė – {duration} ar trumpiau',
  wait75: 'Trys iš keturių – {duration} ar trumpiau',
  noscriptWaiting:
    'Scenarijai išjungti, todėl šis puslapis negali tikrinti už jus. Kita galimybė – {seconds, plural, one {maždaug po # sekundės} few {maždaug po # sekundžių} many {maždaug po # sekundės} other {maždaug po # sekundžių}}.',
  noscriptProof: 'Kol svetainė tokia apkrauta, be scenarijų jūsų galimybės mažesnės.',
  notifyButton: 'Pranešti, kai ateis mano eilė',

  prequeueTitle: 'Pardavimas netrukus prasidės',
  prequeueIntro:
    'Esate išankstinėje eilėje. Prasidėjus pardavimui, kiekvienas išankstinėje eilėje atsitiktinai gaus vietą eilėje.',
  prequeueStartLabel: 'Pardavimo pradžia:',
  prequeueNoJump:
    'Ankstyvas atvykimas, puslapio atnaujinimas ar daugiau skirtukų jūsų nepaspartins. Neuždarykite šio puslapio: prasidėjus pardavimui, jis jus nukreips toliau.',
  prequeueNoscript:
    'Scenarijai išjungti, todėl šis puslapis negali tikrinti už jus. Grįžkite po pradžios ir patikrinkite dar kartą.',

  denyTitle: 'Laikinai uždaryta',
  denyBody: 'Šiuo metu svetainė naujų lankytojų neįleidžia. Jūsų pusėje viskas tvarkoje.',
  closedTitle: 'Pardavimas baigėsi',
  closedBody: 'Šis renginys baigėsi, ir svetainė šiuo keliu lankytojų nebeįleidžia. Jūsų pusėje viskas tvarkoje.',
  tryLater: 'Bandykite dar kartą vėliau.',
  tryAgain: 'Bandyti dar kartą',
  denyAuto:
    'Kol šis puslapis atidarytas, jis kas kelias minutes tikrina iš naujo ir nukreips jus toliau, kai svetainė atsidarys.',

  originDownTitle: 'Laikinai nepasiekiama',
  originDownHeading: 'Svetainė šiuo metu neatsako',
  originDownBody: 'Bandykite dar kartą po akimirkos.',
  hammerTitle: 'Laukimas tęsiasi',
  hammerHeading: 'Jūs vis dar eilėje',
  hammerBody:
    '{seconds, plural, one {Šis puslapis buvo tikrinamas per dažnai. Jūsų vieta išsaugota: jis pats vėl patikrins po # sekundės.} few {Šis puslapis buvo tikrinamas per dažnai. Jūsų vieta išsaugota: jis pats vėl patikrins po # sekundžių.} many {Šis puslapis buvo tikrinamas per dažnai. Jūsų vieta išsaugota: jis pats vėl patikrins po # sekundės.} other {Šis puslapis buvo tikrinamas per dažnai. Jūsų vieta išsaugota: jis pats vėl patikrins po # sekundžių.}}',

  clientNextCheck: 'Iki kito tikrinimo: {time}',
  clientStartsIn: 'Iki pradžios: {time}',
  clientMoment: 'akimirka',
  clientNotYet: 'Jūsų eilė dar neatėjo. Iki kito tikrinimo: {time}.',
  clientTurn: 'Atėjo jūsų eilė. Įkeliama svetainė…',
  clientTurnTitle: 'Atėjo jūsų eilė!',
  clientTurnBody: 'Grįžkite į šį skirtuką, kad patektumėte į svetainę.',
  clientNotifyOn: 'Gausite pranešimą, kai ateis jūsų eilė.',
  clientUnreachable: 'Nepavyko pasiekti svetainės. Netrukus bandysime dar kartą.',
  clientStarted: 'Pardavimas prasidėjo. Įkeliama…',
  clientStillClosed: 'Vis dar uždaryta. Puslapis vėl patikrins po kelių minučių.',
  clientProofStarted: 'Jūsų naršyklė atlieka trumpą patikrą, kuri sulaiko automatizuotus pirkėjus: ką tik prasidėjo.',
  clientProofQuarter:
    'Jūsų naršyklė atlieka trumpą patikrą, kuri sulaiko automatizuotus pirkėjus: atlikta apie ketvirtadalį.',
  clientProofHalf: 'Jūsų naršyklė atlieka trumpą patikrą, kuri sulaiko automatizuotus pirkėjus: atlikta apie pusę.',
  clientProofThreeQuarters:
    'Jūsų naršyklė atlieka trumpą patikrą, kuri sulaiko automatizuotus pirkėjus: atlikta apie tris ketvirtadalius.',
  clientProofNearly: 'Jūsų naršyklė atlieka trumpą patikrą, kuri sulaiko automatizuotus pirkėjus: beveik baigta.',
  clientProofDone: 'Patikra baigta. Dalyvaujate atsitiktinėje atrankoje.',
};
