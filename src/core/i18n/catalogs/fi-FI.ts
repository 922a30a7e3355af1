// Finnish (Finland). "Sinä", as Finnish shops and ticket sites address visitors. Durations are
// nominative phrases ("noin 5 minuuttia", "alle minuutin"), so the sentences around them are built to
// take one: "Vuoroosi on …", "odotusaika on enintään …"; the page's script fills {time} with the
// browser's "5 sekuntia", so client keys put it after a colon. Dates: "tiistai 1. joulukuuta 2026"
// (the month in the partitive); the clock keeps the room's "10:00" where Finnish writes "10.00".
// Numbers: U+00A0 groups from four digits ("1 200"), decimal comma. For a reviewer: "esijono" for the
// pre-queue, a word made for it.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'fi-FI',
  name: 'Suomi',
  dir: 'ltr',
  number: { decimal: ',', group: '\u00a0', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Viesti sivustolta:',
  languageLabel: 'Kieli',
  checkNow: 'Tarkista nyt',

  durationUnknown: 'tuntematon aika',
  durationUnderMinute: 'alle minuutin',
  durationMinutes: '{minutes, plural, =1 {noin minuutti} one {noin # minuutti} other {noin # minuuttia}}',
  durationHours: '{hours, plural, =1 {noin tunti} one {noin # tunti} other {noin # tuntia}}',
  durationRangeMinutes: '{to, plural, one {noin {from}–# minuutti} other {noin {from}–# minuuttia}}',
  durationRangeHours: '{to, plural, one {noin {from}–# tunti} other {noin {from}–# tuntia}}',
  durationRange: '{from} – {to}',
  peopleNone: 'ei ketään',
  peopleExact: '{count, plural, one {# henkilö} other {# henkilöä}}',
  peopleAbout: '{count, plural, one {noin # henkilö} other {noin # henkilöä}}',
  dateUtc: '{weekday} {day}. {month} {year} klo {time} UTC',
  weekdays: 'sunnuntai|maanantai|tiistai|keskiviikko|torstai|perjantai|lauantai',
  months:
    'tammikuuta|helmikuuta|maaliskuuta|huhtikuuta|toukokuuta|kesäkuuta|heinäkuuta|elokuuta|syyskuuta|lokakuuta|marraskuuta|joulukuuta',

  waitingTitleStart: 'Olet jonossa',
  waitingTitleKeep: 'Edelleen jonossa',
  waitingIntroStartRandom:
    'Sivustolla on nyt erittäin paljon kävijöitä. Jotta se toimisi kaikille, kävijöitä päästetään sisään muutama kerrallaan, arvottuina kaikkien jonottajien joukosta.',
  waitingIntroStartFifo:
    'Sivustolla on nyt erittäin paljon kävijöitä. Jotta se toimisi kaikille, kävijöitä päästetään sisään muutama kerrallaan, saapumisjärjestyksessä.',
  waitingIntroKeepRandom:
    'Ei ole vielä sinun vuorosi. Sivustolla on erittäin paljon kävijöitä, joten heitä päästetään sisään muutama kerrallaan, arvottuina kaikkien jonottajien joukosta.',
  waitingIntroKeepFifo:
    'Ei ole vielä sinun vuorosi. Sivustolla on erittäin paljon kävijöitä, joten heitä päästetään sisään muutama kerrallaan, saapumisjärjestyksessä.',
  waitingIntroKeepPrequeue:
    'Ei ole vielä sinun vuorosi. Kun myynti alkoi, kaikki esijonossa olleet, myös sinä, saivat arvotun paikan jonossa. Kävijöitä päästetään sisään muutama kerrallaan näiden paikkojen järjestyksessä.',
  waitingKeepOpen:
    'Pidä tämä sivu auki: se tarkistaa puolestasi ja vie sinut sivustolle, kun on sinun vuorosi. Sivun päivittäminen ei muuta mahdollisuuksiasi, ja voit poistua milloin tahansa.',
  placeHeading: 'Paikkasi jonossa',
  placeAhead: '{people} edelläsi',
  turnIn: 'Vuoroosi on {duration}.',
  yourLane: 'Jonosi: {lane}',
  waitHeading: 'Arvioitu odotusaika',
  waitWithin: 'Useimpien kävijöiden odotusaika on enintään {duration}',
  waitWithinMinute: 'Useimpien kävijöiden odotusaika on enintään minuutti',
  waitPending: 'Arviota lasketaan vielä. Sivu näyttää sen heti, kun se on tiedossa.',
  wait25: 'Joka neljännen kävijän odotusaika on enintään {duration}',
  wait50: 'Puolen kävijöistä enintään {duration}',
  wait75: 'Kolmen neljästä enintään {duration}',
  noscriptWaiting:
    'Skriptit ovat pois päältä, joten tämä sivu ei voi tarkistaa puolestasi. Seuraava mahdollisuutesi tulee {seconds, plural, one {noin # sekunnin} other {noin # sekunnin}} kuluttua.',
  noscriptProof: 'Niin kauan kuin sivustolla on näin ruuhkaista, mahdollisuutesi ovat ilman skriptejä pienemmät.',
  notifyButton: 'Ilmoita minulle, kun on vuoroni',

  prequeueTitle: 'Myynti alkaa pian',
  prequeueIntro: 'Olet esijonossa. Kun myynti alkaa, jokainen esijonossa oleva saa arvotun paikan jonossa.',
  prequeueStartLabel: 'Myynti alkaa:',
  prequeueNoJump:
    'Aikaisin saapuminen, sivun päivittäminen tai useampi välilehti ei siirrä sinua eteenpäin. Pidä tämä sivu auki: se vie sinut eteenpäin, kun myynti alkaa.',
  prequeueNoscript:
    'Skriptit ovat pois päältä, joten tämä sivu ei voi tarkistaa puolestasi. Palaa alkamisajan jälkeen ja tarkista uudelleen.',

  denyTitle: 'Suljettu toistaiseksi',
  denyBody: 'Sivusto ei päästä juuri nyt uusia kävijöitä sisään. Vika ei ole sinun päässäsi.',
  closedTitle: 'Myynti on päättynyt',
  closedBody:
    'Tämä tapahtuma on päättynyt, eikä sivusto enää päästä kävijöitä sisään tätä kautta. Vika ei ole sinun päässäsi.',
  tryLater: 'Yritä myöhemmin uudelleen.',
  tryAgain: 'Yritä uudelleen',
  denyAuto:
    'Niin kauan kuin tämä sivu on auki, se tarkistaa tilanteen muutaman minuutin välein ja vie sinut eteenpäin, kun sivusto aukeaa.',

  originDownTitle: 'Tilapäisesti poissa käytöstä',
  originDownHeading: 'Sivusto ei vastaa juuri nyt',
  originDownBody: 'Yritä hetken päästä uudelleen.',
  hammerTitle: 'Odotus jatkuu',
  hammerHeading: 'Olet edelleen jonossa',
  hammerBody:
    '{seconds, plural, one {Sivua tarkistettiin liian usein. Paikkasi säilyy: sivu tarkistaa itse uudelleen # sekunnin kuluttua.} other {Sivua tarkistettiin liian usein. Paikkasi säilyy: sivu tarkistaa itse uudelleen # sekunnin kuluttua.}}',

  clientNextCheck: 'Seuraavaan tarkistukseen: {time}',
  clientStartsIn: 'Alkuun: {time}',
  clientMoment: 'hetki',
  clientNotYet: 'Ei vielä sinun vuorosi. Seuraavaan tarkistukseen: {time}.',
  clientTurn: 'Vuorosi on tullut. Sivustoa ladataan…',
  clientTurnTitle: 'Nyt on sinun vuorosi!',
  clientTurnBody: 'Palaa tälle välilehdelle siirtyäksesi sivustolle.',
  clientNotifyOn: 'Saat ilmoituksen, kun on sinun vuorosi.',
  clientUnreachable: 'Sivustoon ei saatu yhteyttä. Yritetään pian uudelleen.',
  clientStarted: 'Myynti on alkanut. Ladataan…',
  clientStillClosed: 'Edelleen suljettu. Sivu tarkistaa uudelleen muutaman minuutin kuluttua.',
  clientProofStarted: 'Selaimesi tekee lyhyen tarkistuksen, joka pitää automaattiset ostajat poissa: juuri alkanut.',
  clientProofQuarter:
    'Selaimesi tekee lyhyen tarkistuksen, joka pitää automaattiset ostajat poissa: noin neljännes valmiina.',
  clientProofHalf:
    'Selaimesi tekee lyhyen tarkistuksen, joka pitää automaattiset ostajat poissa: noin puolet valmiina.',
  clientProofThreeQuarters:
    'Selaimesi tekee lyhyen tarkistuksen, joka pitää automaattiset ostajat poissa: noin kolme neljännestä valmiina.',
  clientProofNearly: 'Selaimesi tekee lyhyen tarkistuksen, joka pitää automaattiset ostajat poissa: melkein valmis.',
  clientProofDone: 'Tarkistus on valmis. Olet mukana arvonnassa.',
};
