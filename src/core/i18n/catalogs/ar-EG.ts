// Arabic (Egypt), Modern Standard Arabic. The visitor is addressed with unvowelled forms (أنت، دورك)
// and impersonal or passive sentences where a verb would have to pick a gender (يُرجى إبقاء…).
// Durations start with "نحو" (genitive), so they read the same alone, after "بعد" and after "خلال".
// Numbers: Arabic-Indic digits, ٬ groups, ٫ decimal (Node's Intl adds no bidi mark to these; it adds
// U+061C only before a minus sign, which the room never writes).
import type { Catalog } from './en-US.js';
import type { LocaleInfo } from '../types.js';

export const info: LocaleInfo = {
  tag: 'ar-EG',
  name: 'العربية',
  dir: 'rtl',
  number: { decimal: '٫', group: '٬', minimumGroupingDigits: 1, digits: '٠١٢٣٤٥٦٧٨٩' },
};

export const catalog: Catalog = {
  fromSite: 'رسالة من الموقع:',
  languageLabel: 'اللغة',
  checkNow: 'التحقق الآن',

  durationUnknown: 'مدة غير معروفة',
  durationUnderMinute: 'أقل من دقيقة',
  durationMinutes:
    '{minutes, plural, =1 {نحو دقيقة} zero {نحو # دقيقة} one {نحو دقيقة واحدة} two {نحو دقيقتين} few {نحو # دقائق} many {نحو # دقيقة} other {نحو # دقيقة}}',
  durationHours:
    '{hours, plural, =1 {نحو ساعة} zero {نحو # ساعة} one {نحو ساعة واحدة} two {نحو ساعتين} few {نحو # ساعات} many {نحو # ساعة} other {نحو # ساعة}}',
  durationRangeMinutes:
    '{to, plural, zero {من {from} إلى # دقيقة تقريبًا} one {من {from} إلى دقيقة واحدة تقريبًا} two {من {from} إلى دقيقتين تقريبًا} few {من {from} إلى # دقائق تقريبًا} many {من {from} إلى # دقيقة تقريبًا} other {من {from} إلى # دقيقة تقريبًا}}',
  durationRangeHours:
    '{to, plural, zero {من {from} إلى # ساعة تقريبًا} one {من {from} إلى ساعة واحدة تقريبًا} two {من {from} إلى ساعتين تقريبًا} few {من {from} إلى # ساعات تقريبًا} many {من {from} إلى # ساعة تقريبًا} other {من {from} إلى # ساعة تقريبًا}}',
  durationRange: 'من {from} إلى {to}',
  peopleNone: 'لا أحد',
  peopleExact: '{count, plural, zero {# شخص} one {شخص واحد} two {شخصان} few {# أشخاص} many {# شخصًا} other {# شخص}}',
  peopleAbout:
    '{count, plural, zero {نحو # شخص} one {نحو شخص واحد} two {نحو شخصين} few {نحو # أشخاص} many {نحو # شخصًا} other {نحو # شخص}}',
  dateUtc: '{weekday}، {day} {month} {year}، الساعة {time} UTC',
  weekdays: 'الأحد|الاثنين|الثلاثاء|الأربعاء|الخميس|الجمعة|السبت',
  months: 'يناير|فبراير|مارس|أبريل|مايو|يونيو|يوليو|أغسطس|سبتمبر|أكتوبر|نوفمبر|ديسمبر',

  waitingTitleStart: 'أنت الآن في قائمة الانتظار',
  waitingTitleKeep: 'ما زلت في قائمة الانتظار',
  waitingIntroStartRandom:
    'يشهد الموقع ضغطًا كبيرًا. وحتى يظل متاحًا للجميع، يُسمح بدخول الزوار على دفعات صغيرة يُختارون عشوائيًا من بين جميع المنتظرين.',
  waitingIntroStartFifo:
    'يشهد الموقع ضغطًا كبيرًا. وحتى يظل متاحًا للجميع، يُسمح بدخول الزوار على دفعات صغيرة حسب ترتيب وصولهم.',
  waitingIntroKeepRandom:
    'لم يحن دورك بعد. يشهد الموقع ضغطًا كبيرًا، لذلك يُسمح بدخول الزوار على دفعات صغيرة يُختارون عشوائيًا من بين جميع المنتظرين.',
  waitingIntroKeepFifo:
    'لم يحن دورك بعد. يشهد الموقع ضغطًا كبيرًا، لذلك يُسمح بدخول الزوار على دفعات صغيرة حسب ترتيب وصولهم.',
  waitingIntroKeepPrequeue:
    'لم يحن دورك بعد. عند بدء البيع، حصل كل من كان في قائمة الانتظار المسبقة، وأنت منهم، على مكان في قائمة الانتظار حُدِّد عشوائيًا. ويُسمح بدخول الزوار على دفعات صغيرة حسب ترتيب هذه الأماكن.',
  waitingKeepOpen:
    'يُرجى إبقاء هذه الصفحة مفتوحة: فهي تتحقق نيابةً عنك وتنقلك إلى الموقع عندما يحين دورك. تحديث الصفحة لا يغيّر فرصك، ويمكنك المغادرة في أي وقت.',
  placeHeading: 'موقعك في قائمة الانتظار',
  placeAhead: '{people} أمامك في الانتظار',
  turnIn: 'يحين دورك بعد {duration}.',
  yourLane: 'مسار الانتظار الخاص بك: {lane}',
  waitHeading: 'مدة الانتظار المتوقعة',
  waitWithin: 'يدخل معظم الزوار خلال {duration}',
  waitWithinMinute: 'يدخل معظم الزوار خلال دقيقة',
  waitPending: 'ما زلنا نحسب المدة المتوقعة، وستظهر في هذه الصفحة فور معرفتها.',
  wait25: 'يدخل ربع الزوار خلال {duration}',
  wait50: 'ونصفهم خلال {duration}',
  wait75: 'وثلاثة أرباعهم خلال {duration}',
  noscriptWaiting:
    'البرامج النصية (JavaScript) معطّلة، لذا لا تستطيع هذه الصفحة التحقق نيابةً عنك. تأتي فرصتك التالية بعد {seconds, plural, zero {نحو # ثانية} one {نحو ثانية} two {نحو ثانيتين} few {نحو # ثوانٍ} many {نحو # ثانية} other {نحو # ثانية}}.',
  noscriptProof: 'ما دام الموقع مزدحمًا إلى هذا الحد، فإن فرصك أقل من دون البرامج النصية.',
  notifyButton: 'أرسل لي إشعارًا عندما يحين دوري',

  prequeueTitle: 'يبدأ البيع قريبًا',
  prequeueIntro:
    'أنت في قائمة الانتظار المسبقة. عند بدء البيع، يحصل كل من فيها على مكان في قائمة الانتظار يُحدَّد عشوائيًا.',
  prequeueStartLabel: 'موعد بدء البيع:',
  prequeueNoJump:
    'الوصول مبكرًا أو تحديث الصفحة أو فتح علامات تبويب إضافية لا يقدّم دورك. يُرجى إبقاء هذه الصفحة مفتوحة: فهي تنقلك تلقائيًا عند بدء البيع.',
  prequeueNoscript:
    'البرامج النصية (JavaScript) معطّلة، لذا لا تستطيع هذه الصفحة التحقق نيابةً عنك. يُرجى العودة بعد موعد البدء والتحقق مرة أخرى.',

  denyTitle: 'مغلق مؤقتًا',
  denyBody: 'لا يستقبل الموقع زوارًا جددًا في الوقت الحالي. لا توجد أي مشكلة من جهتك.',
  closedTitle: 'انتهى البيع',
  closedBody: 'انتهت هذه الفعالية، ولم يعد الموقع يستقبل الزوار من خلالها. لا توجد أي مشكلة من جهتك.',
  tryLater: 'يُرجى المحاولة مرة أخرى لاحقًا.',
  tryAgain: 'إعادة المحاولة',
  denyAuto: 'ما دامت هذه الصفحة مفتوحة، فإنها تعيد التحقق كل بضع دقائق وتنقلك إلى الموقع عندما يفتح أبوابه.',

  originDownTitle: 'غير متاح مؤقتًا',
  originDownHeading: 'الموقع لا يستجيب حاليًا',
  originDownBody: 'يُرجى المحاولة مرة أخرى بعد قليل.',
  hammerTitle: 'ما زلت في الانتظار',
  hammerHeading: 'ما زلت في قائمة الانتظار',
  hammerBody:
    '{seconds, plural, zero {طُلبت هذه الصفحة مرات كثيرة جدًا. مكانك محفوظ: ستعيد الصفحة التحقق تلقائيًا بعد # ثانية.} one {طُلبت هذه الصفحة مرات كثيرة جدًا. مكانك محفوظ: ستعيد الصفحة التحقق تلقائيًا بعد ثانية واحدة.} two {طُلبت هذه الصفحة مرات كثيرة جدًا. مكانك محفوظ: ستعيد الصفحة التحقق تلقائيًا بعد ثانيتين.} few {طُلبت هذه الصفحة مرات كثيرة جدًا. مكانك محفوظ: ستعيد الصفحة التحقق تلقائيًا بعد # ثوانٍ.} many {طُلبت هذه الصفحة مرات كثيرة جدًا. مكانك محفوظ: ستعيد الصفحة التحقق تلقائيًا بعد # ثانية.} other {طُلبت هذه الصفحة مرات كثيرة جدًا. مكانك محفوظ: ستعيد الصفحة التحقق تلقائيًا بعد # ثانية.}}',

  // {time} is the browser's "ثانيتان" / "٣ ثوان" (nominative), so it stands after a colon.
  clientNextCheck: 'الوقت المتبقي حتى التحقق التالي: {time}',
  clientStartsIn: 'الوقت المتبقي حتى بدء البيع: {time}',
  clientMoment: 'لحظات',
  clientNotYet: 'لم يحن دورك بعد. الوقت المتبقي حتى التحقق التالي: {time}.',
  clientTurn: 'حان دورك. جارٍ تحميل الموقع…',
  clientTurnTitle: 'حان دورك!',
  clientTurnBody: 'يُرجى العودة إلى علامة التبويب هذه للدخول إلى الموقع.',
  clientNotifyOn: 'سيصلك إشعار عندما يحين دورك.',
  clientUnreachable: 'تعذّر الوصول إلى الموقع. ستُعاد المحاولة بعد قليل.',
  clientStarted: 'بدأ البيع. جارٍ التحميل…',
  clientStillClosed: 'ما زال الموقع مغلقًا. ستعيد هذه الصفحة التحقق بعد بضع دقائق.',
  clientProofStarted: 'يُجري متصفحك فحصًا قصيرًا يمنع المشترين الآليين من الدخول: بدأ الفحص للتو.',
  clientProofQuarter: 'يُجري متصفحك فحصًا قصيرًا يمنع المشترين الآليين من الدخول: اكتمل نحو ربعه.',
  clientProofHalf: 'يُجري متصفحك فحصًا قصيرًا يمنع المشترين الآليين من الدخول: اكتمل نحو نصفه.',
  clientProofThreeQuarters: 'يُجري متصفحك فحصًا قصيرًا يمنع المشترين الآليين من الدخول: اكتمل نحو ثلاثة أرباعه.',
  clientProofNearly: 'يُجري متصفحك فحصًا قصيرًا يمنع المشترين الآليين من الدخول: أوشك على الانتهاء.',
  clientProofDone: 'اكتمل الفحص. أنت الآن ضمن القرعة.',
};
