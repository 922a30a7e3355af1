// Swedish (Sweden). Informal "du", as Swedish shops and ticket sites write. Numbers: U+00A0 groups from
// four digits ("1 200"), decimal comma. Swedish puts the ellipsis straight after the word ("Laddar…").
// For a reviewer: "webbplatsen" (the site) against "sajten", and "förkö" for the pre-queue, a word
// made for it.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'sv-SE',
  name: 'Svenska',
  dir: 'ltr',
  number: { decimal: ',', group: '\u00a0', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Meddelande från webbplatsen:',
  languageLabel: 'Språk',
  checkNow: 'Kontrollera nu',

  durationUnknown: 'okänd tid',
  durationUnderMinute: 'mindre än en minut',
  durationMinutes: '{minutes, plural, =1 {ungefär en minut} one {ungefär # minut} other {ungefär # minuter}}',
  durationHours: '{hours, plural, =1 {ungefär en timme} one {ungefär # timme} other {ungefär # timmar}}',
  durationRangeMinutes: '{to, plural, one {ungefär {from} till # minut} other {ungefär {from} till # minuter}}',
  durationRangeHours: '{to, plural, one {ungefär {from} till # timme} other {ungefär {from} till # timmar}}',
  durationRange: '{from} till {to}',
  peopleNone: 'ingen',
  peopleExact: '{count, plural, one {# person} other {# personer}}',
  peopleAbout: '{count, plural, one {ungefär # person} other {ungefär # personer}}',
  dateUtc: '{weekday} {day} {month} {year} kl. {time} UTC',
  weekdays: 'söndag|måndag|tisdag|onsdag|torsdag|fredag|lördag',
  months: 'januari|februari|mars|april|maj|juni|juli|augusti|september|oktober|november|december',

  waitingTitleStart: 'Du står i kö',
  waitingTitleKeep: 'Fortfarande i kö',
  waitingIntroStartRandom:
    'Det är väldigt hög belastning på webbplatsen. För att den ska fungera för alla släpps besökare in några i taget, slumpvis utvalda bland alla som väntar.',
  waitingIntroStartFifo:
    'Det är väldigt hög belastning på webbplatsen. För att den ska fungera för alla släpps besökare in några i taget, i den ordning de kom.',
  waitingIntroKeepRandom:
    'Det är inte din tur än. Det är väldigt hög belastning på webbplatsen, så besökare släpps in några i taget, slumpvis utvalda bland alla som väntar.',
  waitingIntroKeepFifo:
    'Det är inte din tur än. Det är väldigt hög belastning på webbplatsen, så besökare släpps in några i taget, i den ordning de kom.',
  waitingIntroKeepPrequeue:
    'Det är inte din tur än. När försäljningen startade fick alla i förkön, även du, en slumpvis plats i kön. Besökare släpps in några i taget, i ordning efter de platserna.',
  waitingKeepOpen:
    'Låt den här sidan vara öppen: den kontrollerar åt dig och skickar dig vidare till webbplatsen när det är din tur. Att ladda om sidan ändrar inte dina chanser, och du kan gå när du vill.',
  placeHeading: 'Din plats i kön',
  placeAhead: '{people} före dig',
  turnIn: 'Din tur om {duration}.',
  yourLane: 'Din kö: {lane}',
  waitHeading: 'Beräknad väntetid',
  waitWithin: 'De flesta besökare kommer in inom {duration}',
  waitWithinMinute: 'De flesta besökare kommer in inom en minut',
  waitPending: 'Vi räknar fortfarande ut den. Sidan visar den så snart den är känd.',
  wait25: '1 av 4 besökare kommer in inom {duration}',
  wait50: 'Hälften inom {duration}',
  wait75: '3 av 4 inom {duration}',
  noscriptWaiting:
    'Skript är avstängda, så den här sidan kan inte kontrollera åt dig. Din nästa chans kommer om {seconds, plural, one {ungefär # sekund} other {ungefär # sekunder}}.',
  noscriptProof: 'Så länge belastningen är så hög är dina chanser lägre utan skript.',
  notifyButton: 'Meddela mig när det är min tur',

  prequeueTitle: 'Försäljningen startar snart',
  prequeueIntro: 'Du står i förkön. När försäljningen startar får alla i förkön en slumpvis plats i kön.',
  prequeueStartLabel: 'Försäljningen startar:',
  prequeueNoJump:
    'Att komma tidigt, ladda om sidan eller öppna fler flikar flyttar dig inte framåt. Låt den här sidan vara öppen: den skickar dig vidare när försäljningen startar.',
  prequeueNoscript:
    'Skript är avstängda, så den här sidan kan inte kontrollera åt dig. Kom tillbaka efter starten och kontrollera igen.',

  denyTitle: 'Stängt just nu',
  denyBody: 'Webbplatsen släpper inte in nya besökare just nu. Det är inget fel hos dig.',
  closedTitle: 'Försäljningen är slut',
  closedBody:
    'Det här evenemanget är över och webbplatsen släpper inte längre in besökare den här vägen. Det är inget fel hos dig.',
  tryLater: 'Försök igen senare.',
  tryAgain: 'Försök igen',
  denyAuto:
    'Så länge den här sidan är öppen kontrollerar den igen med några minuters mellanrum och skickar dig vidare när webbplatsen öppnar.',

  originDownTitle: 'Tillfälligt otillgänglig',
  originDownHeading: 'Webbplatsen svarar inte just nu',
  originDownBody: 'Försök igen om en liten stund.',
  hammerTitle: 'Väntar fortfarande',
  hammerHeading: 'Du står fortfarande i kö',
  hammerBody:
    '{seconds, plural, one {Sidan kontrollerades för ofta. Din plats finns kvar: den kontrollerar själv igen om # sekund.} other {Sidan kontrollerades för ofta. Din plats finns kvar: den kontrollerar själv igen om # sekunder.}}',

  clientNextCheck: 'Nästa kontroll om {time}',
  clientStartsIn: 'Startar om {time}',
  clientMoment: 'en liten stund',
  clientNotYet: 'Inte din tur än. Nästa kontroll sker om {time}.',
  clientTurn: 'Det är din tur. Laddar webbplatsen…',
  clientTurnTitle: 'Det är din tur!',
  clientTurnBody: 'Gå tillbaka till den här fliken för att komma till webbplatsen.',
  clientNotifyOn: 'Du får en avisering när det är din tur.',
  clientUnreachable: 'Kunde inte nå webbplatsen. Försöker igen strax.',
  clientStarted: 'Försäljningen har startat. Laddar…',
  clientStillClosed: 'Fortfarande stängt. Sidan kontrollerar igen om några minuter.',
  clientProofStarted: 'Din webbläsare gör en kort kontroll som håller automatiserade köpare ute: har precis börjat.',
  clientProofQuarter:
    'Din webbläsare gör en kort kontroll som håller automatiserade köpare ute: ungefär en fjärdedel klar.',
  clientProofHalf: 'Din webbläsare gör en kort kontroll som håller automatiserade köpare ute: ungefär halvvägs.',
  clientProofThreeQuarters:
    'Din webbläsare gör en kort kontroll som håller automatiserade köpare ute: ungefär tre fjärdedelar klar.',
  clientProofNearly: 'Din webbläsare gör en kort kontroll som håller automatiserade köpare ute: nästan klar.',
  clientProofDone: 'Kontrollen är klar. Du är med i dragningen.',
};
