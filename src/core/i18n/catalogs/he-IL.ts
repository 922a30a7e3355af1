// Hebrew (Israel). The visitor is addressed in the plural (אתם, שלכם), the usual gender-neutral
// form of Israeli sites; buttons are infinitives (לנסות שוב). "About" is the prefix כ־ joined with
// a maqaf (U+05BE), which keeps the digits that follow in the right place in right-to-left text.
// Numbers as Node's Intl writes he-IL: Western digits, comma groups, decimal point.
import type { Catalog } from './en-US.js';
import type { LocaleInfo } from '../types.js';

export const info: LocaleInfo = {
  tag: 'he-IL',
  name: 'עברית',
  dir: 'rtl',
  number: { decimal: '.', group: ',', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'הודעה מהאתר:',
  languageLabel: 'שפה',
  checkNow: 'לבדוק עכשיו',

  durationUnknown: 'זמן לא ידוע',
  durationUnderMinute: 'פחות מדקה',
  durationMinutes: '{minutes, plural, =1 {כדקה} one {כ־# דקה} two {כשתי דקות} other {כ־# דקות}}',
  durationHours: '{hours, plural, =1 {כשעה} one {כ־# שעה} two {כשעתיים} other {כ־# שעות}}',
  durationRangeMinutes: '{to, plural, one {כ־{from} עד # דקה} two {כ־{from} עד # דקות} other {כ־{from} עד # דקות}}',
  durationRangeHours: '{to, plural, one {כ־{from} עד # שעה} two {כ־{from} עד # שעות} other {כ־{from} עד # שעות}}',
  durationRange: '{from} עד {to}',
  peopleNone: 'אף אחד',
  peopleExact: '{count, plural, one {אדם אחד} two {שני אנשים} other {# אנשים}}',
  peopleAbout: '{count, plural, one {כאדם אחד} two {כשני אנשים} other {כ־# אנשים}}',
  dateUtc: '{weekday}, {day} ב{month} {year}, בשעה {time} UTC',
  weekdays: 'יום ראשון|יום שני|יום שלישי|יום רביעי|יום חמישי|יום שישי|שבת',
  months: 'ינואר|פברואר|מרץ|אפריל|מאי|יוני|יולי|אוגוסט|ספטמבר|אוקטובר|נובמבר|דצמבר',

  waitingTitleStart: 'אתם בתור',
  waitingTitleKeep: 'אתם עדיין בתור',
  waitingIntroStartRandom:
    'יש כרגע עומס גדול מאוד באתר. כדי שימשיך לעבוד בשביל כולם, המבקרים נכנסים בקבוצות קטנות, שנבחרות באקראי מבין כל הממתינים.',
  waitingIntroStartFifo:
    'יש כרגע עומס גדול מאוד באתר. כדי שימשיך לעבוד בשביל כולם, המבקרים נכנסים בקבוצות קטנות, לפי סדר ההגעה.',
  waitingIntroKeepRandom:
    'התור שלכם עוד לא הגיע. יש עומס גדול מאוד באתר, ולכן המבקרים נכנסים בקבוצות קטנות, שנבחרות באקראי מבין כל הממתינים.',
  waitingIntroKeepFifo:
    'התור שלכם עוד לא הגיע. יש עומס גדול מאוד באתר, ולכן המבקרים נכנסים בקבוצות קטנות, לפי סדר ההגעה.',
  waitingIntroKeepPrequeue:
    'התור שלכם עוד לא הגיע. כשהמכירה התחילה, כל מי שהיה בתור המקדים, כולל אתכם, קיבל מקום בתור שנקבע באקראי. המבקרים נכנסים בקבוצות קטנות, לפי סדר המקומות האלה.',
  waitingKeepOpen:
    'כדאי להשאיר את הדף הזה פתוח: הוא בודק בשבילכם ומעביר אתכם לאתר כשמגיע תורכם. רענון הדף לא משנה את הסיכויים, ואפשר לצאת בכל רגע.',
  placeHeading: 'המקום שלכם בתור',
  placeAhead: 'לפניכם: {people}',
  turnIn: 'התור שלכם יגיע בעוד {duration}.',
  yourLane: 'המסלול שלכם: {lane}',
  waitHeading: 'זמן המתנה משוער',
  waitWithin: 'רוב המבקרים נכנסים תוך {duration}',
  waitWithinMinute: 'רוב המבקרים נכנסים תוך דקה',
  waitPending: 'אנחנו עדיין מחשבים את זה. ההערכה תופיע בדף הזה ברגע שתהיה ידועה.',
  wait25: 'רבע מהמבקרים נכנסים תוך {duration}',
  wait50: 'מחציתם תוך {duration}',
  wait75: 'שלושה רבעים מהם תוך {duration}',
  noscriptWaiting:
    'הסקריפטים כבויים, ולכן הדף לא יכול לבדוק בשבילכם. ההזדמנות הבאה שלכם תגיע בעוד {seconds, plural, one {כשנייה} two {כשתי שניות} other {כ־# שניות}}.',
  noscriptProof: 'כל עוד יש באתר עומס כזה, בלי סקריפטים הסיכויים שלכם נמוכים יותר.',
  notifyButton: 'להודיע לי כשמגיע תורי',

  prequeueTitle: 'המכירה תתחיל בקרוב',
  prequeueIntro: 'אתם בתור המקדים. כשהמכירה תתחיל, כל מי שנמצא בתור המקדים יקבל מקום בתור, שייקבע באקראי.',
  prequeueStartLabel: 'תחילת המכירה:',
  prequeueNoJump:
    'הגעה מוקדמת, רענון הדף או פתיחת כרטיסיות נוספות לא יקדמו אתכם. כדאי להשאיר את הדף הזה פתוח: כשהמכירה תתחיל, הוא יעביר אתכם הלאה.',
  prequeueNoscript: 'הסקריפטים כבויים, ולכן הדף לא יכול לבדוק בשבילכם. כדאי לחזור אחרי תחילת המכירה ולבדוק שוב.',

  denyTitle: 'סגור כרגע',
  denyBody: 'האתר לא מכניס כרגע מבקרים חדשים. אין שום בעיה מצדכם.',
  closedTitle: 'המכירה הסתיימה',
  closedBody: 'האירוע הזה הסתיים, והאתר כבר לא מכניס דרכו מבקרים. אין שום בעיה מצדכם.',
  tryLater: 'אפשר לנסות שוב מאוחר יותר.',
  tryAgain: 'לנסות שוב',
  denyAuto: 'כל עוד הדף הזה פתוח, הוא בודק שוב כל כמה דקות ומעביר אתכם לאתר כשהוא נפתח.',

  originDownTitle: 'לא זמין כרגע',
  originDownHeading: 'האתר לא מגיב כרגע',
  originDownBody: 'אפשר לנסות שוב בעוד רגע.',
  hammerTitle: 'עדיין ממתינים',
  hammerHeading: 'אתם עדיין בתור',
  hammerBody:
    '{seconds, plural, one {הדף הזה נבדק לעיתים קרובות מדי. המקום שלכם שמור: הדף יבדוק שוב בעצמו בעוד שנייה.} two {הדף הזה נבדק לעיתים קרובות מדי. המקום שלכם שמור: הדף יבדוק שוב בעצמו בעוד שתי שניות.} other {הדף הזה נבדק לעיתים קרובות מדי. המקום שלכם שמור: הדף יבדוק שוב בעצמו בעוד # שניות.}}',

  clientNextCheck: 'הבדיקה הבאה בעוד {time}',
  clientStartsIn: 'המכירה מתחילה בעוד {time}',
  clientMoment: 'רגע',
  clientNotYet: 'התור שלכם עוד לא הגיע. הבדיקה הבאה בעוד {time}.',
  clientTurn: 'הגיע תורכם. האתר נטען…',
  clientTurnTitle: 'הגיע תורכם!',
  clientTurnBody: 'חזרו ללשונית הזו כדי להיכנס לאתר.',
  clientNotifyOn: 'תקבלו התראה כשיגיע תורכם.',
  clientUnreachable: 'לא הצלחנו להתחבר לאתר. ננסה שוב בקרוב.',
  clientStarted: 'המכירה התחילה. טוען…',
  clientStillClosed: 'עדיין סגור. הדף יבדוק שוב בעוד כמה דקות.',
  clientProofStarted: 'הדפדפן שלכם מבצע בדיקה קצרה שמונעת מקונים אוטומטיים להיכנס: הבדיקה רק התחילה.',
  clientProofQuarter: 'הדפדפן שלכם מבצע בדיקה קצרה שמונעת מקונים אוטומטיים להיכנס: כרבע ממנה הושלם.',
  clientProofHalf: 'הדפדפן שלכם מבצע בדיקה קצרה שמונעת מקונים אוטומטיים להיכנס: כמחצית ממנה הושלמה.',
  clientProofThreeQuarters: 'הדפדפן שלכם מבצע בדיקה קצרה שמונעת מקונים אוטומטיים להיכנס: כשלושה רבעים ממנה הושלמו.',
  clientProofNearly: 'הדפדפן שלכם מבצע בדיקה קצרה שמונעת מקונים אוטומטיים להיכנס: היא כמעט הסתיימה.',
  clientProofDone: 'הבדיקה הסתיימה. אתם משתתפים בהגרלה.',
};
