// The built-in strings in Japanese (Japan): です/ます throughout, full-width punctuation (。、：（）),
// figures without a space before their counter (約8分, 約1,200人). Keys and arguments: en-US.ts.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'ja-JP',
  name: '日本語',
  dir: 'ltr',
  number: { decimal: '.', group: ',', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'サイトからのお知らせ：',
  languageLabel: '言語',
  checkNow: '今すぐ確認',

  durationUnknown: '不明',
  durationUnderMinute: '1分未満',
  durationMinutes: '{minutes, plural, other {約#分}}',
  durationHours: '{hours, plural, other {約#時間}}',
  durationRangeMinutes: '{to, plural, other {約{from}～#分}}',
  durationRangeHours: '{to, plural, other {約{from}～#時間}}',
  durationRange: '{from}～{to}',
  peopleNone: '誰もいません',
  peopleExact: '{count, plural, other {#人}}',
  peopleAbout: '{count, plural, other {約#人}}',
  dateUtc: '{year}年{month}{day}日（{weekday}）{time} UTC',
  weekdays: '日曜日|月曜日|火曜日|水曜日|木曜日|金曜日|土曜日',
  months: '1月|2月|3月|4月|5月|6月|7月|8月|9月|10月|11月|12月',

  waitingTitleStart: '順番待ちの列に並んでいます',
  waitingTitleKeep: '引き続き順番待ちの列に並んでいます',
  waitingIntroStartRandom:
    'ただいまサイトが大変混み合っています。すべての方に快適にご利用いただけるよう、お待ちの方全員の中から抽選で選ばれた方を、数名ずつご案内しています。',
  waitingIntroStartFifo:
    'ただいまサイトが大変混み合っています。すべての方に快適にご利用いただけるよう、お並びいただいた順に数名ずつご案内しています。',
  waitingIntroKeepRandom:
    'まだ順番が来ていません。サイトが大変混み合っているため、お待ちの方全員の中から抽選で選ばれた方を、数名ずつご案内しています。',
  waitingIntroKeepFifo:
    'まだ順番が来ていません。サイトが大変混み合っているため、お並びいただいた順に数名ずつご案内しています。',
  waitingIntroKeepPrequeue:
    'まだ順番が来ていません。販売開始時に、お客様を含め、事前待機列にいたすべての方に抽選で順番が割り当てられました。その順番どおりに数名ずつご案内しています。',
  waitingKeepOpen:
    'このページを開いたままにしてください。自動で確認を続け、順番が来たらサイトへご案内します。ページを再読み込みしても有利にはなりません。また、いつでも列を離れていただいて構いません。',
  placeHeading: '現在の順番',
  placeAhead: 'あなたの前に{people}',
  turnIn: '順番が来るまでの目安：{duration}',
  yourLane: 'お並びの列：{lane}',
  waitHeading: '待ち時間の目安',
  waitWithin: 'ほとんどの方が{duration}で入場しています',
  waitWithinMinute: 'ほとんどの方が1分以内に入場しています',
  waitPending: '現在算出中です。わかり次第、このページに表示します。',
  wait25: '4人に1人が{duration}で入場',
  wait50: '半数が{duration}で入場',
  wait75: '4人に3人が{duration}で入場',
  noscriptWaiting:
    'JavaScriptが無効になっているため、このページでは自動で確認できません。次に確認できるのは{seconds, plural, other {約#秒後}}です。',
  noscriptProof: 'サイトがこれほど混み合っている間は、JavaScriptが無効だと入場できる可能性が低くなります。',
  notifyButton: '順番が来たら通知する',

  prequeueTitle: 'まもなく販売開始です',
  prequeueIntro:
    '現在、事前待機列に並んでいます。販売が始まると、事前待機列にいるすべての方に抽選で順番が割り当てられます。',
  prequeueStartLabel: '販売開始日時：',
  prequeueNoJump:
    '早くアクセスしても、再読み込みしたり複数のタブを開いたりしても、順番が早くなることはありません。このページを開いたままにしておくと、販売開始時に自動で次へ進みます。',
  prequeueNoscript:
    'JavaScriptが無効になっているため、このページでは自動で確認できません。販売開始後にもう一度アクセスして確認してください。',

  denyTitle: 'ただいま受付を停止しています',
  denyBody: '現在、サイトへの新規のご案内を停止しています。お客様側の問題ではありません。',
  closedTitle: '販売は終了しました',
  closedBody:
    'このイベントは終了しました。この順番待ちからサイトへご案内することはもうありません。お客様側の問題ではありません。',
  tryLater: '時間をおいて再度お試しください。',
  tryAgain: 'もう一度試す',
  denyAuto: 'このページを開いたままにしておくと、数分ごとに自動で確認し、受付が再開され次第サイトへご案内します。',

  originDownTitle: '一時的にご利用いただけません',
  originDownHeading: 'サイトが現在応答していません',
  originDownBody: 'しばらくしてから再度お試しください。',
  hammerTitle: '順番待ち中',
  hammerHeading: '順番待ちの列に並んだままです',
  hammerBody:
    '{seconds, plural, other {このページへのアクセスが多すぎました。順番はそのまま保たれています。#秒後に自動で再確認します。}}',

  clientNextCheck: '次の確認まで{time}',
  clientStartsIn: '開始まで{time}',
  clientMoment: 'もう少し',
  clientNotYet: 'まだ順番が来ていません。次の確認まで{time}です。',
  clientTurn: '順番が来ました。サイトを読み込んでいます…',
  clientTurnTitle: '順番が来ました！',
  clientTurnBody: 'このタブに戻ってサイトへお進みください。',
  clientNotifyOn: '順番が来たら通知でお知らせします。',
  clientUnreachable: 'サイトに接続できませんでした。まもなく再試行します。',
  clientStarted: '販売が始まりました。読み込んでいます…',
  clientStillClosed: '現在も受付を停止しています。数分後にこのページで再度確認します。',
  clientProofStarted: 'ボットによる自動購入を防ぐため、ブラウザで簡単な確認を行っています。ただいま開始しました。',
  clientProofQuarter: 'ボットによる自動購入を防ぐため、ブラウザで簡単な確認を行っています。約4分の1が完了しました。',
  clientProofHalf: 'ボットによる自動購入を防ぐため、ブラウザで簡単な確認を行っています。約半分が完了しました。',
  clientProofThreeQuarters:
    'ボットによる自動購入を防ぐため、ブラウザで簡単な確認を行っています。約4分の3が完了しました。',
  clientProofNearly: 'ボットによる自動購入を防ぐため、ブラウザで簡単な確認を行っています。まもなく完了します。',
  clientProofDone: '確認が完了しました。抽選の対象になりました。',
};
