// The built-in strings in Chinese (Simplified, mainland China): 您 throughout, full-width
// punctuation (，。：), figures without a space before their measure word (约8分钟, 约1,200人).
// Keys and arguments: en-US.ts.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'zh-CN',
  name: '简体中文',
  dir: 'ltr',
  number: { decimal: '.', group: ',', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: '网站通知：',
  languageLabel: '语言',
  checkNow: '立即检查',

  durationUnknown: '未知',
  durationUnderMinute: '不到1分钟',
  durationMinutes: '{minutes, plural, other {约#分钟}}',
  durationHours: '{hours, plural, other {约#小时}}',
  durationRangeMinutes: '{to, plural, other {约{from}至#分钟}}',
  durationRangeHours: '{to, plural, other {约{from}至#小时}}',
  durationRange: '{from}至{to}',
  peopleNone: '无',
  peopleExact: '{count, plural, other {#人}}',
  peopleAbout: '{count, plural, other {约#人}}',
  dateUtc: '{year}年{month}{day}日{weekday} {time} UTC',
  weekdays: '星期日|星期一|星期二|星期三|星期四|星期五|星期六',
  months: '1月|2月|3月|4月|5月|6月|7月|8月|9月|10月|11月|12月',

  waitingTitleStart: '您正在排队',
  waitingTitleKeep: '仍在排队中',
  waitingIntroStartRandom:
    '网站当前非常繁忙。为确保所有人都能正常访问，我们会从所有排队的访客中随机抽选，每次只让少量访客进入。',
  waitingIntroStartFifo:
    '网站当前非常繁忙。为确保所有人都能正常访问，我们会按照访客到达的先后顺序，每次只让少量访客进入。',
  waitingIntroKeepRandom: '还没轮到您。网站当前非常繁忙，因此我们会从所有排队的访客中随机抽选，每次只让少量访客进入。',
  waitingIntroKeepFifo: '还没轮到您。网站当前非常繁忙，因此我们会按照访客到达的先后顺序，每次只让少量访客进入。',
  waitingIntroKeepPrequeue:
    '还没轮到您。开售时，包括您在内的所有预排队访客都已被随机分配了一个排队位置。我们会按照这些位置的先后顺序，每次只让少量访客进入。',
  waitingKeepOpen:
    '请保持此页面打开：页面会自动为您检查，轮到您时将带您进入网站。刷新页面不会影响您的机会，您也可以随时离开。',
  placeHeading: '您的排队位置',
  placeAhead: '排在您前面：{people}',
  turnIn: '预计轮到您还需：{duration}',
  yourLane: '您的排队通道：{lane}',
  waitHeading: '预计等待时间',
  waitWithin: '大多数访客在{duration}内进入',
  waitWithinMinute: '大多数访客在1分钟内进入',
  waitPending: '我们仍在估算中，一有结果就会显示在此页面上。',
  wait25: '四分之一的访客在{duration}内进入',
  wait50: '一半的访客在{duration}内进入',
  wait75: '四分之三的访客在{duration}内进入',
  noscriptWaiting:
    '您的浏览器已禁用 JavaScript，此页面无法自动为您检查。{seconds, plural, other {约#秒}}后将有下一次机会。',
  noscriptProof: '网站如此繁忙期间，禁用 JavaScript 会降低您进入的机会。',
  notifyButton: '轮到我时通知我',

  prequeueTitle: '即将开售',
  prequeueIntro: '您已进入预排队。开售时，所有预排队的访客都会被随机分配一个排队位置。',
  prequeueStartLabel: '开售时间：',
  prequeueNoJump:
    '提早到达、刷新页面或打开更多标签页，都不会让您排得更靠前。请保持此页面打开：开售时页面会自动带您进入下一步。',
  prequeueNoscript: '您的浏览器已禁用 JavaScript，此页面无法自动为您检查。请在开售后回来再检查一次。',

  denyTitle: '暂时关闭',
  denyBody: '网站目前暂不接待新访客。这不是您这边的问题。',
  closedTitle: '销售已结束',
  closedBody: '本次活动已结束，网站不再通过此入口接待访客。这不是您这边的问题。',
  tryLater: '请稍后再试。',
  tryAgain: '重试',
  denyAuto: '只要此页面保持打开，它就会每隔几分钟重新检查一次，并在网站开放时带您进入。',

  originDownTitle: '暂时无法访问',
  originDownHeading: '网站暂时没有响应',
  originDownBody: '请稍候片刻再试。',
  hammerTitle: '仍在等待',
  hammerHeading: '您仍在队列中',
  hammerBody: '{seconds, plural, other {此页面的检查请求过于频繁。您的位置已保留：页面将在#秒后自动重新检查。}}',

  clientNextCheck: '{time}后再次检查',
  clientStartsIn: '{time}后开始',
  clientMoment: '片刻',
  clientNotYet: '还没轮到您。将在{time}后再次检查。',
  clientTurn: '轮到您了。正在加载网站…',
  clientTurnTitle: '轮到您了！',
  clientTurnBody: '请返回此标签页进入网站。',
  clientNotifyOn: '轮到您时，我们会向您发送通知。',
  clientUnreachable: '无法连接到网站。稍后将自动重试。',
  clientStarted: '已经开售。正在加载…',
  clientStillClosed: '仍未开放。此页面将在几分钟后再次检查。',
  clientProofStarted: '您的浏览器正在进行简短检查，以拦截自动抢购程序：刚刚开始。',
  clientProofQuarter: '您的浏览器正在进行简短检查，以拦截自动抢购程序：已完成约四分之一。',
  clientProofHalf: '您的浏览器正在进行简短检查，以拦截自动抢购程序：已完成约一半。',
  clientProofThreeQuarters: '您的浏览器正在进行简短检查，以拦截自动抢购程序：已完成约四分之三。',
  clientProofNearly: '您的浏览器正在进行简短检查，以拦截自动抢购程序：即将完成。',
  clientProofDone: '检查完成。您已参与抽选。',
};
