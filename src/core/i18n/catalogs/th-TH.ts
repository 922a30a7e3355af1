// Thai (Thailand). Polite and neutral: "คุณ" for the visitor, no gendered ending particles (ครับ/ค่ะ),
// as Thai interfaces write. Thai has no plural forms and no spaces between words; a space ends a
// clause where English has a comma or a full stop. Dates name the year as the room has it, the
// Gregorian one, marked ค.ศ. (Thai readers expect the Buddhist year, 543 more, where unmarked). Numbers:
// Latin digits, as Intl writes for th-TH and Thai sites do; "," groups, decimal point. For a reviewer:
// "คิวล่วงหน้า" for the pre-queue, and the year.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'th-TH',
  name: 'ไทย',
  dir: 'ltr',
  number: { decimal: '.', group: ',', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'ข้อความจากเว็บไซต์:',
  languageLabel: 'ภาษา',
  checkNow: 'ตรวจสอบตอนนี้',

  durationUnknown: 'ไม่ทราบระยะเวลา',
  durationUnderMinute: 'ไม่ถึง 1 นาที',
  durationMinutes: '{minutes, plural, other {ประมาณ # นาที}}',
  durationHours: '{hours, plural, other {ประมาณ # ชั่วโมง}}',
  durationRangeMinutes: '{to, plural, other {ประมาณ {from}–# นาที}}',
  durationRangeHours: '{to, plural, other {ประมาณ {from}–# ชั่วโมง}}',
  durationRange: '{from} ถึง{to}',
  peopleNone: 'ไม่มีใคร',
  peopleExact: '{count, plural, other {# คน}}',
  peopleAbout: '{count, plural, other {ประมาณ # คน}}',
  dateUtc: 'วัน{weekday}ที่ {day} {month} ค.ศ. {year} เวลา {time} น. (UTC)',
  weekdays: 'อาทิตย์|จันทร์|อังคาร|พุธ|พฤหัสบดี|ศุกร์|เสาร์',
  months: 'มกราคม|กุมภาพันธ์|มีนาคม|เมษายน|พฤษภาคม|มิถุนายน|กรกฎาคม|สิงหาคม|กันยายน|ตุลาคม|พฤศจิกายน|ธันวาคม',

  waitingTitleStart: 'คุณอยู่ในคิวแล้ว',
  waitingTitleKeep: 'ยังอยู่ในคิว',
  waitingIntroStartRandom:
    'ขณะนี้เว็บไซต์มีผู้เข้าชมจำนวนมาก เพื่อให้เว็บไซต์ใช้งานได้สำหรับทุกคน เราจะให้ผู้เข้าชมเข้าไปทีละไม่กี่คน โดยสุ่มเลือกจากทุกคนที่รออยู่',
  waitingIntroStartFifo:
    'ขณะนี้เว็บไซต์มีผู้เข้าชมจำนวนมาก เพื่อให้เว็บไซต์ใช้งานได้สำหรับทุกคน เราจะให้ผู้เข้าชมเข้าไปทีละไม่กี่คน ตามลำดับการมาถึง',
  waitingIntroKeepRandom: 'ยังไม่ถึงคิวของคุณ ขณะนี้เว็บไซต์มีผู้เข้าชมจำนวนมาก เราจึงให้ผู้เข้าชมเข้าไปทีละไม่กี่คน โดยสุ่มเลือกจากทุกคนที่รออยู่',
  waitingIntroKeepFifo: 'ยังไม่ถึงคิวของคุณ ขณะนี้เว็บไซต์มีผู้เข้าชมจำนวนมาก เราจึงให้ผู้เข้าชมเข้าไปทีละไม่กี่คน ตามลำดับการมาถึง',
  waitingIntroKeepPrequeue:
    'ยังไม่ถึงคิวของคุณ เมื่อการขายเริ่มขึ้น ทุกคนในคิวล่วงหน้า รวมถึงคุณ ได้รับตำแหน่งในคิวแบบสุ่ม เราให้ผู้เข้าชมเข้าไปทีละไม่กี่คนตามลำดับตำแหน่งเหล่านั้น',
  waitingKeepOpen:
    'โปรดเปิดหน้านี้ไว้ หน้านี้จะตรวจสอบให้คุณและพาคุณไปยังเว็บไซต์เมื่อถึงคิวของคุณ การรีเฟรชหน้าไม่ได้เพิ่มโอกาสของคุณ และคุณออกไปได้ทุกเมื่อ',
  placeHeading: 'ตำแหน่งของคุณในคิว',
  placeAhead: 'ก่อนหน้าคุณ: {people}',
  turnIn: 'จะถึงคิวของคุณในอีก{duration}',
  yourLane: 'คิวของคุณ: {lane}',
  waitHeading: 'เวลารอโดยประมาณ',
  waitWithin: 'ผู้เข้าชมส่วนใหญ่ได้เข้าภายใน{duration}',
  waitWithinMinute: 'ผู้เข้าชมส่วนใหญ่ได้เข้าภายใน 1 นาที',
  waitPending: 'เรากำลังคำนวณอยู่ หน้านี้จะแสดงทันทีที่ทราบ',
  wait25: 'ผู้เข้าชม 1 ใน 4 ได้เข้าภายใน{duration}',
  wait50: 'ครึ่งหนึ่งได้เข้าภายใน{duration}',
  wait75: '3 ใน 4 ได้เข้าภายใน{duration}',
  noscriptWaiting:
    'สคริปต์ถูกปิดอยู่ หน้านี้จึงตรวจสอบให้คุณไม่ได้ โอกาสครั้งถัดไปของคุณจะมาในอีก{seconds, plural, other {ประมาณ # วินาที}}',
  noscriptProof: 'ในช่วงที่เว็บไซต์มีผู้เข้าชมมากเช่นนี้ หากปิดสคริปต์ไว้ โอกาสของคุณจะน้อยลง',
  notifyButton: 'แจ้งเตือนเมื่อถึงคิวของฉัน',

  prequeueTitle: 'การขายจะเริ่มเร็ว ๆ นี้',
  prequeueIntro: 'คุณอยู่ในคิวล่วงหน้า เมื่อการขายเริ่มขึ้น ทุกคนในคิวล่วงหน้าจะได้รับตำแหน่งในคิวแบบสุ่ม',
  prequeueStartLabel: 'การขายเริ่ม:',
  prequeueNoJump: 'การมาก่อน การรีเฟรชหน้า หรือการเปิดหลายแท็บ ไม่ได้ทำให้คุณได้คิวก่อน โปรดเปิดหน้านี้ไว้ หน้านี้จะพาคุณไปต่อเมื่อการขายเริ่มขึ้น',
  prequeueNoscript: 'สคริปต์ถูกปิดอยู่ หน้านี้จึงตรวจสอบให้คุณไม่ได้ โปรดกลับมาหลังเวลาเริ่มและตรวจสอบอีกครั้ง',

  denyTitle: 'ปิดชั่วคราว',
  denyBody: 'ขณะนี้เว็บไซต์ไม่รับผู้เข้าชมใหม่ ไม่มีปัญหาใด ๆ ที่ฝั่งของคุณ',
  closedTitle: 'การขายสิ้นสุดแล้ว',
  closedBody: 'กิจกรรมนี้สิ้นสุดแล้ว และเว็บไซต์ไม่รับผู้เข้าชมผ่านช่องทางนี้อีกต่อไป ไม่มีปัญหาใด ๆ ที่ฝั่งของคุณ',
  tryLater: 'โปรดลองอีกครั้งในภายหลัง',
  tryAgain: 'ลองอีกครั้ง',
  denyAuto: 'ตราบใดที่หน้านี้ยังเปิดอยู่ หน้านี้จะตรวจสอบใหม่ทุก ๆ ไม่กี่นาที และพาคุณไปต่อเมื่อเว็บไซต์เปิด',

  originDownTitle: 'ไม่พร้อมให้บริการชั่วคราว',
  originDownHeading: 'เว็บไซต์ไม่ตอบสนองในขณะนี้',
  originDownBody: 'โปรดลองอีกครั้งในอีกสักครู่',
  hammerTitle: 'ยังรออยู่',
  hammerHeading: 'คุณยังอยู่ในคิว',
  hammerBody: '{seconds, plural, other {หน้านี้ถูกตรวจสอบบ่อยเกินไป ตำแหน่งของคุณยังคงอยู่ หน้านี้จะตรวจสอบอีกครั้งเองในอีก # วินาที}}',

  clientNextCheck: 'ตรวจสอบครั้งถัดไปในอีก {time}',
  clientStartsIn: 'เริ่มในอีก {time}',
  clientMoment: 'สักครู่',
  clientNotYet: 'ยังไม่ถึงคิวของคุณ การตรวจสอบครั้งถัดไปในอีก {time}',
  clientTurn: 'ถึงคิวของคุณแล้ว กำลังโหลดเว็บไซต์…',
  clientTurnTitle: 'ถึงคิวของคุณแล้ว!',
  clientTurnBody: 'กลับมาที่แท็บนี้เพื่อไปยังเว็บไซต์',
  clientNotifyOn: 'คุณจะได้รับการแจ้งเตือนเมื่อถึงคิวของคุณ',
  clientUnreachable: 'ไม่สามารถเชื่อมต่อกับเว็บไซต์ได้ จะลองอีกครั้งในไม่ช้า',
  clientStarted: 'การขายเริ่มแล้ว กำลังโหลด…',
  clientStillClosed: 'ยังปิดอยู่ หน้านี้จะตรวจสอบอีกครั้งในอีกไม่กี่นาที',
  clientProofStarted: 'เบราว์เซอร์ของคุณกำลังตรวจสอบสั้น ๆ เพื่อกันผู้ซื้ออัตโนมัติ: เพิ่งเริ่ม',
  clientProofQuarter: 'เบราว์เซอร์ของคุณกำลังตรวจสอบสั้น ๆ เพื่อกันผู้ซื้ออัตโนมัติ: เสร็จไปประมาณหนึ่งในสี่',
  clientProofHalf: 'เบราว์เซอร์ของคุณกำลังตรวจสอบสั้น ๆ เพื่อกันผู้ซื้ออัตโนมัติ: เสร็จไปประมาณครึ่งหนึ่ง',
  clientProofThreeQuarters: 'เบราว์เซอร์ของคุณกำลังตรวจสอบสั้น ๆ เพื่อกันผู้ซื้ออัตโนมัติ: เสร็จไปประมาณสามในสี่',
  clientProofNearly: 'เบราว์เซอร์ของคุณกำลังตรวจสอบสั้น ๆ เพื่อกันผู้ซื้ออัตโนมัติ: ใกล้เสร็จแล้ว',
  clientProofDone: 'ตรวจสอบเสร็จแล้ว คุณได้เข้าร่วมการสุ่มแล้ว',
};
