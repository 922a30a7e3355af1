// Vietnamese (Vietnam). "Bạn", the polite-neutral address of Vietnamese web interfaces; a ticketing
// site that says "Quý khách" can override the strings. Vietnamese has no plural forms. Dates: "ngày 1
// tháng 12 năm 2026". Numbers: "." groups from four digits ("1.200"), decimal comma. For a reviewer:
// "bạn" against "quý khách" for the market, and "hàng chờ trước" for the pre-queue.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'vi-VN',
  name: 'Tiếng Việt',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'Thông báo từ trang web:',
  languageLabel: 'Ngôn ngữ',
  checkNow: 'Kiểm tra ngay',

  durationUnknown: 'thời gian chưa xác định',
  durationUnderMinute: 'dưới một phút',
  durationMinutes: '{minutes, plural, =1 {khoảng một phút} other {khoảng # phút}}',
  durationHours: '{hours, plural, =1 {khoảng một giờ} other {khoảng # giờ}}',
  durationRangeMinutes: '{to, plural, other {khoảng {from} đến # phút}}',
  durationRangeHours: '{to, plural, other {khoảng {from} đến # giờ}}',
  durationRange: '{from} đến {to}',
  peopleNone: 'không có ai',
  peopleExact: '{count, plural, other {# người}}',
  peopleAbout: '{count, plural, other {khoảng # người}}',
  dateUtc: '{weekday}, ngày {day} {month} năm {year}, {time} UTC',
  weekdays: 'Chủ Nhật|Thứ Hai|Thứ Ba|Thứ Tư|Thứ Năm|Thứ Sáu|Thứ Bảy',
  months: 'tháng 1|tháng 2|tháng 3|tháng 4|tháng 5|tháng 6|tháng 7|tháng 8|tháng 9|tháng 10|tháng 11|tháng 12',

  waitingTitleStart: 'Bạn đang trong hàng chờ',
  waitingTitleKeep: 'Vẫn đang trong hàng chờ',
  waitingIntroStartRandom:
    'Trang web đang rất đông. Để trang hoạt động tốt cho mọi người, khách truy cập được vào theo từng nhóm nhỏ, chọn ngẫu nhiên trong số tất cả những người đang chờ.',
  waitingIntroStartFifo:
    'Trang web đang rất đông. Để trang hoạt động tốt cho mọi người, khách truy cập được vào theo từng nhóm nhỏ, theo thứ tự đến.',
  waitingIntroKeepRandom:
    'Chưa đến lượt bạn. Trang web đang rất đông nên khách truy cập được vào theo từng nhóm nhỏ, chọn ngẫu nhiên trong số tất cả những người đang chờ.',
  waitingIntroKeepFifo:
    'Chưa đến lượt bạn. Trang web đang rất đông nên khách truy cập được vào theo từng nhóm nhỏ, theo thứ tự đến.',
  waitingIntroKeepPrequeue:
    'Chưa đến lượt bạn. Khi đợt bán bắt đầu, mọi người trong hàng chờ trước, kể cả bạn, đã được xếp ngẫu nhiên một vị trí trong hàng chờ. Khách truy cập được vào theo từng nhóm nhỏ, theo thứ tự các vị trí đó.',
  waitingKeepOpen:
    'Hãy để trang này mở: trang sẽ kiểm tra giúp bạn và đưa bạn vào trang web khi đến lượt. Tải lại trang không thay đổi cơ hội của bạn, và bạn có thể rời đi bất cứ lúc nào.',
  placeHeading: 'Vị trí của bạn trong hàng chờ',
  placeAhead: '{people} đứng trước bạn',
  turnIn: 'Đến lượt bạn sau {duration}.',
  yourLane: 'Hàng chờ của bạn: {lane}',
  waitHeading: 'Thời gian chờ ước tính',
  waitWithin: 'Hầu hết khách truy cập được vào trong vòng {duration}',
  waitWithinMinute: 'Hầu hết khách truy cập được vào trong vòng một phút',
  waitPending: 'Chúng tôi vẫn đang tính toán. Trang này sẽ hiển thị ngay khi có kết quả.',
  wait25: '1 trong 4 khách truy cập được vào trong vòng {duration}',
  wait50: 'Một nửa trong vòng {duration}',
  wait75: '3 trong 4 trong vòng {duration}',
  noscriptWaiting:
    'Tập lệnh (script) đang bị tắt nên trang này không thể kiểm tra giúp bạn. Cơ hội tiếp theo của bạn đến sau {seconds, plural, other {khoảng # giây}}.',
  noscriptProof: 'Khi trang web còn đông như thế này, nếu không có tập lệnh thì cơ hội của bạn sẽ thấp hơn.',
  notifyButton: 'Thông báo cho tôi khi đến lượt',

  prequeueTitle: 'Đợt bán sắp bắt đầu',
  prequeueIntro:
    'Bạn đang ở hàng chờ trước. Khi đợt bán bắt đầu, mọi người trong hàng chờ trước sẽ được xếp ngẫu nhiên một vị trí trong hàng chờ.',
  prequeueStartLabel: 'Đợt bán bắt đầu:',
  prequeueNoJump:
    'Đến sớm, tải lại trang hay mở thêm thẻ đều không giúp bạn lên trước. Hãy để trang này mở: trang sẽ đưa bạn vào khi đợt bán bắt đầu.',
  prequeueNoscript:
    'Tập lệnh đang bị tắt nên trang này không thể kiểm tra giúp bạn. Hãy quay lại sau giờ bắt đầu và kiểm tra lại.',

  denyTitle: 'Tạm thời đóng',
  denyBody: 'Hiện trang web không nhận thêm khách truy cập mới. Phía bạn không có vấn đề gì.',
  closedTitle: 'Đợt bán đã kết thúc',
  closedBody:
    'Sự kiện này đã kết thúc và trang web không còn nhận khách truy cập qua lối này nữa. Phía bạn không có vấn đề gì.',
  tryLater: 'Vui lòng thử lại sau.',
  tryAgain: 'Thử lại',
  denyAuto: 'Khi trang này còn mở, trang sẽ kiểm tra lại vài phút một lần và đưa bạn vào khi trang web mở cửa.',

  originDownTitle: 'Tạm thời không khả dụng',
  originDownHeading: 'Trang web hiện không phản hồi',
  originDownBody: 'Vui lòng thử lại sau giây lát.',
  hammerTitle: 'Vẫn đang chờ',
  hammerHeading: 'Bạn vẫn đang trong hàng chờ',
  hammerBody:
    '{seconds, plural, other {Trang này được kiểm tra quá thường xuyên. Vị trí của bạn vẫn được giữ: trang sẽ tự kiểm tra lại sau # giây.}}',

  clientNextCheck: 'Lần kiểm tra tiếp theo sau {time}',
  clientStartsIn: 'Bắt đầu sau {time}',
  clientMoment: 'giây lát',
  clientNotYet: 'Chưa đến lượt bạn. Lần kiểm tra tiếp theo sau {time}.',
  clientTurn: 'Đã đến lượt bạn. Đang tải trang web…',
  clientTurnTitle: 'Đã đến lượt bạn!',
  clientTurnBody: 'Hãy quay lại thẻ này để vào trang web.',
  clientNotifyOn: 'Bạn sẽ nhận được thông báo khi đến lượt.',
  clientUnreachable: 'Không kết nối được với trang web. Sẽ thử lại ngay.',
  clientStarted: 'Đợt bán đã bắt đầu. Đang tải…',
  clientStillClosed: 'Vẫn đang đóng. Trang sẽ kiểm tra lại sau vài phút.',
  clientProofStarted: 'Trình duyệt của bạn đang kiểm tra nhanh để chặn người mua tự động: vừa bắt đầu.',
  clientProofQuarter: 'Trình duyệt của bạn đang kiểm tra nhanh để chặn người mua tự động: xong khoảng một phần tư.',
  clientProofHalf: 'Trình duyệt của bạn đang kiểm tra nhanh để chặn người mua tự động: xong khoảng một nửa.',
  clientProofThreeQuarters:
    'Trình duyệt của bạn đang kiểm tra nhanh để chặn người mua tự động: xong khoảng ba phần tư.',
  clientProofNearly: 'Trình duyệt của bạn đang kiểm tra nhanh để chặn người mua tự động: sắp xong.',
  clientProofDone: 'Đã kiểm tra xong. Bạn đã tham gia lượt bốc thăm.',
};
