// The built-in strings in Indonesian (Indonesia): formal "Anda" throughout, standard (baku) usage.
// Keys and arguments: en-US.ts.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'id-ID',
  name: 'Bahasa Indonesia',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Pesan dari situs:',
  languageLabel: 'Bahasa',
  checkNow: 'Periksa sekarang',

  durationUnknown: 'waktu yang belum diketahui',
  durationUnderMinute: 'kurang dari satu menit',
  durationMinutes: '{minutes, plural, =1 {sekitar satu menit} other {sekitar # menit}}',
  durationHours: '{hours, plural, =1 {sekitar satu jam} other {sekitar # jam}}',
  durationRangeMinutes: '{to, plural, other {sekitar {from} hingga # menit}}',
  durationRangeHours: '{to, plural, other {sekitar {from} hingga # jam}}',
  durationRange: '{from} hingga {to}',
  peopleNone: 'tidak ada',
  peopleExact: '{count, plural, other {# orang}}',
  peopleAbout: '{count, plural, other {sekitar # orang}}',
  dateUtc: '{weekday}, {day} {month} {year} pukul {time} UTC',
  weekdays: 'Minggu|Senin|Selasa|Rabu|Kamis|Jumat|Sabtu',
  months: 'Januari|Februari|Maret|April|Mei|Juni|Juli|Agustus|September|Oktober|November|Desember',

  waitingTitleStart: 'Anda sedang dalam antrean',
  waitingTitleKeep: 'Masih dalam antrean',
  waitingIntroStartRandom:
    'Situs sedang sangat ramai. Agar situs tetap lancar bagi semua orang, pengunjung dipersilakan masuk secara bertahap, beberapa orang setiap kali, yang dipilih secara acak dari semua yang sedang menunggu.',
  waitingIntroStartFifo:
    'Situs sedang sangat ramai. Agar situs tetap lancar bagi semua orang, pengunjung dipersilakan masuk secara bertahap, beberapa orang setiap kali, sesuai urutan kedatangan.',
  waitingIntroKeepRandom:
    'Belum giliran Anda. Situs sedang sangat ramai, jadi pengunjung dipersilakan masuk secara bertahap, beberapa orang setiap kali, yang dipilih secara acak dari semua yang sedang menunggu.',
  waitingIntroKeepFifo:
    'Belum giliran Anda. Situs sedang sangat ramai, jadi pengunjung dipersilakan masuk secara bertahap, beberapa orang setiap kali, sesuai urutan kedatangan.',
  waitingIntroKeepPrequeue:
    'Belum giliran Anda. Saat penjualan dimulai, setiap orang dalam pra-antrean, termasuk Anda, mendapat posisi dalam antrean secara acak. Pengunjung dipersilakan masuk secara bertahap, beberapa orang setiap kali, sesuai urutan posisi tersebut.',
  waitingKeepOpen:
    'Biarkan halaman ini tetap terbuka: halaman ini memeriksa secara otomatis dan akan membawa Anda ke situs saat giliran Anda tiba. Memuat ulang halaman tidak mengubah peluang Anda, dan Anda boleh meninggalkan antrean kapan saja.',
  placeHeading: 'Posisi Anda dalam antrean',
  placeAhead: 'Di depan Anda: {people}',
  turnIn: 'Giliran Anda tiba dalam {duration}.',
  yourLane: 'Jalur antrean Anda: {lane}',
  waitHeading: 'Perkiraan waktu tunggu',
  waitWithin: 'Sebagian besar pengunjung masuk dalam {duration}',
  waitWithinMinute: 'Sebagian besar pengunjung masuk dalam satu menit',
  waitPending: 'Kami masih menghitungnya. Perkiraan akan muncul di halaman ini segera setelah diketahui.',
  wait25: '1 dari 4 pengunjung masuk dalam {duration}',
  wait50: 'Separuhnya dalam {duration}',
  wait75: '3 dari 4 dalam {duration}',
  noscriptWaiting:
    'JavaScript dinonaktifkan, jadi halaman ini tidak dapat memeriksa secara otomatis untuk Anda. Kesempatan Anda berikutnya datang dalam {seconds, plural, other {sekitar # detik}}.',
  noscriptProof: 'Selama situs seramai ini, peluang Anda lebih kecil tanpa JavaScript.',
  notifyButton: 'Beri tahu saya saat giliran saya tiba',

  prequeueTitle: 'Penjualan segera dimulai',
  prequeueIntro:
    'Anda berada dalam pra-antrean. Saat penjualan dimulai, setiap orang dalam pra-antrean mendapat posisi dalam antrean secara acak.',
  prequeueStartLabel: 'Penjualan dimulai:',
  prequeueNoJump:
    'Datang lebih awal, memuat ulang halaman, atau membuka lebih banyak tab tidak akan memajukan posisi Anda. Biarkan halaman ini tetap terbuka: halaman ini akan membawa Anda ke langkah berikutnya saat penjualan dimulai.',
  prequeueNoscript:
    'JavaScript dinonaktifkan, jadi halaman ini tidak dapat memeriksa secara otomatis untuk Anda. Kembalilah setelah penjualan dimulai, lalu periksa lagi.',

  denyTitle: 'Ditutup sementara',
  denyBody: 'Saat ini situs tidak menerima pengunjung baru. Tidak ada masalah di pihak Anda.',
  closedTitle: 'Penjualan telah berakhir',
  closedBody:
    'Acara ini telah selesai dan situs tidak lagi menerima pengunjung melalui antrean ini. Tidak ada masalah di pihak Anda.',
  tryLater: 'Silakan coba lagi nanti.',
  tryAgain: 'Coba lagi',
  denyAuto:
    'Selama halaman ini tetap terbuka, halaman ini akan memeriksa lagi setiap beberapa menit dan membawa Anda masuk saat situs dibuka.',

  originDownTitle: 'Tidak tersedia untuk sementara',
  originDownHeading: 'Situs sedang tidak merespons',
  originDownBody: 'Silakan coba lagi sesaat lagi.',
  hammerTitle: 'Masih menunggu',
  hammerHeading: 'Anda masih dalam antrean',
  hammerBody:
    '{seconds, plural, other {Halaman ini terlalu sering diperiksa. Posisi Anda tetap aman: halaman ini akan memeriksa lagi secara otomatis dalam # detik.}}',

  clientNextCheck: 'Pemeriksaan berikutnya {time} lagi',
  clientStartsIn: 'Dimulai {time} lagi',
  clientMoment: 'sebentar',
  clientNotYet: 'Belum giliran Anda. Pemeriksaan berikutnya {time} lagi.',
  clientTurn: 'Giliran Anda telah tiba. Memuat situs…',
  clientTurnTitle: 'Giliran Anda telah tiba!',
  clientTurnBody: 'Kembali ke tab ini untuk masuk ke situs.',
  clientNotifyOn: 'Anda akan menerima notifikasi saat giliran Anda tiba.',
  clientUnreachable: 'Tidak dapat terhubung ke situs. Kami akan segera mencoba lagi.',
  clientStarted: 'Penjualan telah dimulai. Memuat…',
  clientStillClosed: 'Masih ditutup. Halaman ini akan memeriksa lagi dalam beberapa menit.',
  clientProofStarted:
    'Browser Anda sedang menjalankan pemeriksaan singkat untuk mencegah pembelian otomatis oleh bot: baru dimulai.',
  clientProofQuarter:
    'Browser Anda sedang menjalankan pemeriksaan singkat untuk mencegah pembelian otomatis oleh bot: sekitar seperempat selesai.',
  clientProofHalf:
    'Browser Anda sedang menjalankan pemeriksaan singkat untuk mencegah pembelian otomatis oleh bot: sekitar setengah selesai.',
  clientProofThreeQuarters:
    'Browser Anda sedang menjalankan pemeriksaan singkat untuk mencegah pembelian otomatis oleh bot: sekitar tiga perempat selesai.',
  clientProofNearly:
    'Browser Anda sedang menjalankan pemeriksaan singkat untuk mencegah pembelian otomatis oleh bot: hampir selesai.',
  clientProofDone: 'Pemeriksaan selesai. Anda sudah masuk dalam undian.',
};
