// Persian (Iran), formal register (شما, verbs in the plural of politeness). Nouns after numbers stay
// singular, so the plural cases differ only where Persian says "یک" for one. Durations are "حدود …"
// and the sentences around them add "دیگر" or "ظرف". Dates are Gregorian with Persian month names
// (ژانویه…), as the room passes Gregorian days.
// Numbers: Persian digits, ٬ groups, ٫ decimal (Node's Intl adds no bidi mark to these; it adds
// U+200E only before a minus sign, which the room never writes).
import type { Catalog } from './en-US.js';
import type { LocaleInfo } from '../types.js';

export const info: LocaleInfo = {
  tag: 'fa-IR',
  name: 'فارسی',
  dir: 'rtl',
  number: { decimal: '٫', group: '٬', minimumGroupingDigits: 1, digits: '۰۱۲۳۴۵۶۷۸۹' },
};

export const catalog: Catalog = {
  fromSite: 'پیام سایت:',
  languageLabel: 'زبان',
  checkNow: 'همین حالا بررسی کنید',

  durationUnknown: 'مدتی نامعلوم',
  durationUnderMinute: 'کمتر از یک دقیقه',
  durationMinutes: '{minutes, plural, =1 {حدود یک دقیقه} one {حدود # دقیقه} other {حدود # دقیقه}}',
  durationHours: '{hours, plural, =1 {حدود یک ساعت} one {حدود # ساعت} other {حدود # ساعت}}',
  durationRangeMinutes: '{to, plural, one {حدود {from} تا # دقیقه} other {حدود {from} تا # دقیقه}}',
  durationRangeHours: '{to, plural, one {حدود {from} تا # ساعت} other {حدود {from} تا # ساعت}}',
  durationRange: '{from} تا {to}',
  peopleNone: 'هیچ‌کس',
  peopleExact: '{count, plural, one {# نفر} other {# نفر}}',
  peopleAbout: '{count, plural, one {حدود # نفر} other {حدود # نفر}}',
  dateUtc: '{weekday} {day} {month} {year}، ساعت {time} UTC',
  weekdays: 'یکشنبه|دوشنبه|سه‌شنبه|چهارشنبه|پنجشنبه|جمعه|شنبه',
  months: 'ژانویه|فوریه|مارس|آوریل|مه|ژوئن|ژوئیه|اوت|سپتامبر|اکتبر|نوامبر|دسامبر',

  waitingTitleStart: 'شما در صف هستید',
  waitingTitleKeep: 'همچنان در صف هستید',
  waitingIntroStartRandom:
    'سایت در حال حاضر بسیار شلوغ است. برای اینکه برای همه در دسترس بماند، بازدیدکنندگان چند نفر چند نفر وارد می‌شوند و به‌صورت تصادفی از میان همهٔ منتظران انتخاب می‌شوند.',
  waitingIntroStartFifo:
    'سایت در حال حاضر بسیار شلوغ است. برای اینکه برای همه در دسترس بماند، بازدیدکنندگان چند نفر چند نفر و به ترتیب رسیدن وارد می‌شوند.',
  waitingIntroKeepRandom:
    'هنوز نوبت شما نرسیده است. سایت بسیار شلوغ است، به همین دلیل بازدیدکنندگان چند نفر چند نفر وارد می‌شوند و به‌صورت تصادفی از میان همهٔ منتظران انتخاب می‌شوند.',
  waitingIntroKeepFifo:
    'هنوز نوبت شما نرسیده است. سایت بسیار شلوغ است، به همین دلیل بازدیدکنندگان چند نفر چند نفر و به ترتیب رسیدن وارد می‌شوند.',
  waitingIntroKeepPrequeue:
    'هنوز نوبت شما نرسیده است. با آغاز فروش، به همهٔ کسانی که در پیش‌صف بودند، از جمله شما، به‌صورت تصادفی جایی در صف داده شد. بازدیدکنندگان چند نفر چند نفر و به ترتیب همین جایگاه‌ها وارد می‌شوند.',
  waitingKeepOpen:
    'لطفاً این صفحه را باز نگه دارید: خودش به‌جای شما بررسی می‌کند و وقتی نوبتتان رسید، شما را به سایت می‌برد. تازه‌سازی صفحه شانس شما را تغییر نمی‌دهد و هر زمان بخواهید می‌توانید صفحه را ترک کنید.',
  placeHeading: 'جایگاه شما در صف',
  placeAhead: 'جلوتر از شما: {people}',
  turnIn: 'نوبت شما تا {duration} دیگر می‌رسد.',
  yourLane: 'صف شما: {lane}',
  waitHeading: 'زمان تقریبی انتظار',
  waitWithin: 'بیشتر بازدیدکنندگان ظرف {duration} وارد می‌شوند',
  waitWithinMinute: 'بیشتر بازدیدکنندگان ظرف یک دقیقه وارد می‌شوند',
  waitPending: 'هنوز در حال محاسبهٔ آن هستیم. به‌محض مشخص شدن، در همین صفحه نمایش داده می‌شود.',
  wait25: 'یک‌چهارم بازدیدکنندگان ظرف {duration} وارد می‌شوند',
  wait50: 'نیمی از آن‌ها ظرف {duration}',
  wait75: 'سه‌چهارم آن‌ها ظرف {duration}',
  noscriptWaiting:
    'اسکریپت‌ها غیرفعال‌اند، بنابراین این صفحه نمی‌تواند به‌جای شما بررسی کند. فرصت بعدی شما {seconds, plural, one {حدود # ثانیهٔ} other {حدود # ثانیهٔ}} دیگر فرا می‌رسد.',
  noscriptProof: 'تا وقتی سایت این‌قدر شلوغ است، بدون اسکریپت شانس شما کمتر است.',
  notifyButton: 'وقتی نوبتم رسید خبرم کنید',

  prequeueTitle: 'فروش به‌زودی آغاز می‌شود',
  prequeueIntro:
    'شما در پیش‌صف هستید. با آغاز فروش، به همهٔ کسانی که در پیش‌صف هستند، به‌صورت تصادفی جایی در صف داده می‌شود.',
  prequeueStartLabel: 'زمان آغاز فروش:',
  prequeueNoJump:
    'زودتر آمدن، تازه‌سازی صفحه یا باز کردن زبانه‌های بیشتر شما را جلو نمی‌اندازد. لطفاً این صفحه را باز نگه دارید: با آغاز فروش، خودش شما را به مرحلهٔ بعد می‌برد.',
  prequeueNoscript:
    'اسکریپت‌ها غیرفعال‌اند، بنابراین این صفحه نمی‌تواند به‌جای شما بررسی کند. لطفاً پس از آغاز فروش برگردید و دوباره بررسی کنید.',

  denyTitle: 'فعلاً بسته است',
  denyBody: 'سایت در حال حاضر بازدیدکنندهٔ جدیدی نمی‌پذیرد. مشکلی از طرف شما نیست.',
  closedTitle: 'فروش به پایان رسیده است',
  closedBody: 'این رویداد به پایان رسیده است و سایت دیگر از این طریق بازدیدکننده نمی‌پذیرد. مشکلی از طرف شما نیست.',
  tryLater: 'لطفاً بعداً دوباره تلاش کنید.',
  tryAgain: 'تلاش دوباره',
  denyAuto:
    'تا وقتی این صفحه باز است، هر چند دقیقه یک بار دوباره بررسی می‌کند و به‌محض باز شدن سایت، شما را به آن می‌برد.',

  originDownTitle: 'موقتاً در دسترس نیست',
  originDownHeading: 'سایت در حال حاضر پاسخ نمی‌دهد',
  originDownBody: 'لطفاً چند لحظهٔ دیگر دوباره تلاش کنید.',
  hammerTitle: 'همچنان در انتظار',
  hammerHeading: 'همچنان در صف هستید',
  hammerBody:
    '{seconds, plural, one {این صفحه بیش از حد بررسی شد. جایگاه شما محفوظ است: صفحه خودش # ثانیهٔ دیگر دوباره بررسی می‌کند.} other {این صفحه بیش از حد بررسی شد. جایگاه شما محفوظ است: صفحه خودش # ثانیهٔ دیگر دوباره بررسی می‌کند.}}',

  clientNextCheck: 'بررسی بعدی تا {time} دیگر',
  clientStartsIn: 'آغاز فروش تا {time} دیگر',
  clientMoment: 'چند لحظه',
  clientNotYet: 'هنوز نوبت شما نرسیده است. بررسی بعدی تا {time} دیگر انجام می‌شود.',
  clientTurn: 'نوبت شما رسید. در حال بارگذاری سایت…',
  clientTurnTitle: 'نوبت شما رسید!',
  clientTurnBody: 'برای رفتن به سایت، به این زبانه برگردید.',
  clientNotifyOn: 'وقتی نوبتتان برسد، اعلانی دریافت می‌کنید.',
  clientUnreachable: 'اتصال به سایت برقرار نشد. به‌زودی دوباره تلاش می‌شود.',
  clientStarted: 'فروش آغاز شد. در حال بارگذاری…',
  clientStillClosed: 'همچنان بسته است. این صفحه چند دقیقهٔ دیگر دوباره بررسی می‌کند.',
  clientProofStarted:
    'مرورگر شما در حال انجام یک بررسی کوتاه برای جلوگیری از ورود خریداران خودکار است: تازه آغاز شده است.',
  clientProofQuarter:
    'مرورگر شما در حال انجام یک بررسی کوتاه برای جلوگیری از ورود خریداران خودکار است: حدود یک‌چهارم آن انجام شده است.',
  clientProofHalf:
    'مرورگر شما در حال انجام یک بررسی کوتاه برای جلوگیری از ورود خریداران خودکار است: حدود نیمی از آن انجام شده است.',
  clientProofThreeQuarters:
    'مرورگر شما در حال انجام یک بررسی کوتاه برای جلوگیری از ورود خریداران خودکار است: حدود سه‌چهارم آن انجام شده است.',
  clientProofNearly:
    'مرورگر شما در حال انجام یک بررسی کوتاه برای جلوگیری از ورود خریداران خودکار است: تقریباً تمام شده است.',
  clientProofDone: 'بررسی انجام شد. شما در قرعه‌کشی شرکت دارید.',
};
