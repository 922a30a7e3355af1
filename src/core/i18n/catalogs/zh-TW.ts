// The built-in strings in Chinese (Traditional, Taiwan): 您 throughout, Taiwan usage (網站, 排隊,
// 重新整理, 分頁, 載入, 連線, 程式), full-width punctuation (，。：), figures without a space before
// their measure word (約8分鐘, 約1,200人). Keys and arguments: en-US.ts.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'zh-TW',
  name: '繁體中文',
  dir: 'ltr',
  number: { decimal: '.', group: ',', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: '網站公告：',
  languageLabel: '語言',
  checkNow: '立即確認',

  durationUnknown: '未知',
  durationUnderMinute: '不到1分鐘',
  durationMinutes: '{minutes, plural, other {約#分鐘}}',
  durationHours: '{hours, plural, other {約#小時}}',
  durationRangeMinutes: '{to, plural, other {約{from}至#分鐘}}',
  durationRangeHours: '{to, plural, other {約{from}至#小時}}',
  durationRange: '{from}至{to}',
  peopleNone: '無',
  peopleExact: '{count, plural, other {#人}}',
  peopleAbout: '{count, plural, other {約#人}}',
  dateUtc: '{year}年{month}{day}日 {weekday} {time} UTC',
  weekdays: '星期日|星期一|星期二|星期三|星期四|星期五|星期六',
  months: '1月|2月|3月|4月|5月|6月|7月|8月|9月|10月|11月|12月',

  waitingTitleStart: '您正在排隊',
  waitingTitleKeep: '仍在排隊中',
  waitingIntroStartRandom:
    '網站目前非常繁忙。為了讓所有人都能順利使用，我們會從所有排隊的訪客中隨機抽選，每次只讓少數訪客進入。',
  waitingIntroStartFifo:
    '網站目前非常繁忙。為了讓所有人都能順利使用，我們會依照訪客抵達的先後順序，每次只讓少數訪客進入。',
  waitingIntroKeepRandom: '還沒輪到您。網站目前非常繁忙，因此我們會從所有排隊的訪客中隨機抽選，每次只讓少數訪客進入。',
  waitingIntroKeepFifo: '還沒輪到您。網站目前非常繁忙，因此我們會依照訪客抵達的先後順序，每次只讓少數訪客進入。',
  waitingIntroKeepPrequeue:
    '還沒輪到您。開賣時，包括您在內的所有預先排隊訪客，都已隨機分配到一個排隊位置。我們會依照這些位置的先後順序，每次只讓少數訪客進入。',
  waitingKeepOpen:
    '請保持此頁面開啟：頁面會自動為您確認，輪到您時就會帶您進入網站。重新整理頁面不會影響您的機會，您也可以隨時離開。',
  placeHeading: '您的排隊位置',
  placeAhead: '排在您前面：{people}',
  turnIn: '預計輪到您還需：{duration}',
  yourLane: '您的排隊通道：{lane}',
  waitHeading: '預估等候時間',
  waitWithin: '大多數訪客在{duration}內進入',
  waitWithinMinute: '大多數訪客在1分鐘內進入',
  waitPending: '我們仍在估算中，一有結果就會顯示在此頁面上。',
  wait25: '四分之一的訪客在{duration}內進入',
  wait50: '一半的訪客在{duration}內進入',
  wait75: '四分之三的訪客在{duration}內進入',
  noscriptWaiting:
    '您的瀏覽器已停用 JavaScript，此頁面無法自動為您確認。{seconds, plural, other {約#秒}}後會有下一次機會。',
  noscriptProof: '網站如此繁忙期間，停用 JavaScript 會降低您進入的機會。',
  notifyButton: '輪到我時通知我',

  prequeueTitle: '即將開賣',
  prequeueIntro: '您已進入預先排隊。開賣時，所有預先排隊的訪客都會隨機分配到一個排隊位置。',
  prequeueStartLabel: '開賣時間：',
  prequeueNoJump:
    '提早到達、重新整理頁面或開啟更多分頁，都不會讓您排得更前面。請保持此頁面開啟：開賣時頁面會自動帶您進入下一步。',
  prequeueNoscript: '您的瀏覽器已停用 JavaScript，此頁面無法自動為您確認。請在開賣後再回來確認一次。',

  denyTitle: '暫時關閉',
  denyBody: '網站目前暫不開放新訪客進入。這不是您這邊的問題。',
  closedTitle: '銷售已結束',
  closedBody: '本活動已結束，網站不再透過此入口開放訪客進入。這不是您這邊的問題。',
  tryLater: '請稍後再試。',
  tryAgain: '再試一次',
  denyAuto: '只要此頁面保持開啟，就會每隔幾分鐘重新確認一次，並在網站開放時帶您進入。',

  originDownTitle: '暫時無法使用',
  originDownHeading: '網站目前沒有回應',
  originDownBody: '請稍候片刻再試。',
  hammerTitle: '仍在等候',
  hammerHeading: '您仍在隊伍中',
  hammerBody: '{seconds, plural, other {此頁面的確認要求過於頻繁。您的位置已保留：頁面會在#秒後自動重新確認。}}',

  clientNextCheck: '{time}後再次確認',
  clientStartsIn: '{time}後開始',
  clientMoment: '片刻',
  clientNotYet: '還沒輪到您。將在{time}後再次確認。',
  clientTurn: '輪到您了。正在載入網站…',
  clientTurnTitle: '輪到您了！',
  clientTurnBody: '請回到這個分頁進入網站。',
  clientNotifyOn: '輪到您時，我們會傳送通知給您。',
  clientUnreachable: '無法連線到網站。稍後會自動重試。',
  clientStarted: '已經開賣。正在載入…',
  clientStillClosed: '仍未開放。此頁面會在幾分鐘後再次確認。',
  clientProofStarted: '您的瀏覽器正在進行簡短驗證，以阻擋自動搶購程式：剛剛開始。',
  clientProofQuarter: '您的瀏覽器正在進行簡短驗證，以阻擋自動搶購程式：已完成約四分之一。',
  clientProofHalf: '您的瀏覽器正在進行簡短驗證，以阻擋自動搶購程式：已完成約一半。',
  clientProofThreeQuarters: '您的瀏覽器正在進行簡短驗證，以阻擋自動搶購程式：已完成約四分之三。',
  clientProofNearly: '您的瀏覽器正在進行簡短驗證，以阻擋自動搶購程式：即將完成。',
  clientProofDone: '驗證完成。您已參加抽選。',
};
