// The built-in strings in German (Germany), formal "Sie". Durations write the number even for one
// ("etwa 1 Minute", "weniger als 1 Minute"): they stand alone, after "in" and after "innerhalb von",
// and a numeral reads right in every case, where "eine Minute" would need "einer" after a preposition.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'de-DE',
  name: 'Deutsch',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Mitteilung der Website:',
  languageLabel: 'Sprache',
  checkNow: 'Jetzt prüfen',

  durationUnknown: 'unbestimmte Zeit',
  durationUnderMinute: 'weniger als 1 Minute',
  durationMinutes: '{minutes, plural, one {etwa # Minute} other {etwa # Minuten}}',
  durationHours: '{hours, plural, one {etwa # Stunde} other {etwa # Stunden}}',
  durationRangeMinutes: '{to, plural, one {etwa {from} bis # Minute} other {etwa {from} bis # Minuten}}',
  durationRangeHours: '{to, plural, one {etwa {from} bis # Stunde} other {etwa {from} bis # Stunden}}',
  durationRange: '{from} bis {to}',
  peopleNone: 'niemand',
  peopleExact: '{count, plural, one {# Person} other {# Personen}}',
  peopleAbout: '{count, plural, one {etwa # Person} other {etwa # Personen}}',
  dateUtc: '{weekday}, {day}. {month} {year}, {time} Uhr UTC',
  weekdays: 'Sonntag|Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag',
  months: 'Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember',

  waitingTitleStart: 'Sie sind in der Warteschlange',
  waitingTitleKeep: 'Weiterhin in der Warteschlange',
  waitingIntroStartRandom:
    'Auf der Website ist gerade sehr viel los. Damit sie für alle funktioniert, werden immer nur wenige Besucher auf einmal eingelassen – per Zufall ausgewählt aus allen Wartenden.',
  waitingIntroStartFifo:
    'Auf der Website ist gerade sehr viel los. Damit sie für alle funktioniert, werden immer nur wenige Besucher auf einmal eingelassen – in der Reihenfolge ihrer Ankunft.',
  waitingIntroKeepRandom:
    'Sie sind noch nicht an der Reihe. Auf der Website ist gerade sehr viel los, deshalb werden immer nur wenige Besucher auf einmal eingelassen – per Zufall ausgewählt aus allen Wartenden.',
  waitingIntroKeepFifo:
    'Sie sind noch nicht an der Reihe. Auf der Website ist gerade sehr viel los, deshalb werden immer nur wenige Besucher auf einmal eingelassen – in der Reihenfolge ihrer Ankunft.',
  waitingIntroKeepPrequeue:
    'Sie sind noch nicht an der Reihe. Zum Start des Verkaufs haben alle in der Vorwarteschlange, auch Sie, per Zufall einen Platz in der Warteschlange erhalten. Eingelassen werden immer nur wenige Besucher auf einmal – in der Reihenfolge dieser Plätze.',
  waitingKeepOpen:
    'Lassen Sie diese Seite geöffnet: Sie prüft für Sie und leitet Sie zur Website weiter, sobald Sie an der Reihe sind. Neuladen ändert nichts an Ihren Chancen, und Sie können die Seite jederzeit verlassen.',
  placeHeading: 'Ihr Platz in der Warteschlange',
  placeAhead: 'Vor Ihnen: {people}',
  turnIn: 'Sie sind in {duration} an der Reihe.',
  yourLane: 'Ihre Warteschlange: {lane}',
  waitHeading: 'Geschätzte Wartezeit',
  waitWithin: 'Die meisten Besucher kommen innerhalb von {duration} auf die Website',
  waitWithinMinute: 'Die meisten Besucher kommen innerhalb einer Minute auf die Website',
  waitPending: 'Die Wartezeit wird noch berechnet. Sie erscheint hier, sobald sie feststeht.',
  wait25: 'Jeder vierte Besucher kommt innerhalb von {duration} auf die Website',
  wait50: 'Die Hälfte innerhalb von {duration}',
  wait75: 'Drei von vier innerhalb von {duration}',
  noscriptWaiting:
    'Skripte sind deaktiviert, daher kann diese Seite nicht für Sie prüfen. Ihre nächste Chance haben Sie in {seconds, plural, one {etwa # Sekunde} other {etwa # Sekunden}}.',
  noscriptProof: 'Solange auf der Website so viel los ist, sind Ihre Chancen ohne Skripte geringer.',
  notifyButton: 'Benachrichtigen, wenn ich an der Reihe bin',

  prequeueTitle: 'Der Verkauf beginnt bald',
  prequeueIntro:
    'Sie sind in der Vorwarteschlange. Wenn der Verkauf beginnt, erhalten alle in der Vorwarteschlange per Zufall einen Platz in der Warteschlange.',
  prequeueStartLabel: 'Verkaufsstart:',
  prequeueNoJump:
    'Wer früher kommt, die Seite neu lädt oder weitere Tabs öffnet, rückt dadurch nicht vor. Lassen Sie diese Seite geöffnet: Sie leitet Sie weiter, sobald der Verkauf beginnt.',
  prequeueNoscript:
    'Skripte sind deaktiviert, daher kann diese Seite nicht für Sie prüfen. Kommen Sie nach dem Verkaufsstart wieder und prüfen Sie erneut.',

  denyTitle: 'Vorübergehend geschlossen',
  denyBody: 'Die Website lässt im Moment keine neuen Besucher ein. Bei Ihnen ist alles in Ordnung.',
  closedTitle: 'Der Verkauf ist beendet',
  closedBody:
    'Diese Aktion ist vorbei, über diesen Zugang werden keine Besucher mehr auf die Website gelassen. Bei Ihnen ist alles in Ordnung.',
  tryLater: 'Bitte versuchen Sie es später noch einmal.',
  tryAgain: 'Erneut versuchen',
  denyAuto:
    'Solange diese Seite geöffnet bleibt, prüft sie alle paar Minuten erneut und leitet Sie weiter, sobald die Website öffnet.',

  originDownTitle: 'Vorübergehend nicht verfügbar',
  originDownHeading: 'Die Website antwortet gerade nicht',
  originDownBody: 'Bitte versuchen Sie es gleich noch einmal.',
  hammerTitle: 'Noch etwas Geduld',
  hammerHeading: 'Sie sind weiterhin in der Warteschlange',
  hammerBody:
    '{seconds, plural, one {Diese Seite wurde zu oft abgerufen. Ihr Platz bleibt erhalten: Die Seite prüft in # Sekunde von selbst erneut.} other {Diese Seite wurde zu oft abgerufen. Ihr Platz bleibt erhalten: Die Seite prüft in # Sekunden von selbst erneut.}}',

  clientNextCheck: 'Nächste Prüfung in {time}',
  clientStartsIn: 'Beginn in {time}',
  clientMoment: 'Kürze',
  clientNotYet: 'Sie sind noch nicht an der Reihe. Die nächste Prüfung folgt in {time}.',
  clientTurn: 'Sie sind an der Reihe. Die Website wird geladen …',
  clientTurnTitle: 'Sie sind an der Reihe!',
  clientTurnBody: 'Kehren Sie zu diesem Tab zurück, um zur Website zu gelangen.',
  clientNotifyOn: 'Sie erhalten eine Benachrichtigung, sobald Sie an der Reihe sind.',
  clientUnreachable: 'Die Website ist nicht erreichbar. Neuer Versuch in Kürze.',
  clientStarted: 'Der Verkauf hat begonnen. Wird geladen …',
  clientStillClosed: 'Weiterhin geschlossen. Diese Seite prüft in einigen Minuten erneut.',
  clientProofStarted:
    'Ihr Browser führt eine kurze Prüfung durch, die automatisierte Käufer fernhält: gerade begonnen.',
  clientProofQuarter:
    'Ihr Browser führt eine kurze Prüfung durch, die automatisierte Käufer fernhält: etwa ein Viertel erledigt.',
  clientProofHalf:
    'Ihr Browser führt eine kurze Prüfung durch, die automatisierte Käufer fernhält: etwa zur Hälfte erledigt.',
  clientProofThreeQuarters:
    'Ihr Browser führt eine kurze Prüfung durch, die automatisierte Käufer fernhält: etwa drei Viertel erledigt.',
  clientProofNearly: 'Ihr Browser führt eine kurze Prüfung durch, die automatisierte Käufer fernhält: fast fertig.',
  clientProofDone: 'Prüfung abgeschlossen. Sie nehmen an der Auslosung teil.',
};
