// The built-in strings in Turkish (Türkiye): the polite "siz" throughout. Turkish attaches case
// endings to words, so arguments sit before postpositions (içinde, sonra) or after a colon, never
// before a suffix that would have to agree with them. Keys and arguments: en-US.ts.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'tr-TR',
  name: 'Türkçe',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Siteden mesaj:',
  languageLabel: 'Dil',
  checkNow: 'Şimdi kontrol et',

  durationUnknown: 'bilinmeyen bir süre',
  durationUnderMinute: 'bir dakikadan kısa bir süre',
  durationMinutes: '{minutes, plural, =1 {yaklaşık bir dakika} one {yaklaşık # dakika} other {yaklaşık # dakika}}',
  durationHours: '{hours, plural, =1 {yaklaşık bir saat} one {yaklaşık # saat} other {yaklaşık # saat}}',
  durationRangeMinutes: '{to, plural, one {yaklaşık {from} ila # dakika} other {yaklaşık {from} ila # dakika}}',
  durationRangeHours: '{to, plural, one {yaklaşık {from} ila # saat} other {yaklaşık {from} ila # saat}}',
  durationRange: '{from} ila {to}',
  peopleNone: 'kimse yok',
  peopleExact: '{count, plural, one {# kişi} other {# kişi}}',
  peopleAbout: '{count, plural, one {yaklaşık # kişi} other {yaklaşık # kişi}}',
  dateUtc: '{day} {month} {year} {weekday}, saat {time} UTC',
  weekdays: 'Pazar|Pazartesi|Salı|Çarşamba|Perşembe|Cuma|Cumartesi',
  months: 'Ocak|Şubat|Mart|Nisan|Mayıs|Haziran|Temmuz|Ağustos|Eylül|Ekim|Kasım|Aralık',

  waitingTitleStart: 'Sıradasınız',
  waitingTitleKeep: 'Hâlâ sıradasınız',
  waitingIntroStartRandom:
    'Site şu anda çok yoğun. Sitenin herkes için sorunsuz çalışması amacıyla ziyaretçiler, bekleyen herkesin arasından rastgele seçilerek birkaçar kişi hâlinde içeri alınıyor.',
  waitingIntroStartFifo:
    'Site şu anda çok yoğun. Sitenin herkes için sorunsuz çalışması amacıyla ziyaretçiler, geliş sırasına göre birkaçar kişi hâlinde içeri alınıyor.',
  waitingIntroKeepRandom:
    'Henüz sıranız gelmedi. Site çok yoğun olduğundan ziyaretçiler, bekleyen herkesin arasından rastgele seçilerek birkaçar kişi hâlinde içeri alınıyor.',
  waitingIntroKeepFifo:
    'Henüz sıranız gelmedi. Site çok yoğun olduğundan ziyaretçiler, geliş sırasına göre birkaçar kişi hâlinde içeri alınıyor.',
  waitingIntroKeepPrequeue:
    'Henüz sıranız gelmedi. Satış başladığında, siz de dâhil olmak üzere satış öncesi bekleme sırasındaki herkese ana sırada rastgele bir yer verildi. Ziyaretçiler bu sıraya göre birkaçar kişi hâlinde içeri alınıyor.',
  waitingKeepOpen:
    'Lütfen bu sayfayı açık tutun: sayfa sizin yerinize kontrol eder ve sıranız geldiğinde sizi siteye yönlendirir. Sayfayı yenilemek şansınızı değiştirmez; sıradan istediğiniz zaman ayrılabilirsiniz.',
  placeHeading: 'Sıradaki yeriniz',
  placeAhead: 'Önünüzde: {people}',
  turnIn: 'Sıranız {duration} içinde gelecek.',
  yourLane: 'Bekleme hattınız: {lane}',
  waitHeading: 'Tahmini bekleme süresi',
  waitWithin: 'Ziyaretçilerin çoğu {duration} içinde giriyor',
  waitWithinMinute: 'Ziyaretçilerin çoğu bir dakika içinde giriyor',
  waitPending: 'Bekleme süresini henüz hesaplıyoruz. Belli olur olmaz bu sayfada gösterilecek.',
  wait25: 'Dört ziyaretçiden biri {duration} içinde giriyor',
  wait50: 'Yarısı {duration} içinde',
  wait75: 'Dörtte üçü {duration} içinde',
  noscriptWaiting:
    'JavaScript kapalı olduğu için bu sayfa sizin yerinize kontrol edemiyor. Bir sonraki şansınız {seconds, plural, one {yaklaşık # saniye} other {yaklaşık # saniye}} sonra.',
  noscriptProof: 'Site bu kadar yoğunken JavaScript kapalıysa şansınız daha düşüktür.',
  notifyButton: 'Sıram geldiğinde bana haber ver',

  prequeueTitle: 'Satış birazdan başlıyor',
  prequeueIntro:
    'Satış öncesi bekleme sırasındasınız. Satış başladığında bu sıradaki herkese ana sırada rastgele bir yer verilir.',
  prequeueStartLabel: 'Satışın başlangıcı:',
  prequeueNoJump:
    'Erken gelmek, sayfayı yenilemek veya daha fazla sekme açmak sizi öne geçirmez. Lütfen bu sayfayı açık tutun: satış başladığında sizi bir sonraki adıma götürür.',
  prequeueNoscript:
    'JavaScript kapalı olduğu için bu sayfa sizin yerinize kontrol edemiyor. Satış başladıktan sonra geri gelip yeniden kontrol edin.',

  denyTitle: 'Şimdilik kapalı',
  denyBody: 'Site şu anda yeni ziyaretçi kabul etmiyor. Sizin tarafınızda bir sorun yok.',
  closedTitle: 'Satış sona erdi',
  closedBody:
    'Bu etkinlik sona erdi; site artık bu sıra üzerinden ziyaretçi kabul etmiyor. Sizin tarafınızda bir sorun yok.',
  tryLater: 'Lütfen daha sonra tekrar deneyin.',
  tryAgain: 'Tekrar dene',
  denyAuto:
    'Bu sayfa açık kaldığı sürece birkaç dakikada bir yeniden kontrol eder ve site açıldığında sizi içeri alır.',

  originDownTitle: 'Geçici olarak kullanılamıyor',
  originDownHeading: 'Site şu anda yanıt vermiyor',
  originDownBody: 'Lütfen birazdan tekrar deneyin.',
  hammerTitle: 'Bekleme sürüyor',
  hammerHeading: 'Hâlâ sıradasınız',
  hammerBody:
    '{seconds, plural, one {Bu sayfa çok sık kontrol edildi. Yeriniz korunuyor: sayfa # saniye sonra kendiliğinden yeniden kontrol edecek.} other {Bu sayfa çok sık kontrol edildi. Yeriniz korunuyor: sayfa # saniye sonra kendiliğinden yeniden kontrol edecek.}}',

  clientNextCheck: 'Bir sonraki kontrole {time} kaldı',
  clientStartsIn: 'Başlangıca {time} kaldı',
  clientMoment: 'biraz',
  clientNotYet: 'Henüz sıranız gelmedi. Bir sonraki kontrole {time} kaldı.',
  clientTurn: 'Sıranız geldi. Site yükleniyor…',
  clientTurnTitle: 'Sıranız geldi!',
  clientTurnBody: 'Siteye geçmek için bu sekmeye geri dönün.',
  clientNotifyOn: 'Sıranız geldiğinde bildirim alacaksınız.',
  clientUnreachable: 'Siteye ulaşılamadı. Birazdan yeniden denenecek.',
  clientStarted: 'Satış başladı. Yükleniyor…',
  clientStillClosed: 'Hâlâ kapalı. Bu sayfa birkaç dakika içinde yeniden kontrol edecek.',
  clientProofStarted: 'Tarayıcınız, otomatik alım yapan botları engelleyen kısa bir kontrol yapıyor: yeni başladı.',
  clientProofQuarter:
    'Tarayıcınız, otomatik alım yapan botları engelleyen kısa bir kontrol yapıyor: yaklaşık dörtte biri tamamlandı.',
  clientProofHalf:
    'Tarayıcınız, otomatik alım yapan botları engelleyen kısa bir kontrol yapıyor: yaklaşık yarısı tamamlandı.',
  clientProofThreeQuarters:
    'Tarayıcınız, otomatik alım yapan botları engelleyen kısa bir kontrol yapıyor: yaklaşık dörtte üçü tamamlandı.',
  clientProofNearly: 'Tarayıcınız, otomatik alım yapan botları engelleyen kısa bir kontrol yapıyor: neredeyse bitti.',
  clientProofDone: 'Kontrol tamamlandı. Çekilişe katıldınız.',
};
