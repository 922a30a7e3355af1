// Malay (Malaysia). Formal "anda", standard Bahasa Melayu as Malaysian sites write it (Malaysian
// spellings and words: "laman", "pelayar", "baharu", "Disember"; not Indonesian's "situs", "peramban").
// Malay has no plural forms. Numbers: "," groups from four digits ("1,200"), decimal point. For a
// reviewer: "pra-giliran" for the pre-queue, a word made for it, and "laman" against "tapak web".
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'ms-MY',
  name: 'Bahasa Melayu',
  dir: 'ltr',
  number: { decimal: '.', group: ',', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Mesej daripada laman:',
  languageLabel: 'Bahasa',
  checkNow: 'Semak sekarang',

  durationUnknown: 'tempoh yang tidak diketahui',
  durationUnderMinute: 'kurang daripada seminit',
  durationMinutes: '{minutes, plural, =1 {kira-kira seminit} other {kira-kira # minit}}',
  durationHours: '{hours, plural, =1 {kira-kira sejam} other {kira-kira # jam}}',
  durationRangeMinutes: '{to, plural, other {kira-kira {from} hingga # minit}}',
  durationRangeHours: '{to, plural, other {kira-kira {from} hingga # jam}}',
  durationRange: '{from} hingga {to}',
  peopleNone: 'tiada sesiapa',
  peopleExact: '{count, plural, other {# orang}}',
  peopleAbout: '{count, plural, other {kira-kira # orang}}',
  dateUtc: '{weekday}, {day} {month} {year}, {time} UTC',
  weekdays: 'Ahad|Isnin|Selasa|Rabu|Khamis|Jumaat|Sabtu',
  months: 'Januari|Februari|Mac|April|Mei|Jun|Julai|Ogos|September|Oktober|November|Disember',

  waitingTitleStart: 'Anda dalam giliran',
  waitingTitleKeep: 'Masih dalam giliran',
  waitingIntroStartRandom:
    'Laman ini sangat sibuk. Supaya laman terus berfungsi untuk semua, pelawat dibenarkan masuk beberapa orang pada satu masa, dipilih secara rawak daripada semua yang sedang menunggu.',
  waitingIntroStartFifo:
    'Laman ini sangat sibuk. Supaya laman terus berfungsi untuk semua, pelawat dibenarkan masuk beberapa orang pada satu masa, mengikut urutan ketibaan.',
  waitingIntroKeepRandom:
    'Belum tiba giliran anda. Laman ini sangat sibuk, jadi pelawat dibenarkan masuk beberapa orang pada satu masa, dipilih secara rawak daripada semua yang sedang menunggu.',
  waitingIntroKeepFifo:
    'Belum tiba giliran anda. Laman ini sangat sibuk, jadi pelawat dibenarkan masuk beberapa orang pada satu masa, mengikut urutan ketibaan.',
  waitingIntroKeepPrequeue:
    'Belum tiba giliran anda. Semasa jualan bermula, semua orang dalam pra-giliran, termasuk anda, mendapat tempat dalam giliran secara rawak. Pelawat dibenarkan masuk beberapa orang pada satu masa, mengikut urutan tempat tersebut.',
  waitingKeepOpen:
    'Biarkan halaman ini terbuka: ia menyemak untuk anda dan membawa anda ke laman apabila tiba giliran anda. Memuat semula halaman tidak mengubah peluang anda, dan anda boleh keluar pada bila-bila masa.',
  placeHeading: 'Tempat anda dalam giliran',
  placeAhead: '{people} di hadapan anda',
  turnIn: 'Giliran anda dalam {duration}.',
  yourLane: 'Giliran anda: {lane}',
  waitHeading: 'Anggaran masa menunggu',
  waitWithin: 'Kebanyakan pelawat dapat masuk dalam tempoh {duration}',
  waitWithinMinute: 'Kebanyakan pelawat dapat masuk dalam tempoh seminit',
  waitPending: 'Kami masih mengiranya. Halaman ini akan memaparkannya sebaik sahaja ia diketahui.',
  wait25: '1 daripada 4 pelawat dapat masuk dalam tempoh {duration}',
  wait50: 'Separuh dalam tempoh {duration}',
  wait75: '3 daripada 4 dalam tempoh {duration}',
  noscriptWaiting:
    'Skrip dimatikan, jadi halaman ini tidak dapat menyemak untuk anda. Peluang anda yang seterusnya tiba dalam {seconds, plural, other {kira-kira # saat}}.',
  noscriptProof: 'Selagi laman ini sesibuk ini, peluang anda lebih rendah tanpa skrip.',
  notifyButton: 'Maklumkan saya apabila tiba giliran saya',

  prequeueTitle: 'Jualan akan bermula tidak lama lagi',
  prequeueIntro:
    'Anda dalam pra-giliran. Apabila jualan bermula, semua orang dalam pra-giliran akan mendapat tempat dalam giliran secara rawak.',
  prequeueStartLabel: 'Jualan bermula:',
  prequeueNoJump:
    'Datang awal, memuat semula halaman atau membuka lebih banyak tab tidak menggerakkan anda ke hadapan. Biarkan halaman ini terbuka: ia akan membawa anda masuk apabila jualan bermula.',
  prequeueNoscript:
    'Skrip dimatikan, jadi halaman ini tidak dapat menyemak untuk anda. Kembali selepas jualan bermula dan semak semula.',

  denyTitle: 'Ditutup buat masa ini',
  denyBody: 'Laman ini tidak membenarkan pelawat baharu masuk pada masa ini. Tiada masalah di pihak anda.',
  closedTitle: 'Jualan telah tamat',
  closedBody:
    'Acara ini telah tamat dan laman ini tidak lagi membenarkan pelawat masuk melaluinya. Tiada masalah di pihak anda.',
  tryLater: 'Sila cuba lagi kemudian.',
  tryAgain: 'Cuba lagi',
  denyAuto:
    'Selagi halaman ini terbuka, ia menyemak semula setiap beberapa minit dan membawa anda masuk apabila laman dibuka.',

  originDownTitle: 'Tidak tersedia buat sementara waktu',
  originDownHeading: 'Laman tidak memberikan respons sekarang',
  originDownBody: 'Sila cuba lagi sebentar nanti.',
  hammerTitle: 'Masih menunggu',
  hammerHeading: 'Anda masih dalam giliran',
  hammerBody:
    '{seconds, plural, other {Halaman ini disemak terlalu kerap. Tempat anda tetap disimpan: ia akan menyemak semula sendiri dalam # saat.}}',

  clientNextCheck: 'Semakan seterusnya dalam {time}',
  clientStartsIn: 'Bermula dalam {time}',
  clientMoment: 'seketika',
  clientNotYet: 'Belum tiba giliran anda. Semakan seterusnya dalam {time}.',
  clientTurn: 'Giliran anda telah tiba. Memuatkan laman…',
  clientTurnTitle: 'Giliran anda telah tiba!',
  clientTurnBody: 'Kembali ke tab ini untuk pergi ke laman.',
  clientNotifyOn: 'Anda akan menerima pemberitahuan apabila tiba giliran anda.',
  clientUnreachable: 'Tidak dapat menghubungi laman. Akan mencuba lagi sebentar lagi.',
  clientStarted: 'Jualan telah bermula. Memuatkan…',
  clientStillClosed: 'Masih ditutup. Halaman ini akan menyemak semula dalam beberapa minit.',
  clientProofStarted: 'Pelayar anda sedang membuat semakan ringkas yang menghalang pembeli automatik: baru bermula.',
  clientProofQuarter:
    'Pelayar anda sedang membuat semakan ringkas yang menghalang pembeli automatik: kira-kira suku siap.',
  clientProofHalf:
    'Pelayar anda sedang membuat semakan ringkas yang menghalang pembeli automatik: kira-kira separuh siap.',
  clientProofThreeQuarters:
    'Pelayar anda sedang membuat semakan ringkas yang menghalang pembeli automatik: kira-kira tiga suku siap.',
  clientProofNearly: 'Pelayar anda sedang membuat semakan ringkas yang menghalang pembeli automatik: hampir siap.',
  clientProofDone: 'Semakan selesai. Anda kini dalam cabutan.',
};
